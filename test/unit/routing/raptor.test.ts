/**
 * RAPTOR one-to-all on tiny hand-made feeds, with every expected value worked out by hand in the
 * comments. Times are on Tuesday 2024-01-09 in UTC unless stated; values are seconds from t0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { ServiceDays } from '../../../src/model/service-days.js';
import type { Timetable } from '../../../src/model/timetable.js';
import { buildRaptorData, raptorDataBytes, type Footpaths, type RaptorData } from '../../../src/routing/raptor-data.js';
import { RaptorSearch, type RaptorQuery } from '../../../src/routing/raptor.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { DayStopRoutes, type StopRouteLists } from '../../../src/routing/day-stop-routes.js';
import type { SearchDays } from '../../../src/routing/raptor-types.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

/** Agency in `tz`, one calendar running every day of January to April 2024, lines L1..L9. */
function feed(body: string, tz = 'UTC'): string {
  const lines = Array.from({ length: 9 }, (_, i) => `L${i + 1},AG,${i + 1},,3`).join('\n');
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
AG,Agency,http://a.example,${tz}
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
ALL,1,1,1,1,1,1,1,20240101,20240430
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
${lines}
${body}`;
}

interface Network {
  tt: Timetable;
  data: RaptorData;
  raptor: RaptorSearch;
  stop: (id: string) => number;
  /** the timetable route a trip was laid out in */
  route: (tripId: string) => number;
}

async function network(body: string, options: { tz?: string; footpaths?: [string, string, number][] } = {}): Promise<Network> {
  const report = new LoadReport();
  const tt = await loadTimetable([writeFeed(feed(body, options.tz))], { report });
  assert.deepEqual(report.summary(), [], 'the fixture loads cleanly');
  const stop = (id: string) => {
    const s = tt.stopPoints.ids.indexOf(id);
    assert.ok(s >= 0, `stop ${id}`);
    return s;
  };
  let fp: Footpaths | undefined;
  if (options.footpaths) {
    fp = {
      from: Uint32Array.from(options.footpaths, ([a]) => stop(a)),
      to: Uint32Array.from(options.footpaths, ([, b]) => stop(b)),
      lengthM: Float64Array.from(options.footpaths, ([, , m]) => m),
    };
  }
  const data = buildRaptorData(tt, fp);
  const route = (tripId: string) => {
    const rt = data.routeTripTrip.indexOf(tt.trips.ids.indexOf(tripId));
    assert.ok(rt >= 0, `trip ${tripId}`);
    let r = 0;
    while (data.routeTripOffset[r + 1]! <= rt) r++;
    return r;
  };
  return { tt, data, raptor: new RaptorSearch(data, new ServiceDays(tt)), stop, route };
}

interface Ask {
  /** access stop -> seconds (a list means 0 s each) */
  from: string[] | Record<string, number>;
  /** t0 as [y, m, d, h, mi] in the feed's zone, or [h, mi] on 2024-01-09 */
  at: number[];
  T?: number;
  direction?: 'departure' | 'arrival';
  maxTransfers?: number;
  minTransfers?: number;
  speed?: number;
  /** board slack, seconds (0 by default) */
  slack?: number;
  wheelchair?: boolean;
  tripAllowed?: Uint8Array | null;
  stopAllowed?: Uint8Array | null;
  tz?: string;
}

function query(n: Network, ask: Ask): RaptorQuery {
  const access = Array.isArray(ask.from) ? Object.fromEntries(ask.from.map((s) => [s, 0])) : ask.from;
  const [y, m, d, h, mi] = ask.at.length === 2 ? [2024, 1, 9, ask.at[0]!, ask.at[1]!] : ask.at;
  return {
    direction: ask.direction ?? 'departure',
    t0: zonedToEpoch(ask.tz ?? 'UTC', y!, m!, d!, h!, mi!, 0),
    maxDurationSec: ask.T ?? 3600,
    maxTransfers: ask.maxTransfers ?? 3,
    minTransfers: ask.minTransfers ?? 0,
    accessStops: Uint32Array.from(Object.keys(access), n.stop),
    accessSec: Int32Array.from(Object.values(access)),
    count: Object.keys(access).length,
    tripAllowed: ask.tripAllowed ?? null,
    stopAllowed: ask.stopAllowed ?? null,
    wheelchair: ask.wheelchair ?? false,
    walkingSpeed: ask.speed ?? 1,
    boardSlackSec: ask.slack ?? 0,
  };
}

/** The stops reached by a vehicle, as {stop id: seconds}, checked against the reached list. */
function reach(n: Network, ask: Ask): Record<string, number> {
  const r = n.raptor.search(query(n, ask));
  const out: Record<string, number> = {};
  n.tt.stopPoints.ids.forEach((id, s) => {
    if (r.vehicleSec[s]! >= 0) out[id] = r.vehicleSec[s]!;
  });
  const listed = Array.from(r.reached.subarray(0, r.reachedCount), (s) => n.tt.stopPoints.ids[s]!).sort();
  assert.deepEqual(listed, Object.keys(out).sort(), 'reached lists exactly the stops with a time');
  return out;
}

/*
 * TOWN
 *
 *   A ──T1,T2── B ──T1,T2── C ──U1,U2── D
 *                           ┊  (footpath C→E, 120 m, when a test gives it)
 *                           E ────V1─── F
 *
 *   T1: A 08:00  B 08:10  C 08:20        U1: C 08:25  D 08:35        V1: E 08:30  F 08:40
 *   T2: A 09:00  B 09:10  C 09:20        U2: C 08:45  D 08:55
 */
const TOWN_STOPS = `
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,45.0,1.000
B,B,45.0,1.010
C,C,45.0,1.020
D,D,45.0,1.030
E,E,45.001,1.020
F,F,45.001,1.030`;
const TOWN_TRIPS = `
# trips.txt
route_id,service_id,trip_id
L1,ALL,T1
L1,ALL,T2
L2,ALL,U1
L2,ALL,U2
L3,ALL,V1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
T1,08:00:00,08:00:00,A,1
T1,08:10:00,08:10:00,B,2
T1,08:20:00,08:20:00,C,3
T2,09:00:00,09:00:00,A,1
T2,09:10:00,09:10:00,B,2
T2,09:20:00,09:20:00,C,3
U1,08:25:00,08:25:00,C,1
U1,08:35:00,08:35:00,D,2
U2,08:45:00,08:45:00,C,1
U2,08:55:00,08:55:00,D,2
V1,08:30:00,08:30:00,E,1
V1,08:40:00,08:40:00,F,2`;
const TOWN = TOWN_STOPS + TOWN_TRIPS;
const FOOTPATH_CE: [string, string, number][] = [['C', 'E', 120]];

test('one vehicle: the stops after the boarding stop, at their arrival time minus t0; the access stop is no source', async () => {
  const n = await network(TOWN);
  // from A at 07:55: T1 reaches B at 08:10 (+15 min) and C at 08:20 (+25 min)
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], maxTransfers: 0 }), { B: 900, C: 1500 });
});

test('a second vehicle takes a transfer: the stop is reached in the next round', async () => {
  const n = await network(TOWN);
  // T1 to C at 08:20, then U1 at 08:25 to D at 08:35 (+40 min)
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], maxTransfers: 1 }), { B: 900, C: 1500, D: 2400 });
});

test('the bound is strict: a stop reached exactly at t0 + T is left out', async () => {
  const n = await network(TOWN);
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 1500 }), { B: 900 });
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 1501 }), { B: 900, C: 1500 });
});

test('several access stops, each with its own access time', async () => {
  const n = await network(TOWN);
  // A at 08:15: next T2 at 09:00, B at 09:10 (+55 min), C at 09:20 (+65 min, past the hour);
  // C 400 s away: ready at 08:21:40, U1 at 08:25, D at 08:35 (+20 min)
  assert.deepEqual(reach(n, { from: { A: 0, C: 400 }, at: [8, 15] }), { B: 3300, D: 1200 });
});

test('a footpath takes ceil(length / walking speed) to walk', async () => {
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  // C at 08:20, 120 m to E at 1 m/s: E at 08:22, V1 at 08:30, F at 08:40 (+45 min); E itself is walked to, not a source
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], speed: 1 }), { B: 900, C: 1500, D: 2400, F: 2700 });
  // at 0.2 m/s: 600 s, E at 08:30 exactly: V1 is still caught
  assert.equal(reach(n, { from: ['A'], at: [7, 55], speed: 0.2 }).F, 2700);
  // at 0.19 m/s: ceil(631.6) = 632 s, E at 08:30:32: V1 is gone
  assert.equal(reach(n, { from: ['A'], at: [7, 55], speed: 0.19 }).F, undefined);
  // a footpath is one-way: nothing walks from E back to C
  assert.deepEqual(reach(n, { from: ['E'], at: [8, 0] }), { F: 2400 });
});

test('min_transfer_time at a stop delays the change there', async () => {
  const n = await network(TOWN + '\n# transfers.txt\nfrom_stop_id,to_stop_id,transfer_type,min_transfer_time\nC,C,2,600');
  // C at 08:20, ready at 08:30: U1 (08:25) is missed, U2 at 08:45 reaches D at 08:55 = +60 min, on the bound
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55] }), { B: 900, C: 1500 });
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 3601 }), { B: 900, C: 1500, D: 3600 });
});

test('transfer_type 3 forbids the change, at a stop or between two stops', async () => {
  const transfers = (rows: string) => `\n# transfers.txt\nfrom_stop_id,to_stop_id,transfer_type,min_transfer_time\n${rows}`;
  const noChangeAtC = await network(TOWN + transfers('C,C,3,'));
  assert.deepEqual(reach(noChangeAtC, { from: ['A'], at: [7, 55], T: 7200 }), { B: 900, C: 1500 });
  // the pair C→E is forbidden: the footpath between them goes too
  const noWalk = await network(TOWN + transfers('C,E,3,'), { footpaths: FOOTPATH_CE });
  assert.equal(reach(noWalk, { from: ['A'], at: [7, 55] }).F, undefined);
  // transfers.txt's time wins over the footpath: 700 s from C (08:20) is 08:31:40, after V1
  const slow = await network(TOWN + transfers('C,E,2,700'), { footpaths: FOOTPATH_CE });
  assert.equal(reach(slow, { from: ['A'], at: [7, 55] }).F, undefined);
  // … and 300 s makes it: E at 08:25
  const ok = await network(TOWN + transfers('C,E,2,300'), { footpaths: FOOTPATH_CE });
  assert.equal(reach(ok, { from: ['A'], at: [7, 55] }).F, 2700);
  // a transfers.txt pair without time nor footpath takes 0 s
  const free = await network(TOWN + transfers('C,E,0,'));
  assert.equal(reach(free, { from: ['A'], at: [7, 55] }).F, 2700);
});

