/**
 * RAPTOR on rnv-mannheim (424,266 stop times, 2,057 stops, Europe/Berlin, times up to 28:36:00)
 * against a deliberately simple reference written here: a round-by-round connection scan over every
 * stop time of the service days around t0. The two must agree to the second, for every stop, on
 * many random origins, in both directions.
 *
 * The reference, for round k (exactly k vehicles):
 *   - every pair of consecutive stop times of a run on a day is a connection; sort them by time;
 *   - a run is "on board" once a connection of it leaves a stop where the walked label of round
 *     k-1 is at or before its departure (and boarding is allowed there);
 *   - an on-board connection gives its arrival stop a vehicle label (if alighting is allowed);
 *   - walked labels of round k: each vehicle label stays (0 s) or walks a footpath.
 * A run cannot be boarded from a walked label that came off that same run (getting off and back on
 * is not a transfer): labels are kept per (stop, run). A stop's answer is its best vehicle label over
 * rounds minTransfers+1 .. maxTransfers+1, below the bound. Arrival searches run the same scan on the mirrored connections (t0 - time, reversed).
 *
 * Realtime: the reference replaces a changed run's connections by those of its new times (none when
 * cancelled; a skipped stop neither boards nor alights) and adds the added runs' connections; RAPTOR
 * gets the same runs through its overlay.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadTimetable } from '../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../src/gtfs/load-report.js';
import { ServiceDays } from '../../src/model/service-days.js';
import { DROP_OFF_SHIFT, PICKUP_MASK, serviceRunsOn, WINDOW_BIT, type Timetable } from '../../src/model/timetable.js';
import { buildRaptorData, type Footpaths, type RaptorData } from '../../src/routing/raptor-data.js';
import { buildRaptorOverlay } from '../../src/routing/raptor-overlay.js';
import { NO_LINE, NO_ROUTE, runKey, type AddedRun, type RealtimeRun } from '../../src/model/realtime-runs.js';
import { RaptorSearch, type RaptorQuery, type RaptorResult } from '../../src/routing/raptor.js';
import { LEAN_MAX_ROUNDS } from '../../src/routing/best-only-search.js';
import { pruneTransfers, routeGaps } from '../../src/routing/transfer-pruning.js';
import { dayNumber } from '../../src/util/calendar.js';
import { zonedToEpoch } from '../../src/util/time-zones.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { mulberry32 } from '../helpers/random.js';

const FEED = path.join(SHARED_DATA, 'rnv-mannheim', 'gtfs.zip');
const TZ = 'Europe/Berlin';
const ORIGINS = 30;

let tt: Timetable;
let days: ServiceDays;

before(async () => {
  tt = await loadTimetable([FEED], { report: new LoadReport() });
  days = new ServiceDays(tt);
});

// ---------------------------------------------------------------------------------------------
// The reference

interface Connection {
  /** search seconds from t0 (mirrored for arrival searches) */
  from: number;
  to: number;
  fromStop: number;
  toStop: number;
  /** a run on a day */
  run: number;
  /** position in the run (reversed for arrival searches), to order equal times */
  seq: number;
  board: boolean;
  alight: boolean;
  trip: number;
}

interface Realtime {
  runs: Map<string, RealtimeRun>;
  added: AddedRun[];
}

