/**
 * A scenario's new stop served by the routing engine (routing/overlay-stops.ts): RAPTOR both ways,
 * the walks from and to it, the heat maps on a grid and at points, single departures and windows.
 * Each answer is checked by hand and against the oracle: the same world with the new stop and its
 * trips written into the feed.
 *
 * The city: one footway 7 km east along the equator, walked at 1 m/s, and on it
 *
 *   x:    100        2000   2300        5000   6000
 *         W ─────────  N ─── M ─────────  F ──── E
 *
 *   L1 W 08:01 → E 08:09;  L2 M 08:11 → F 08:13;  L3 E 07:50 → M 07:55
 *
 * The scenario adds N (300 m west of M) and a line W → N leaving W at 08:02 and 08:12, two minutes
 * to N, and its reverse N → W at the same times. The board slack is 60 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import type { Timetable } from '../../../src/model/timetable.js';
import { ServiceDays } from '../../../src/model/service-days.js';
import { sharedCopy } from '../../../src/model/shared-arrays.js';
import { snapStops } from '../../../src/model/stop-snaps.js';
import { linkPointRange, unlinkedPoints, type LinkedPoints } from '../../../src/model/linked-points.js';
import { walkingFootpaths } from '../../../src/routing/footpaths.js';
import { buildRaptorData } from '../../../src/routing/raptor-data.js';
import { DEFAULT_WALKING_SPEED, pruneTransfers, routeGaps } from '../../../src/routing/transfer-pruning.js';
import { RaptorSearch, type RaptorQuery } from '../../../src/routing/raptor.js';
import type { RaptorOverlay } from '../../../src/routing/raptor-overlay.js';
import { HeatMapEngine, type HeatMapData, type HeatMapQuery } from '../../../src/routing/heat-map.js';
import { WindowEngine } from '../../../src/routing/window-heat-map.js';
import type { Grid } from '../../../src/routing/grid.js';
import { applyScenario } from '../../../src/scenarios/apply-scenario.js';
import { readScenarioFile } from '../../../src/scenarios/scenario-file.js';
import { buildScenarioOverlay } from '../../../src/scenarios/scenario-overlay.js';
import { buildOverlayStops, overlayStopsSteps } from '../../../src/routing/overlay-stops.js';
import { TRANSFER_HORIZON_M } from '../../../src/service/street-network-build.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { METRES_PER_DEGREE } from '../../../src/util/geodesy.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { graphOf, lonOfX } from '../../helpers/street-fixture.js';
import { walkingQueryFrom } from '../../helpers/heat-map-query.js';

const X = { W: 100, N: 2000, M: 2300, F: 5000, E: 6000 };
const at = (h: number, m: number, s = 0) => zonedToEpoch('UTC', 2024, 1, 2, h, m, s);

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,City,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
W,West,0,${lonOfX(X.W)}
M,Middle,0,${lonOfX(X.M)}
F,Far,0,${lonOfX(X.F)}
E,East,0,${lonOfX(X.E)}
#ORACLE_STOPS
# routes.txt
route_id,agency_id,route_short_name,route_type
L1,A,1,3
L2,A,2,3
L3,A,3,3
#ORACLE_ROUTES
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
L1,all,t1
L2,all,t2
L3,all,t3
#ORACLE_TRIPS
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
t1,08:01:00,08:01:00,W,1
t1,08:09:00,08:09:00,E,2
t2,08:11:00,08:11:00,M,1
t2,08:13:00,08:13:00,F,2
t3,07:50:00,07:50:00,E,1
t3,07:55:00,07:55:00,M,2
#ORACLE_STOP_TIMES
`;

/** The feed with `extra` rows after each section's marker (the oracle's line written in), or without them. */
function feed(extra: { stops?: string[]; routes?: string[]; trips?: string[]; stopTimes?: string[] } = {}): string {
  return FEED.replace('#ORACLE_STOPS', (extra.stops ?? []).join('\n'))
    .replace('#ORACLE_ROUTES', (extra.routes ?? []).join('\n'))
    .replace('#ORACLE_TRIPS', (extra.trips ?? []).join('\n'))
    .replace('#ORACLE_STOP_TIMES', (extra.stopTimes ?? []).join('\n'));
}