test('arrival direction: latest boarding time to reach the targets by t0, mirrored footpaths', async () => {
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  // to D by 08:40: U1 leaves C at 08:25 (-15 min); T1 leaves B at 08:10 and A at 08:00, reaching C in time for U1
  assert.deepEqual(reach(n, { from: ['D'], at: [8, 40], direction: 'arrival', maxTransfers: 0 }), { C: 900 });
  assert.deepEqual(reach(n, { from: ['D'], at: [8, 40], direction: 'arrival' }), { A: 2400, B: 1800, C: 900 });
  // to F by 08:45: V1 leaves E at 08:30; E is 120 s from C, so be at C by 08:28: T1 (C at 08:20) from B 08:10, A 08:00.
  // No vehicle boarded at C leads to F, so C is no source.
  assert.deepEqual(reach(n, { from: ['F'], at: [8, 45], direction: 'arrival' }), { A: 2700, B: 2100, E: 900 });
  // an access time on the arrival side: F is 300 s from the centre, so F must be reached by 08:40
  assert.deepEqual(reach(n, { from: { F: 300 }, at: [8, 45], direction: 'arrival' }), { A: 2700, B: 2100, E: 900 });
  assert.deepEqual(reach(n, { from: { F: 301 }, at: [8, 45], direction: 'arrival' }), {});
});

