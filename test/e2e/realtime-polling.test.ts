/**
 * A realtime source polled over HTTP from a local server: failures (HTTP 500, garbage) are counted
 * and leave the last good state; a good feed becomes a new generation whose realtime level the
 * trips endpoint sees, while the base schedule stays as it was; a started source updates within
 * its interval.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { FeedSource } from '../../src/live/realtime/feed-source.js';
import { decodeFeedMessage } from '../../src/live/realtime/gtfs-rt.js';
import { Coverage, CoverageRegistry } from '../../src/service/coverage-registry.js';
import { loadCoverage } from '../../src/service/load-coverage.js';
import { RealtimeUpdater } from '../../src/service/realtime-updater.js';
import { until } from '../helpers/http.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { encode, message } from '../helpers/pbf-writer.js';
import { gtfsDay, gtfsTime, RawFeed, serviceDayOrigin } from './raw-gtfs.js';
import { serveCoverages } from '../helpers/app.js';

const BART = path.join(SHARED_DATA, 'rt', 'bart');
const FEED = readFileSync(path.join(BART, 'trip-updates-2019-08-07.pb'));
const quiet = { info: () => {}, warn: () => {} };
/** 256 MB of zeros, gzipped to about 250 kB */
const GZIP_BOMB = gzipSync(Buffer.alloc(256 << 20), { level: 9 });
const realtimeOf = (c: Coverage) => c.generation?.realtime;

let answer: 'fail' | 'garbage' | 'good' | 'large' | 'endless' | 'gzip-bomb' = 'fail';
/** requests the feed's server has received */
let requests = 0;
/** bytes the server managed to send of its last endless body before the client hung up */
let endlessSent = 0;
let server: Server;
let url: string;
let coverage: Coverage;
let app: FastifyInstance;

