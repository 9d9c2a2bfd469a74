/**
 * The country generator's timetable rules (bench/country): the common week every feed is shifted
 * onto (service-week.ts) and the intercity lines (intercity.ts), on a grid drawn here:
 *
 *   row 1   t3 ── t4                stations on the meridian 7° and 7.5°, latitudes 48° and 48.5°
 *           │     │
 *   row 0   t0 ── t1 ── t2          t2 at 8°
 *
 * Rides are the great-circle distance at 120 km/h, rounded up to the minute: half a degree of
 * latitude is 55,613 m (111,226.2991 m a degree), 1,668.4 s, so 28 minutes; half a degree of
 * longitude at 48° is 37,213 m, 1,116.4 s, so 19 minutes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { gridOf } from '../../../bench/country/grid.js';
import { INTERCITY, intercityLines, rideSec, tripTimes, writeIntercity, type Station } from '../../../bench/country/intercity.js';
import { busiestTuesday, COMMON_WEEK, REFERENCE_DATE, REFERENCE_DAY, shiftedDate } from '../../../bench/country/service-week.js';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { weekdayOf } from '../../../src/model/representative-day.js';
import { dayNumber, formatDayNumber } from '../../../src/util/calendar.js';

const station = (tile: number, row: number, col: number, lon: number, lat: number): Station => ({ tile, row, col, lonE7: lon * 1e7, latE7: lat * 1e7 });
const GRID = gridOf(5); // 3 × 2
const STATIONS = [station(0, 0, 0, 7, 48), station(1, 0, 1, 7.5, 48), station(2, 0, 2, 8, 48), station(3, 1, 0, 7, 48.5), station(4, 1, 1, 7.5, 48.5)];

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('the reference date is a Tuesday, in a common week from Monday to Sunday', () => {
  assert.equal(REFERENCE_DATE, '20260310');
  assert.equal(weekdayOf(REFERENCE_DAY), 1);
  assert.deepEqual([formatDayNumber(COMMON_WEEK.firstDay), formatDayNumber(COMMON_WEEK.lastDay)], ['20260309', '20260315']);
});

test("a feed's busiest Tuesday is the Tuesday with the most trips, the earliest of equals", () => {
  const monday = dayNumber(2024, 1, 1);
  //              Mo Tu We …                Tu (8 days on)          Tu (15)
  const trips = [9, 3, 9, 9, 9, 9, 9, 9, 3, 9, 9, 9, 9, 9, 9, 4];
  assert.deepEqual(busiestTuesday(trips.slice(0, 14), monday), { day: monday + 1, trips: 3 });
  assert.deepEqual(busiestTuesday(trips, monday), { day: monday + 15, trips: 4 });
  assert.equal(busiestTuesday([9, 0, 9], monday), null);
});

test('dates move by whole days; text that is not a date stays', () => {
  // rnv's busiest Tuesday, 2016-10-25, onto the reference date: 3,423 days (489 weeks)
  assert.equal(shiftedDate('20161025', REFERENCE_DAY - dayNumber(2016, 10, 25)), REFERENCE_DATE);
  assert.equal(REFERENCE_DAY - dayNumber(2016, 10, 25), 3_423);
  assert.equal(shiftedDate('20241231', 1), '20250101');
  assert.equal(shiftedDate('2024-12-31', 7), '2024-12-31');
  assert.equal(shiftedDate('', 7), '');
});

test('rides: great-circle metres at 120 km/h, up to the whole minute', () => {
  assert.equal(rideSec(STATIONS[0]!, STATIONS[3]!), 28 * 60);
  assert.equal(rideSec(STATIONS[0]!, STATIONS[1]!), 19 * 60);
  assert.equal(rideSec(STATIONS[0]!, STATIONS[0]!), 0);
});

test('a line along each row and up each column of two stations or more', () => {
  const lines = intercityLines(GRID, STATIONS);
  assert.deepEqual(
    lines.map((l) => [l.id, l.code, l.stations.map((s) => s.tile), l.directions]),
    [
      ['ic:r0', 'R0', [0, 1, 2], ['east', 'west']],
      ['ic:r1', 'R1', [3, 4], ['east', 'west']],
      ['ic:c0', 'C0', [0, 3], ['north', 'south']],
      ['ic:c1', 'C1', [1, 4], ['north', 'south']],
    ],
  );
});

test('a trip rides, waits two minutes at each station between its ends, and rides on', () => {
  const row0 = STATIONS.slice(0, 3);
  assert.deepEqual(tripTimes(row0), [
    [0, 0],
    [1140, 1260],
    [2400, 2400],
  ]);
});

test("the intercity feed as Navette reads it: every line's trains hourly both ways from 05:00 to 23:00, every day of the common week", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-intercity-'));
  dirs.push(dir);
  const file = path.join(dir, 'intercity.zip');
  const lines = intercityLines(GRID, STATIONS);
  const counts = await writeIntercity(file, STATIONS, lines, 6);
  const departures = (INTERCITY.lastDepartureSec - INTERCITY.firstDepartureSec) / INTERCITY.headwaySec + 1;
  assert.equal(departures, 19);
  // 4 lines × 2 directions × 19 trains; stop times: 19 × 2 × (3 + 2 + 2 + 2)
  assert.deepEqual(counts, { stops: 5, routes: 4, trips: 4 * 2 * 19, stopTimes: 19 * 2 * 9 });
  const tt = await loadTimetable([file]);
  assert.equal(tt.trips.ids.length, 152);
  assert.equal(tt.stopTimes.arrivalSec.length, 342);
  assert.deepEqual(
    tt.agencies.map((a) => a.timezone),
    ['Europe/Berlin'],
  );
  const t = tt.trips.ids.indexOf('ic:r0:west:0800');
  const from = tt.trips.stopTimeOffset[t]!;
  assert.deepEqual([...tt.stopTimes.arrivalSec.subarray(from, from + 3)], [8 * 3600, 8 * 3600 + 1140, 8 * 3600 + 2400]);
  assert.deepEqual([...tt.stopTimes.departureSec.subarray(from, from + 3)], [8 * 3600, 8 * 3600 + 1260, 8 * 3600 + 2400]);
  assert.equal(tt.services.ids.length, 1);
  const days = [];
  for (let d = 0; d < tt.services.dayCount; d++) if ((tt.services.bits[d >> 5]! >>> (d & 31)) & 1) days.push(formatDayNumber(tt.services.firstDay + d));
  assert.deepEqual(days, ['20260309', '20260310', '20260311', '20260312', '20260313', '20260314', '20260315']);
});