test('board slack at the first boarding: the rider is at the stop that long before the vehicle leaves', async () => {
  const n = await network(TOWN);
  // at A at 07:59: with 60 s of slack T1 (08:00) is still caught; at 07:59:01 it is gone, T2 at 09:00
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 59], maxTransfers: 0, slack: 60 }), { B: 660, C: 1260 });
  const late = zonedToEpoch('UTC', 2024, 1, 9, 7, 59, 1);
  const r = n.raptor.search({ ...query(n, { from: ['A'], at: [7, 59], maxTransfers: 0, slack: 60, T: 7200 }), t0: late });
  assert.equal(r.vehicleSec[n.stop('B')], 9 * 3600 + 600 - (7 * 3600 + 59 * 60 + 1), 'T2 reaches B at 09:10');
  // an access time counts before the slack: from 07:58, 30 s to A, then 90 s: 08:00, T1 still; 31 s misses it
  assert.deepEqual(reach(n, { from: { A: 30 }, at: [7, 58], maxTransfers: 0, slack: 90 }), { B: 720, C: 1320 });
  assert.deepEqual(reach(n, { from: { A: 31 }, at: [7, 58], maxTransfers: 0, slack: 90 }), {});
});

test('board slack at a transfer, on a change at one stop and after a footpath', async () => {
  // C at 08:20, U1 leaves at 08:25: 300 s of slack still catches it (D at 08:35), 301 s does not
  // (U2 at 08:45, D at 08:55); leaving A's side at 07:50 so that T1 (08:00) is caught either way
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  assert.equal(reach(n, { from: ['A'], at: [7, 50], slack: 300 }).D, 2700);
  assert.equal(reach(n, { from: ['A'], at: [7, 50], slack: 301, T: 7200 }).D, 3900);
  // C at 08:20, 120 s to E at 1 m/s (08:22), V1 leaves E at 08:30 (F at 08:40): 480 s of slack makes it, 481 s does not
  assert.equal(reach(n, { from: ['A'], at: [7, 51], speed: 1, slack: 480 }).F, 2940);
  assert.equal(reach(n, { from: ['A'], at: [7, 51], speed: 1, slack: 481 }).F, undefined);
});