/** Every connection of the days around t0 that lies within [0, horizon) search seconds. */
function connections(t0: number, direction: 'departure' | 'arrival', horizon: number, realtime?: Realtime): Connection[] {
  const out: Connection[] = [];
  const push = (c: Connection) => {
    if (c.from >= 0 && c.to < horizon) out.push(c);
  };
  /** The connection between stops a and b (positions j, j+1) of a run, leaving at dep, arriving at arr. */
  const connect = (dep: number, arr: number, stopA: number, stopB: number, run: number, j: number, n: number, pickup: boolean, dropOff: boolean, trip: number) =>
    push(
      direction === 'departure'
        ? { from: dep - t0, to: arr - t0, fromStop: stopA, toStop: stopB, run, seq: j, board: pickup, alight: dropOff, trip }
        : { from: t0 - arr, to: t0 - dep, fromStop: stopB, toStop: stopA, run, seq: n - j, board: dropOff, alight: pickup, trip },
    );
  const utcDay = Math.floor(t0 / 86400);
  const { trips, stopTimes, frequencies } = tt;
  let run = 0; // runs are numbered from 1: 0 stands for the access
  for (let t = 0; t < trips.ids.length; t++) {
    const o = trips.stopTimeOffset[t]!;
    const n = trips.stopTimeOffset[t + 1]! - o;
    const shifts: number[] = [];
    if (trips.frequencyOffset[t] === trips.frequencyOffset[t + 1]) shifts.push(0);
    for (let f = trips.frequencyOffset[t]!; f < trips.frequencyOffset[t + 1]!; f++) {
      for (let dep = frequencies.startSec[f]!; dep < frequencies.endSec[f]!; dep += frequencies.headwaySec[f]!) shifts.push(dep - stopTimes.departureSec[o]!);
    }
    const tz = tt.agencyTimezone[trips.agency[t]!]!;
    for (let day = utcDay - 3; day <= utcDay + 2; day++) {
      if (!serviceRunsOn(tt, trips.service[t]!, day)) continue;
      const origin = days.origin(tz, day);
      const changed = realtime?.runs.get(runKey(t, day));
      for (const shift of shifts) {
        run++;
        if (changed?.cancelled) continue;
        for (let j = 0; j + 1 < n; j++) {
          const a = o + j;
          const b = o + j + 1;
          const dep = origin + (changed ? changed.departureSec[j]! : stopTimes.departureSec[a]! + shift);
          const arr = origin + (changed ? changed.arrivalSec[j + 1]! : stopTimes.arrivalSec[b]! + shift);
          const pickup = !(stopTimes.pickDrop[a]! & WINDOW_BIT) && (stopTimes.pickDrop[a]! & PICKUP_MASK) !== 1 && !changed?.skipped[j];
          const dropOff = !(stopTimes.pickDrop[b]! & WINDOW_BIT) && ((stopTimes.pickDrop[b]! >>> DROP_OFF_SHIFT) & PICKUP_MASK) !== 1 && !changed?.skipped[j + 1];
          connect(dep, arr, patternStop(t, j), patternStop(t, j + 1), run, j, n, pickup, dropOff, t);
        }
      }
    }
  }
  // added runs, in the coverage's time zone
  const coverageZone = Math.max(0, tt.timezones.indexOf(tt.timezone));
  realtime?.added.forEach((added, i) => {
    run++;
    const origin = days.origin(coverageZone, added.day);
    const n = added.stops.length;
    for (let j = 0; j + 1 < n; j++) {
      connect(origin + added.departureSec[j]!, origin + added.arrivalSec[j + 1]!, added.stops[j]!, added.stops[j + 1]!, run, j, n, true, true, tt.trips.ids.length + i);
    }
  });
  return out.sort((x, y) => x.from - y.from || x.run - y.run || x.seq - y.seq);
}

function patternStop(t: number, j: number): number {
  const p = tt.trips.pattern[t]!;
  return tt.patterns.stops[tt.patterns.stopOffset[p]! + j]!;
}

interface ReferenceQuery {
  access: Map<number, number>;
  limit: number;
  minTransfers: number;
  maxTransfers: number;
  tripAllowed: Uint8Array | null;
  stopAllowed: Uint8Array | null;
  /** walking connections p -> [q, seconds] in the search's direction */
  walks: Map<number, [number, number][]>;
  /** seconds to be at a stop before a boarding: before the connection departs (departure), after the vehicle label (arrival, read backwards) */
  boardSlackSec: number;
  direction: 'departure' | 'arrival';
}

