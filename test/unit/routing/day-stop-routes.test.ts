/**
 * The lean search's marking lists (routing/day-stop-routes.ts) on a hand-made feed: a daily line
 * A → B → C and a Saturday line A → C. On a Tuesday a stop lists the daily line only, on a Saturday
 * both; no stop lists a line it ends; the lists of a set of days are kept for the next searches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { buildRaptorData, type RaptorData } from '../../../src/routing/raptor-data.js';
import { DayStopRoutes, type StopRouteLists } from '../../../src/routing/day-stop-routes.js';
import type { SearchDays } from '../../../src/routing/raptor-types.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
AG,Agency,http://a.example,UTC
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
ALL,1,1,1,1,1,1,1,20240101,20240430
# calendar_dates.txt
service_id,date,exception_type
SAT,20240113,1
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,45.0,1.000
B,B,45.0,1.010
C,C,45.0,1.020
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
DAILY,AG,1,,3
SATURDAY,AG,2,,3
# trips.txt
route_id,service_id,trip_id
DAILY,ALL,D1
SATURDAY,SAT,S1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
D1,08:00:00,08:00:00,A,1
D1,08:10:00,08:10:00,B,2
D1,08:20:00,08:20:00,C,3
S1,09:00:00,09:00:00,A,1
S1,09:30:00,09:30:00,C,2`;

/** One service day, in the search's terms. */
function daysOf(data: RaptorData, y: number, m: number, d: number): SearchDays {
  const day = dayNumber(y, m, d) - data.serviceFirstDay;
  return { zoneSlotStart: Int32Array.of(0, 1), slotOffset: Int32Array.of(0), slotDay: Int32Array.of(day), slotWord: Int32Array.of(day >>> 5), slotBit: Int32Array.of(day & 31) };
}

test('a stop lists the routes of the search days that go on from it; the lists of a set of days are kept', async () => {
  const tt = await loadTimetable([writeFeed(FEED)], { report: new LoadReport() });
  const data = buildRaptorData(tt);
  const stop = (id: string) => tt.stopPoints.ids.indexOf(id);
  // the route of each line, through its trip
  const routeOf = (trip: string) => {
    const rt = data.routeTripTrip.indexOf(tt.trips.ids.indexOf(trip));
    let r = 0;
    while (data.routeTripOffset[r + 1]! <= rt) r++;
    return r;
  };
  const daily = routeOf('D1');
  const saturday = routeOf('S1');
  const listed = (lists: StopRouteLists, id: string) => {
    const p = stop(id);
    return Array.from(lists.routes.subarray(lists.offset[p]!, lists.offset[p + 1]!), (r, k) => [r, lists.positions[lists.offset[p]! + k]!]);
  };
  const index = new DayStopRoutes(data, 16);
  const tuesday = index.of(daysOf(data, 2024, 1, 9));
  assert.deepEqual(listed(tuesday, 'A'), [[daily, 0]], 'the Saturday line left out on a Tuesday');
  assert.deepEqual(listed(tuesday, 'B'), [[daily, 1]]);
  assert.deepEqual(listed(tuesday, 'C'), [], 'both lines end at C');
  const sat = index.of(daysOf(data, 2024, 1, 13));
  assert.deepEqual(listed(sat, 'A').sort(), [[daily, 0], [saturday, 0]].sort());
  // kept: the same days give the same lists, until three other sets have come
  assert.equal(index.of(daysOf(data, 2024, 1, 9)), tuesday);
  index.of(daysOf(data, 2024, 1, 10));
  index.of(daysOf(data, 2024, 1, 11));
  assert.notEqual(index.of(daysOf(data, 2024, 1, 9)), tuesday, 'made again once replaced');
  assert.deepEqual(listed(index.of(daysOf(data, 2024, 1, 9)), 'A'), [[daily, 0]]);
});