test('board slack in the arrival direction: before each boarding, read backwards', async () => {
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  // to D by 08:40: U1 leaves C at 08:25, so be at C by 08:24 (60 s of slack): C at 960 s before t0;
  // T1 reaches C at 08:20 in time, boarded at B at 08:10 (be there by 08:09: 1860 s) and A at 08:00 (2460 s)
  assert.deepEqual(reach(n, { from: ['D'], at: [8, 40], direction: 'arrival', slack: 60 }), { A: 2460, B: 1860, C: 960 });
  // with 301 s of slack, T1 (C at 08:20) is too late for U1 (be at C by 08:19:59): no transfer, only C
  assert.deepEqual(reach(n, { from: ['D'], at: [8, 40], direction: 'arrival', slack: 301 }), { C: 1201 });
  // to F by 08:45: V1 leaves E at 08:30, be there by 08:29; walk 120 s from C: alight at C by 08:27; T1 at C at 08:20 fits
  assert.deepEqual(reach(n, { from: ['F'], at: [8, 45], direction: 'arrival', slack: 60 }), { A: 2760, B: 2160, E: 960 });
  // the first-boarding slack mirrors the departure one: be at A by 07:59 to take T1 at 08:00
  assert.equal(reach(n, { from: ['C'], at: [8, 20], direction: 'arrival', maxTransfers: 0, slack: 60 }).A, 1260);
});

test('forbidden trips and stops', async () => {
  const n = await network(TOWN);
  const trips = new Uint8Array(n.tt.trips.ids.length).fill(1);
  trips[n.tt.trips.ids.indexOf('T1')] = 0;
  // without T1, the next run from A is T2 at 09:00
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], tripAllowed: trips }), {});
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], tripAllowed: trips, T: 7200 }), { B: 4500, C: 5100 });
  const stops = new Uint8Array(n.tt.stopPoints.ids.length).fill(1);
  stops[n.stop('C')] = 0;
  // no alighting at C, hence no change to U1 either
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], stopAllowed: stops }), { B: 900 });
});

test('minimum transfers: only journeys changing vehicles at least that often count; staying aboard is no change', async () => {
  const n = await network(TOWN);
  // two vehicles from A at 07:55: T1 + U1 to D (08:35); T1 to B, then T2 from B (09:10) to C (09:20, +85 min).
  // Getting off T1 at B and back on T1 is not a transfer, so C is not at 08:20.
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 7200, maxTransfers: 2, minTransfers: 1 }), { C: 5100, D: 2400 });
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 7200, maxTransfers: 2, minTransfers: 2 }), {});
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 55], T: 7200, maxTransfers: 1, minTransfers: 2 }), {});
});

/*
 * LOOP: R1 makes a detour, and a footpath P→Q (60 m) is a shortcut.
 *
 *   Z ──R1── P ──R1── X ──R1── Q ──R1── Y      R1: Z 08:00  P 08:05  X 08:20  Q 08:30  Y 08:40
 *   Z ──R2── P                                 R2: Z 08:01  P 08:07
 *            ┊ 60 m
 *            Q
 */
const LOOP = `
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
Z,Z,45.0,1.000
P,P,45.0,1.010
X,X,45.01,1.020
Q,Q,45.0,1.011
Y,Y,45.0,1.030
# trips.txt
route_id,service_id,trip_id
L1,ALL,R1
L2,ALL,R2
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
R1,08:00:00,08:00:00,Z,1
R1,08:05:00,08:05:00,P,2
R1,08:20:00,08:20:00,X,3
R1,08:30:00,08:30:00,Q,4
R1,08:40:00,08:40:00,Y,5
R2,08:01:00,08:01:00,Z,1
R2,08:07:00,08:07:00,P,2`;

test('minimum transfers: a walk keeps the run it came off, and the second-best run still boards it', async () => {
  const n = await network(LOOP, { footpaths: [['P', 'Q', 60]] });
  // R2 to P (08:07), walk to Q (08:08), R1 from Q (08:30) to Y (08:40): one real change, +41 min from 07:59.
  // Walking off R1 at P to Q and back on R1 is no change, so Q and X need two vehicles they cannot have.
  assert.deepEqual(reach(n, { from: ['Z'], at: [7, 59], minTransfers: 1 }), { Y: 2460 });
  // without the minimum, R1 alone is best everywhere
  assert.deepEqual(reach(n, { from: ['Z'], at: [7, 59] }), { P: 360, X: 1260, Q: 1860, Y: 2460 });
});