/** Best vehicle label per stop (-1: none). */
function reference(conns: Connection[], q: ReferenceQuery): Int32Array {
  const n = tt.stopPoints.ids.length;
  const best = new Int32Array(n).fill(-1);
  // walked labels of the previous round: per stop, run it came off (0 for the access) -> time
  let walked: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const [s, sec] of q.access) walked[s]!.set(0, Math.min(walked[s]!.get(0) ?? Infinity, sec));
  const stopOk = (s: number) => !q.stopAllowed || q.stopAllowed[s] !== 0;
  // read backwards, a connection's `to` is a real boarding: the rider is there the slack before it
  const boardBefore = q.direction === 'departure' ? q.boardSlackSec : 0;
  const boardAfter = q.direction === 'arrival' ? q.boardSlackSec : 0;
  for (let k = 1; k <= q.maxTransfers + 1; k++) {
    // earliest walked label at each stop that did not come off `run` (changing vehicles means another run)
    const readyFor = (s: number, run: number): number => {
      let t = Infinity;
      for (const [from, x] of walked[s]!) if (from !== run && x < t) t = x;
      return t;
    };
    const vehicle: Map<number, number>[] = Array.from({ length: n }, () => new Map());
    const onBoard = new Set<number>();
    for (const c of conns) {
      const to = c.to + boardAfter;
      if (to >= q.limit) continue;
      if (q.tripAllowed && q.tripAllowed[c.trip] === 0) continue;
      if (!onBoard.has(c.run) && c.board && stopOk(c.fromStop) && readyFor(c.fromStop, c.run) + boardBefore <= c.from) onBoard.add(c.run);
      if (onBoard.has(c.run) && c.alight && stopOk(c.toStop)) vehicle[c.toStop]!.set(c.run, Math.min(vehicle[c.toStop]!.get(c.run) ?? Infinity, to));
    }
    const next: Map<number, number>[] = Array.from({ length: n }, () => new Map());
    const add = (s: number, run: number, x: number) => {
      if (x < q.limit && x < (next[s]!.get(run) ?? Infinity)) next[s]!.set(run, x);
    };
    for (let s = 0; s < n; s++) {
      for (const [run, x] of vehicle[s]!) {
        if (k >= q.minTransfers + 1 && (best[s] === -1 || x < best[s]!)) best[s] = x;
        add(s, run, x);
        for (const [to, sec] of q.walks.get(s) ?? []) add(to, run, x + sec);
      }
    }
    walked = next;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Stops served by at least one trip (random origins among them). */
function servedStops(): number[] {
  const seen = new Uint8Array(tt.stopPoints.ids.length);
  for (const s of tt.patterns.stops) seen[s] = 1;
  return [...seen.keys()].filter((s) => seen[s]);
}

function pick<T>(rand: () => number, items: T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

/** Random footpaths between stops closer than 400 m: about a third of such pairs, length = 1.3 × straight line. */
function randomFootpaths(rand: () => number): Footpaths {
  const { lon, lat } = tt.stopPoints;
  const from: number[] = [];
  const to: number[] = [];
  const len: number[] = [];
  const n = lon.length;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      const dx = (lon[a]! - lon[b]!) * 111_320 * Math.cos((lat[a]! * Math.PI) / 180);
      const dy = (lat[a]! - lat[b]!) * 110_574;
      const d = Math.hypot(dx, dy);
      if (d < 400 && rand() < 0.35) {
        from.push(a);
        to.push(b);
        len.push(Math.round(d * 1.3 * 10) / 10);
      }
    }
  }
  return { from: Uint32Array.from(from), to: Uint32Array.from(to), lengthM: Float64Array.from(len) };
}

/** Walking connections of the reference, in the search's direction. */
function walksOf(fp: Footpaths | undefined, direction: 'departure' | 'arrival', speed: number): Map<number, [number, number][]> {
  const walks = new Map<number, [number, number][]>();
  if (!fp) return walks;
  for (let i = 0; i < fp.from.length; i++) {
    const [a, b] = direction === 'departure' ? [fp.from[i]!, fp.to[i]!] : [fp.to[i]!, fp.from[i]!];
    const list = walks.get(a) ?? [];
    list.push([b, Math.ceil(fp.lengthM[i]! / speed)]);
    walks.set(a, list);
  }
  return walks;
}

interface Scenario {
  name: string;
  t0: number;
  seed: number;
  maxDurationSec: number;
  maxTransfers: number;
  minTransfers?: number;
  footpaths?: boolean;
  masks?: boolean;
  /** random realtime runs laid over the timetable */
  realtime?: boolean;
  /** seconds to be at a stop before a boarding (0 by default) */
  boardSlackSec?: number;
}

/**
 * Realtime runs for the service days d-1 and d of t0 (d = its UTC day): about `count` changed runs
 * (a sixth cancelled; the others with a delay drifting by -1 to +3 minutes per stop, never running
 * backwards, and a tenth of their stops skipped) and count/10 added runs copying a random trip's
 * stops an hour later.
 */
