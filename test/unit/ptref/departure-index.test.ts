/**
 * The trips by first departure (src/ptref/departure-index.ts) and the period filter that reads them
 * (src/ptref/departing-trips.ts), on a feed made here: agencies at the two ends of the UTC offsets
 * (Pacific/Kiritimati +14 h, Pacific/Pago_Pago −11 h) and in Europe/Paris across its spring DST
 * change, trips leaving at 00:00, 23:59:59, 25:30, 30:30 and 47:00, a frequency-based trip, a trip of one
 * day. Every window of a grid (instants, minutes, hours, days, weeks, open-ended) gives the trips
 * the old scan gives (every trip asked `departsWithin`), at each level, with realtime runs moved
 * by minutes or days, cancelled or without their first stop; the candidates hold every trip kept;
 * and a narrow window asks only the trips that can depart in it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RealtimeRun } from '../../../src/model/realtime-runs.js';
import { DEPARTURE_INDEXES } from '../../../src/ptref/departure-index.js';
import { departingWithin } from '../../../src/ptref/departing-trips.js';
import { FRESHNESS_LEVELS, type Freshness, type FreshnessLevel } from '../../../src/ptref/freshness.js';
import { LevelRuns, RealtimeFreshness } from '../../../src/ptref/realtime-freshness.js';
import { loadGeneration } from '../../../src/service/load-coverage.js';
import type { Generation } from '../../../src/service/generation.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { movedRuns } from '../../helpers/moved-runs.js';
import { mulberry32 } from '../../helpers/random.js';

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
EAST,East,http://east.example,Pacific/Kiritimati
WEST,West,http://west.example,Pacific/Pago_Pago
PARIS,Paris,http://paris.example,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
S1,One,45.0,5.0
S2,Two,45.01,5.0
# routes.txt
route_id,agency_id,route_short_name,route_type
RE,EAST,E,3
RW,WEST,W,3
RP,PARIS,P,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
DAILY,1,1,1,1,1,1,1,20240325,20240405
WEEKDAYS,1,1,1,1,1,0,0,20240325,20240405
# calendar_dates.txt
service_id,date,exception_type
ONCE,20240331,1
# trips.txt
route_id,service_id,trip_id
RE,DAILY,E-0000
RE,DAILY,E-235959
RE,WEEKDAYS,E-2530
RE,DAILY,E-4700
RW,DAILY,W-0600
RW,WEEKDAYS,W-3030
RP,DAILY,P-0230
RP,ONCE,P-ONCE
RP,DAILY,P-FREQ
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
E-0000,00:00:00,00:00:00,S1,1
E-0000,00:30:00,00:30:00,S2,2
E-235959,23:59:59,23:59:59,S1,1
E-235959,24:20:00,24:20:00,S2,2
E-2530,25:30:00,25:30:00,S1,1
E-2530,25:40:00,25:40:00,S2,2
E-4700,47:00:00,47:00:00,S1,1
E-4700,47:10:00,47:10:00,S2,2
W-0600,06:00:00,06:00:00,S1,1
W-0600,06:10:00,06:10:00,S2,2
W-3030,30:30:00,30:30:00,S1,1
W-3030,30:40:00,30:40:00,S2,2
P-0230,02:30:00,02:30:00,S1,1
P-0230,02:40:00,02:40:00,S2,2
P-ONCE,13:15:00,13:15:00,S1,1
P-ONCE,13:25:00,13:25:00,S2,2
P-FREQ,05:00:00,05:00:00,S1,1
P-FREQ,05:10:00,05:10:00,S2,2
# frequencies.txt
trip_id,start_time,end_time,headway_secs
P-FREQ,05:00:00,07:00:00,600
`;

let g: Generation;
before(async () => {
  ({ generation: g } = await loadGeneration({ id: 'zones', gtfs: [writeFeed(FEED, 'zones')] }));
});

/** The day number of `YYYYMMDD`. */
const gtfsDay = (date: string) => dayNumber(Number(date.slice(0, 4)), Number(date.slice(4, 6)), Number(date.slice(6, 8)));
const trip = (id: string) => g.tt.trips.ids.indexOf(id);
const ids = (set: Uint32Array) => Array.from(set, (t) => g.tt.trips.ids[t]!);