/** Three stops A, B, C a kilometre apart, west to east, for the fixtures below. */
const ABC_STOPS = `# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,45.0,1.000
B,B,45.0,1.010
C,C,45.0,1.020`;
/** A service SAT running on Saturday 2024-01-13 only. */
const SATURDAY_ONLY = `# calendar_dates.txt
service_id,date,exception_type
SAT,20240113,1`;

/*
 * OVERTAKE: one pattern A→B→C, the express X1 leaves after the slow S1 and overtakes it.
 *   S1: A 08:00  B 08:30  C 09:00
 *   X1: A 08:05  B 08:10  C 08:20
 */
const OVERTAKE = `
${ABC_STOPS}
# trips.txt
route_id,service_id,trip_id
L1,ALL,S1
L1,ALL,X1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
S1,08:00:00,08:00:00,A,1
S1,08:30:00,08:30:00,B,2
S1,09:00:00,09:00:00,C,3
X1,08:05:00,08:05:00,A,1
X1,08:10:00,08:10:00,B,2
X1,08:20:00,08:20:00,C,3`;

test('trips that overtake each other go to different routes, and each is found', async () => {
  const n = await network(OVERTAKE);
  assert.equal(n.tt.patterns.stopOffset.length - 1, 1, 'one pattern');
  assert.equal(n.data.routeCount, 2, 'two RAPTOR routes');
  // from A at 07:59 the express is best although it leaves later
  assert.deepEqual(reach(n, { from: ['A'], at: [7, 59] }), { B: 660, C: 1260 });
  assert.deepEqual(reach(n, { from: ['A'], at: [8, 1] }), { B: 540, C: 1140 });
  // from B at 08:15 the express has passed: the slow one, C at 09:00
  assert.deepEqual(reach(n, { from: ['B'], at: [8, 15] }), { C: 2700 });
  // to C by 09:00: the latest departure from A is the express (08:05), from B the slow one (08:30)
  assert.deepEqual(reach(n, { from: ['C'], at: [9, 0], direction: 'arrival' }), { A: 3300, B: 1800 });
});

/*
 * FREQUENCIES: FQ runs G→H every 15 min from 08:00 to before 09:00 (exact_times 0), FX runs H→I
 * every 10 min from 08:00 to before 09:00 (exact_times 1). Their stop times give the shape only.
 *   FQ: G +0  H +7 min          FX: H +0  I +5 min
 */
const FREQUENCIES = `
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
G,G,45.0,1.000
H,H,45.0,1.010
I,I,45.0,1.020
# trips.txt
route_id,service_id,trip_id
L1,ALL,FQ
L2,ALL,FX
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
FQ,10:00:00,10:00:00,G,1
FQ,10:07:00,10:07:00,H,2
FX,10:00:00,10:00:00,H,1
FX,10:05:00,10:05:00,I,2
# frequencies.txt
trip_id,start_time,end_time,headway_secs,exact_times
FQ,08:00:00,09:00:00,900,0
FX,08:00:00,09:00:00,600,1`;

test('frequency-based trips run every headway from start_time, before end_time, never at their own times', async () => {
  const n = await network(FREQUENCIES);
  assert.equal(n.data.routeTripCount, 4 + 6, 'FQ 08:00..08:45, FX 08:00..08:50');
  // G at 08:16: FQ at 08:30, H at 08:37 (+21 min); FX at 08:40, I at 08:45 (+29 min)
  assert.deepEqual(reach(n, { from: ['G'], at: [8, 16] }), { H: 1260, I: 1740 });
  // G at 07:50: FQ at 08:00, H 08:07 (+17 min); FX at 08:10, I 08:15 (+25 min)
  assert.deepEqual(reach(n, { from: ['G'], at: [7, 50] }), { H: 1020, I: 1500 });
  // G at 08:46: the 09:00 run would be at end_time, so there is none; nor at the template's 10:00
  assert.deepEqual(reach(n, { from: ['G'], at: [8, 46], T: 7200 }), {});
  // the template's own times never run
  assert.deepEqual(reach(n, { from: ['G'], at: [9, 55] }), {});
});

/*
 * NIGHT: NT runs only on the service day Monday 2024-01-08, at 24:30 → 25:00, that is on Tuesday
 * 00:30 → 01:00.
 */