function randomRealtime(rand: () => number, t0: number, count: number): Realtime {
  const runs = new Map<string, RealtimeRun>();
  const added: AddedRun[] = [];
  const utcDay = Math.floor(t0 / 86400);
  const { trips, stopTimes } = tt;
  const candidates: [number, number][] = [];
  for (let t = 0; t < trips.ids.length; t++) {
    if (trips.frequencyOffset[t] !== trips.frequencyOffset[t + 1]) continue;
    for (const day of [utcDay - 1, utcDay]) if (serviceRunsOn(tt, trips.service[t]!, day)) candidates.push([t, day]);
  }
  for (let i = 0; i < count; i++) {
    const [t, day] = pick(rand, candidates);
    const o = trips.stopTimeOffset[t]!;
    const n = trips.stopTimeOffset[t + 1]! - o;
    const arrivalSec = new Int32Array(n);
    const departureSec = new Int32Array(n);
    const skipped = new Uint8Array(n);
    let delay = Math.floor(rand() * 600) - 120;
    let last = -Infinity;
    for (let j = 0; j < n; j++) {
      delay += Math.floor(rand() * 240) - 60;
      arrivalSec[j] = Math.max(last, stopTimes.arrivalSec[o + j]! + delay);
      departureSec[j] = Math.max(arrivalSec[j]!, stopTimes.departureSec[o + j]! + delay);
      last = departureSec[j]!;
      skipped[j] = rand() < 0.1 ? 1 : 0;
    }
    runs.set(runKey(t, day), { trip: t, day, cancelled: rand() < 1 / 6, arrivalSec, departureSec, skipped });
  }
  for (let i = 0; i < count / 10; i++) {
    const [t, day] = pick(rand, candidates);
    const o = trips.stopTimeOffset[t]!;
    const n = trips.stopTimeOffset[t + 1]! - o;
    const p = trips.pattern[t]!;
    added.push({
      tripId: `added-${i}`,
      routeId: '',
      line: NO_LINE,
      route: NO_ROUTE,
      day,
      originSec: days.origin(Math.max(0, tt.timezones.indexOf(tt.timezone)), day),
      stops: tt.patterns.stops.slice(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p]! + n),
      arrivalSec: stopTimes.arrivalSec.slice(o, o + n).map((x) => x + 3600),
      departureSec: stopTimes.departureSec.slice(o, o + n).map((x) => x + 3600),
    });
  }
  return { runs, added };
}

/**
 * Run ORIGINS random queries of the scenario in both directions through RAPTOR and the reference
 * and compare every stop. Returns how many (stop, query) pairs were reached, so that the caller can
 * check the comparison was not vacuous.
 */
function crossCheck(sc: Scenario): { reached: number; queries: number } {
  const rand = mulberry32(sc.seed);
  const fp = sc.footpaths ? randomFootpaths(rand) : undefined;
  const data: RaptorData = buildRaptorData(tt, fp);
  const raptor = new RaptorSearch(data, days);
  const realtime = sc.realtime ? randomRealtime(rand, sc.t0, 400) : undefined;
  const overlay = realtime ? buildRaptorOverlay(tt, data, realtime.runs.values(), realtime.added) : null;
  const stops = servedStops();
  const speed = 1.12;
  let reached = 0;
  let queries = 0;
  for (const direction of ['departure', 'arrival'] as const) {
    const conns = connections(sc.t0, direction, sc.maxDurationSec, realtime);
    const walks = walksOf(fp, direction, speed);
    for (let i = 0; i < ORIGINS; i++) {
      // one to three access stops with access times of 0 to 5 minutes
      const access = new Map<number, number>();
      const accessCount = 1 + Math.floor(rand() * 3);
      for (let a = 0; a < accessCount; a++) access.set(pick(rand, stops), a === 0 ? 0 : Math.floor(rand() * 300));
      let tripAllowed: Uint8Array | null = null;
      let stopAllowed: Uint8Array | null = null;
      if (sc.masks) {
        tripAllowed = Uint8Array.from({ length: tt.trips.ids.length }, () => (rand() < 0.2 ? 0 : 1));
        stopAllowed = Uint8Array.from({ length: tt.stopPoints.ids.length }, () => (rand() < 0.1 ? 0 : 1));
      }
      const minTransfers = sc.minTransfers ?? 0;
      const q: RaptorQuery = {
        direction,
        t0: sc.t0,
        maxDurationSec: sc.maxDurationSec,
        maxTransfers: sc.maxTransfers,
        minTransfers,
        accessStops: Uint32Array.from(access.keys()),
        accessSec: Int32Array.from(access.values()),
        count: access.size,
        tripAllowed,
        stopAllowed,
        wheelchair: false,
        walkingSpeed: speed,
        boardSlackSec: sc.boardSlackSec ?? 0,
        overlay,
      };
      const got = raptor.search(q);
      const expected = reference(conns, { access, limit: sc.maxDurationSec, minTransfers, maxTransfers: sc.maxTransfers, tripAllowed, stopAllowed, walks, boardSlackSec: sc.boardSlackSec ?? 0, direction });
      const context = `${sc.name}, ${direction}, query ${i} (seed ${sc.seed}), access ${JSON.stringify([...access])}`;
      assert.deepEqual(Array.from(got.vehicleSec), Array.from(expected), context);
      const listed = Array.from(got.reached.subarray(0, got.reachedCount)).sort((a, b) => a - b);
      const expectedList = [...expected.keys()].filter((s) => expected[s]! >= 0);
      assert.deepEqual(listed, expectedList, `${context}: reached list`);
      reached += got.reachedCount;
      queries++;
    }
  }
  return { reached, queries };
}