/** The scenario's line W → N (and back) written as GTFS: its trips at 08:02 and 08:12. */
const NEW_LINE_IN_FEED = {
  stops: [`N,New,0,${lonOfX(X.N)}`],
  routes: ['S,A,S,3'],
  trips: ['S,all,s1', 'S,all,s2', 'S,all,r1', 'S,all,r2'],
  stopTimes: [
    's1,08:02:00,08:02:00,W,1',
    's1,08:04:00,08:04:00,N,2',
    's2,08:12:00,08:12:00,W,1',
    's2,08:14:00,08:14:00,N,2',
    'r1,08:02:00,08:02:00,N,1',
    'r1,08:04:00,08:04:00,W,2',
    'r2,08:12:00,08:12:00,N,1',
    'r2,08:14:00,08:14:00,W,2',
  ],
};

const NEW_LINE = {
  type: 'add-trips',
  stops: [{ id: 'W' }, { lat: 0, lon: lonOfX(X.N), name: 'New' }],
  frequencies: [{ startTime: 8 * 3600 + 120, endTime: 8 * 3600 + 780, headwaySecs: 600, hopTimes: [120], dwellTimes: [0, 0], ...everyDay() }],
};

/** The same scenario over existing stops only: a trip W 08:02 → M 08:07, no new stop. */
const OLD_STOPS_LINE = {
  type: 'add-trips',
  stops: [{ id: 'W' }, { id: 'M' }],
  frequencies: [{ firstDepartures: [8 * 3600 + 120], hopTimes: [300], dwellTimes: [0, 0], ...everyDay() }],
  bidirectional: false,
};
const OLD_STOPS_LINE_IN_FEED = { routes: ['S,A,S,3'], trips: ['S,all,s1'], stopTimes: ['s1,08:02:00,08:02:00,W,1', 's1,08:07:00,08:07:00,M,2'] };