before(async () => {
  server = createServer((_req, res) => {
    requests++;
    if (answer === 'fail') res.writeHead(500).end('broken');
    else if (answer === 'garbage') res.writeHead(200).end(Buffer.from('\x0a\xff\xff\xff\xff\x0fnot a feed at all'));
    else if (answer === 'large') res.writeHead(200, { 'content-length': String(5 << 20) }).end(Buffer.alloc(5 << 20));
    else if (answer === 'gzip-bomb') res.writeHead(200, { 'content-encoding': 'gzip' }).end(GZIP_BOMB);
    else if (answer === 'endless') {
      // random bytes without a length, for as long as the client reads
      endlessSent = 0;
      res.writeHead(200);
      const chunk = randomBytes(1 << 16);
      const more = () => {
        while (!res.destroyed && endlessSent < 1 << 30) {
          endlessSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    } else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(FEED);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trip-updates`;
  const served = await serveCoverages([{ id: 'bart', gtfs: [path.join(BART, 'gtfs.zip')] }]);
  ({ app } = served);
  coverage = served.coverages.get('bart')!;
});

after(async () => {
  await app.close();
  await new Promise((resolve) => server.close(resolve));
});

/** `YYYYMMDDThhmmssZ` of an epoch second. */
const utc = (sec: number) => new Date(sec * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

describe('a realtime source over HTTP', () => {
  test('bodies over maxBytes: announced, streamed without a length, gzipped: refused as they come, the last good state kept', async () => {
    const source = new FeedSource({ url, intervalSec: 60, maxBytes: 1 << 20 });
    const updater = new RealtimeUpdater(coverage, [source], quiet);
    answer = 'good';
    assert.equal(await updater.poll(source), true);
    const good = coverage.generation!;
    const heapBefore = process.memoryUsage().heapUsed;
    for (const [state, why] of [
      ['large', /a body of 5242880 bytes announced, over the source's limit of 1048576 bytes \(maxBytes\): refused/],
      ['endless', /more than \d+ bytes received, over the source's limit of 1048576 bytes \(maxBytes\): refused/],
      ['gzip-bomb', /more than \d+ bytes received, over the source's limit of 1048576 bytes/],
    ] as const) {
      answer = state;
      assert.equal(await updater.poll(source), false, state);
      assert.match(source.status().last_error!, why, state);
      assert.equal(coverage.generation, good, `${state}: the last good state stays`);
      assert.equal((await app.inject({ method: 'GET', url: '/v1/coverage/bart/trips?count=1' })).statusCode, 200);
    }
    // the endless body was cut off: the server sent far less than the gigabyte it would have
    assert.ok(endlessSent < 64 << 20, `${endlessSent} bytes sent`);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 << 20, 'nothing near the sizes of the bodies was held');
  });

  test('500, garbage, then a good feed: counted failures, then the good state, the service answering throughout', async () => {
    const source = new FeedSource({ url, intervalSec: 60 });
    const updater = new RealtimeUpdater(coverage, [source], quiet);
    const before = coverage.generation!;
    for (const [state, error] of [
      ['fail', /HTTP 500/],
      ['garbage', /GTFS-Realtime/],
    ] as const) {
      answer = state;
      assert.equal(await updater.poll(source), false);
      assert.match(source.status().last_error!, error);
      assert.equal(coverage.generation, before, 'the data in force is unchanged');
      assert.equal((await app.inject({ method: 'GET', url: '/v1/coverage/bart/trips?count=1' })).statusCode, 200);
    }
    answer = 'good';
    assert.equal(await updater.poll(source), true);
    const applied = coverage.generation!;
    assert.notEqual(applied, before);
    assert.equal(applied.realtime!.runs.size, 65);
    assert.equal(applied.tt, before.tt, 'the timetable is shared, not copied');
    answer = 'fail';
    assert.equal(await updater.poll(source), false);
    assert.equal(coverage.generation, applied, 'a failure keeps the last good state');
    const status = source.status();
    assert.deepEqual(
      { successes: status.successes, failures: status.failures, trip_updates: status.trip_updates },
      { successes: 1, failures: 3, trip_updates: 91 },
    );
    // the coverage shows its sources
    const region = JSON.parse((await app.inject({ method: 'GET', url: '/v1/coverage/bart' })).body).regions[0];
    assert.equal(region.realtime_sources, undefined, 'this updater was not attached to the coverage');
    coverage.realtime = updater;
    const shown = JSON.parse((await app.inject({ method: 'GET', url: '/v1/coverage/bart' })).body).regions[0].realtime_sources;
    assert.equal(shown[0].source, url);
    assert.equal(shown[0].failures, 3);
    coverage.realtime = undefined;
  });

  test('the same bytes again are not decoded: a success, the same generation; a reloaded timetable reads the kept bytes again', async () => {
    const source = new FeedSource({ url, intervalSec: 60 });
    const updater = new RealtimeUpdater(coverage, [source], quiet);
    answer = 'good';
    assert.equal(await updater.poll(source), true);
    const applied = coverage.generation!;
    assert.equal(applied.realtime!.runs.size, 65);
    assert.deepEqual(await source.read(), 'unchanged');
    assert.equal(await updater.poll(source), true);
    assert.equal(coverage.generation, applied, 'nothing new: no new generation');
    assert.equal(source.status().successes, 3);
    // a reload: another timetable, on which the message is read again from its bytes
    const { generation: reloaded } = await loadCoverage(new Coverage(coverage.config));
    const carried = updater.applyTo(reloaded);
    assert.notEqual(carried.tt, applied.tt);
    assert.deepEqual([...carried.realtime!.runs.keys()].sort(), [...applied.realtime!.runs.keys()].sort());
  });

  test('trips at realtime depart at their new times; the base schedule keeps the old ones', async () => {
    const message = decodeFeedMessage(FEED);
    const raw = await RawFeed.open(path.join(BART, 'gtfs.zip'));
    const st = await raw.table('stop_times.txt');
    const origin = serviceDayOrigin('America/Los_Angeles', gtfsDay('20190807'));
    let checked = 0;
    for (const e of message.entities) {
      const u = e.tripUpdate!;
      const first = u.stopTimeUpdates[0];
      if (u.trip.scheduleRelationship === 'ADDED' || first?.stopSequence !== 1 || first.departure?.time === undefined) continue;
      const row = st.rows.find((r) => st.get(r, 'trip_id') === u.trip.tripId && st.get(r, 'stop_sequence') === '1');
      if (!row || st.get(row, 'stop_id') !== first.stopId) continue; // a trip of another static version
      const scheduled = origin + gtfsTime(st.get(row, 'departure_time'))!;
      const actual = first.departure.time;
      if (Math.abs(actual - scheduled) < 60) continue; // the same minute: nothing to tell apart
      const found = async (at: number, level: string) =>
        (await app.inject({ method: 'GET', url: `/v1/coverage/bart/trips/${u.trip.tripId}?since=${utc(at)}&until=${utc(at)}&data_freshness=${level}` })).statusCode === 200;
      assert.equal(await found(scheduled, 'base_schedule'), true, `${u.trip.tripId} leaves at ${utc(scheduled)} as scheduled`);
      assert.equal(await found(scheduled, 'realtime'), false, `${u.trip.tripId} no longer leaves at ${utc(scheduled)} at realtime`);
      assert.equal(await found(actual, 'realtime'), true, `${u.trip.tripId} leaves at ${utc(actual)} at realtime`);
      assert.equal(await found(actual, 'base_schedule'), false);
      checked++;
    }
    assert.ok(checked >= 3, `${checked} delayed trips checked`);
  });

  test('a started source polls again at its interval and updates the coverage from a good answer', async () => {
    answer = 'good';
    const registry = new CoverageRegistry();
    const fresh = new Coverage({ id: 'bart2', gtfs: [path.join(BART, 'gtfs.zip')] });
    registry.add(fresh);
    await loadCoverage(fresh);
    answer = 'fail';
    const before = requests;
    const updater = new RealtimeUpdater(fresh, [new FeedSource({ url, intervalSec: 0.2 })], quiet);
    updater.start();
    try {
      // the poll at start, answered 500: nothing applied
      await until(() => requests - before, (n) => n >= 1, { timeoutMs: 30_000, intervalMs: 20 });
      assert.equal(realtimeOf(fresh), undefined);
      answer = 'good';
      const failed = requests - before;
      // no clock is asserted: the next polls come by the interval alone (30 s is only a bound on a hang)
      await until(() => realtimeOf(fresh), Boolean, { timeoutMs: 30_000, intervalMs: 20 });
      assert.ok(requests - before > failed, `${requests - before} polls, ${failed} failed: the coverage updated by a later poll`);
      assert.equal(realtimeOf(fresh)?.runs.size, 65);
    } finally {
      updater.stop();
    }
  });
});

describe('a realtime source from a file', () => {
  const KCM = path.join(SHARED_DATA, 'rt', 'king-county-metro');

  test('vehicle positions: each read replaces the last (a trip no longer in the feed has none); the timetable untouched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'navette-rt-'));
    const file = path.join(dir, 'positions.pb');
    const registry = new CoverageRegistry();
    const kcm = new Coverage({ id: 'kcm', gtfs: [path.join(KCM, 'gtfs.zip')] });
    registry.add(kcm);
    await loadCoverage(kcm);
    const loaded = kcm.generation;
    const source = new FeedSource({ url: file });
    const updater = new RealtimeUpdater(kcm, [source], quiet);
    const reads = ['vehicle-positions-2021-09-02T1531Z.pb', 'vehicle-positions-2021-09-02T1608Z.pb'].map((name) => {
      const bytes = readFileSync(path.join(KCM, name));
      return { bytes, message: decodeFeedMessage(bytes) };
    });
    for (const { bytes } of reads) {
      writeFileSync(file, bytes);
      assert.equal(await updater.poll(source), true);
    }
    assert.equal(kcm.generation, loaded, 'positions do not make a new timetable');
    // expected: the trips of the second file only, each at its position's time there
    const expected = new Map<string, number>();
    const last = reads[1]!.message;
    for (const e of last.entities) {
      const v = e.vehicle!;
      const at = v.timestamp ?? last.header.timestamp!;
      if ((expected.get(v.trip!.tripId!) ?? -1) <= at) expected.set(v.trip!.tripId!, at);
    }
    const first = new Set(reads[0]!.message.entities.map((e) => e.vehicle!.trip!.tripId!));
    const gone = [...first].filter((trip) => !expected.has(trip));
    assert.ok(gone.length > 0, 'some trips of the first file are not in the second');
    assert.equal(updater.vehicles.size, expected.size);
    for (const [trip, at] of expected) assert.equal(updater.vehicles.get(trip)!.timestamp, at, trip);
    for (const trip of gone) assert.equal(updater.vehicles.has(trip), false, `${trip}: no longer carried`);
    assert.equal(source.status().vehicle_positions, reads[1]!.message.entities.length);
  });

  test('50,000 positions of new trips at every read: the positions kept stay those of the last read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'navette-rt-'));
    const file = path.join(dir, 'positions.pb');
    const kcm = new Coverage({ id: 'kcm', gtfs: [path.join(KCM, 'gtfs.zip')] });
    new CoverageRegistry().add(kcm);
    await loadCoverage(kcm);
    const source = new FeedSource({ url: file });
    const updater = new RealtimeUpdater(kcm, [source], quiet);
    const positions = (read: number, count: number) =>
      encode((pbf) => {
        message(pbf, 1, (h) => {
          h.writeStringField(1, '2.0');
          h.writeVarintField(3, 1_700_000_000 + read);
        });
        for (let k = 0; k < count; k++) {
          message(pbf, 2, (e) => {
            e.writeStringField(1, `v${k}`);
            message(e, 4, (v) => {
              message(v, 1, (t) => t.writeStringField(1, `trip-${read}-${k}`));
              message(v, 2, (p) => {
                p.writeFloatField(1, 47.6);
                p.writeFloatField(2, -122.3);
              });
            });
          });
        }
      });
    for (let read = 0; read < 8; read++) {
      writeFileSync(file, positions(read, 50_000));
      assert.equal(await updater.poll(source), true);
      assert.equal(updater.vehicles.size, 50_000, `read ${read}: the last read's positions only`);
      assert.equal(updater.vehicles.has(`trip-${read}-0`), true);
      if (read > 0) assert.equal(updater.vehicles.has(`trip-${read - 1}-0`), false);
    }
    // the feed back to normal: a handful of positions
    writeFileSync(file, positions(99, 10));
    await updater.poll(source);
    assert.equal(updater.vehicles.size, 10);
  });
});
