/**
 * The timetable compiled for RAPTOR (Delling, Pajor, Werneck, "Round-Based Public Transit Routing",
 * Transportation Science 49(3), 2015): flat typed arrays on SharedArrayBuffers, so that the whole
 * structure can be posted to worker threads without a copy. Built once per generation by
 * `buildRaptorData`; only read afterwards.
 *
 * RAPTOR routes. The trips of a timetable pattern (same stop sequence) in the same time zone,
 * frequency-based trips expanded into one run per departure, sorted by first departure and split so
 * that no trip of a route ever overtakes another: for trips a before b of a route, at every position,
 * arrival(a) <= arrival(b) and departure(a) <= departure(b). The earliest trip to board at a stop
 * is then found by a binary search, and a route scan needs a single "current trip".
 *
 * Route r has S = routeStopOffset[r+1] - routeStopOffset[r] stops and
 * K = routeTripOffset[r+1] - routeTripOffset[r] trips. Its stop times form a trip-major block:
 *
 *   routeStops:      … | s0  s1  s2 | …          positions of route r
 *   stop times:      … | t0@s0 t0@s1 t0@s2  t1@s0 t1@s1 t1@s2 … | …
 *                        ^ routeStopTimeOffset[r]
 *   stop time of route-trip k (0-based in the route) at position i: routeStopTimeOffset[r] + k*S + i
 *   route-trip k of route r is the global route-trip routeTripOffset[r] + k.
 *
 * Times are seconds after the service day's origin in the route's time zone, like the Timetable's.
 *
 * Transfers. One table of walking connections between distinct stops, from transfers.txt and from
 * the caller's footpaths (street walking distances). For one (from, to) pair, transfers.txt wins:
 * transfer_type 3 removes the pair (even if a footpath exists); otherwise its min_transfer_time is the
 * time when given, else the footpath's walking time when there is a footpath, else 0 s. A footpath
 * alone takes ceil(lengthM / walking speed) at query time. Several rows for one pair: the strictest
 * (a type 3 anywhere blocks, else the longest minimum time). A row whose from and to are the same
 * stop sets the time of staying at that stop between two vehicles (`stopStaySec`, 0 s by default).
 *
 *   transferOffset: [0, 2, 2, 5, …]   connections leaving stop p: [transferOffset[p], transferOffset[p+1])
 *   transferTo / transferFixedSec / transferLengthM   one entry per connection
 *   transferInOffset / transferInEdge                  the same connections grouped by arriving stop
 *                                                      (for arrival searches), as indexes of the above
 */
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import { DROP_OFF_SHIFT, PICKUP_MASK, WINDOW_BIT, type Timetable } from '../model/timetable.js';
import { inOnePiece, inSlices } from '../util/stepwise.js';
import { groupBy } from '../model/csr.js';

/** Stop-time flag: a passenger may board here (pickup_type is not 1). */
export const CAN_BOARD = 1;
/** Stop-time flag: a passenger may alight here (drop_off_type is not 1). */
export const CAN_ALIGHT = 2;
/** `transferFixedSec` when the time is the walking time of `transferLengthM` (or 0 s without length). */
export const NO_FIXED_TIME = -1;
/** `stopStaySec` when transfer_type 3 forbids changing vehicles at that stop. */
export const NO_STAY = -1;

/** Walking distances between nearby stop points, computed by the caller on the street network. */
export interface Footpaths {
  from: Uint32Array;
  to: Uint32Array;
  lengthM: Float32Array | Float64Array;
}

/**
 * The routes of a RAPTOR search: what a route scan reads. The timetable's routes (`RaptorData`) and
 * the realtime overlay's (`raptor-overlay.ts`) share this shape.
 */
export interface RouteTable {
  routeCount: number;
  /** Route-trips, frequency runs included. */
  routeTripCount: number;
  /** Smallest and largest stop time of all routes, seconds after the service-day origin. */
  minTimeSec: number;
  maxTimeSec: number;