/** A freshness that counts the trips it is asked about. */
class Counting implements Freshness {
  asked = 0;
  constructor(private readonly inner: Freshness) {}
  changedTrips(level: FreshnessLevel): Uint32Array {
    return this.inner.changedTrips(level);
  }
  departsWithin(t: number, level: FreshnessLevel, sinceSec: number, untilSec: number): boolean {
    this.asked++;
    return this.inner.departsWithin(t, level, sinceSec, untilSec);
  }
  activeAt(t: number, level: FreshnessLevel, atSec: number): boolean {
    return this.inner.activeAt(t, level, atSec);
  }
}

/** The old scan: every trip asked. */
const scanned = (freshness: Freshness, level: FreshnessLevel, since: number, until: number) => g.ref.all('trip').filter((t) => freshness.departsWithin(t, level, since, until));

/** Windows over the calendar and two days around it: every hour and some odd seconds, of many lengths, and open-ended ones. */
function windows(): [number, number][] {
  const random = mulberry32(14);
  const first = gtfsDay('20240323') * 86400;
  const last = gtfsDay('20240408') * 86400;
  const lengths = [0, 1, 59, 300, 3600, 6 * 3600, 86399, 86400, 3 * 86400, 30 * 86400];
  const out: [number, number][] = [
    [-Infinity, Infinity],
    [-Infinity, first],
    [last, Infinity],
  ];
  for (let since = first; since < last; since += 3600) {
    out.push([since, since + lengths[Math.floor(random() * lengths.length)]!]);
    const odd = since + Math.floor(random() * 3600);
    out.push([odd, odd + Math.floor(random() * 7200)]);
    if (random() < 0.05) out.push([-Infinity, odd], [odd, Infinity]);
  }
  return out;
}

/** Exact departures: each timed trip's first departure on a day it runs, as an instant, kept in a window of just it. */
test('windows of one instant find the departures at 00:00, 23:59:59, 25:30, 30:30 and 47:00 of both ends of the UTC offsets', () => {
  const at = (tz: string, date: string, sec: number) => g.ref.days.origin(g.tt.timezones.indexOf(tz), gtfsDay(date)) + sec;
  // [what, instant, the trips leaving then, the trips leaving a second later]
  const cases: [string, number, string[], string[]][] = [
    ['E-0000', at('Pacific/Kiritimati', '20240401', 0), ['E-0000'], []],
    ['E-235959', at('Pacific/Kiritimati', '20240401', 86399), ['E-235959'], ['E-0000']],
    ['E-2530', at('Pacific/Kiritimati', '20240401', 25.5 * 3600), ['E-2530'], []],
    ['E-4700', at('Pacific/Kiritimati', '20240401', 47 * 3600), ['E-4700'], []],
    ['W-3030', at('Pacific/Pago_Pago', '20240401', 30.5 * 3600), ['W-3030'], []],
    ['P-0230 on the DST change', at('Europe/Paris', '20240331', 2.5 * 3600), ['P-0230'], []],
    ['P-ONCE', at('Europe/Paris', '20240331', 13.25 * 3600), ['P-ONCE'], []],
    ['P-FREQ', at('Europe/Paris', '20240331', 5 * 3600 + 1200), ['P-FREQ'], []],
  ];
  for (const [what, instant, then, secondLater] of cases) {
    assert.deepEqual(ids(departingWithin(g.ref, g.freshness, 'base_schedule', instant, instant, g.ref.all('trip'))), then, what);
    assert.deepEqual(ids(departingWithin(g.ref, g.freshness, 'base_schedule', instant + 1, instant + 1, g.ref.all('trip'))), secondLater, `${what}, a second later`);
  }
  // E-2530 runs on weekdays only: Saturday 2024-03-30 has no run at 25:30
  const saturday = at('Pacific/Kiritimati', '20240330', 25.5 * 3600);
  assert.deepEqual(ids(departingWithin(g.ref, g.freshness, 'base_schedule', saturday, saturday, g.ref.all('trip'))), []);
});