const NIGHT = `
# calendar_dates.txt
service_id,date,exception_type
MON,20240108,1
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
I,I,45.0,1.000
J,J,45.0,1.010
# trips.txt
route_id,service_id,trip_id
L1,MON,NT
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
NT,24:30:00,24:30:00,I,1
NT,25:00:00,25:00:00,J,2`;

test('runs past midnight of the previous service day are reached, and the 24 h cap holds', async () => {
  const n = await network(NIGHT);
  // Tuesday 00:20: the Monday run leaves at 00:30 and reaches J at 01:00 (+40 min)
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 9, 0, 20] }), { J: 2400 });
  // Monday 00:20: the run is a day later
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 8, 0, 20] }), {});
  // Monday 23:50: J at Tuesday 01:00 is +70 min
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 8, 23, 50] }), {});
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 8, 23, 50], T: 7200 }), { J: 4200 });
  // any maximum duration is capped at 24 h: from Monday 00:20, J at +24 h 40 min is out, from 01:30 (+23 h 30 min) in
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 8, 0, 20], T: 200_000 }), {});
  assert.deepEqual(reach(n, { from: ['I'], at: [2024, 1, 8, 1, 30], T: 200_000 }), { J: 84_600 });
  // arrival: to J by Tuesday 01:10, leave I at 00:30
  assert.deepEqual(reach(n, { from: ['J'], at: [2024, 1, 9, 1, 10], direction: 'arrival' }), { I: 2400 });
});

/*
 * WEEKEND: one route whose Saturday trip lies between two daily ones, as a feed's weekday and
 * weekend timetables share a route.
 *   T1 (daily):    A 08:00  B 08:05  C 08:15
 *   T2 (Saturday): A 08:05  B 08:15  C 08:25
 *   T3 (daily):    A 08:10  B 08:20  C 08:30
 */
const WEEKEND = `
${SATURDAY_ONLY}
${ABC_STOPS}
# trips.txt
route_id,service_id,trip_id
L1,ALL,T1
L1,SAT,T2
L1,ALL,T3
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
T1,08:00:00,08:00:00,A,1
T1,08:05:00,08:05:00,B,2
T1,08:15:00,08:15:00,C,3
T2,08:05:00,08:05:00,A,1
T2,08:15:00,08:15:00,B,2
T2,08:25:00,08:25:00,C,3
T3,08:10:00,08:10:00,A,1
T3,08:20:00,08:20:00,B,2
T3,08:30:00,08:30:00,C,3`;

test('a trip that does not run that day is stepped over without a search for an earlier one', async () => {
  const n = await network(WEEKEND);
  // A at 08:06 and B at 08:08: T3 boarded at A; at B the trip before it (T2) would leave later than 08:08
  // but does not run on Tuesday, and the one running before (T1) has left at 08:05: one look-up, at A
  const lookUps = () => n.raptor.work.tripSearches;
  let before = lookUps();
  assert.deepEqual(reach(n, { from: { A: 0, B: 120 }, at: [8, 6], maxTransfers: 0 }), { B: 840, C: 1440 });
  assert.equal(lookUps() - before, 1);
  // on Saturday T2 runs: looked up at B and boarded there, C at 08:25
  before = lookUps();
  assert.deepEqual(reach(n, { from: { A: 0, B: 120 }, at: [2024, 1, 13, 8, 6], maxTransfers: 0 }), { B: 840, C: 1140 });
  assert.equal(lookUps() - before, 2);
});

/*
 * DAYS: a daily line A → B → C (L1) and a Saturday line A → C (L2), for the lists a departure
 * search marks from (day-stop-routes.ts): on a Tuesday a stop lists the daily line only, on a
 * Saturday both; no stop lists a line it ends; the lists of a set of days are kept.
 */
const DAYS = `
${SATURDAY_ONLY}
${ABC_STOPS}
# trips.txt
route_id,service_id,trip_id
L1,ALL,D1
L2,SAT,S1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
D1,08:00:00,08:00:00,A,1
D1,08:10:00,08:10:00,B,2
D1,08:20:00,08:20:00,C,3
S1,09:00:00,09:00:00,A,1
S1,09:30:00,09:30:00,C,2`;

