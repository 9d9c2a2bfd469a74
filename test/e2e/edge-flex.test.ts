/**
 * GTFS-Flex feeds of edge/ (C-TRAN flex v2 with location groups and booking rules, Aspen's on-demand
 * zone, Cobb Linc's deviated route) in one coverage with Terre Haute, whose call-ahead stops
 * (pickup_type or drop_off_type 2 or 3) make on-demand trips with stops. The ODT level of each trip
 * is worked out from the raw files with the rule of decisions.md: `zonal` when it serves a flex zone
 * or location group, `with_stops` when a stop time needs booking (pickup/drop-off type 2 or 3, a
 * booking rule), else `scheduled`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WINDOW_BIT } from '../../src/model/timetable.js';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { gtfsTime, RawFeed } from './raw-gtfs.js';

const FEEDS = [
  ['ctran-flex-v2', sharedFeed('edge', 'ctran-flex-v2.zip')],
  ['aspen-flex-on-demand', sharedFeed('edge', 'aspen-flex-on-demand.zip')],
  ['cobblinc-deviated-flex', sharedFeed('edge', 'cobblinc-deviated-flex.zip')],
  ['gtfs', sharedFeed('terre-haute', 'gtfs.zip')],
] as const;
const LEVELS = ['scheduled', 'with_stops', 'zonal'] as const;
type Level = (typeof LEVELS)[number];

let served: Served;
const raws: RawFeed[] = [];
/** coverage trip id -> expected level */
const expected = new Map<string, Level>();
/** coverage trip id -> raw trip id and feed */
const rawTripOf = new Map<string, { feed: number; id: string }>();

before(async () => {
  served = await serve(FEEDS.map(([, file]) => file));
  const used = new Set<string>();
  for (const [f, [key, file]] of FEEDS.entries()) {
    const raw = await RawFeed.open(file);
    raws.push(raw);
    const zones = new Set<string>();
    if (raw.hasFile('locations.geojson')) {
      for (const feature of JSON.parse((await raw.bytes('locations.geojson')).toString('utf8')).features) zones.add(String(feature.id));
    }
    const groups = await raw.table('location_groups.txt');
    for (const r of groups.rows) zones.add(groups.get(r, 'location_group_id'));
    const level = new Map<string, number>();
    const trips = await raw.table('trips.txt');
    for (const r of trips.rows) level.set(trips.get(r, 'trip_id'), 0);
    const st = await raw.table('stop_times.txt');
    for (const r of st.rows) {
      const stop = st.get(r, 'stop_id') || st.get(r, 'location_id') || st.get(r, 'location_group_id');
      const booking = ['pickup_booking_rule_id', 'drop_off_booking_rule_id', 'dropoff_booking_rule_id'].some((c) => st.get(r, c) !== '');
      const onDemand = ['2', '3'].includes(st.get(r, 'pickup_type')) || ['2', '3'].includes(st.get(r, 'drop_off_type'));
      const l = zones.has(stop) ? 2 : booking || onDemand ? 1 : 0;
      const trip = st.get(r, 'trip_id');
      level.set(trip, Math.max(level.get(trip)!, l));
    }
    // Ids already used by an earlier feed get the feed key as a prefix.
    for (const [id, l] of level) {
      const coverageId = used.has(id) ? `${key}:${id}` : id;
      used.add(coverageId);
      expected.set(coverageId, LEVELS[l]!);
      rawTripOf.set(coverageId, { feed: f, id });
    }
  }
});

after(async () => {
  for (const raw of raws) raw.close();
  await served.close();
});

const withLevel = (level: Level) => [...expected].filter(([, l]) => l === level).map(([id]) => id);

