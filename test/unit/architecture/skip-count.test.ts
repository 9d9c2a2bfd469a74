/**
 * The test summary's skip count is one true figure: node's runner counts skipped tests but not
 * skipped suites (it prints `# SKIP` for both), so no `describe` of the suites takes `skip`; a
 * group that may be skipped goes through `describeOrSkip` (test/helpers/skip.ts), which the
 * summary counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TEST_SOURCES = path.resolve(HERE, '../../../../test');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

test('no describe of the suites takes a skip option', () => {
  const offenders = sourceFiles(TEST_SOURCES).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, k) => (/\bdescribe\([^\n]*\{[^}\n]*\bskip\b/.test(line) ? [`${path.relative(TEST_SOURCES, file)}:${k + 1}`] : [])),
  );
  assert.deepEqual(offenders, []);
});

test("the runner's summary counts every # SKIP line: a skipped group and a skipped test are 2", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-skips-'));
  const helper = pathToFileURL(path.resolve(HERE, '../../helpers/skip.js')).href;
  const file = path.join(dir, 'skips.test.mjs');
  writeFileSync(
    file,
    `import { test } from 'node:test';
import { describeOrSkip } from ${JSON.stringify(helper)};
describeOrSkip('a group on data that is missing', 'no data', () => { test('never run', () => {}); test('nor this', () => {}); });
describeOrSkip('a group that runs', undefined, () => { test('runs', () => {}); });
test('a tool that is missing', { skip: 'no tool' }, () => {});
`,
  );
  // a runner of its own, not a child reporting to this one (which NODE_TEST_CONTEXT would make it)
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const skipLines = run.stdout.split('\n').filter((l) => l.includes('# SKIP')).length;
  assert.equal(skipLines, 2);
  assert.match(run.stdout, /^# skipped 2$/m);
});
