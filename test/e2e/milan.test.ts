/**
 * milan/gtfs.zip (ATM, Europe/Rome): calendar.txt has a header only, so every service comes from
 * calendar_dates.txt. Times reach 26:30:00.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceRunsOn } from '../../src/model/timetable.js';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { gtfsDay, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin, type RawTrip } from './raw-gtfs.js';

const FEED = sharedFeed('milan', 'gtfs.zip');
const TZ = 'Europe/Rome';

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

test('milan: services made of calendar_dates only run exactly on their listed dates', async () => {
  const tt = served.generation.tt;
  const calendar = await raw.table('calendar.txt');
  assert.equal(calendar.rows.length, 0, 'calendar.txt has a header only');
  assert.ok(calendar.has('monday'));
  const stats = await timeStats(raw);
  assert.deepEqual(stats, { max: 26 * 3600 + 30 * 60, after24h: 10_634, untimed: 0, rows: 248_555 });
  assert.equal(tt.stopTimes.arrivalSec.length, stats.rows);
  assert.equal(tt.trips.ids.length, trips.size);
  assert.equal(trips.size, 10_608);

  const allDays = [...days.values()].flatMap((s) => [...s]);
  const first = Math.min(...allDays);
  const last = Math.max(...allDays);
  assert.deepEqual([first, last], [gtfsDay('20141019'), gtfsDay('20141101')]);
  assert.equal(tt.services.ids.length, days.size);
  for (const [id, on] of days) {
    const s = tt.services.ids.indexOf(id);
    assert.ok(s >= 0, id);
    for (let d = first - 2; d <= last + 2; d++) assert.equal(serviceRunsOn(tt, s, d), on.has(d), `${id} on day ${d}`);
  }
  assert.deepEqual(served.problems, []);
});

test('milan: the trips running on a Wednesday and on a Sunday', async () => {
  const tt = served.generation.tt;
  for (const date of ['20141022', '20141026']) {
    const day = gtfsDay(date);
    const want = [...trips.values()].filter((t) => days.get(t.serviceId)?.has(day)).map((t) => t.id);
    const got: string[] = [];
    for (let t = 0; t < tt.trips.ids.length; t++) if (serviceRunsOn(tt, tt.trips.service[t]!, day)) got.push(tt.trips.ids[t]!);
    assert.ok(want.length > 1000, `${date}: ${want.length} trips`);
    assert.deepEqual(sorted(got), sorted(want), date);
  }
  const weekday = [...trips.values()].filter((t) => days.get(t.serviceId)?.has(gtfsDay('20141022'))).length;
  const sunday = [...trips.values()].filter((t) => days.get(t.serviceId)?.has(gtfsDay('20141026'))).length;
  assert.notEqual(weekday, sunday);
});

test('milan: trips departing during a whole Wednesday, per line and in all', async () => {
  const day = gtfsDay('20141022');
  const since = localTime(TZ, day, 0);
  const until = localTime(TZ, day, 86399);
  const query = { since: naiveDatetime(day, 0), until: naiveDatetime(day, 86399) };
  const want = tripsDepartingWithin(trips.values(), days, since, until);
  // Tuesday's runs that leave after midnight (24:xx) are part of the Wednesday.
  assert.ok([...want].some((id) => trips.get(id)!.firstDeparture! >= 86400));
  assert.deepEqual(sorted(await tripIds(served.app, [], query)), sorted(want));
  const routes = await raw.table('routes.txt');
  for (const r of routes.rows) {
    const line = routes.get(r, 'route_id');
    const n = [...want].filter((id) => trips.get(id)!.routeId === line).length;
    assert.equal(await tripCount(served.app, ['lines', line], query), n, line);
  }
});

test('milan: nothing departs on a day after the last service date', async () => {
  const day = gtfsDay('20141102');
  const since = localTime(TZ, day, 10 * 3600);
  const until = localTime(TZ, day, 12 * 3600);
  assert.equal(tripsDepartingWithin(trips.values(), days, since, until).size, 0);
  assert.equal(await tripCount(served.app, [], { since: naiveDatetime(day, 10 * 3600), until: naiveDatetime(day, 12 * 3600) }), 0);
  // The night before still has Saturday's last runs.
  const night = tripsDepartingWithin(trips.values(), days, localTime(TZ, day, 0), localTime(TZ, day, 3 * 3600));
  assert.ok(night.size > 0);
  assert.equal(await tripCount(served.app, [], { since: naiveDatetime(day, 0), until: naiveDatetime(day, 3 * 3600) }), night.size);
});