const at = (y: number, m: number, d: number, h: number, mi = 0) => zonedToEpoch(TZ, y, m, d, h, mi, 0);

// ---------------------------------------------------------------------------------------------
// Tests

test('rnv: the feed has no transfers.txt, so walking only comes from the footpaths given', () => {
  assert.equal(tt.transfers.fromStop.length, 0);
  assert.equal(tt.timezones.length, 1);
  // 2016-11-08 is a Tuesday with service
  assert.ok(tt.trips.service.some((s) => serviceRunsOn(tt, s, dayNumber(2016, 11, 8))));
});

test('rnv: 30 random origins on Tuesday 2016-11-08 at 08:00, one hour, up to 3 transfers, both directions', () => {
  const { reached, queries } = crossCheck({ name: '08:00 1h', t0: at(2016, 11, 8, 8), seed: 1, maxDurationSec: 3600, maxTransfers: 3 });
  assert.equal(queries, 2 * ORIGINS);
  assert.ok(reached > 50 * queries, `about a hundred stops or more per query (got ${reached} over ${queries})`);
});

test('rnv: three hours, up to 3 transfers, both directions', () => {
  const { reached, queries } = crossCheck({ name: '08:00 3h', t0: at(2016, 11, 8, 8), seed: 2, maxDurationSec: 10800, maxTransfers: 3 });
  assert.ok(reached > 200 * queries, `${reached} over ${queries}`);
});

test('rnv: random footpaths between stops closer than 400 m', () => {
  const { reached, queries } = crossCheck({ name: 'footpaths', t0: at(2016, 11, 8, 8), seed: 3, maxDurationSec: 3600, maxTransfers: 3, footpaths: true });
  assert.ok(reached > 50 * queries, `${reached} over ${queries}`);
});

test('rnv: the cross-checks with footpaths are of pruned searches: hundreds of the footpaths they are given are left out at their speed', () => {
  // the same footpaths as the cross-checks' (the generator's first draws); RAPTOR leaves out those
  // transfer-pruning.ts proves useless at the searches' speed, while the reference walks them all
  const data = buildRaptorData(tt, randomFootpaths(mulberry32(3)));
  const kept = pruneTransfers(data, routeGaps(data), 1.12);
  const total = data.transferTo.length;
  // (short footpaths, below 400 m: a few hundred left out each way; Porto Alegre's street footpaths lose a third)
  assert.ok(total - kept.outTo.length >= 100 && total - kept.inFrom.length >= 100, `kept ${kept.outTo.length} and ${kept.inFrom.length} of ${total}`);
});

test('rnv: a board slack of 60 s at every boarding, with footpaths, both directions', () => {
  const { reached, queries } = crossCheck({ name: 'slack', t0: at(2016, 11, 8, 8), seed: 13, maxDurationSec: 3600, maxTransfers: 3, footpaths: true, boardSlackSec: 60 });
  assert.ok(reached > 50 * queries, `${reached} over ${queries}`);
  // and it changes answers: with the slack, some stops are reached later than without
  const without = crossCheck({ name: 'slack 0', t0: at(2016, 11, 8, 8), seed: 13, maxDurationSec: 3600, maxTransfers: 3, footpaths: true });
  assert.ok(without.reached > reached, `fewer stops reached within the hour with the slack (${reached}) than without (${without.reached})`);
});

