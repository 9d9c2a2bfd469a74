/** `navette --version`: the version of package.json, the one place it is written. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

test('navette --version (and -v) prints "navette" and the version of package.json, and exits 0', () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  for (const flag of ['--version', '-v']) {
    const run = spawnSync(process.execPath, ['dist/src/cli/main.js', flag], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `navette ${version}\n`);
  }
});
