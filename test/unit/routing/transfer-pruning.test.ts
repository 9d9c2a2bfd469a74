/**
 * The connections a search leaves out (transfer-pruning.ts), on a hand-made line: which ones at
 * which walking speed, the pickup and drop-off rules, and that searches answer the same with and
 * without them. (The rnv cross-check in test/e2e/raptor-rnv.test.ts runs pruned searches against a
 * connection scan that walks every footpath.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { ServiceDays } from '../../../src/model/service-days.js';
import { buildRaptorData, type RaptorData } from '../../../src/routing/raptor-data.js';
import { RaptorSearch } from '../../../src/routing/raptor.js';
import { pruneTransfers, routeGaps } from '../../../src/routing/transfer-pruning.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import type { Timetable } from '../../../src/model/timetable.js';
import { applyScenario } from '../../../src/scenarios/apply-scenario.js';
import { readScenarioFile } from '../../../src/scenarios/scenario-file.js';
import { buildScenarioOverlay } from '../../../src/scenarios/scenario-overlay.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

/*
 *   O ──Z── P     (Z brings riders to P at 07:55)
 *
 *   line L: A ──120 s── B ──120 s── C     (two trips, 08:00 and 08:30 from A; the later one
 *                                           slower between A and B: 180 s)
 *   D: no route
 *
 *   footpaths from P: A 100 m, B 300 m, C 200 m, D 50 m; and back to P: A 100 m, B 300 m, C 50 m
 */