test('rnv: at least one and two transfers (minimum), with footpaths', () => {
  for (const minTransfers of [1, 2]) {
    const { reached } = crossCheck({ name: `min ${minTransfers}`, t0: at(2016, 11, 8, 17, 30), seed: 10 + minTransfers, maxDurationSec: 5400, maxTransfers: 3, minTransfers, footpaths: true });
    assert.ok(reached > 0);
  }
});

test('rnv: forbidden trips and stops (random masks), no transfer', () => {
  crossCheck({ name: 'masks', t0: at(2016, 11, 8, 8), seed: 4, maxDurationSec: 3600, maxTransfers: 0, masks: true });
  const { reached, queries } = crossCheck({ name: 'masks 2', t0: at(2016, 11, 8, 12), seed: 5, maxDurationSec: 7200, maxTransfers: 2, masks: true });
  assert.ok(reached > 20 * queries, `${reached} over ${queries}`);
});

test('rnv: the lean search of the common query (best-only-search.ts) answers as the general scan, forbidden trips and the whole day included', () => {
  // departure searches where every journey counts: the lean search takes them; the general scan
  // (leanSearches off) answers the same, stop for stop (the lean one scans fewer routes, so reaches
  // the stops in an order of its own)
  const rand = mulberry32(21);
  const data = buildRaptorData(tt, randomFootpaths(rand));
  const lean = new RaptorSearch(data, days);
  const general = new RaptorSearch(data, days);
  general.leanSearches = false;
  const stops = servedStops();
  let reached = 0;
  const scanned = { lean: 0, general: 0 };
  for (let i = 0; i < 60; i++) {
    const tripAllowed = i % 3 === 0 ? Uint8Array.from({ length: tt.trips.ids.length }, () => (rand() < 0.2 ? 0 : 1)) : null;
    const q: RaptorQuery = {
      direction: 'departure',
      t0: at(2016, 11, 8, 6 + (i % 18)),
      maxDurationSec: i % 2 === 0 ? 86_400 : 5400,
      maxTransfers: i % 5,
      minTransfers: 0,
      accessStops: Uint32Array.of(pick(rand, stops), pick(rand, stops)),
      accessSec: Int32Array.of(0, Math.floor(rand() * 600)),
      count: 2,
      tripAllowed,
      stopAllowed: null,
      wheelchair: false,
      walkingSpeed: 1.12,
      boardSlackSec: i % 4 === 0 ? 60 : 0,
    };
    const answer = (r: RaptorResult) => ({ sec: Array.from(r.vehicleSec), reached: Array.from(r.reached.subarray(0, r.reachedCount)).sort((x, y) => x - y) });
    const a = lean.search(q);
    const got = answer(a);
    scanned.lean += lean.stats.routesScanned;
    assert.deepEqual(got, answer(general.search(q)), `query ${i}`);
    scanned.general += general.stats.routesScanned;
    reached += a.reachedCount;
  }
  assert.ok(reached > 100 * 60, `${reached} stops reached over 60 queries`);
  // the searches were the lean one's: it leaves the routes of other days unmarked (the weekend
  // lines on this Tuesday), where the general scan marks them and steps over their days
  assert.ok(scanned.lean < 0.9 * scanned.general, `${scanned.lean} routes scanned by the lean search, ${scanned.general} by the general scan`);
  // the lean search runs at most LEAN_MAX_ROUNDS rounds (a byte stamps a stop's label of a round):
  // a search allowing more is the general scan's, route for route
  for (const maxTransfers of [LEAN_MAX_ROUNDS - 1, LEAN_MAX_ROUNDS]) {
    const q: RaptorQuery = { direction: 'departure', t0: at(2016, 11, 8, 8), maxDurationSec: 86_400, maxTransfers, minTransfers: 0, accessStops: Uint32Array.of(stops[0]!), accessSec: Int32Array.of(0), count: 1, tripAllowed: null, stopAllowed: null, wheelchair: false, walkingSpeed: 1.12, boardSlackSec: 0 };
    const sec = Array.from(lean.search(q).vehicleSec);
    const leanScanned = lean.stats.routesScanned;
    assert.deepEqual(sec, Array.from(general.search(q).vehicleSec), `${maxTransfers} transfers`);
    const generalScanned = general.stats.routesScanned;
    assert.equal(leanScanned === generalScanned, maxTransfers === LEAN_MAX_ROUNDS, `${maxTransfers} transfers: ${leanScanned} routes scanned, ${generalScanned} by the general scan`);
  }
});

