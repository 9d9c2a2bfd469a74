/**
 * porto-alegre: gtfs-eptc.zip (buses; only the first and last stop of each trip are timed) and
 * gtfs-trensurb.zip (suburban rail, all timed) as two feeds of one coverage.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { INTERPOLATED_BIT } from '../../src/model/timetable.js';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { gtfsDay, gtfsTime, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin, type RawTrip } from './raw-gtfs.js';

const EPTC = sharedFeed('porto-alegre', 'gtfs-eptc.zip');
const TRENSURB = sharedFeed('porto-alegre', 'gtfs-trensurb.zip');
const TZ = 'America/Sao_Paulo';

let served: Served;
let eptc: RawFeed;
let trensurb: RawFeed;

before(async () => {
  [served, eptc, trensurb] = await Promise.all([serve([EPTC, TRENSURB]), RawFeed.open(EPTC), RawFeed.open(TRENSURB)]);
});

after(async () => {
  eptc.close();
  trensurb.close();
  await served.close();
});

interface RawStopTime {
  arr: number | null;
  dep: number | null;
  stop: string;
}

/** Raw stop times of each trip, in stop_sequence order. */
async function stopTimesByTrip(feed: RawFeed): Promise<Map<string, RawStopTime[]>> {
  const st = await feed.table('stop_times.txt');
  const [cTrip, cSeq, cArr, cDep, cStop] = ['trip_id', 'stop_sequence', 'arrival_time', 'departure_time', 'stop_id'].map((c) => st.col(c)) as number[];
  const rows = new Map<string, { seq: number; st: RawStopTime }[]>();
  for (const r of st.rows) {
    let list = rows.get(r[cTrip!]!);
    if (!list) rows.set(r[cTrip!]!, (list = []));
    list.push({ seq: Number(r[cSeq!]), st: { arr: gtfsTime(r[cArr!] ?? ''), dep: gtfsTime(r[cDep!] ?? ''), stop: r[cStop!]! } });
  }
  return new Map([...rows].map(([trip, list]) => [trip, list.sort((a, b) => a.seq - b.seq).map((x) => x.st)]));
}

/** Great-circle distance (haversine, metres). */
function metres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

test('porto alegre: two feeds in one coverage, every object kept and named', async () => {
  const tt = served.generation.tt;
  assert.deepEqual(tt.feeds.map((f) => f.key), ['gtfs-eptc', 'gtfs-trensurb']);
  const [a, b] = [await rawTrips(eptc), await rawTrips(trensurb)];
  assert.deepEqual([a.size, b.size], [2374, 1248]);
  // Ids of the second feed that the first one already uses get the feed key as a prefix.
  const expected = [...a.keys(), ...[...b.keys()].map((id) => (a.has(id) ? `gtfs-trensurb:${id}` : id))];
  assert.deepEqual(sorted(tt.trips.ids), sorted(expected));
  const stops = [await eptc.table('stops.txt'), await trensurb.table('stops.txt')];
  assert.equal(tt.stopPoints.ids.length, stops[0]!.rows.length + stops[1]!.rows.length);
  assert.equal(tt.stopPoints.ids.length, 3986 + 24);
  assert.equal(tt.agencies.length, 2);
  assert.equal(tt.stopTimes.arrivalSec.length, (await timeStats(eptc)).rows + (await timeStats(trensurb)).rows);
  assert.deepEqual(served.problems, []);

  // Per dataset and per network through the API.
  assert.equal(await tripCount(served.app, ['datasets', 'gtfs-eptc']), a.size);
  assert.equal(await tripCount(served.app, ['datasets', 'gtfs-trensurb']), b.size);
  assert.equal(await tripCount(served.app, ['networks', 'TRENS']), b.size);
  assert.equal(await tripCount(served.app, ['networks', 'EPTC']), a.size);
});

