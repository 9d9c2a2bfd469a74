/**
 * rnv-mannheim/gtfs.zip (Rhein-Neckar-Verkehr, Europe/Berlin): calendar + calendar_dates, extended
 * route types 704 and 900, times up to 28:36:00. Every figure is computed again from the raw files.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson } from '../helpers/app.js';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { gtfsDay, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin, type RawTrip } from './raw-gtfs.js';

const FEED = sharedFeed('rnv-mannheim', 'gtfs.zip');
const TZ = 'Europe/Berlin';

let served: Served;
let raw: RawFeed;
let trips: Map<string, RawTrip>;
let days: Map<string, Set<number>>;

before(async () => {
  [served, raw] = await Promise.all([serve([FEED]), RawFeed.open(FEED)]);
  trips = await rawTrips(raw);
  days = await serviceDays(raw);
});

after(async () => {
  raw.close();
  await served.close();
});

test('rnv: stops, trips and stop times match the raw files, times past midnight included', async () => {
  const tt = served.generation.tt;
  const stats = await timeStats(raw);
  // The raw reading agrees with the figures documented for the feed…
  assert.deepEqual(stats, { max: 28 * 3600 + 36 * 60, after24h: 11_494, untimed: 0, rows: 424_266 });
  assert.equal(trips.size, 20_636);
  // …and the loaded timetable agrees with the raw reading.
  assert.equal(tt.stopTimes.arrivalSec.length, stats.rows);
  assert.equal(tt.trips.ids.length, trips.size);
  let max = 0;
  let after24h = 0;
  for (let i = 0; i < tt.stopTimes.arrivalSec.length; i++) {
    const m = Math.max(tt.stopTimes.arrivalSec[i]!, tt.stopTimes.departureSec[i]!);
    max = Math.max(max, m);
    if (m >= 86400) after24h++;
  }
  assert.equal(max, stats.max);
  assert.equal(after24h, stats.after24h);
  const stops = await raw.table('stops.txt');
  assert.equal(tt.stopPoints.ids.length, stops.rows.length);
  assert.equal(tt.stopAreas.length, stops.rows.length, 'no parent stations: one stop area per stop');
  for (const id of trips.keys()) assert.ok(served.generation.ref.indexOf('trip', id) >= 0, id);
  assert.deepEqual(served.problems, []);
});

test('rnv: extended route types 704 and 900 become bus and tramway lines', async () => {
  const tt = served.generation.tt;
  const routes = await raw.table('routes.txt');
  const expectedMode: Record<string, string> = { '3': 'physical_mode:Bus', '704': 'physical_mode:Bus', '900': 'physical_mode:Tramway' };
  const typeOf = new Map(routes.rows.map((r) => [routes.get(r, 'route_id'), routes.get(r, 'route_type')]));
  assert.deepEqual([...new Set(typeOf.values())].sort(), ['3', '704', '900']);
  assert.equal(tt.lines.length, routes.rows.length);
  for (const line of tt.lines) {
    assert.equal(tt.physicalModes[line.physicalMode]!.id, expectedMode[typeOf.get(line.id)!], `line ${line.id}`);
    assert.equal(String(line.routeType), typeOf.get(line.id));
  }
  // Through the API: the trips of each physical mode are the trips of the routes of that mode.
  const tripsOfType = (types: string[]) => [...trips.values()].filter((t) => types.includes(typeOf.get(t.routeId)!)).length;
  const tram = tripsOfType(['900']);
  const bus = tripsOfType(['3', '704']);
  assert.ok(tram > 0 && bus > 0 && tripsOfType(['704']) > 0);
  assert.equal(await tripCount(served.app, ['physical_modes', 'physical_mode:Tramway']), tram);
  assert.equal(await tripCount(served.app, ['physical_modes', 'physical_mode:Bus']), bus);
});

test('rnv: per-line counts of the trips departing on a Tuesday between 06:00 and 09:00', async () => {
  const day = gtfsDay('20161115');
  const since = localTime(TZ, day, 6 * 3600);
  const until = localTime(TZ, day, 9 * 3600);
  const routes = await raw.table('routes.txt');
  const expected: Record<string, number> = {};
  const actual: Record<string, number> = {};
  for (const r of routes.rows) {
    const id = routes.get(r, 'route_id');
    const ofLine = [...trips.values()].filter((t) => t.routeId === id);
    expected[id] = tripsDepartingWithin(ofLine, days, since, until).size;
    actual[id] = await tripCount(served.app, ['lines', id], { since: naiveDatetime(day, 6 * 3600), until: naiveDatetime(day, 9 * 3600) });
  }
  assert.deepEqual(actual, expected);
  const counts = Object.values(expected);
  assert.ok(counts.filter((n) => n > 0).length >= 30 && counts.includes(0), 'busy lines and idle lines alike');

  // The busiest line: the very same trips, paged through.
  const busiest = Object.keys(expected).sort((a, b) => expected[b]! - expected[a]!)[0]!;
  const ids = await tripIds(served.app, ['lines', busiest], { since: naiveDatetime(day, 6 * 3600), until: naiveDatetime(day, 9 * 3600) });
  const want = tripsDepartingWithin([...trips.values()].filter((t) => t.routeId === busiest), days, since, until);
  assert.deepEqual(sorted(ids), sorted(want));
  // The bounds are inclusive: a window reduced to one trip's exact departure still finds it.
  const one = trips.get(ids[0]!)!;
  const at = naiveDatetime(day, one.firstDeparture!);
  assert.ok((await tripIds(served.app, ['lines', busiest], { since: at, until: at })).includes(one.id));
});

test('rnv: the night the clocks go back, 00:00 to 04:00, Saturday\'s late trips included', async () => {
  const day = gtfsDay('20161030'); // a Sunday; 03:00 CEST becomes 02:00 CET
  const since = localTime(TZ, day, 0);
  const until = localTime(TZ, day, 4 * 3600);
  assert.equal(until - since, 5 * 3600, 'five hours pass between 00:00 and 04:00 that night');
  const want = tripsDepartingWithin(trips.values(), days, since, until);
  const fromSaturday = [...want].filter((id) => !days.get(trips.get(id)!.serviceId)!.has(day));
  assert.ok(fromSaturday.length > 0 && fromSaturday.length < want.size, 'trips of both service days');
  const got = await tripIds(served.app, [], { since: naiveDatetime(day, 0), until: naiveDatetime(day, 4 * 3600) });
  assert.deepEqual(sorted(got), sorted(want));
  // The same window written with explicit UTC offsets.
  const { json } = await getJson(served.app, `/v1/coverage/e2e/trips?since=20161030T000000%2B0200&until=20161030T040000%2B0100&count=0`);
  assert.equal(json.pagination.total_result, want.size);
});