test('rnv: around midnight, runs of the previous service day (times past 24:00) included', () => {
  // 00:20 on Wednesday: the Tuesday runs at 24:xx and the Wednesday runs both count
  const { reached } = crossCheck({ name: 'midnight', t0: at(2016, 11, 9, 0, 20), seed: 6, maxDurationSec: 7200, maxTransfers: 2 });
  assert.ok(reached > 0);
  crossCheck({ name: 'late evening', t0: at(2016, 11, 8, 23, 10), seed: 7, maxDurationSec: 10800, maxTransfers: 2 });
});

test('rnv: the night the clocks go back (2016-10-30, 03:00 CEST -> 02:00 CET)', () => {
  const { reached } = crossCheck({ name: 'dst', t0: at(2016, 10, 30, 0, 30), seed: 8, maxDurationSec: 14400, maxTransfers: 2 });
  assert.ok(reached > 0);
});

test('rnv: every trip is in exactly one route, routes never overtake, and the stop index lists every call', () => {
  const d = buildRaptorData(tt);
  const seen = new Uint8Array(tt.trips.ids.length);
  for (const t of d.routeTripTrip) seen[t]!++;
  assert.ok(seen.every((n) => n === 1), 'one route-trip per trip (rnv has no frequencies)');
  let pairs = 0;
  for (let r = 0; r < d.routeCount; r++) {
    const S = d.routeStopOffset[r + 1]! - d.routeStopOffset[r]!;
    const K = d.routeTripOffset[r + 1]! - d.routeTripOffset[r]!;
    const o = d.routeStopTimeOffset[r]!;
    for (let k = 1; k < K; k++) {
      for (let i = 0; i < S; i++) {
        const a = o + (k - 1) * S + i;
        const b = o + k * S + i;
        assert.ok(d.departureSec[a]! <= d.departureSec[b]! && d.arrivalSec[a]! <= d.arrivalSec[b]!, `route ${r}, trips ${k - 1} and ${k}, position ${i}`);
      }
      pairs++;
    }
    // each trip's stop times are its own, in order
    for (let k = 0; k < K; k++) {
      const t = d.routeTripTrip[d.routeTripOffset[r]! + k]!;
      const first = tt.trips.stopTimeOffset[t]!;
      assert.equal(tt.trips.stopTimeOffset[t + 1]! - first, S);
      assert.equal(d.departureSec[o + k * S], tt.stopTimes.departureSec[first]);
      assert.equal(d.arrivalSec[o + k * S + S - 1], tt.stopTimes.arrivalSec[first + S - 1]);
    }
  }
  assert.ok(pairs > 15_000);
  let calls = 0;
  for (let s = 0; s < d.stopCount; s++) {
    for (let e = d.stopRouteOffset[s]!; e < d.stopRouteOffset[s + 1]!; e++) {
      assert.equal(d.routeStops[d.routeStopOffset[d.stopRoutes[e]!]! + d.stopRoutePos[e]!], s);
      calls++;
    }
  }
  assert.equal(calls, d.routeStops.length);
});

test('rnv: a realtime overlay (400 changed runs: delays, cancellations, skipped stops; 40 added runs), with footpaths', () => {
  const { reached, queries } = crossCheck({ name: 'realtime', t0: at(2016, 11, 8, 8), seed: 8, maxDurationSec: 5400, maxTransfers: 3, footpaths: true, realtime: true });
  assert.ok(reached > 50 * queries, `${reached} over ${queries}`);
  // and around midnight, where the previous service day's runs matter
  crossCheck({ name: 'realtime midnight', t0: at(2016, 11, 9, 0, 10), seed: 9, maxDurationSec: 7200, maxTransfers: 2, realtime: true, masks: true });
});
