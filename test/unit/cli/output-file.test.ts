/**
 * A command's output file (src/cli/output-file.ts): written whole or not at all, gzipped by its
 * name, and a stream's failure (a folder that does not exist) an error to catch, not a crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { OutputFile } from '../../../src/cli/output-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-output-'));

test('the file appears under its name only once closed; text and bytes alike; .gz is gzipped', async () => {
  for (const name of ['plain.csv', 'packed.csv.gz']) {
    const out = path.join(dir, name);
    const file = new OutputFile(out);
    await file.write('a,b\n');
    await file.write(Buffer.from('ç,ã\n'));
    assert.equal(existsSync(out), false, `${name} before close`);
    await file.close();
    const bytes = readFileSync(out);
    assert.equal((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'), 'a,b\nç,ã\n');
    assert.equal(existsSync(`${out}.partial`), false);
  }
});

test('abandoned: neither the file nor its partial stays', async () => {
  const out = path.join(dir, 'dropped.csv');
  const file = new OutputFile(out);
  await file.write('half of it\n');
  file.abandon();
  assert.equal(existsSync(out), false);
  assert.equal(existsSync(`${out}.partial`), false);
});

test('a folder that does not exist: writing or closing rejects with the stream\'s error, the process lives on', async () => {
  for (const gz of [false, true]) {
    const file = new OutputFile(path.join(dir, 'missing', gz ? 'x.csv.gz' : 'x.csv'));
    await assert.rejects(
      (async () => {
        // enough to fill the buffers, so that a write waits on a stream that failed
        for (let k = 0; k < 100; k++) await file.write('x'.repeat(65536));
        await file.close();
      })(),
      /ENOENT/,
    );
    file.abandon();
  }
});