test('a stop lists the routes of the search days that go on from it; the lists of a set of days are kept', async () => {
  const { data, stop, route } = await network(DAYS);
  /** one service day, in the search's terms */
  const daysOf = (y: number, m: number, d: number): SearchDays => {
    const day = dayNumber(y, m, d) - data.serviceFirstDay;
    return { zoneSlotStart: Int32Array.of(0, 1), slotOffset: Int32Array.of(0), slotDay: Int32Array.of(day), slotWord: Int32Array.of(day >>> 5), slotBit: Int32Array.of(day & 31) };
  };
  const daily = route('D1');
  const saturday = route('S1');
  const listed = (lists: StopRouteLists, id: string) => {
    const p = stop(id);
    return Array.from(lists.routes.subarray(lists.offset[p]!, lists.offset[p + 1]!), (r, k) => [r, lists.positions[lists.offset[p]! + k]!]);
  };
  const index = new DayStopRoutes(data, 16);
  const tuesday = index.of(daysOf(2024, 1, 9));
  assert.deepEqual(listed(tuesday, 'A'), [[daily, 0]], 'the Saturday line left out on a Tuesday');
  assert.deepEqual(listed(tuesday, 'B'), [[daily, 1]]);
  assert.deepEqual(listed(tuesday, 'C'), [], 'both lines end at C');
  // kept: the same days give the same lists; a fourth set is made over the oldest's arrays
  assert.equal(index.of(daysOf(2024, 1, 9)), tuesday);
  index.of(daysOf(2024, 1, 10));
  index.of(daysOf(2024, 1, 11));
  const sat = index.of(daysOf(2024, 1, 13));
  assert.equal(sat, tuesday, "Saturday's lists made over Tuesday's");
  assert.deepEqual(listed(sat, 'A').sort(), [[daily, 0], [saturday, 0]].sort());
  assert.deepEqual(listed(index.of(daysOf(2024, 1, 9)), 'A'), [[daily, 0]], 'Tuesday made again');
});

test('service days follow daylight saving time through their origins (Europe/Paris, 2024-03-31)', async () => {
  const body = `
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,45.0,1.000
B,B,45.0,1.010
# trips.txt
route_id,service_id,trip_id
L1,ALL,EARLY
L1,ALL,DAY
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
EARLY,02:30:00,02:30:00,A,1
EARLY,02:40:00,02:40:00,B,2
DAY,08:00:00,08:00:00,A,1
DAY,08:10:00,08:10:00,B,2`;
  const n = await network(body, { tz: 'Europe/Paris' });
  const tz = 'Europe/Paris';
  // the day's origin is noon minus 12 h = 23:00 CET on the 30th: 08:00 is 08:00 CEST on the clock
  assert.deepEqual(reach(n, { from: ['A'], at: [2024, 3, 31, 7, 50], tz, T: 1800 }), { B: 1200 });
  // and 02:30 is 01:30 CET (before the clocks jump at 02:00): from 01:20, B at "02:40" = 01:40 CET
  assert.deepEqual(reach(n, { from: ['A'], at: [2024, 3, 31, 1, 20], tz, T: 1800 }), { B: 1200 });
  // the next day is an ordinary one: 02:30 is 02:30
  assert.deepEqual(reach(n, { from: ['A'], at: [2024, 4, 1, 2, 20], tz, T: 1800 }), { B: 1200 });
});

/*
 * ACCESS: W1 (wheelchair_accessible 1) and W2 (2) on K→L→M; M has wheelchair_boarding 2.
 * P1: pickup_type 1 at B2, drop_off_type 1 at C2.
 *   W1: K 08:00  L 08:10  M 08:20        P1: A2 08:00  B2 08:10  C2 08:20  D2 08:30
 *   W2: K 08:05  L 08:15  M 08:25
 */
const ACCESS = `
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding
K,K,45.0,1.000,1
L,L,45.0,1.010,1
M,M,45.0,1.020,2
A2,A2,45.1,1.000,
B2,B2,45.1,1.010,
C2,C2,45.1,1.020,
D2,D2,45.1,1.030,
# trips.txt
route_id,service_id,trip_id,wheelchair_accessible
L1,ALL,W1,1
L1,ALL,W2,2
L2,ALL,P1,
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
W1,08:00:00,08:00:00,K,1,,
W1,08:10:00,08:10:00,L,2,,
W1,08:20:00,08:20:00,M,3,,
W2,08:05:00,08:05:00,K,1,,
W2,08:15:00,08:15:00,L,2,,
W2,08:25:00,08:25:00,M,3,,
P1,08:00:00,08:00:00,A2,1,,
P1,08:10:00,08:10:00,B2,2,1,
P1,08:20:00,08:20:00,C2,3,,1
P1,08:30:00,08:30:00,D2,4,,`;

test('wheelchair: accessible trips only, boarding and alighting at accessible stops only', async () => {
  const n = await network(ACCESS);
  assert.deepEqual(reach(n, { from: ['K'], at: [7, 59], wheelchair: true }), { L: 660 });
  assert.deepEqual(reach(n, { from: ['K'], at: [8, 1], wheelchair: true }), {});
  assert.deepEqual(reach(n, { from: ['K'], at: [8, 1] }), { L: 840, M: 1440 });
  // stops with wheelchair_boarding 0 (unknown) are not accessible
  assert.deepEqual(reach(n, { from: ['A2'], at: [7, 59], wheelchair: true }), {});
});

