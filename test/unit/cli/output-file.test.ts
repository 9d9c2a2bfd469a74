/**
 * A command's output file (src/cli/output-file.ts): written whole or not at all, gzipped by its
 * name, by one run at a time (its lock, its own partial file), removed when a signal stops the
 * process, and a stream's failure (a folder that does not exist) an error to catch, not a crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { OutputBusy, OutputFile, OutputUnwritable } from '../../../src/cli/output-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-output-'));
/** The files beside `name` in the folder that are not it (its partial files, its lock). */
const leftovers = (name: string) => readdirSync(dir).filter((f) => f.startsWith(`${name}.`));

test('the file appears under its name only once closed; text and bytes alike; .gz is gzipped', async () => {
  for (const name of ['plain.csv', 'packed.csv.gz']) {
    const out = path.join(dir, name);
    const file = new OutputFile(out);
    await file.write('a,b\n');
    await file.write(Buffer.from('ç,ã\n'));
    assert.equal(existsSync(out), false, `${name} before close`);
    const written = await file.close();
    const bytes = readFileSync(out);
    // what it counted as it wrote is what the disk holds
    assert.deepEqual(written, { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    assert.equal((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'), 'a,b\nç,ã\n');
    assert.deepEqual(leftovers(name), [], `${name}: no partial file nor lock stays`);
  }
});

test('abandoned: neither the file nor its partial stays', async () => {
  const out = path.join(dir, 'dropped.csv');
  const file = new OutputFile(out);
  await file.write('half of it\n');
  file.abandon();
  assert.equal(existsSync(out), false);
  assert.deepEqual(leftovers('dropped.csv'), []);
});

test('a folder that does not exist: an error to catch before anything is written, the process lives on; it names the file asked for', () => {
  for (const name of ['x.csv', 'x.csv.gz']) {
    const out = path.join(dir, 'missing', name);
    assert.throws(() => new OutputFile(out), (e: Error) => e instanceof OutputUnwritable && e.message === `${out} cannot be written: its folder ${path.join(dir, 'missing')} does not exist`);
  }
});

test('a stream that fails while written (a full disk): writing or closing rejects with its error, and abandoning leaves nothing', async () => {
  for (const name of ['full.csv', 'full.csv.gz', 'full.tif']) {
    const file = new OutputFile(path.join(dir, name));
    await file.write('x'.repeat(1000));
    // the disk full under the file's stream, as ENOSPC comes from the write
    (file as unknown as { file: { destroy(e: Error): void } }).file.destroy(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    await assert.rejects(
      (async () => {
        // enough to fill the buffers, so that a write waits on a stream that failed
        for (let k = 0; k < 100; k++) await file.write('x'.repeat(65536));
        await file.close();
      })(),
      // the file asked for, not the partial one the stream wrote
      (e: Error) => e instanceof OutputUnwritable && e.message === `${path.join(dir, name)} cannot be written: the disk is full`,
    );
    file.abandon();
    assert.equal(existsSync(path.join(dir, name)), false);
    assert.deepEqual(leftovers(name), [], `${name}: nothing left`);
  }
});

test('one run at a time: a second writer of a FILE being written is refused; its own partial file is the run\'s', async () => {
  const out = path.join(dir, 'shared.csv');
  const first = new OutputFile(out);
  assert.match(path.basename(first.partial), new RegExp(`^shared\\.csv\\.${process.pid}-[0-9a-f]{8}\\.partial$`));
  assert.throws(() => new OutputFile(out), OutputBusy);
  assert.throws(() => new OutputFile(out), /shared\.csv is being written by process \d+ \(.*shared\.csv\.lock\)/);
  await first.write('first\n');
  await first.close();
  // once the first is done, the next run writes it, and renames only its own bytes
  const second = new OutputFile(out);
  await second.write('second\n');
  await second.close();
  assert.equal(readFileSync(out, 'utf8'), 'second\n');
  assert.deepEqual(leftovers('shared.csv'), []);
});

test('a lock whose process is gone is taken over', async () => {
  const out = path.join(dir, 'stale.csv');
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(`${out}.lock`, `${gone.stdout}\n`);
  const file = new OutputFile(out);
  await file.write('x\n');
  await file.close();
  assert.equal(readFileSync(out, 'utf8'), 'x\n');
  assert.deepEqual(leftovers('stale.csv'), []);
});

test('SIGINT and SIGTERM: the partial file and the lock removed, why said, the signal\'s exit code', () => {
  const module = path.resolve('dist/src/cli/output-file.js');
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    const out = path.join(dir, `signalled-${signal}.csv`);
    const script = `
      const { OutputFile, abandonOnSignals } = await import(${JSON.stringify(module)});
      abandonOnSignals((line) => process.stderr.write(line + '\\n'));
      const file = new OutputFile(${JSON.stringify(out)});
      await file.write('half of it\\n'.repeat(1000));
      process.kill(process.pid, '${signal}');
      await new Promise((resolve) => setTimeout(resolve, 60_000));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, code, run.stderr);
    assert.match(run.stderr, new RegExp(`stopped by ${signal}: .*signalled-${signal}\\.csv not written \\(its partial file removed\\)`));
    assert.equal(existsSync(out), false);
    assert.deepEqual(leftovers(`signalled-${signal}.csv`), []);
  }
});