test('porto alegre: untimed stops get times between their timed neighbours, by distance', async () => {
  const tt = served.generation.tt;
  const stats = await timeStats(eptc);
  assert.equal(stats.untimed, 125_271);
  const stops = await eptc.table('stops.txt');
  const coord = new Map(stops.rows.map((r) => [stops.get(r, 'stop_id'), [Number(stops.get(r, 'stop_lon')), Number(stops.get(r, 'stop_lat'))] as const]));
  const byTrip = await stopTimesByTrip(eptc);
  const tripIndex = new Map(tt.trips.ids.map((id, i) => [id, i]));
  let interpolated = 0;
  let checked = 0;
  for (const [id, raw] of byTrip) {
    const t = tripIndex.get(id)!;
    const s0 = tt.trips.stopTimeOffset[t]!;
    assert.equal(tt.trips.stopTimeOffset[t + 1]! - s0, raw.length, id);
    const arr = (i: number) => tt.stopTimes.arrivalSec[s0 + i]!;
    const dep = (i: number) => tt.stopTimes.departureSec[s0 + i]!;
    for (let i = 0; i < raw.length; i++) {
      assert.ok(arr(i) >= 0 && dep(i) >= arr(i), `${id} #${i} has a time`);
      if (i > 0) assert.ok(arr(i) >= dep(i - 1), `${id} #${i} does not go backwards`);
      const untimed = raw[i]!.arr === null && raw[i]!.dep === null;
      assert.equal((tt.stopTimes.pickDrop[s0 + i]! & INTERPOLATED_BIT) !== 0, untimed, `${id} #${i} interpolation flag`);
      if (!untimed) {
        assert.deepEqual([arr(i), dep(i)], [raw[i]!.arr ?? raw[i]!.dep, raw[i]!.dep ?? raw[i]!.arr], `${id} #${i} keeps its time`);
        continue;
      }
      interpolated++;
      // Between the previous and the next timed stops, in proportion to the distance covered.
      let p = i - 1;
      while (raw[p]!.dep === null && raw[p]!.arr === null) p--;
      let n = i + 1;
      while (raw[n]!.arr === null && raw[n]!.dep === null) n++;
      const t0 = raw[p]!.dep ?? raw[p]!.arr!;
      const t1 = raw[n]!.arr ?? raw[n]!.dep!;
      assert.ok(arr(i) >= t0 && arr(i) <= t1 && arr(i) === dep(i), `${id} #${i} lies between ${t0} and ${t1}`);
      const leg = (k: number) => metres(...coord.get(raw[k - 1]!.stop)!, ...coord.get(raw[k]!.stop)!);
      let done = 0;
      let total = 0;
      for (let k = p + 1; k <= n; k++) {
        total += leg(k);
        if (k <= i) done += leg(k);
      }
      const want = t0 + (total > 0 ? ((t1 - t0) * done) / total : ((t1 - t0) * (i - p)) / (n - p));
      assert.ok(Math.abs(arr(i) - want) <= 0.5 + 1e-6, `${id} #${i}: ${arr(i)} s, ${want.toFixed(2)} s by distance`);
      checked++;
    }
  }
  assert.equal(interpolated, stats.untimed);
  assert.equal(checked, stats.untimed);
});

test('porto alegre: trips of both feeds departing on a Monday around noon', async () => {
  const day = gtfsDay('20190520');
  // The bus feed is a sample that only runs from 11:00 to 17:00.
  const since = localTime(TZ, day, 12 * 3600);
  const until = localTime(TZ, day, 13 * 3600 + 30 * 60);
  const want = new Set<string>();
  for (const feed of [eptc, trensurb]) {
    const trips: Map<string, RawTrip> = await rawTrips(feed);
    for (const id of tripsDepartingWithin(trips.values(), await serviceDays(feed), since, until)) want.add(id);
  }
  const got = await tripIds(served.app, [], { since: naiveDatetime(day, 12 * 3600), until: naiveDatetime(day, 13 * 3600 + 30 * 60) });
  assert.deepEqual(sorted(got), sorted(want));
  const rail = await tripIds(served.app, ['datasets', 'gtfs-trensurb'], { since: naiveDatetime(day, 12 * 3600), until: naiveDatetime(day, 13 * 3600 + 30 * 60) });
  assert.ok(rail.length > 0 && rail.length < got.length);
  assert.ok(rail.every((id) => want.has(id) && id.startsWith('FULLW_')), 'weekday rail trips');
});