test('every window of the grid: the trips the old scan finds; the candidates hold them all', () => {
  const index = DEPARTURE_INDEXES.of(g.ref);
  for (const [since, until] of windows()) {
    const want = scanned(g.freshness, 'base_schedule', since, until);
    const what = `[${since}, ${until}]`;
    assert.deepEqual(ids(departingWithin(g.ref, g.freshness, 'base_schedule', since, until, g.ref.all('trip'))), ids(want), what);
    const candidates = index.candidates(g.ref.days, since, until);
    assert.equal(candidates.length, index.candidateCount(g.ref.days, since, until), what);
    assert.ok([...candidates].every((t, k) => k === 0 || candidates[k - 1]! < t), `${what}: ascending, once each`);
    assert.ok([...want].every((t) => candidates.includes(t)), `${what}: the candidates ${ids(candidates)} hold ${ids(want)}`);
    // among a subset (a filter's trips), the same subset of the answer
    const among = g.ref.all('trip').filter((t) => t % 2 === 0);
    assert.deepEqual(ids(departingWithin(g.ref, g.freshness, 'base_schedule', since, until, among)), ids(want.filter((t) => t % 2 === 0)), `${what}, even trips`);
  }
});

test('a narrow window asks only the trips that can depart in it (and the frequency-based one)', () => {
  const at = g.ref.days.origin(g.tt.timezones.indexOf('Pacific/Kiritimati'), gtfsDay('20240402'));
  const counting = new Counting(g.freshness);
  assert.deepEqual(ids(departingWithin(g.ref, counting, 'base_schedule', at, at + 60, g.ref.all('trip'))), ['E-0000']);
  // E-0000 at 00:00 (and the previous day's E-4700 23:00 later, no), P-FREQ always
  assert.deepEqual(ids(DEPARTURE_INDEXES.of(g.ref).candidates(g.ref.days, at, at + 60)), ['E-0000', 'P-FREQ']);
  assert.equal(counting.asked, 2);
  // a window longer than the departures' span asks every trip: no index needed
  const all = new Counting(g.freshness);
  departingWithin(g.ref, all, 'base_schedule', -Infinity, Infinity, g.ref.all('trip'));
  assert.equal(all.asked, g.tt.trips.ids.length);
});

test('realtime runs moved by minutes or days, cancelled, or without their first stop: each level as the old scan', () => {
  const random = mulberry32(7);
  const runs = (count: number) => movedRuns(g.tt, random, count, gtfsDay('20240324'), 14);
  for (let round = 0; round < 10; round++) {
    const freshness = new RealtimeFreshness(g.ref, new LevelRuns(runs(3)), new LevelRuns(runs(4)));
    for (const [since, until] of windows().filter(() => random() < 0.2)) {
      for (const level of FRESHNESS_LEVELS) {
        assert.deepEqual(
          ids(departingWithin(g.ref, freshness, level, since, until, g.ref.all('trip'))),
          ids(scanned(freshness, level, since, until)),
          `round ${round}, ${level}, [${since}, ${until}]`,
        );
      }
    }
  }
});

test('the trips a level changes: none at base_schedule, adapted ones, and adapted and realtime ones at realtime', () => {
  const run = (t: number, day: number): RealtimeRun => ({ trip: t, day, cancelled: true, arrivalSec: new Int32Array(2), departureSec: new Int32Array(2), skipped: new Uint8Array(2) });
  const freshness = new RealtimeFreshness(g.ref, new LevelRuns([run(trip('W-0600'), gtfsDay('20240327')), run(trip('E-0000'), gtfsDay('20240327'))]), new LevelRuns([run(trip('E-0000'), gtfsDay('20240328')), run(trip('P-0230'), gtfsDay('20240328'))]));
  assert.deepEqual(ids(freshness.changedTrips('base_schedule')), []);
  assert.deepEqual(ids(freshness.changedTrips('adapted_schedule')), ['E-0000', 'W-0600'].sort((a, b) => trip(a) - trip(b)));
  assert.deepEqual(ids(freshness.changedTrips('realtime')), ['E-0000', 'W-0600', 'P-0230'].sort((a, b) => trip(a) - trip(b)));
  assert.deepEqual(ids(g.freshness.changedTrips('realtime')), [], 'no realtime source');
});