  /** stops of route r: routeStops[routeStopOffset[r] .. routeStopOffset[r+1]) */
  routeStopOffset: Uint32Array;
  routeStops: Uint32Array;
  /** route-trips of route r: [routeTripOffset[r], routeTripOffset[r+1]) */
  routeTripOffset: Uint32Array;
  /** first stop time of route r (its trip-major block); routeCount + 1 entries */
  routeStopTimeOffset: Uint32Array;
  /** time-zone index of route r (its agency's) */
  routeTimezone: Uint16Array;
  /** earliest departure and latest arrival of route r, seconds after the service-day origin */
  routeMinSec: Int32Array;
  routeMaxSec: Int32Array;
  /** days on which some trip of route r runs: the union of its services' bits, laid out like serviceBits */
  routeDayBits: Uint32Array;

  /** timetable trip of each route-trip (a frequency run keeps its template's) */
  routeTripTrip: Uint32Array;
  /** service (calendar) of each route-trip */
  routeTripService: Uint32Array;

  /** per stop time, route-major as above: seconds after the service-day origin */
  arrivalSec: Int32Array;
  departureSec: Int32Array;
  /** per stop time: CAN_BOARD | CAN_ALIGHT */
  boardAlight: Uint8Array;

  /** routes through stop p: [stopRouteOffset[p], stopRouteOffset[p+1]) of stopRoutes / stopRoutePos */
  stopRouteOffset: Uint32Array;
  stopRoutes: Uint32Array;
  /** position of the stop in that route (a route visiting a stop twice is listed twice) */
  stopRoutePos: Uint32Array;

  /** Calendars: bit d of service s is bits[s * serviceWords + (d >> 5)] >>> (d & 31) & 1, d = day - serviceFirstDay. */
  serviceWords: number;
  serviceBits: Uint32Array;
}

export interface RaptorData extends RouteTable {
  stopCount: number;
  /** Trips of the timetable (the index space of `tripAllowed` masks). */
  tripCount: number;
  /** Time zones of the timetable, in its order (`ServiceDays.originSec` has one array per zone). */
  timezoneCount: number;

  transferOffset: Uint32Array;
  transferTo: Uint32Array;
  /** seconds, or NO_FIXED_TIME */
  transferFixedSec: Int32Array;
  /** metres of walking, NaN when the connection has none */
  transferLengthM: Float64Array;
  transferInOffset: Uint32Array;
  /** connection index (into transferTo…) of each incoming connection */
  transferInEdge: Uint32Array;
  /** from stop of each incoming connection */
  transferInFrom: Uint32Array;
  /** seconds to stay at stop p between two vehicles, or NO_STAY */
  stopStaySec: Int32Array;

  /** GTFS wheelchair_boarding per stop point (1 = accessible) */
  stopWheelchair: Uint8Array;
  /** GTFS wheelchair_accessible per timetable trip (1 = accessible) */
  tripWheelchair: Uint8Array;

  /** First day (day number) and length of the calendars' bitsets. */
  serviceFirstDay: number;
  serviceDayCount: number;
}

/** Seconds to take connection e at `walkingSpeed` m/s: its fixed time, else the walk of its length rounded up. */
export function transferSec(d: RaptorData, e: number, walkingSpeed: number): number {
  const fixed = d.transferFixedSec[e]!;
  const len = d.transferLengthM[e]!;
  return fixed >= 0 ? fixed : len >= 0 ? footpathSec(len, walkingSpeed) : 0;
}

/** Seconds to walk a footpath of `lengthM` metres at `walkingSpeed` m/s: rounded up. */
export function footpathSec(lengthM: number, walkingSpeed: number): number {
  return Math.ceil(lengthM / walkingSpeed);
}

/** Compile a timetable (and optional walking footpaths between stops) for RAPTOR searches. */
export function buildRaptorData(tt: Timetable, footpaths?: Footpaths): RaptorData {
  return inOnePiece(raptorDataSteps(tt, footpaths));
}

/** `buildRaptorData` with the event loop served between its steps (a reload beside requests). */
export function buildRaptorDataInTurns(tt: Timetable, footpaths?: Footpaths): Promise<RaptorData> {
  return inSlices(raptorDataSteps(tt, footpaths));
}

