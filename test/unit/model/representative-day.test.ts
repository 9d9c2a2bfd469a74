/**
 * The representative day on a hand-made feed whose period starts with one lone trip, as Porto
 * Alegre's does (its rail feed starts six weeks before its buses):
 *
 *   2023-12-01 (a Friday)           EARLY: 1 trip (calendar_dates only)
 *   2024-01-01 … 2024-01-31, Mon–Fri WEEK:  3 trips a day
 *   2024-01-06 … 2024-01-27, Sat     SAT:   2 trips a day
 *   2024-01-10 (a Wednesday)        EXTRA: 2 trips (calendar_dates only): x1 at 11:00, and f1 every
 *                                   10 minutes from 10:30 to 11:30 (6 departures: 3 at 10 h, 3 at 11 h)
 *
 * Over the period's nine weeks, Wednesdays carry 3+5+3+3+3 = 17 trips (1.89 a Wednesday), more than
 * Mondays, Tuesdays, Thursdays (15), Fridays (1 + 12 = 13) or Saturdays (8); the busiest Wednesday is
 * 2024-01-10 with 5. Its departures by hour: 8 h 1, 9 h 1, 10 h 1 + 3, 11 h 1 + 3: the busiest hour is
 * 10 h (ties go to the earlier).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { busiestHour, busiestWeekday, representativeDay, tripsPerDay, weekdayOf } from '../../../src/model/representative-day.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
AG,Agency,http://a.example,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,Alpha,48.0,2.0
B,Beta,48.01,2.0
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
R,AG,1,,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WEEK,1,1,1,1,1,0,0,20240101,20240131
SAT,0,0,0,0,0,1,0,20240106,20240127
# calendar_dates.txt
service_id,date,exception_type
EARLY,20231201,1
EXTRA,20240110,1
# trips.txt
route_id,service_id,trip_id
R,WEEK,w1
R,WEEK,w2
R,WEEK,w3
R,SAT,s1
R,SAT,s2
R,EARLY,e1
R,EXTRA,x1
R,EXTRA,f1
# frequencies.txt
trip_id,start_time,end_time,headway_secs
f1,10:30:00,11:30:00,600
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
w1,08:00:00,08:00:00,A,1
w1,08:10:00,08:10:00,B,2
w2,09:00:00,09:00:00,A,1
w2,09:10:00,09:10:00,B,2
w3,10:00:00,10:00:00,A,1
w3,10:10:00,10:10:00,B,2
s1,08:00:00,08:00:00,A,1
s1,08:10:00,08:10:00,B,2
s2,09:00:00,09:00:00,A,1
s2,09:10:00,09:10:00,B,2
e1,08:00:00,08:00:00,A,1
e1,08:10:00,08:10:00,B,2
x1,11:00:00,11:00:00,A,1
x1,11:10:00,11:10:00,B,2
f1,10:30:00,10:30:00,A,1
f1,10:40:00,10:40:00,B,2
`;

async function timetable() {
  const report = new LoadReport();
  const tt = await loadTimetable([writeFeed(FEED)], { report });
  assert.deepEqual(report.summary(), [], 'the fixture loads cleanly');
  return tt;
}

test('weekdays are numbered from Monday: 1970-01-01 was a Thursday, 2024-01-10 a Wednesday', () => {
  assert.equal(weekdayOf(0), 3);
  assert.equal(weekdayOf(dayNumber(2024, 1, 10)), 2);
  assert.equal(weekdayOf(dayNumber(1969, 12, 29)), 0);
});

test('trips are counted on each day their service runs', async () => {
  const tt = await timetable();
  const perDay = tripsPerDay(tt);
  const on = (y: number, m: number, d: number) => perDay[dayNumber(y, m, d) - tt.services.firstDay];
  assert.equal(on(2023, 12, 1), 1);
  assert.equal(on(2023, 12, 4), 0);
  assert.equal(on(2024, 1, 1), 3);
  assert.equal(on(2024, 1, 6), 2);
  assert.equal(on(2024, 1, 7), 0);
  assert.equal(on(2024, 1, 10), 5);
  assert.equal(on(2024, 1, 31), 3);
  let total = 0;
  for (const n of perDay) total += n;
  assert.equal(total, 1 + 23 * 3 + 4 * 2 + 2);
});

test('the busiest weekday is Wednesday, and its busiest day 2024-01-10 with 5 trips', async () => {
  const tt = await timetable();
  assert.deepEqual(busiestWeekday(tripsPerDay(tt), tt.services.firstDay), { day: dayNumber(2024, 1, 10), trips: 5, weekday: 2 });
});

test('today is the representative day inside the period, the busiest weekday outside it', async () => {
  const tt = await timetable();
  const perDay = tripsPerDay(tt);
  const busiest = busiestWeekday(perDay, tt.services.firstDay);
  const start = dayNumber(2023, 12, 1);
  const end = dayNumber(2024, 1, 31);
  assert.deepEqual(representativeDay(dayNumber(2024, 1, 15), start, end, busiest, 3), { day: dayNumber(2024, 1, 15), reason: 'today', trips: 3 });
  // the period's first day is inside it too: today wins even on a quiet day
  assert.deepEqual(representativeDay(start, start, end, busiest, 1), { day: start, reason: 'today', trips: 1 });
  assert.deepEqual(representativeDay(dayNumber(2023, 11, 30), start, end, busiest, 0), { day: dayNumber(2024, 1, 10), reason: 'busiest_weekday', trips: 5 });
  assert.deepEqual(representativeDay(dayNumber(2026, 11, 26), start, end, busiest, 0), { day: dayNumber(2024, 1, 10), reason: 'busiest_weekday', trips: 5 });
});

test('a timetable without any trip has no representative day', () => {
  const none = busiestWeekday(new Uint32Array(10), 0);
  assert.deepEqual(none, { day: -1, trips: 0, weekday: -1 });
  assert.deepEqual(representativeDay(5, -1, -1, none, 0), { day: -1, reason: 'no_service', trips: 0 });
});

test('the busiest hour counts each departure of a frequency-based trip, and ties go to the earlier hour', async () => {
  const tt = await timetable();
  assert.deepEqual(busiestHour(tt, dayNumber(2024, 1, 10)), { hour: 10, departures: 4 });
  // an ordinary weekday: one trip at 8, 9 and 10 h
  assert.deepEqual(busiestHour(tt, dayNumber(2024, 1, 11)), { hour: 8, departures: 1 });
  assert.deepEqual(busiestHour(tt, dayNumber(2024, 1, 7)), { hour: -1, departures: 0 });
});
