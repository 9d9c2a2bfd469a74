/**
 * Coverage snapshots: a coverage read from its snapshot is the coverage compiled from its sources
 * (every array and object of the timetable and street data, and the answers of the API); a
 * snapshot built from other data (changed, added or missing files, another time zone) is refused
 * and written again from the sources.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/api/app.js';
import { type CoverageConfig } from '../../src/service/coverage-config.js';
import { Coverage, CoverageRegistry } from '../../src/service/coverage-registry.js';
import { readCoverageSnapshot, snapshotPath, writeCoverageSnapshot } from '../../src/service/coverage-snapshot.js';
import { compileCoverage, loadCoverage, loadGeneration } from '../../src/service/load-coverage.js';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { VALLEY } from '../helpers/town-app.js';
import { sharedFeed } from '../e2e/coverage-app.js';
import { SHARED_DATA_MISSING } from '../helpers/shared-data.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'navette-snapshots-'));

test('porto-alegre (two feeds and a street network): the snapshot gives the same data and the same answers', { skip: SHARED_DATA_MISSING }, async () => {
  const config: CoverageConfig = {
    id: 'poa',
    gtfs: [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')],
    osm: sharedFeed('porto-alegre', 'osm.pbf'),
  };
  const dir = tempDir();
  const compiled = await compileCoverage(config);
  await writeCoverageSnapshot(snapshotPath(dir, 'poa'), config, compiled);
  const read = await readCoverageSnapshot(snapshotPath(dir, 'poa'), config);
  assert.deepStrictEqual(read.tt, compiled.tt);
  assert.deepStrictEqual(read.streets!.data, compiled.streets!.data);
  assert.deepStrictEqual(read.streets!.names, compiled.streets!.names);
  assert.deepStrictEqual(read.report.summary(), compiled.report.summary());
  assert.deepStrictEqual(read.report.notes, compiled.report.notes);
  assert.notEqual(read.streets!.id, compiled.streets!.id, 'new street data: the workers build their engines for it');
  assert.ok(read.streets!.data.raptor.arrivalSec.buffer instanceof SharedArrayBuffer, 'on shared memory for the workers');

  // The API over each: the same bodies.
  const appOf = async (options: { snapshotDir?: string }) => {
    const registry = new CoverageRegistry();
    const coverage = new Coverage(config);
    registry.add(coverage);
    const summary = await loadCoverage(coverage, options);
    return { app: await buildApp({ registry }), summary };
  };
  const fromSources = await appOf({});
  const fromSnapshot = await appOf({ snapshotDir: dir });
  assert.equal(fromSources.summary.from, 'sources');
  assert.equal(fromSnapshot.summary.from, 'snapshot');
  const trips = (await fromSources.app.inject('/v1/coverage/poa/trips?count=3')).json();
  const someTrip = trips.trips[2].id as string;
  const region = (await fromSources.app.inject('/v1/coverage/poa')).json().regions[0];
  const day = region.start_production_date as string;
  const { lon, lat } = compiled.tt.stopPoints;
  const at = (s: number) => `${lon[s]!.toFixed(6)};${lat[s]!.toFixed(6)}`;
  const urls = [
    '/v1/coverage/poa/trips?count=50&start_page=3&depth=3',
    `/v1/coverage/poa/trips/${encodeURIComponent(someTrip)}?depth=3`,
    `/v1/coverage/poa/stop_areas/${encodeURIComponent(compiled.tt.stopAreas[5]!.id)}/trips?count=5`,
    `/v1/coverage/poa/heat_maps?from=${at(500)}&datetime=${day}T080000&max_duration=1800&resolution=60`,
    `/v1/coverage/poa/heat_maps?to=${at(1000)}&datetime=${day}T090000&datetime_represents=arrival&max_duration=1800&resolution=40`,
  ];
  for (const query of urls) {
    // a fixed "now": the answers hold it
    const url = `${query}&_current_datetime=${day}T070000`;
    const a = await fromSources.app.inject(url);
    const b = await fromSnapshot.app.inject(url);
    assert.equal(a.statusCode, 200, `${url}: ${a.body.slice(0, 300)}`);
    assert.equal(b.statusCode, a.statusCode, url);
    assert.deepEqual(b.json(), a.json(), url);
    if (url.includes('heat_maps')) {
      const reached = a.json().heat_maps[0].heat_matrix.lines.flatMap((l: { duration: (number | null)[] }) => l.duration).filter((d: number | null) => d !== null);
      assert.ok(reached.length > 100, `${url}: ${reached.length} cells reached`);
    }
  }
  const coverage = (app: typeof fromSources.app) => app.inject('/v1/coverage/poa').then((r) => r.json().regions[0]);
  const [a, b] = await Promise.all([coverage(fromSources.app), coverage(fromSnapshot.app)]);
  assert.equal(b.dataset_created_at, a.dataset_created_at, 'the dataset date is the sources\'');
  await fromSources.app.close();
  await fromSnapshot.app.close();
});

test('a snapshot built from other data is refused, saying which file changed; a copy of the same files is accepted', async () => {
  const feed = writeFeed(VALLEY, 'valley');
  const config: CoverageConfig = { id: 'valley', gtfs: [feed] };
  const dir = tempDir();
  const file = snapshotPath(dir, 'valley');
  const rebuild = async () => writeCoverageSnapshot(file, config, await compileCoverage(config));
  const refusal = async (c: CoverageConfig, why: RegExp) => {
    const error = await readCoverageSnapshot(file, c).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error, `refused: ${why}`);
    assert.equal(error.name, 'SnapshotError');
    assert.match(error.message, /valley\.snapshot was built from other data: /);
    assert.match(error.message, why);
  };
  await rebuild();
  await readCoverageSnapshot(file, config);

  // only the time changed (a copy, a checkout): the content is the same
  const stops = path.join(feed, 'stops.txt');
  utimesSync(stops, new Date(2030, 0, 1), new Date(2030, 0, 1));
  await readCoverageSnapshot(file, config);
  // the same files elsewhere: accepted too
  const copy = path.join(tempDir(), 'valley');
  cpSync(feed, copy, { recursive: true });
  await readCoverageSnapshot(file, { ...config, gtfs: [copy] });

  // the same size, another content
  const text = readFileSync(stops, 'utf8');
  writeFileSync(stops, text.replace('Valley North', 'Valley Nerth'));
  assert.equal(statSync(stops).size, Buffer.byteLength(text));
  await refusal(config, /stops\.txt changed \(its content differs from the file the snapshot was built from\)/);
  await rebuild();

  appendFileSync(stops, 'V3,Valley East,45.495,-73.49\n');
  await refusal(config, new RegExp(`stops\\.txt changed \\(${Buffer.byteLength(text)} bytes when the snapshot was built, \\d+ now\\)`));
  await rebuild();

  writeFileSync(path.join(feed, 'feed_info.txt'), 'feed_publisher_name,feed_publisher_url,feed_lang\nValley,http://valley.example,en\n');
  await refusal(config, /it was built from 6 source files, the coverage now has 7/);
  await refusal({ ...config, timezone: 'America/Montreal' }, /its time zone is the agencies', the coverage's is America\/Montreal/);
});

test('loading with a snapshot folder: a missing or refused snapshot is written from the sources, then used', async () => {
  const feed = writeFeed(VALLEY, 'valley');
  const dir = tempDir();
  const coverage = new Coverage({ id: 'valley', gtfs: [feed] });
  const first = await loadCoverage(coverage, { snapshotDir: dir });
  assert.equal(first.from, 'sources');
  assert.match(first.snapshotRefused!, /cannot open .*valley\.snapshot: ENOENT/);
  assert.equal(first.snapshotWritten!.file, snapshotPath(dir, 'valley'));
  assert.equal(first.snapshotWritten!.bytes, statSync(snapshotPath(dir, 'valley')).size);

  const second = await loadGeneration(coverage.config, { snapshotDir: dir });
  assert.equal(second.from, 'snapshot');
  assert.equal(second.snapshotRefused, undefined);
  assert.deepStrictEqual(second.generation.tt, first.generation.tt);

  appendFileSync(path.join(feed, 'trips.txt'), 'V,DAILY,V-3,South,,0\n');
  appendFileSync(path.join(feed, 'stop_times.txt'), 'V-3,09:00:00,09:00:00,V1,1\nV-3,09:20:00,09:20:00,V2,2\n');
  const third = await loadCoverage(coverage, { snapshotDir: dir });
  assert.equal(third.from, 'sources');
  assert.match(third.snapshotRefused!, /stop_times\.txt changed/, 'the first file that differs, in name order');
  assert.equal(third.generation.tt.trips.ids.length, 3);
  assert.ok(third.snapshotWritten, 'written again');
  const fourth = await loadGeneration(coverage.config, { snapshotDir: dir });
  assert.equal(fourth.from, 'snapshot');
  assert.equal(fourth.generation.tt.trips.ids.length, 3);

  // one bit flipped in a stop's name (in the description, outside the data block): refused, and
  // the coverage loads from its sources with the right name
  const file = snapshotPath(dir, 'valley');
  const good = readFileSync(file);
  const at = good.indexOf('Valley North');
  assert.ok(at > 0, 'the name is in the file');
  const flipped = Buffer.from(good);
  flipped[at]! ^= 0x02;
  writeFileSync(file, flipped);
  const fifth = await loadGeneration(coverage.config, { snapshotDir: dir });
  assert.equal(fifth.from, 'sources');
  assert.match(fifth.snapshotRefused!, /valley\.snapshot is damaged: its bytes do not match its checksum/);
  assert.ok(fifth.generation.tt.stopPoints.names.includes('Valley North'));

  // a header announcing 4 GB of meta: refused before anything that large is allocated
  const crafted = readFileSync(file);
  crafted.writeUInt32LE(0xffffffff, 20);
  writeFileSync(file, crafted);
  const sixth = await loadGeneration(coverage.config, { snapshotDir: dir });
  assert.equal(sixth.from, 'sources');
  assert.match(sixth.snapshotRefused!, /is damaged: its header announces 4294967295 bytes of meta/);
});
