/**
 * GTFS zip bombs and files without line ends: the coverage fails with a message naming the file
 * (and the line), having read no more than its limits allow, while another coverage of the same
 * server is loaded and answers.
 *
 *   - stop_times.txt of a header then 200 MB of NUL bytes, or of `0` (a 200 KB zip each): one line
 *     that never ends, refused at readLimits.maxLineBytes;
 *   - stop_times.txt of 200 MB of rows `0` (line ends, so no line is too long): refused when the
 *     inflated bytes pass maxInflateRatio times the stored ones (and the allowance).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/api/app.js';
import { type CoverageConfig } from '../../src/service/coverage-config.js';
import { Coverage, CoverageRegistry } from '../../src/service/coverage-registry.js';
import { loadCoverage } from '../../src/service/load-coverage.js';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { repeated, writeZip, type ZipEntry } from '../helpers/zip-writer.js';
import { VALLEY } from '../helpers/town-app.js';

const BOMB_BYTES = 200 << 20;

/** The valley feed as a zip whose stop_times.txt is `stopTimes`. */
async function bombZip(stopTimes: Iterable<Buffer>): Promise<string> {
  const feed = writeFeed(VALLEY, 'valley');
  const entries: ZipEntry[] = readdirSync(feed)
    .filter((name) => name !== 'stop_times.txt')
    .map((name) => ({ name, chunks: [readFileSync(path.join(feed, name))] }));
  entries.push({ name: 'stop_times.txt', chunks: stopTimes });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-bomb-')), 'bomb.zip');
  await writeZip(file, entries);
  return file;
}

function* headerThen(rest: Iterable<Buffer>): Generator<Buffer> {
  yield Buffer.from('trip_id,arrival_time,departure_time,stop_id,stop_sequence\n');
  yield* rest;
}

/** Load `config` beside a good coverage: the bomb's refusal, and the good one's trips answered meanwhile. */
async function loadBeside(config: CoverageConfig): Promise<string> {
  const registry = new CoverageRegistry();
  const bomb = new Coverage(config);
  const good = new Coverage({ id: 'good', gtfs: [writeFeed(VALLEY, 'valley')] });
  registry.add(bomb);
  registry.add(good);
  const heapBefore = process.memoryUsage().heapUsed;
  const [refused, loaded] = await Promise.allSettled([loadCoverage(bomb), loadCoverage(good)]);
  assert.equal(loaded.status, 'fulfilled');
  assert.equal(refused.status, 'rejected', 'the bomb fails its coverage');
  // bounded: far less than the 200 MB the entry inflates to was ever held
  assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 << 20, `heap grew ${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(0)} MB`);
  assert.equal(bomb.status, 'dead');
  const app = await buildApp({ registry });
  const res = await app.inject('/v1/coverage/good/trips?count=1');
  assert.equal(res.statusCode, 200, 'the other coverage answers');
  await app.close();
  return bomb.error!;
}

test('stop_times.txt: a header then 200 MB of NUL bytes (one line that never ends): refused at the line limit', async () => {
  const zip = await bombZip(headerThen(repeated(0, BOMB_BYTES)));
  const why = await loadBeside({ id: 'bomb', gtfs: [zip] });
  assert.match(why, /bomb\.zip: stop_times\.txt line 2 is longer than 1048576 bytes \(readLimits\.maxLineBytes\): the file is refused/);
});

test('stop_times.txt: a header then 200 MB of `0`: refused at the line limit, which the configuration sets', async () => {
  const zip = await bombZip(headerThen(repeated('0', BOMB_BYTES)));
  const why = await loadBeside({ id: 'bomb', gtfs: [zip], readLimits: { maxLineBytes: 4096 } });
  assert.match(why, /stop_times\.txt line 2 is longer than 4096 bytes/);
});

test('stop_times.txt: 200 MB of short rows, 1,000 times its stored size: refused as a zip bomb at the inflate limit', async () => {
  const zip = await bombZip(headerThen(repeated('0\n', BOMB_BYTES)));
  const why = await loadBeside({ id: 'bomb', gtfs: [zip], readLimits: { inflateAllowanceBytes: 1 << 20, maxInflateRatio: 50 } });
  assert.match(why, /stop_times\.txt in .*bomb\.zip inflates to more than \d+ bytes from \d+ \(readLimits: maxInflateRatio 50, inflateAllowanceBytes 1048576\): refused as a zip bomb/);
});

test('the same feed within its limits loads', async () => {
  const zip = await bombZip([readFileSync(path.join(writeFeed(VALLEY, 'valley'), 'stop_times.txt'))]);
  const registry = new CoverageRegistry();
  const coverage = new Coverage({ id: 'ok', gtfs: [zip] });
  registry.add(coverage);
  await loadCoverage(coverage);
  assert.equal(coverage.status, 'running');
});