function* raptorDataSteps(tt: Timetable, footpaths?: Footpaths): Generator<void, RaptorData> {
  const stopCount = tt.stopPoints.ids.length;
  const runs = expandRuns(tt);
  yield;
  const routes = splitIntoRoutes(tt, runs);
  yield;
  const layout = layOutRoutes(tt, runs, routes);
  yield;
  const stopIndex = indexStops(stopCount, layout.routeStopOffset, layout.routeStops);
  yield;
  const transfers = yield* transfersSteps(tt, stopCount, footpaths);
  const { services } = tt;
  return {
    stopCount,
    routeCount: routes.length,
    routeTripCount: layout.routeTripTrip.length,
    tripCount: tt.trips.ids.length,
    timezoneCount: tt.timezones.length,
    minTimeSec: layout.minTimeSec,
    maxTimeSec: layout.maxTimeSec,
    routeStopOffset: layout.routeStopOffset,
    routeStops: layout.routeStops,
    routeTripOffset: layout.routeTripOffset,
    routeStopTimeOffset: layout.routeStopTimeOffset,
    routeTimezone: layout.routeTimezone,
    routeMinSec: layout.routeMinSec,
    routeMaxSec: layout.routeMaxSec,
    routeDayBits: routeDays(layout.routeTripOffset, layout.routeTripService, services.bits, services.words),
    routeTripTrip: layout.routeTripTrip,
    routeTripService: layout.routeTripService,
    arrivalSec: layout.arrivalSec,
    departureSec: layout.departureSec,
    boardAlight: layout.boardAlight,
    stopRouteOffset: stopIndex.offset,
    stopRoutes: stopIndex.routes,
    stopRoutePos: stopIndex.pos,
    ...transfers,
    stopWheelchair: sharedCopy(Uint8Array, tt.stopPoints.wheelchair),
    tripWheelchair: sharedCopy(Uint8Array, tt.trips.wheelchair),
    serviceFirstDay: services.firstDay,
    serviceDayCount: services.dayCount,
    serviceWords: services.words,
    serviceBits: sharedCopy(Uint32Array, services.bits),
  };
}

