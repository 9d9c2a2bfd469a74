/**
 * medium/bydgoszcz-gtfs.zip (ZDMiKP Bydgoszcz, Europe/Warsaw): calendar_dates only, times up to
 * 32:41:00. A run belongs to its service day but departs at origin + time: a window on the next
 * calendar day catches the late runs of the previous service day (decisions.md: a trip is kept when
 * the first stop time of one of its runs falls inside [since, until]).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson } from '../helpers/app.js';
import { serve, sharedFeed, sorted, tripIds, type Served } from './coverage-app.js';
import { gtfsDay, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin, type RawTrip } from './raw-gtfs.js';

const FEED = sharedFeed('medium', 'bydgoszcz-gtfs.zip');
const TZ = 'Europe/Warsaw';
const FRIDAY = gtfsDay('20200515');
const SATURDAY = FRIDAY + 1;

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

const hhmmss = (sec: number) => [Math.floor(sec / 3600), Math.floor((sec % 3600) / 60), sec % 60].map((n) => String(n).padStart(2, '0')).join('');

test('bydgoszcz: stop times up to 32:41:00 are kept as they are', async () => {
  const tt = served.generation.tt;
  assert.ok(!raw.hasFile('calendar.txt') && raw.hasFile('calendar_dates.txt'));
  const stats = await timeStats(raw);
  assert.deepEqual(stats, { max: 32 * 3600 + 41 * 60, after24h: 18_646, untimed: 0, rows: 583_164 });
  assert.equal(tt.stopTimes.arrivalSec.length, stats.rows);
  assert.equal(tt.trips.ids.length, trips.size);
  let max = 0;
  let after24h = 0;
  for (let i = 0; i < tt.stopTimes.arrivalSec.length; i++) {
    const m = Math.max(tt.stopTimes.arrivalSec[i]!, tt.stopTimes.departureSec[i]!);
    if (m > max) max = m;
    if (m >= 86400) after24h++;
  }
  assert.deepEqual([max, after24h], [stats.max, stats.after24h]);
  assert.deepEqual(served.problems, []);

  // The latest first departure, as the API writes it (hours past 24, not wrapped).
  const latest = [...trips.values()].reduce((a, b) => (b.firstDeparture! > a.firstDeparture! ? b : a));
  assert.ok(latest.firstDeparture! > 30 * 3600);
  const { status, json } = await getJson(served.app, `/v1/coverage/e2e/trips/${encodeURIComponent(latest.id)}?depth=2`);
  assert.equal(status, 200);
  assert.equal(json.trips[0].first_stop_time.departure_time, hhmmss(latest.firstDeparture!));
});

test("bydgoszcz: Saturday 00:00-08:00 holds Friday's late runs and Saturday's early ones", async () => {
  const since = localTime(TZ, SATURDAY, 0);
  const until = localTime(TZ, SATURDAY, 8 * 3600);
  const want = tripsDepartingWithin(trips.values(), days, since, until);
  const fridayOnly = [...want].filter((id) => !days.get(trips.get(id)!.serviceId)!.has(SATURDAY));
  assert.ok(fridayOnly.length > 0, 'runs of the Friday service day');
  assert.ok(fridayOnly.every((id) => trips.get(id)!.firstDeparture! >= 86400 && days.get(trips.get(id)!.serviceId)!.has(FRIDAY)));
  assert.ok(want.size > fridayOnly.length, 'and runs of the Saturday service day');
  const got = await tripIds(served.app, [], { since: naiveDatetime(SATURDAY, 0), until: naiveDatetime(SATURDAY, 8 * 3600) });
  assert.deepEqual(sorted(got), sorted(want));
});

test('bydgoszcz: a narrow window at 07:30 on Saturday finds the runs Friday lists at 31:30', async () => {
  const since = localTime(TZ, SATURDAY, 7 * 3600 + 30 * 60);
  const until = localTime(TZ, SATURDAY, 7 * 3600 + 59 * 60 + 59);
  const want = tripsDepartingWithin(trips.values(), days, since, until);
  const late = [...want].filter((id) => trips.get(id)!.firstDeparture! >= 31 * 3600);
  assert.ok(late.length > 0 && late.length < want.size);
  const got = await tripIds(served.app, [], { since: naiveDatetime(SATURDAY, 7 * 3600 + 30 * 60), until: naiveDatetime(SATURDAY, 7 * 3600 + 59 * 60 + 59) });
  assert.deepEqual(sorted(got), sorted(want));
  // Those runs belong to the weekday service, which does not run on Saturday.
  assert.ok(late.every((id) => days.get(trips.get(id)!.serviceId)!.has(FRIDAY) && !days.get(trips.get(id)!.serviceId)!.has(SATURDAY)));
});