function everyDay() {
  return { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
}

/** The footway, 7 km east along the equator. */
const { graph } = graphOf(
  Array.from({ length: 8 }, (_, k) => [k * 1000, 0] as [number, number]),
  [{ nodes: [0, 1, 2, 3, 4, 5, 6, 7], tags: { highway: 'footway' } }],
);

/** Points on the footway, metres east. */
const POINT_X = [200, 1500, 2100, 2400, 4000, 5100];

interface World {
  tt: Timetable;
  data: HeatMapData;
  points: LinkedPoints;
  stop: (id: string) => number;
}

/** A coverage of `text` on the footway, as the service builds one (stops linked, footpaths at the transfer horizon). */
async function world(text: string): Promise<World> {
  const tt = await loadTimetable([writeFeed(text, 'city')]);
  const stopLon = sharedCopy(Float64Array, tt.stopPoints.lon);
  const stopLat = sharedCopy(Float64Array, tt.stopPoints.lat);
  const snaps = snapStops(graph, stopLon, stopLat);
  const raptor = buildRaptorData(tt, walkingFootpaths(graph, snaps, TRANSFER_HORIZON_M));
  const days = new ServiceDays(tt);
  const points = unlinkedPoints('places', Float64Array.from(POINT_X, lonOfX), new Float64Array(POINT_X.length), []);
  linkPointRange(graph, points, 0, POINT_X.length);
  const prunedTransfers = pruneTransfers(raptor, routeGaps(raptor), DEFAULT_WALKING_SPEED);
  const data: HeatMapData = { graph, snaps, raptor, prunedTransfers, serviceDayOrigins: days.originSec, serviceFirstDay: days.firstDay, stopLon, stopLat, pointSets: [points] };
  return { tt, data, points, stop: (id) => tt.stopPoints.ids.indexOf(id) };
}

/** The overlay of `modifications` on world w, as the service makes it. */
function overlayOf(w: World, modifications: unknown[]): RaptorOverlay {
  const read = readScenarioFile(JSON.stringify({ name: 'plan', modifications }));
  assert.deepEqual(read.errors, []);
  const applied = applyScenario(w.tt, { firstDay: dayNumber(2024, 1, 1), lastDay: dayNumber(2024, 12, 31) }, read.scenario, 'plan');
  assert.deepEqual(applied.errors, []);
  return buildScenarioOverlay(w.tt, w.data.raptor, applied, { data: w.data, maxWalkM: TRANSFER_HORIZON_M });
}

const base = await world(feed());
const oracle = await world(feed(NEW_LINE_IN_FEED));
const withNewStop = overlayOf(base, [NEW_LINE]);
/** the new stop's index: after the timetable's */
const N = base.tt.stopPoints.ids.length;

const engines = new Map<World, { engine: HeatMapEngine; window: WindowEngine; raptor: RaptorSearch }>();
function enginesOf(w: World) {
  let e = engines.get(w);
  if (!e) {
    const engine = new HeatMapEngine(w.data, 3600, 201);
    engines.set(w, (e = { engine, window: new WindowEngine(engine, 1800), raptor: new RaptorSearch(w.data.raptor, w.data.serviceDayOrigins, w.data.serviceFirstDay) }));
  }
  return e;
}

/** RAPTOR from one stop (0 s access) in world w: each stop's vehicle seconds by id, -1 unreached (the new stop as `N`). */
function raptorFrom(w: World, from: string, direction: RaptorQuery['direction'], t0: number, overlay: RaptorOverlay | null): Record<string, number> {
  const result = enginesOf(w).raptor.search({
    direction,
    t0,
    maxDurationSec: 3600,
    maxTransfers: 5,
    minTransfers: 0,
    accessStops: Uint32Array.of(w.stop(from)),
    accessSec: Int32Array.of(0),
    count: 1,
    tripAllowed: null,
    stopAllowed: null,
    wheelchair: false,
    walkingSpeed: 1,
    boardSlackSec: 60,
    overlay,
  });
  const out: Record<string, number> = {};
  w.tt.stopPoints.ids.forEach((id, p) => (out[id] = result.vehicleSec[p]!));
  if (overlay?.stops) out['N'] = result.vehicleSec[N]!;
  return out;
}

/** A walking map from stop `from` at `t0` (1 m/s, no transfers' limit to speak of). */
function queryFrom(w: World, from: string, t0: number, over: Partial<HeatMapQuery> = {}): HeatMapQuery {
  const q = walkingQueryFrom(w.data.stopLon, w.data.stopLat, w.stop(from), t0, { boardSlackSec: 60, maxDurationSec: 3600, resolution: 201, ...over });
  return { ...q, speeds: { ...q.speeds, walking: 1 } };
}

/**
 * A grid of 201 cells a side of 40 m, over x from -19.5 to 8020.5 m and y from -4020 to 4020 m: cell
 * (i, j)'s centre at x = 40 i + 0.5, y = 40 (j - 100) (half a metre off the whole metres, so that
 * a cell's whole seconds do not hang on the projection's last bits).
 */
const GRID: Grid = { minLon: lonOfX(-19.5), maxLon: lonOfX(8020.5), minLat: -4020 / METRES_PER_DEGREE, maxLat: 4020 / METRES_PER_DEGREE, resolution: 201 };
/** The cell whose centre is on the footway x + 0.5 metres east. */
const cellAt = (x: number) => (x / 40) * 201 + 100;

const pointSec = (w: World, q: HeatMapQuery) => Array.from(enginesOf(w).engine.computePoints(q, w.points).seconds);
const gridSec = (w: World, q: HeatMapQuery) => Array.from(enginesOf(w).engine.compute(q, GRID).seconds);

test('the new stop links to the footway and walks to M (300 m) and back, as the same stop in the feed would', () => {
  const stops = withNewStop.stops!;
  assert.equal(stops.count, N + 1);
  assert.equal(stops.baseCount, N);
  assert.equal(stops.snaps.edge[0]![N], oracle.data.snaps.edge[0]![oracle.stop('N')]);
  const walks = (offset: Uint32Array, other: Uint32Array, lengthM: Float64Array, p: number) => {
    const out: Record<string, number> = {};
    for (let k = offset[p]!; k < offset[p + 1]!; k++) out[other[k] === N ? 'N' : base.tt.stopPoints.ids[other[k]!]!] = lengthM[k]!;
    return out;
  };
  // from N: M only (W is 1,900 m away, past the 1 km horizon); into N: from M only
  const fromN = walks(stops.transferOffset, stops.transferTo, stops.transferLengthM, N);
  const intoN = walks(stops.transferInOffset, stops.transferInFrom, stops.transferInLengthM, N);
  assert.deepEqual(Object.keys(fromN), ['M']);
  assert.deepEqual(Object.keys(intoN), ['M']);
  assert.ok(Math.abs(fromN['M']! - 300) < 1e-3, `${fromN['M']}`);
  // the oracle's footpaths between N and M, to the last bit, both ways
  const { raptor } = oracle.data;
  const oracleLength = (from: string, to: string) => {
    for (let e = raptor.transferOffset[oracle.stop(from)]!; e < raptor.transferOffset[oracle.stop(from) + 1]!; e++) if (raptor.transferTo[e] === oracle.stop(to)) return raptor.transferLengthM[e]!;
    return undefined;
  };
  assert.equal(fromN['M'], oracleLength('N', 'M'));
  assert.equal(intoN['M'], oracleLength('M', 'N'));
  // M's own connections gain the walk to N (by leaving stop) and from it (by arriving stop), no other
  assert.deepEqual(walks(stops.transferOffset, stops.transferTo, stops.transferLengthM, base.stop('M')), { N: intoN['M'] });
  assert.deepEqual(walks(stops.transferInOffset, stops.transferInFrom, stops.transferInLengthM, base.stop('M')), { N: fromN['M'] });
});

test('RAPTOR leaving W at 08:00: N by the new line at 08:04, then a walk to M and L2 to F at 08:13', () => {
  const got = raptorFrom(base, 'W', 'departure', at(8, 0), withNewStop);
  // N 240 s; at N 08:04, 300 s to M, at M 08:09 (slack by 08:10), L2 at 08:11 to F at 08:13: 780 s;
  // back to W by the reverse line's 08:12 at 08:14: 840 s
  assert.deepEqual(got, { W: 840, M: -1, F: 780, E: 540, N: 240 });
  assert.deepEqual(got, raptorFrom(oracle, 'W', 'departure', at(8, 0), null));
  // without the scenario F is out of reach
  assert.deepEqual(raptorFrom(base, 'W', 'departure', at(8, 0), null), { W: -1, M: -1, F: -1, E: 540 });
});

test('RAPTOR leaving E at 07:45: L3 to M, a walk to N, the reverse line to W at 08:04', () => {
  const got = raptorFrom(base, 'E', 'departure', at(7, 45), withNewStop);
  // M at 07:55 (600 s), N at 08:00, boarding at 08:02 (slack by 08:01), W at 08:04: 1,140 s; and on
  // by the 08:12 to N at 08:14: 1,740 s (F by L2 from M at 08:13, as without the scenario)
  assert.deepEqual(got, { W: 1140, M: 600, F: 1680, E: -1, N: 1740 });
  assert.deepEqual(got, raptorFrom(oracle, 'E', 'departure', at(7, 45), null));
  assert.deepEqual(raptorFrom(base, 'E', 'departure', at(7, 45), null), { W: -1, M: 600, F: 1680, E: -1 });
});

test('RAPTOR arriving at F by 08:13 (backwards): W by the new line and the walk N → M; arriving at W by 08:05: N', () => {
  const got = raptorFrom(base, 'F', 'arrival', at(8, 13), withNewStop);
  // L2 boarded at M at 08:11 (there by 08:10): 180 s; the new line boarded at W at 08:02 (there by
  // 08:01): 720 s; L3 boarded at E at 07:50 for M: 1,440 s, as without the scenario
  assert.deepEqual(got, { W: 720, M: 180, F: -1, E: 1440, N: -1 });
  assert.deepEqual(got, raptorFrom(oracle, 'F', 'arrival', at(8, 13), null));
  assert.deepEqual(raptorFrom(base, 'F', 'arrival', at(8, 13), null), { W: -1, M: 180, F: -1, E: 1440 });
  // the reverse line boarded at N at 08:02, there by 08:01
  const toW = raptorFrom(base, 'W', 'arrival', at(8, 5), withNewStop);
  assert.equal(toW['N'], 240);
  assert.deepEqual(toW, raptorFrom(oracle, 'W', 'arrival', at(8, 5), null));
});

test('points and grid leaving W at 08:00: 100 m past N is 340 s away (2,000 s on foot without the scenario)', () => {
  const q = queryFrom(base, 'W', at(8, 0));
  const points = pointSec(base, { ...q, overlay: withNewStop });
  assert.equal(points[POINT_X.indexOf(2100)], 340);
  assert.deepEqual(points, pointSec(oracle, queryFrom(oracle, 'W', at(8, 0))));
  // cells 80.5 m and 200.5 m east of N
  const cells = gridSec(base, { ...q, overlay: withNewStop });
  assert.equal(cells[cellAt(2080)], 320);
  assert.equal(cells[cellAt(2200)], 440);
  assert.deepEqual(cells, gridSec(oracle, queryFrom(oracle, 'W', at(8, 0))));
  // its own grid too: the box around N as the oracle's around its stop
  const own = enginesOf(base).engine.compute({ ...q, overlay: withNewStop });
  const ownOracle = enginesOf(oracle).engine.compute(queryFrom(oracle, 'W', at(8, 0)));
  assert.deepEqual(own.grid, ownOracle.grid);
  assert.deepEqual(Array.from(own.seconds), Array.from(ownOracle.seconds));
  assert.equal(own.vehicleStops, ownOracle.vehicleStops);
});

test('points and grid arriving at W by 08:05 (backwards): 100 m past N is 340 s away, through the reverse line', () => {
  const q = queryFrom(base, 'W', at(8, 5), { direction: 'arrival' });
  const points = pointSec(base, { ...q, overlay: withNewStop });
  // leave at 07:59:20, at N by 08:01 for the 08:02, at W at 08:04
  assert.equal(points[POINT_X.indexOf(2100)], 340);
  assert.deepEqual(points, pointSec(oracle, queryFrom(oracle, 'W', at(8, 5), { direction: 'arrival' })));
  const cells = gridSec(base, { ...q, overlay: withNewStop });
  assert.equal(cells[cellAt(2080)], 320);
  assert.deepEqual(cells, gridSec(oracle, queryFrom(oracle, 'W', at(8, 5), { direction: 'arrival' })));
});

test('a departure window from W, 07:58 to 08:06: the percentiles of 100 m past N over the two runs of the new line', () => {
  const window = { windowSec: 9 * 60, percentiles: [10, 50, 90], selected: 1 };
  const q = queryFrom(base, 'W', at(7, 58));
  const got = enginesOf(base).window.computePoints({ ...q, overlay: withNewStop }, window, base.points);
  // minutes 07:58 to 08:01 take the 08:02 (at the point 08:05:40), 08:02 to 08:06 the 08:12 (08:15:40):
  // 460, 400, 340, 280, 820, 760, 700, 640, 580 s; ranks 1, 5, 9
  assert.deepEqual(
    got.percentiles!.map((m) => m.seconds[POINT_X.indexOf(2100)]),
    [280, 580, 820],
  );
  const oracleQ = queryFrom(oracle, 'W', at(7, 58));
  const expected = enginesOf(oracle).window.computePoints(oracleQ, window, oracle.points);
  assert.deepEqual(
    got.percentiles!.map((m) => Array.from(m.seconds)),
    expected.percentiles!.map((m) => Array.from(m.seconds)),
  );
  const grid = enginesOf(base).window.compute({ ...q, overlay: withNewStop }, window, GRID);
  const oracleGrid = enginesOf(oracle).window.compute(oracleQ, window, GRID);
  assert.deepEqual(
    grid.percentiles!.map((m) => m.seconds[cellAt(2080)]),
    [260, 560, 800],
  );
  assert.deepEqual(
    grid.percentiles!.map((m) => Array.from(m.seconds)),
    oracleGrid.percentiles!.map((m) => Array.from(m.seconds)),
  );
});

test('without the overlay, the same queries answer as the timetable alone, before and after a query with it', () => {
  const departure = queryFrom(base, 'W', at(8, 0));
  const arrival = queryFrom(base, 'W', at(8, 5), { direction: 'arrival' });
  const before = [pointSec(base, departure), gridSec(base, departure), pointSec(base, arrival), gridSec(base, arrival)];
  // on foot: 1,400 s to 1,400 m east of W, either way; 100 m past N is past the 1,800 s walk to a point
  for (const points of [before[0]!, before[2]!]) {
    assert.equal(points[POINT_X.indexOf(1500)], 1400);
    assert.equal(points[POINT_X.indexOf(2100)], -1);
  }
  assert.equal(before[1]![cellAt(2080)], 1980);
  // with the overlay: 500 m past N, 740 s
  assert.equal(pointSec(base, { ...departure, overlay: withNewStop })[POINT_X.indexOf(1500)], 740);
  gridSec(base, { ...arrival, overlay: withNewStop });
  assert.deepEqual([pointSec(base, departure), gridSec(base, departure), pointSec(base, arrival), gridSec(base, arrival)], before);
  // and the timetable alone answers as the oracle with its new line's trips forbidden
  const tripAllowed = Uint8Array.from(oracle.tt.trips.ids, (id) => (/^[sr]\d$/.test(id) ? 0 : 1));
  assert.deepEqual(before[0], pointSec(oracle, { ...queryFrom(oracle, 'W', at(8, 0)), tripAllowed }));
  assert.deepEqual(before[1], gridSec(oracle, { ...queryFrom(oracle, 'W', at(8, 0)), tripAllowed }));
});

test('an overlay without new stops (a line W → M) answers as the same line written into the feed', async () => {
  const overlay = overlayOf(base, [OLD_STOPS_LINE]);
  assert.equal(overlay.stops, null);
  const written = await world(feed(OLD_STOPS_LINE_IN_FEED));
  for (const [from, direction, t0] of [
    ['W', 'departure', at(8, 0)],
    ['F', 'arrival', at(8, 13)],
  ] as const) {
    assert.deepEqual(raptorFrom(base, from, direction, t0, overlay), raptorFrom(written, from, direction, t0, null));
    const q = queryFrom(base, from, t0, { direction });
    assert.deepEqual(pointSec(base, { ...q, overlay }), pointSec(written, queryFrom(written, from, t0, { direction })));
    assert.deepEqual(gridSec(base, { ...q, overlay }), gridSec(written, queryFrom(written, from, t0, { direction })));
  }
  // W 08:02 → M 08:07, then L2 at 08:11 to F at 08:13
  assert.equal(raptorFrom(base, 'W', 'departure', at(8, 0), overlay)['F'], 780);
});

test('the new stops\' walks are found a few stops at a time, the walks one search list of them all finds', async () => {
  const base = await world(FEED);
  const { snaps, stopLon, stopLat } = base.data;
  const places = Array.from({ length: 40 }, (_, k) => ({ lon: lonOfX(X.W + 50 * k), lat: 0 }));
  const steps = overlayStopsSteps(graph, snaps, stopLon, stopLat, places, TRANSFER_HORIZON_M);
  let yields = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) yields++;
  // 40 stops, 16 a step
  assert.equal(yields, 3);
  // the walks from the new stops, found for all of them in one search list
  const o = step.value;
  const all = walkingFootpaths(graph, o.snaps, TRANSFER_HORIZON_M, Array.from({ length: 40 }, (_, k) => o.baseCount + k));
  for (let p = o.baseCount; p < o.count; p++) {
    const stepped = Array.from(o.transferTo.subarray(o.transferOffset[p]!, o.transferOffset[p + 1]!)).sort((a, b) => a - b);
    const expected = Array.from(all.to.filter((_, k) => all.from[k] === p)).sort((a, b) => a - b);
    assert.deepEqual(stepped, expected, `walks from new stop ${p}`);
  }
  assert.ok(all.to.length > 40);
  assert.equal(buildOverlayStops(graph, snaps, stopLon, stopLat, places, TRANSFER_HORIZON_M).transferTo.length, o.transferTo.length);
});