/** Bytes held by the typed arrays of `data`. */
export function raptorDataBytes(data: RaptorData): number {
  let n = 0;
  for (const v of Object.values(data)) if (ArrayBuffer.isView(v)) n += v.byteLength;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Steps of the build

/** Runs of trips: every timed trip once (shift 0), every frequency-based trip once per departure. */
interface Runs {
  trip: Uint32Array;
  /** seconds added to the trip's stop times */
  shift: Int32Array;
  count: number;
}

function expandRuns(tt: Timetable): Runs {
  const { trips, frequencies, stopTimes } = tt;
  const tripCount = trips.ids.length;
  let count = 0;
  for (let t = 0; t < tripCount; t++) {
    const f0 = trips.frequencyOffset[t]!;
    const f1 = trips.frequencyOffset[t + 1]!;
    if (f0 === f1) count++;
    for (let f = f0; f < f1; f++) count += runsOfRow(frequencies.startSec[f]!, frequencies.endSec[f]!, frequencies.headwaySec[f]!);
  }
  const trip = new Uint32Array(count);
  const shift = new Int32Array(count);
  let n = 0;
  for (let t = 0; t < tripCount; t++) {
    const f0 = trips.frequencyOffset[t]!;
    const f1 = trips.frequencyOffset[t + 1]!;
    if (f0 === f1) {
      trip[n] = t;
      shift[n++] = 0;
      continue;
    }
    // a run departs from the first stop at start_time + k × headway_secs, before end_time
    const firstDeparture = stopTimes.departureSec[trips.stopTimeOffset[t]!]!;
    for (let f = f0; f < f1; f++) {
      const start = frequencies.startSec[f]!;
      const end = frequencies.endSec[f]!;
      const headway = frequencies.headwaySec[f]!;
      for (let dep = start; dep < end; dep += headway) {
        trip[n] = t;
        shift[n++] = dep - firstDeparture;
      }
    }
  }
  return { trip, shift, count };
}

function runsOfRow(start: number, end: number, headway: number): number {
  return headway > 0 && end > start ? Math.ceil((end - start) / headway) : 0;
}

/**
 * Group runs by (pattern, time zone), sort each group by first departure, and deal the runs of a
 * group into routes: a run joins the first route whose last run it does not overtake, else opens a
 * new one. Returns the runs of each route, in order.
 */
function splitIntoRoutes(tt: Timetable, runs: Runs): number[][] {
  const { trips, patterns, stopTimes } = tt;
  const tzCount = Math.max(1, tt.timezones.length);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < runs.count; i++) {
    const t = runs.trip[i]!;
    const p = trips.pattern[t]!;
    if (patterns.stopOffset[p + 1]! - patterns.stopOffset[p]! < 2) continue; // nothing to ride
    const key = p * tzCount + tt.agencyTimezone[trips.agency[t]!]!;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const arr = stopTimes.arrivalSec;
  const dep = stopTimes.departureSec;
  const first = (i: number) => trips.stopTimeOffset[runs.trip[i]!]!;
  // lexicographic on (departures, arrivals) over the positions, then by trip for determinism
  const compare = (a: number, b: number): number => {
    const oa = first(a);
    const ob = first(b);
    const sa = runs.shift[a]!;
    const sb = runs.shift[b]!;
    const n = trips.stopTimeOffset[runs.trip[a]! + 1]! - oa;
    for (let i = 0; i < n; i++) {
      const d = dep[oa + i]! + sa - (dep[ob + i]! + sb);
      if (d !== 0) return d;
    }
    for (let i = 0; i < n; i++) {
      const d = arr[oa + i]! + sa - (arr[ob + i]! + sb);
      if (d !== 0) return d;
    }
    return runs.trip[a]! - runs.trip[b]! || sa - sb;
  };
  /** Whether run b, after run a, never overtakes it. */
  const follows = (a: number, b: number): boolean => {
    const oa = first(a);
    const ob = first(b);
    const sa = runs.shift[a]!;
    const sb = runs.shift[b]!;
    const n = trips.stopTimeOffset[runs.trip[a]! + 1]! - oa;
    for (let i = 0; i < n; i++) {
      if (dep[ob + i]! + sb < dep[oa + i]! + sa) return false;
      if (arr[ob + i]! + sb < arr[oa + i]! + sa) return false;
    }
    return true;
  };
  const routes: number[][] = [];
  const keys = [...groups.keys()].sort((a, b) => a - b);
  for (const key of keys) routes.push(...dealIntoRoutes(groups.get(key)!.sort(compare), follows));
  return routes;
}

/**
 * Deal runs of one stop sequence, sorted by first departure, into routes whose runs never overtake
 * one another: a run joins the first route whose last run it follows, else opens a new one.
 */
export function dealIntoRoutes(sorted: readonly number[], follows: (a: number, b: number) => boolean): number[][] {
  const routes: number[][] = [];
  for (const run of sorted) {
    const route = routes.find((r) => follows(r[r.length - 1]!, run));
    if (route) route.push(run);
    else routes.push([run]);
  }
  return routes;
}

/** The routes' columns of RaptorData, and the earliest and latest stop times of them all. */
type RouteLayout = ReturnType<typeof routeColumns> & { minTimeSec: number; maxTimeSec: number };

/** Lay the routes out in RaptorData's columns: per route its stops, its trips and its stop times (trip-major), its time zone and its time span. */
function layOutRoutes(tt: Timetable, runs: Runs, routes: number[][]): RouteLayout {
  const { trips, patterns, stopTimes } = tt;
  const columns = routeColumns(tt, runs, routes);
  const { routeStopOffset, routeStops, routeTripOffset, routeStopTimeOffset, routeTimezone, routeMinSec, routeMaxSec, routeTripTrip, routeTripService, arrivalSec, departureSec, boardAlight } = columns;
  const routeCount = routes.length;
  let minTimeSec = Infinity;
  let maxTimeSec = -Infinity;
  let stopPos = 0;
  let tripPos = 0;
  let stPos = 0;
  routes.forEach((route, r) => {
    const t0 = runs.trip[route[0]!]!;
    const p = trips.pattern[t0]!;
    const ps = patterns.stopOffset[p]!;
    const S = patterns.stopOffset[p + 1]! - ps;
    routeStopOffset[r] = stopPos;
    routeTripOffset[r] = tripPos;
    routeStopTimeOffset[r] = stPos;
    for (let i = 0; i < S; i++) routeStops[stopPos++] = patterns.stops[ps + i]!;
    routeTimezone[r] = tt.agencyTimezone[trips.agency[t0]!]!;
    let lo = Infinity;
    let hi = -Infinity;
    for (const run of route) {
      const t = runs.trip[run]!;
      const shift = runs.shift[run]!;
      routeTripTrip[tripPos] = t;
      routeTripService[tripPos++] = trips.service[t]!;
      const o = trips.stopTimeOffset[t]!;
      for (let i = 0; i < S; i++) {
        const a = stopTimes.arrivalSec[o + i]! + shift;
        const d = stopTimes.departureSec[o + i]! + shift;
        arrivalSec[stPos] = a;
        departureSec[stPos] = d;
        boardAlight[stPos++] = boardAlightFlags(stopTimes.pickDrop[o + i]!);
        if (d < lo) lo = d;
        if (a > hi) hi = a;
      }
    }
    routeMinSec[r] = lo;
    routeMaxSec[r] = hi;
    minTimeSec = Math.min(minTimeSec, lo);
    maxTimeSec = Math.max(maxTimeSec, hi);
  });
  routeStopOffset[routeCount] = stopPos;
  routeTripOffset[routeCount] = tripPos;
  routeStopTimeOffset[routeCount] = stPos;
  if (routeCount === 0) minTimeSec = maxTimeSec = 0;
  return { ...columns, minTimeSec, maxTimeSec };
}

/** The routes' columns, sized for their stops, trips and stop times (shared memory, zeroed). */
function routeColumns(tt: Timetable, runs: Runs, routes: number[][]) {
  const { trips } = tt;
  const routeCount = routes.length;
  let stopSlots = 0;
  let routeTrips = 0;
  let stopTimeSlots = 0;
  for (const route of routes) {
    const t = runs.trip[route[0]!]!;
    const S = trips.stopTimeOffset[t + 1]! - trips.stopTimeOffset[t]!;
    stopSlots += S;
    routeTrips += route.length;
    stopTimeSlots += S * route.length;
  }
  return {
    routeStopOffset: sharedArray(Uint32Array, routeCount + 1),
    routeStops: sharedArray(Uint32Array, stopSlots),
    routeTripOffset: sharedArray(Uint32Array, routeCount + 1),
    routeStopTimeOffset: sharedArray(Uint32Array, routeCount + 1),
    routeTimezone: sharedArray(Uint16Array, routeCount),
    routeMinSec: sharedArray(Int32Array, routeCount),
    routeMaxSec: sharedArray(Int32Array, routeCount),
    routeTripTrip: sharedArray(Uint32Array, routeTrips),
    routeTripService: sharedArray(Uint32Array, routeTrips),
    arrivalSec: sharedArray(Int32Array, stopTimeSlots),
    departureSec: sharedArray(Int32Array, stopTimeSlots),
    boardAlight: sharedArray(Uint8Array, stopTimeSlots),
  };
}

/**
 * pickup_type / drop_off_type 1 ("none") forbid boarding / alighting; 2 and 3 (phone, driver) allow
 * them. A GTFS-Flex window (a zone served on demand, not a timed call) allows neither.
 */
export function boardAlightFlags(pickDrop: number): number {
  if (pickDrop & WINDOW_BIT) return 0;
  const pickup = pickDrop & PICKUP_MASK;
  const dropOff = (pickDrop >>> DROP_OFF_SHIFT) & PICKUP_MASK;
  return (pickup === 1 ? 0 : CAN_BOARD) | (dropOff === 1 ? 0 : CAN_ALIGHT);
}

/** Per route, the union of the day bitsets of its trips' services. */
export function routeDays(routeTripOffset: Uint32Array, routeTripService: Uint32Array, bits: Uint32Array, words: number): Uint32Array {
  const routeCount = routeTripOffset.length - 1;
  const out = sharedArray(Uint32Array, routeCount * words);
  let last = -1;
  for (let r = 0; r < routeCount; r++) {
    for (let rt = routeTripOffset[r]!; rt < routeTripOffset[r + 1]!; rt++) {
      const s = routeTripService[rt]!;
      if (s === last && rt > routeTripOffset[r]!) continue;
      last = s;
      for (let w = 0; w < words; w++) out[r * words + w]! |= bits[s * words + w]!;
    }
  }
  return out;
}

/** Stop → (route, position) in compressed sparse rows, routes ascending. */
export function indexStops(stopCount: number, routeStopOffset: Uint32Array, routeStops: Uint32Array) {
  const routeCount = routeStopOffset.length - 1;
  const offset = sharedArray(Uint32Array, stopCount + 1);
  for (let i = 0; i < routeStops.length; i++) offset[routeStops[i]! + 1]!++;
  for (let s = 0; s < stopCount; s++) offset[s + 1]! += offset[s]!;
  const routes = sharedArray(Uint32Array, routeStops.length);
  const pos = sharedArray(Uint32Array, routeStops.length);
  const fill = offset.slice(0, stopCount);
  for (let r = 0; r < routeCount; r++) {
    for (let i = routeStopOffset[r]!; i < routeStopOffset[r + 1]!; i++) {
      const k = fill[routeStops[i]!]!++;
      routes[k] = r;
      pos[k] = i - routeStopOffset[r]!;
    }
  }
  return { offset, routes, pos };
}

/** The transfer arrays of RaptorData. */
type Transfers = Pick<RaptorData, 'transferOffset' | 'transferTo' | 'transferFixedSec' | 'transferLengthM' | 'transferInOffset' | 'transferInEdge' | 'transferInFrom' | 'stopStaySec'>;

/**
 * The transfers between stops: the GTFS ones (type 3 forbids a pair, `min_transfer_time` fixes its
 * time) and the footpaths (the shortest walk of a pair), one per pair, by origin then destination;
 * a transfer from a stop to itself sets its stay time (see the file header for the rules).
 */
function* transfersSteps(tt: Timetable, stopCount: number, footpaths?: Footpaths): Generator<void, Transfers> {
  const stopStaySec = sharedArray(Int32Array, stopCount);
  const cand = transferCandidates(tt, footpaths, stopStaySec);
  yield;
  // by origin stop (a counting sort), then by destination within each: a pair's candidates side by side
  const byFrom = groupBy(cand.count, stopCount, (i) => cand.from[i]!);
  const byTo = (a: number, b: number) => cand.to[a]! - cand.to[b]! || a - b;
  for (let s = 0; s < stopCount; s++) {
    const row = byFrom.items.subarray(byFrom.offsets[s]!, byFrom.offsets[s + 1]!);
    if (row.length > 1) row.sort(byTo);
    if ((s & 1023) === 1023) yield;
  }
  yield;
  return { ...connectionTables(stopCount, cand, onePerPair(cand, byFrom.items)), stopStaySec };
}

/** The candidate connections, one per GTFS transfer or footpath (a pair's possibly several), before they are merged. */
interface TransferCandidates {
  from: Uint32Array;
  to: Uint32Array;
  /** the transfer's min_transfer_time, or NO_FIXED_TIME */
  fixedSec: Int32Array;
  /** the footpath's length, NaN for a GTFS transfer */
  lengthM: Float64Array;
  /** 1: transfer_type 3 forbids the pair */
  blocked: Uint8Array;
  count: number;
}

/** The GTFS transfers between two stops (one from a stop to itself sets its stay in `stopStaySec`), then the footpaths. */
function transferCandidates(tt: Timetable, footpaths: Footpaths | undefined, stopStaySec: Int32Array): TransferCandidates {
  const { fromStop, toStop, type, minTimeSec } = tt.transfers;
  const footpathCount = footpaths?.from.length ?? 0;
  const m = fromStop.length + footpathCount;
  const cand: TransferCandidates = {
    from: new Uint32Array(m),
    to: new Uint32Array(m),
    fixedSec: new Int32Array(m).fill(NO_FIXED_TIME),
    lengthM: new Float64Array(m).fill(NaN),
    blocked: new Uint8Array(m),
    count: 0,
  };
  let c = 0;
  for (let i = 0; i < fromStop.length; i++) {
    const from = fromStop[i]!;
    const blocked = type[i] === 3;
    const min = minTimeSec[i]! >= 0 ? minTimeSec[i]! : NO_FIXED_TIME;
    if (from === toStop[i]) {
      if (stopStaySec[from] === NO_STAY) continue;
      stopStaySec[from] = blocked ? NO_STAY : Math.max(stopStaySec[from]!, Math.max(0, min));
      continue;
    }
    cand.from[c] = from;
    cand.to[c] = toStop[i]!;
    cand.fixedSec[c] = min;
    cand.blocked[c++] = blocked ? 1 : 0;
  }
  for (let i = 0; i < footpathCount; i++) {
    const len = footpaths!.lengthM[i]!;
    if (footpaths!.from[i] === footpaths!.to[i] || !(len >= 0)) continue;
    cand.from[c] = footpaths!.from[i]!;
    cand.to[c] = footpaths!.to[i]!;
    cand.lengthM[c++] = len;
  }
  cand.count = c;
  return cand;
}

/** The connections kept: one per pair of the candidates in `items` (sorted by pair), blocked if one transfer blocks it, the longest fixed time, the shortest walk. */
interface KeptConnections {
  kept: number[];
  fixedSec: number[];
  lengthM: number[];
}

function onePerPair(cand: TransferCandidates, items: Uint32Array): KeptConnections {
  const kept: number[] = [];
  const fixedSec: number[] = [];
  const lengthM: number[] = [];
  for (let k = 0; k < items.length; ) {
    const first = items[k]!;
    let blocked = 0;
    let fixed = NO_FIXED_TIME;
    let length = NaN;
    for (; k < items.length && cand.from[items[k]!] === cand.from[first] && cand.to[items[k]!] === cand.to[first]; k++) {
      const i = items[k]!;
      blocked |= cand.blocked[i]!;
      fixed = Math.max(fixed, cand.fixedSec[i]!);
      if (cand.lengthM[i]! < length || Number.isNaN(length)) length = cand.lengthM[i]!;
    }
    if (blocked) continue;
    kept.push(first);
    fixedSec.push(fixed);
    lengthM.push(length);
  }
  return { kept, fixedSec, lengthM };
}

/** The connections' columns, by leaving stop, and grouped again by arriving stop (for arrival searches). */
function connectionTables(stopCount: number, cand: TransferCandidates, { kept, fixedSec, lengthM }: KeptConnections): Omit<Transfers, 'stopStaySec'> {
  const n = kept.length;
  const transferOffset = sharedArray(Uint32Array, stopCount + 1);
  const transferTo = sharedArray(Uint32Array, n);
  const transferFixedSec = sharedArray(Int32Array, n);
  const transferLengthM = sharedArray(Float64Array, n);
  const from = new Uint32Array(n);
  for (let e = 0; e < n; e++) {
    from[e] = cand.from[kept[e]!]!;
    transferTo[e] = cand.to[kept[e]!]!;
    transferFixedSec[e] = fixedSec[e]!;
    transferLengthM[e] = lengthM[e]!;
    transferOffset[from[e]! + 1]!++;
  }
  for (let s = 0; s < stopCount; s++) transferOffset[s + 1]! += transferOffset[s]!;
  // incoming side, for arrival searches
  const transferInOffset = sharedArray(Uint32Array, stopCount + 1);
  for (let e = 0; e < n; e++) transferInOffset[transferTo[e]! + 1]!++;
  for (let s = 0; s < stopCount; s++) transferInOffset[s + 1]! += transferInOffset[s]!;
  const transferInEdge = sharedArray(Uint32Array, n);
  const transferInFrom = sharedArray(Uint32Array, n);
  const fill = transferInOffset.slice(0, stopCount);
  for (let e = 0; e < n; e++) {
    const k = fill[transferTo[e]!]!++;
    transferInEdge[k] = e;
    transferInFrom[k] = from[e]!;
  }
  return { transferOffset, transferTo, transferFixedSec, transferLengthM, transferInOffset, transferInEdge, transferInFrom };
}
