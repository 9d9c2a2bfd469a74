/**
 * The straight-line scan (straight-line-scan.ts) on a tiny written feed, against values computed by
 * hand. Stops lie on the equator (a degree of longitude is 6,371,008.8 × π / 180 = 111,195.08 m),
 * Europe/Paris, Tuesday 2024-03-05 (CET, UTC+1):
 *
 *   A (0, 0) ── T1 08:00 → 08:05 ──▶ B (0.01, 0)   1,111.95 m east of A
 *   C (0.01, 0.003), 333.585 m north of B ── T2 08:12 → 08:22 ──▶ D (0.05, 0)
 *   E (0.0155, 0), 611.6 m east of B (beyond the 500 m transfer radius) ── T4 08:07 → 08:09 ──▶ D
 *   T3: A 24:30 → D 24:40, weekdays (after midnight: Monday's run reaches Tuesday 00:40)
 *   T5: B 08:30 → A 08:35 with drop_off_type 1 at A (no alighting)
 *
 * Walking: metres × 1.3 / 1.12 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { ACCESS_MAX_SEC, DETOUR, haversineM, StraightLineScan, TRANSFER_RADIUS_M, WALKING_SPEED, walkSec } from './straight-line-scan.js';

const FEED = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Agency,http://a.example,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,0,0
B,B,0,0.01
C,C,0.003,0.01
D,D,0,0.05
E,E,0,0.0155
# routes.txt
route_id,agency_id,route_short_name,route_type
R,A,1,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WEEK,1,1,1,1,1,0,0,20240101,20241231
# calendar_dates.txt
service_id,date,exception_type
WEEK,20240306,2
WEEK,20240309,1
# trips.txt
route_id,service_id,trip_id
R,WEEK,T1
R,WEEK,T2
R,WEEK,T3
R,WEEK,T4
R,WEEK,T5
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
T1,08:00:00,08:00:00,A,1,,
T1,08:05:00,08:05:00,B,2,,
T2,08:12:00,08:12:00,C,1,,
T2,08:22:00,08:22:00,D,2,,
T3,24:30:00,24:30:00,A,1,,
T3,24:40:00,24:40:00,D,2,,
T4,08:07:00,08:07:00,E,1,,
T4,08:09:00,08:09:00,D,2,,
T5,08:30:00,08:30:00,B,1,,
T5,08:35:00,08:35:00,A,2,,1
`);

const DEG = (6_371_008.8 * Math.PI) / 180;
/** epoch seconds of a local (CET) time on a day of March 2024 */
const at = (day: number, h: number, m: number) => Date.UTC(2024, 2, day, h - 1, m) / 1000;
const walk = (m: number) => (m * 1.3) / 1.12;

test('straight-line scan: constants and walking', () => {
  assert.equal(DETOUR, 1.3);
  assert.equal(WALKING_SPEED, 1.12);
  assert.equal(ACCESS_MAX_SEC, 1800);
  assert.equal(TRANSFER_RADIUS_M, 500);
  assert.ok(Math.abs(haversineM(0, 0, 0.01, 0) - 0.01 * DEG) < 1e-6);
  assert.ok(Math.abs(haversineM(0.01, 0, 0.01, 0.003) - 0.003 * DEG) < 1e-6);
  assert.ok(Math.abs(walkSec(0, 0, 0.01, 0) - 1290.6) < 0.1);
});