test('pickup_type 1 forbids boarding there, drop_off_type 1 alighting', async () => {
  const n = await network(ACCESS);
  assert.deepEqual(reach(n, { from: ['A2'], at: [7, 59] }), { B2: 660, D2: 1860 });
  assert.deepEqual(reach(n, { from: ['B2'], at: [8, 5] }), {});
  assert.deepEqual(reach(n, { from: ['C2'], at: [8, 15] }), { D2: 900 });
  // reversed: to D2 by 08:30, board at A2 (08:00) or C2 (08:20), not at B2
  assert.deepEqual(reach(n, { from: ['D2'], at: [8, 30], direction: 'arrival' }), { A2: 1800, C2: 600 });
  // to C2: nobody may get off there
  assert.deepEqual(reach(n, { from: ['C2'], at: [8, 30], direction: 'arrival' }), {});
});

test('an engine gives the same answers whatever it computed before (scratch reset)', async () => {
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  const asks: Ask[] = [
    { from: ['A'], at: [7, 55], T: 7200 },
    { from: ['F'], at: [8, 45], direction: 'arrival' },
    { from: { A: 0, C: 400 }, at: [8, 15], minTransfers: 1 },
    { from: ['D'], at: [8, 40], direction: 'arrival', maxTransfers: 0 },
    { from: ['E'], at: [8, 0], T: 0 },
  ];
  const fresh = asks.map((ask) => {
    const engine: Network = { ...n, raptor: new RaptorSearch(n.data, new ServiceDays(n.tt)) };
    return reach(engine, ask);
  });
  for (let round = 0; round < 3; round++) {
    asks.forEach((ask, i) => assert.deepEqual(reach(n, ask), fresh[i], `query ${i}, pass ${round}`));
  }
  assert.ok(Object.keys(fresh[0]!).length > 0);
});

test('the compiled data is plain typed arrays on shared memory, and a clone shares it', async () => {
  const n = await network(TOWN, { footpaths: FOOTPATH_CE });
  for (const [key, value] of Object.entries(n.data)) {
    if (typeof value === 'number') continue;
    assert.ok(ArrayBuffer.isView(value), `${key} is a typed array`);
    assert.ok(value.buffer instanceof SharedArrayBuffer, `${key} is on a SharedArrayBuffer`);
  }
  assert.ok(raptorDataBytes(n.data) > 0);
  const copy = structuredClone(n.data);
  copy.arrivalSec[0] = 12345;
  assert.equal(n.data.arrivalSec[0], 12345, 'the clone shares the memory');
});

test('routes: trip-major stop times, stop→route index with positions, FIFO trips', async () => {
  const n = await network(TOWN);
  const d = n.data;
  const id = (s: number) => n.tt.stopPoints.ids[s];
  // every (stop, position) of every route is listed once under that stop
  for (let r = 0; r < d.routeCount; r++) {
    const S = d.routeStopOffset[r + 1]! - d.routeStopOffset[r]!;
    const K = d.routeTripOffset[r + 1]! - d.routeTripOffset[r]!;
    assert.equal(d.routeStopTimeOffset[r + 1]! - d.routeStopTimeOffset[r]!, S * K);
    for (let i = 0; i < S; i++) {
      const s = d.routeStops[d.routeStopOffset[r]! + i]!;
      const hits = [];
      for (let e = d.stopRouteOffset[s]!; e < d.stopRouteOffset[s + 1]!; e++) if (d.stopRoutes[e] === r && d.stopRoutePos[e] === i) hits.push(e);
      assert.equal(hits.length, 1, `route ${r} position ${i} (${id(s)})`);
    }
  }
  // the route of T1 and T2: A B C, T1 then T2, times laid out trip after trip
  const r = n.route('T1');
  const stops = Array.from(d.routeStops.subarray(d.routeStopOffset[r]!, d.routeStopOffset[r + 1]!), id);
  assert.deepEqual(stops, ['A', 'B', 'C']);
  const trips = Array.from(d.routeTripTrip.subarray(d.routeTripOffset[r]!, d.routeTripOffset[r + 1]!), (t) => n.tt.trips.ids[t]);
  assert.deepEqual(trips, ['T1', 'T2']);
  const o = d.routeStopTimeOffset[r]!;
  assert.deepEqual(Array.from(d.departureSec.subarray(o, o + 6)), [8, 8 + 1 / 6, 8 + 2 / 6, 9, 9 + 1 / 6, 9 + 2 / 6].map((h) => Math.round(h * 3600)));
});