function feed(pickupAtA: number): string {
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
AG,Agency,http://a.example,UTC
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
ALL,1,1,1,1,1,1,1,20240101,20240430
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
L,AG,L,,3
Z,AG,Z,,3
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
O,O,45.0,0.990
P,P,45.0,1.000
A,A,45.001,1.000
B,B,45.001,1.010
C,C,45.001,1.020
D,D,45.002,1.000
# trips.txt
route_id,service_id,trip_id
L,ALL,L1
L,ALL,L2
Z,ALL,Z1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
L1,08:00:00,08:00:00,A,1,${pickupAtA},0
L1,08:02:00,08:02:00,B,2,0,0
L1,08:04:00,08:04:00,C,3,0,0
L2,08:30:00,08:30:00,A,1,0,0
L2,08:33:00,08:33:00,B,2,0,0
L2,08:35:00,08:35:00,C,3,0,0
Z1,07:50:00,07:50:00,O,1,0,0
Z1,07:55:00,07:55:00,P,2,0,0
`;
}

const FOOTPATHS: [string, string, number][] = [
  ['P', 'A', 100],
  ['P', 'B', 300],
  ['P', 'C', 200],
  ['P', 'D', 50],
  ['A', 'P', 100],
  ['B', 'P', 300],
  ['C', 'P', 50],
  ['A', 'C', 600],
];

async function line(pickupAtA = 0): Promise<{ data: RaptorData; days: ServiceDays; id: (s: number) => string; stop: (id: string) => number; tt: Timetable }> {
  const tt = await loadTimetable([writeFeed(feed(pickupAtA))], { report: new LoadReport() });
  const stop = (id: string) => tt.stopPoints.ids.indexOf(id);
  const data = buildRaptorData(tt, {
    from: Uint32Array.from(FOOTPATHS, ([a]) => stop(a)),
    to: Uint32Array.from(FOOTPATHS, ([, b]) => stop(b)),
    lengthM: Float64Array.from(FOOTPATHS, ([, , m]) => m),
  });
  return { data, days: new ServiceDays(tt), id: (s) => tt.stopPoints.ids[s]!, stop, tt };
}

/** The stops `at` (P by default) keeps connections to (departure searches) and from (arrival searches) at `speed`. */
async function keptAtP(speed: number, pickupAtA = 0, at = 'P'): Promise<{ out: string[]; into: string[] }> {
  const { data, id, stop } = await line(pickupAtA);
  const kept = pruneTransfers(data, routeGaps(data), speed);
  const p = stop(at);
  const out = Array.from(kept.outTo.subarray(kept.outOffset[p]!, kept.outOffset[p + 1]!), id).sort();
  const into = Array.from(kept.inFrom.subarray(kept.inOffset[p]!, kept.inOffset[p + 1]!), id).sort();
  return { out, into };
}

test('a boarding is left out when an earlier stop of every route through it is as good: walk there plus the longest ride between them', async () => {
  // at 1 m/s: B (300 s) is dominated by A (100 s + the longest A→B leave-to-leave time, 180 s = 280 s);
  // C (200 s) is not (100 + 180 + 120 = 400 s); D has no route: never needed
  assert.deepEqual((await keptAtP(1)).out, ['A', 'C']);
  // at 4 m/s: B at 75 s, A at 25 s + 180 s: B is kept
  assert.deepEqual((await keptAtP(4)).out, ['A', 'B', 'C']);
  // at 0.5 m/s: B at 600 s, A at 200 + 180 s: left out; at 2 m/s: B at 150 s, A at 50 + 180 s: kept
  assert.deepEqual((await keptAtP(0.5)).out, ['A', 'C']);
  assert.deepEqual((await keptAtP(2)).out, ['A', 'B', 'C']);
});

test('the stop itself dominates: staying at A beats walking 600 s to C, which the line reaches within 300 s', async () => {
  // (P stays: the line Z calls there)
  assert.deepEqual((await keptAtP(1, 0, 'A')).out, ['P']);
  // and an arrival search does not walk from A to C: staying on the line to C is as good
  assert.deepEqual((await keptAtP(1, 0, 'C')).into, ['P']);
  // walking 600 m at 4 m/s (150 s) beats the line: kept both ways
  assert.deepEqual((await keptAtP(4, 0, 'A')).out, ['C', 'P']);
  assert.deepEqual((await keptAtP(4, 0, 'C')).into, ['A', 'P']);
});

test('a stop where some trip may not be boarded dominates nothing', async () => {
  // pickup_type 1 at A on the 08:00 trip: a rider at A cannot take it where one at B can
  assert.deepEqual((await keptAtP(1, 1)).out, ['A', 'B', 'C']);
});

test('arrival searches keep the alightings no later stop beats: walk from it plus the longest ride to it', async () => {
  // walking to P at 1 m/s: from C 50 s, from B 300 s, from A 100 s. B is dominated by C (50 + the
  // longest B→C arrive-to-arrive time, 120 s = 170 s); A is not (50 + 300 s = 350 s against 100 s)
  assert.deepEqual((await keptAtP(1)).into, ['A', 'C']);
  // at 4 m/s: B at 75 s against C at 12.5 + 120 s: kept
  assert.deepEqual((await keptAtP(4)).into, ['A', 'B', 'C']);
});

test('searches answer the same with the needed connections as with every one, both ways, at several speeds', async () => {
  const { data, days, stop } = await line();
  const pruned = new RaptorSearch(data, days);
  const full = new RaptorSearch(data, days, undefined, false);
  for (const direction of ['departure', 'arrival'] as const) {
    for (const speed of [0.5, 1, 1.5, 4]) {
      for (let minute = 0; minute < 60; minute += 5) {
        const from = direction === 'departure' ? 'O' : 'C';
        const t0 = zonedToEpoch('UTC', 2024, 1, 9, direction === 'departure' ? 7 : 8, direction === 'departure' ? 40 + (minute % 20) : minute, 0);
        const q = { direction, t0, maxDurationSec: 7200, maxTransfers: 2, minTransfers: 0, accessStops: Uint32Array.of(stop(from)), accessSec: Int32Array.of(0), count: 1, tripAllowed: null, stopAllowed: null, wheelchair: false, walkingSpeed: speed, boardSlackSec: 30 };
        const a = Array.from(pruned.search(q).vehicleSec);
        const b = Array.from(full.search(q).vehicleSec);
        assert.deepEqual(a, b, `${direction} at ${speed} m/s, minute ${minute}`);
      }
    }
  }
});

test('over an overlay, the pruned connections and those its routes need answer as every connection does', async () => {
  const { data, days, stop, tt } = await line();
  // a new route from D, which no route of the timetable serves (every connection to it is pruned), to C; L1 removed
  const scenario = readScenarioFile(
    JSON.stringify({
      modifications: [
        { type: 'add-trips', stops: [{ id: 'D' }, { id: 'C' }], frequencies: [{ firstDepartures: [28860], hopTimes: [60], dwellTimes: [0, 0], monday: true, tuesday: true }], bidirectional: true },
        { type: 'remove-trips', trips: ['L1'] },
      ],
    }),
  );
  const applied = applyScenario(tt, { firstDay: dayNumber(2024, 1, 1), lastDay: dayNumber(2024, 4, 30) }, scenario.scenario, 'plan');
  assert.deepEqual(applied.errors, []);
  const overlay = buildScenarioOverlay(tt, data, applied, null);
  const pruned = new RaptorSearch(data, days);
  const full = new RaptorSearch(data, days, undefined, false);
  let viaD = 0;
  for (const direction of ['departure', 'arrival'] as const) {
    for (const speed of [0.5, 1, 1.5, 4]) {
      for (let minute = 0; minute < 60; minute += 5) {
        const from = direction === 'departure' ? 'O' : 'C';
        const t0 = zonedToEpoch('UTC', 2024, 1, 9, direction === 'departure' ? 7 : 8, direction === 'departure' ? 40 + (minute % 20) : minute, 0);
        const q = { direction, t0, maxDurationSec: 7200, maxTransfers: 2, minTransfers: 0, accessStops: Uint32Array.of(stop(from)), accessSec: Int32Array.of(0), count: 1, tripAllowed: null, stopAllowed: null, wheelchair: false, walkingSpeed: speed, boardSlackSec: 30, overlay };
        const a = Array.from(pruned.search(q).vehicleSec);
        const b = Array.from(full.search(q).vehicleSec);
        assert.deepEqual(a, b, `${direction} at ${speed} m/s, minute ${minute}`);
        const without = pruned.search({ ...q, overlay: null }).vehicleSec[stop(direction === 'departure' ? 'C' : 'O')]!;
        const withPlan = a[stop(direction === 'departure' ? 'C' : 'O')]!;
        if (withPlan >= 0 && (without < 0 || withPlan < without)) viaD++;
      }
    }
  }
  // the new route through D is taken (the search would miss it with the pruned connections alone)
  assert.ok(viaD > 0);
});