test('straight-line scan: hand-computed earliest arrivals on a tiny feed', async () => {
  const scan = await StraightLineScan.load(FEED);
  assert.deepEqual(scan.stopIds, ['A', 'B', 'C', 'D', 'E']);
  const s = (id: string) => scan.indexOf(id);

  // from A at 07:58 on Tuesday: T1 to B (08:05), walk 333.6 m to C (387.2 s, 08:11:27), T2 to D (08:22)
  const a = scan.earliestArrivals(0, 0, at(5, 7, 58), 7200);
  assert.equal(a.at[s('A')], at(5, 7, 58));
  assert.equal(a.at[s('B')], at(5, 8, 5));
  assert.ok(Math.abs(a.at[s('C')]! - (at(5, 8, 5) + walk(0.003 * DEG))) < 1e-6);
  assert.equal(a.at[s('D')], at(5, 8, 22));
  // E: 611.6 m from B, beyond the transfer radius, so only by the access walk from A (1,723.5 m: 2,000.5 s > 1,800 s): unreached
  assert.equal(a.at[s('E')], Infinity);
  assert.equal(scan.valueAt(a, 0.01, 0), 420); // B
  assert.equal(scan.valueAt(a, 0.05, 0), 1440); // D
  // 0.001° east of D: D then 111.2 m (129.07 s)
  assert.equal(scan.valueAt(a, 0.051, 0), Math.floor(1440 + walk(0.001 * DEG)));
  // a point near A: walking straight from the origin
  assert.equal(scan.valueAt(a, 0, 0.001), Math.floor(walk(0.001 * DEG)));

  // T5 forbids alighting at A: leaving B at 08:25, A is reached on foot only (1,290.6 s)
  const b = scan.earliestArrivals(0.01, 0, at(5, 8, 25), 7200);
  assert.equal(b.at[s('A')], at(5, 8, 25) + walk(0.01 * DEG));

  // from a point 0.001° west of A at 07:57 (access walk 129.07 s, A at 07:59:09): T1, B at 08:05
  const c = scan.earliestArrivals(-0.001, 0, at(5, 7, 57), 7200);
  assert.ok(Math.abs(c.at[s('A')]! - (at(5, 7, 57) + walk(0.001 * DEG))) < 1e-6);
  assert.equal(scan.valueAt(c, 0.01, 0), 480);
  // at 07:58 the walk ends at 08:00:09, T1 (08:00) is missed: B on foot, 0.011° (1,419.7 s)
  const c1 = scan.earliestArrivals(-0.001, 0, at(5, 7, 58), 7200);
  assert.equal(scan.valueAt(c1, 0.01, 0), Math.floor(walk(0.011 * DEG)));
  // a walk just under the limit: from 0.0139° west of A (1,545.6 m, 1,794.1 s) A is reached, from 0.014° (1,556.7 m, 1,806.9 s) not
  assert.ok(scan.earliestArrivals(-0.0139, 0, at(5, 7, 0), 60).at[s('A')]! < Infinity);
  assert.equal(scan.earliestArrivals(-0.014, 0, at(5, 7, 0), 60).at[s('A')], Infinity);

  // Wednesday 2024-03-06 is removed by calendar_dates: no T1, B on foot (1,290 s)
  const d = scan.earliestArrivals(0, 0, at(6, 7, 58), 7200);
  assert.equal(scan.valueAt(d, 0.01, 0), 1290);
  // Saturday 2024-03-09 is added: T1 runs
  const e = scan.earliestArrivals(0, 0, at(9, 7, 58), 7200);
  assert.equal(scan.valueAt(e, 0.01, 0), 420);
  // Sunday: nothing runs
  const f = scan.earliestArrivals(0, 0, at(10, 7, 58), 7200);
  assert.equal(scan.valueAt(f, 0.01, 0), 1290);

  // after midnight: Monday's T3 leaves A at 24:30, i.e. Tuesday 00:30, reaching D at 00:40
  const g = scan.earliestArrivals(0, 0, at(5, 0, 20), 3600);
  assert.equal(g.at[s('D')], at(5, 0, 40));
  assert.equal(scan.valueAt(g, 0.05, 0), 1200);
  // Wednesday's T3 does not run (Wednesday is removed): Thursday 00:20 from A, D on foot only
  const h = scan.earliestArrivals(0, 0, at(7, 0, 20), 3600);
  assert.equal(h.at[s('D')], Infinity);
  assert.equal(scan.valueAt(h, 0.05, 0), Math.floor(walk(0.05 * DEG)));

  // the horizon: connections departing after t0 + horizon are not scanned
  const k = scan.earliestArrivals(0, 0, at(5, 7, 58), 60);
  assert.equal(k.at[s('B')], at(5, 7, 58) + walk(0.01 * DEG)); // the access walk only
  assert.equal(scan.valueAt(k, 0.01, 0), 1290);

  // E's trip T4 (08:07 → 08:09 to D) needs E, 611.6 m from B: out of the transfer radius, so from A
  // at 07:58 D is still reached at 08:22 (by C), not 08:09
  assert.equal(a.at[s('D')], at(5, 8, 22));
  // leaving E itself at 08:00: T4, D at 08:09
  const m = scan.earliestArrivals(0.0155, 0, at(5, 8, 0), 3600);
  assert.equal(scan.valueAt(m, 0.05, 0), 540);
});