test('flex: every trip of the four feeds is loaded', async () => {
  const tt = served.generation.tt;
  assert.deepEqual(sorted(tt.trips.ids), sorted(expected.keys()));
  assert.deepEqual(
    FEEDS.map((_, f) => [...rawTripOf.values()].filter((t) => t.feed === f).length),
    [1389, 2, 72, 144],
  );
  // Aspen lists each stop time twice with the same stop_sequence: the copies are reported, line by
  // line, and each trip keeps its single zone stop time.
  const aspenProblems = served.problems.filter((p) => p.file.startsWith('aspen-flex-on-demand.zip/'));
  assert.deepEqual(
    aspenProblems.map((p) => `${p.file}:${p.line} ${p.reason}`),
    ['aspen-flex-on-demand.zip/stop_times.txt:3 duplicate stop_sequence in a trip, row skipped', 'aspen-flex-on-demand.zip/stop_times.txt:5 duplicate stop_sequence in a trip, row skipped'],
  );
  assert.equal(served.generation.report.problemCount, 2);
});

test('flex: the three ODT levels are found with the odt_level parameter', async () => {
  const counts = LEVELS.map((l) => withLevel(l).length);
  assert.deepEqual(counts, [57, 87, 1463]);
  for (const level of LEVELS) {
    assert.deepEqual(sorted(await tripIds(served.app, [], { odt_level: level })), sorted(withLevel(level)), level);
  }
  assert.equal(await tripCount(served.app, [], { odt_level: 'all' }), expected.size);
  // Per line: a Cobb Linc line is zonal only, a Terre Haute line mixes the other two levels.
  const tt = served.generation.tt;
  const lineOf = new Map(tt.trips.ids.map((id, t) => [id, tt.lines[tt.trips.line[t]!]!.id]));
  for (const line of new Set([...rawTripOf].filter(([, r]) => r.feed === 2 || r.feed === 3).map(([id]) => lineOf.get(id)!))) {
    for (const level of LEVELS) {
      const want = [...expected].filter(([id, l]) => l === level && lineOf.get(id) === line).length;
      assert.equal(await tripCount(served.app, ['lines', line], { odt_level: level }), want, `${line} ${level}`);
    }
  }
});

test('flex: pickup/drop-off windows are kept as the start and end of the stop time', async () => {
  const tt = served.generation.tt;
  const index = new Map(tt.trips.ids.map((id, t) => [id, t]));
  let windows = 0;
  for (const [f, raw] of raws.entries()) {
    if (f === 3) continue;
    const st = await raw.table('stop_times.txt');
    const seen = new Set<string>();
    const rowsOf = new Map<string, { seq: number; start: number | null; end: number | null; arr: number | null }[]>();
    for (const r of st.rows) {
      const trip = st.get(r, 'trip_id');
      const key = `${trip} ${st.get(r, 'stop_sequence')}`;
      if (seen.has(key)) continue; // the loader keeps the first of the duplicated rows
      seen.add(key);
      let list = rowsOf.get(trip);
      if (!list) rowsOf.set(trip, (list = []));
      list.push({
        seq: Number(st.get(r, 'stop_sequence')),
        start: gtfsTime(st.get(r, 'start_pickup_drop_off_window')),
        end: gtfsTime(st.get(r, 'end_pickup_drop_off_window')),
        arr: gtfsTime(st.get(r, 'arrival_time')),
      });
    }
    for (const [coverageId, { feed, id }] of rawTripOf) {
      if (feed !== f) continue;
      const t = index.get(coverageId)!;
      const rows = rowsOf.get(id)!.sort((a, b) => a.seq - b.seq);
      const s0 = tt.trips.stopTimeOffset[t]!;
      assert.equal(tt.trips.stopTimeOffset[t + 1]! - s0, rows.length, coverageId);
      rows.forEach((row, i) => {
        const isWindow = row.arr === null && row.start !== null;
        assert.equal((tt.stopTimes.pickDrop[s0 + i]! & WINDOW_BIT) !== 0, isWindow, `${coverageId} #${i}`);
        if (isWindow) {
          windows++;
          assert.deepEqual([tt.stopTimes.arrivalSec[s0 + i], tt.stopTimes.departureSec[s0 + i]], [row.start, row.end]);
        }
      });
    }
  }
  assert.equal(windows, 2778 + 2 + 144);
});
