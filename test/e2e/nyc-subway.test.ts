/**
 * nyc/subway-gtfs.zip (MTA New York City Transit): 496 stations, each with its platforms as child
 * stops, and station-to-station transfers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { RawFeed, timeStats } from './raw-gtfs.js';

const FEED = sharedFeed('nyc', 'subway-gtfs.zip');

let served: Served;
let raw: RawFeed;
/** station id -> its child stop ids */
const children = new Map<string, string[]>();
/** stop id -> trips serving it */
const tripsAtStop = new Map<string, Set<string>>();

before(async () => {
  [served, raw] = await Promise.all([serve([FEED]), RawFeed.open(FEED)]);
  const stops = await raw.table('stops.txt');
  for (const r of stops.rows) {
    if (stops.get(r, 'location_type') === '1') children.set(stops.get(r, 'stop_id'), children.get(stops.get(r, 'stop_id')) ?? []);
  }
  for (const r of stops.rows) {
    const parent = stops.get(r, 'parent_station');
    if (parent) children.get(parent)!.push(stops.get(r, 'stop_id'));
  }
  const st = await raw.table('stop_times.txt');
  const cTrip = st.col('trip_id');
  const cStop = st.col('stop_id');
  for (const r of st.rows) {
    let set = tripsAtStop.get(r[cStop]!);
    if (!set) tripsAtStop.set(r[cStop]!, (set = new Set()));
    set.add(r[cTrip]!);
  }
});

after(async () => {
  raw.close();
  await served.close();
});

test('nyc subway: stations become stop areas holding their platforms', async () => {
  const tt = served.generation.tt;
  const stops = await raw.table('stops.txt');
  const stats = await timeStats(raw);
  assert.deepEqual(stats, { max: 28 * 3600 + 2 * 60, after24h: stats.after24h, untimed: 0, rows: 565_093 });
  assert.equal(tt.stopTimes.arrivalSec.length, stats.rows);
  assert.equal(tt.stopTimes.departureSec.reduce((a, b) => Math.max(a, b), 0), stats.max);
  assert.equal(tt.trips.ids.length, (await raw.table('trips.txt')).rows.length);

  // Expected areas: every station, plus one per stop without a parent.
  const expectedArea = new Map<string, string>();
  for (const r of stops.rows) {
    if (stops.get(r, 'location_type') === '1') continue;
    const id = stops.get(r, 'stop_id');
    expectedArea.set(id, stops.get(r, 'parent_station') || `stop_area:${id}`);
  }
  assert.equal(children.size, 496);
  assert.equal(expectedArea.size, 992);
  const areaIds = new Set([...children.keys(), ...expectedArea.values()]);
  assert.deepEqual(sorted(tt.stopAreas.map((a) => a.id)), sorted(areaIds));
  assert.equal(tt.stopPoints.ids.length, expectedArea.size);
  tt.stopPoints.ids.forEach((id, s) => assert.equal(tt.stopAreas[tt.stopPoints.area[s]!]!.id, expectedArea.get(id), id));
  assert.ok(tt.stopAreas.every((a) => a.fromStation));
  assert.deepEqual(served.problems, []);
});

test('nyc subway: the trips of every station are the trips serving any of its platforms', async () => {
  const counts: Record<string, number> = {};
  const expected: Record<string, number> = {};
  for (const [station, kids] of children) {
    const want = new Set<string>();
    for (const k of kids) for (const t of tripsAtStop.get(k) ?? []) want.add(t);
    expected[station] = want.size;
    counts[station] = await tripCount(served.app, ['stop_areas', station]);
  }
  assert.deepEqual(counts, expected);
  assert.ok(Object.values(expected).every((n) => n > 0), 'every station is served');

  // Times Sq-42 St (127) and its platforms, trip by trip; one platform alone gives fewer trips.
  const want = new Set([...children.get('127')!].flatMap((k) => [...(tripsAtStop.get(k) ?? [])]));
  assert.deepEqual(sorted(await tripIds(served.app, ['stop_areas', '127'])), sorted(want));
  const platform = children.get('127')![0]!;
  const atPlatform = tripsAtStop.get(platform)!;
  assert.ok(atPlatform.size < want.size);
  assert.deepEqual(sorted(await tripIds(served.app, ['stop_points', platform])), sorted(atPlatform));
});

test('nyc subway: station-to-station transfers are loaded between their platforms', async () => {
  const tt = served.generation.tt;
  const transfers = await raw.table('transfers.txt');
  assert.equal(transfers.rows.length, 613);
  const platformsOf = (id: string) => children.get(id) ?? [id];
  const want: string[] = [];
  for (const r of transfers.rows) {
    for (const f of platformsOf(transfers.get(r, 'from_stop_id'))) {
      for (const t of platformsOf(transfers.get(r, 'to_stop_id'))) {
        want.push(`${f}>${t} type ${transfers.get(r, 'transfer_type')} ${transfers.get(r, 'min_transfer_time')} s`);
      }
    }
  }
  const got: string[] = [];
  const { fromStop, toStop, type, minTimeSec } = tt.transfers;
  for (let i = 0; i < fromStop.length; i++) {
    got.push(`${tt.stopPoints.ids[fromStop[i]!]}>${tt.stopPoints.ids[toStop[i]!]} type ${type[i]} ${minTimeSec[i]} s`);
  }
  assert.ok(want.length > 613);
  assert.deepEqual(got.sort(), want.sort());
});
