/**
 * The realtime overlay of a RAPTOR search: the runs a freshness level changes, laid over the
 * timetable's routes without touching them. Built per generation from that level's runs (a few
 * hundred at most, usually), in time proportional to them.
 *
 * - A changed run (a trip on one service day: delayed, skipping stops, or cancelled) is masked in
 *   the timetable's routes: `tripChanged` flags its trip, `changedRuns` lists the (trip, day) pairs,
 *   and the search skips those runs on those days.
 * - Every changed run still running, and every added run, becomes a route of its own with one trip
 *   valid on its day only (its own one-day "service"), at its new times; a skipped stop can be
 *   neither boarded nor left there. Added run i is trip `tripCount + i`; `addedTripLine` keeps its
 *   line, so that a journey riding it is named once the search is done.
 *
 * All arrays are on shared memory: the overlay travels to the worker threads with each heat map
 * without a copy (a scenario's few new line ids, strings, are copied).
 */
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import type { Timetable } from '../model/timetable.js';
import type { AddedRun, RealtimeRun } from '../model/realtime-runs.js';
import { boardAlightFlags, indexStops, routeDays, type RaptorData, type RouteTable } from './raptor-data.js';
import { overlayNeeds, type OverlayNeeds } from './transfer-pruning.js';
import type { OverlayStops } from './overlay-stops.js';

/** `changedRuns` key of run (trip, day index): trip × DAY_SPAN + day - serviceFirstDay. */
export const DAY_SPAN = 65536;

/** `RaptorOverlay.tripChanged` of a trip some of whose runs the overlay changes (listed in `changedRuns`). */
export const SOME_RUNS = 1;
/** `RaptorOverlay.tripChanged` of a trip whose runs the overlay all replaces or removes (a scenario's). */
export const EVERY_RUN = 2;

export interface RaptorOverlay {
  /** the routes of the overlay's runs: one per replacement or added run for realtime, a scenario's trips laid out as the timetable's */
  routes: RouteTable;
  /** per timetable trip: SOME_RUNS, EVERY_RUN, or 0 when the overlay leaves it alone */
  tripChanged: Uint8Array;
  /** the changed runs' keys, ascending */
  changedRuns: Float64Array;
  /** per timetable route: 1 when the overlay removes or replaces every run of it (a search skips it whole); absent: none */
  routeGone?: Uint8Array | null;
  /** the timetable's connections its routes need beside those a search's pruning keeps (transfer-pruning.ts) */
  needs: OverlayNeeds;
  /** a scenario's new stops (numbered from the timetable's stop count, visited by `routes`), with the timetable's; none: the timetable's stops alone */
  stops?: OverlayStops | null;
  /**
   * per trip the overlay adds, by its number less the timetable's trip count: its line, an index
   * into the timetable's lines then `newLineIds`; NO_LINE (model/realtime-runs.ts) for a realtime
   * trip that names no route. Read where a journey's trips are named (queries/ridden-lines.ts), never
   * by a search.
   */
  addedTripLine: Int32Array;
  /** the ids of the lines a scenario adds, numbered after the timetable's (`scenario:NAME:M`); none: realtime's */
  newLineIds?: readonly string[];
}

/** One run of an overlay's routes: its trip (timetable index, or >= tripCount when added), calendar, time zone, stops, times and CAN_BOARD | CAN_ALIGHT flags. */
export interface OverlayRun {
  trip: number;
  service: number;
  timezone: number;
  stops: ArrayLike<number>;
  arrivalSec: ArrayLike<number>;
  departureSec: ArrayLike<number>;
  flags: ArrayLike<number>;
}

export function buildRaptorOverlay(tt: Timetable, data: RaptorData, changed: Iterable<RealtimeRun>, added: readonly AddedRun[]): RaptorOverlay {
  const inCalendar = (day: number) => day >= data.serviceFirstDay && day < data.serviceFirstDay + data.serviceDayCount;
  const tripChanged = sharedArray(Uint8Array, data.tripCount);
  const keys: number[] = [];
  const runs: OverlayRun[] = [];
  /** the day of each run: each is its own one-day calendar */
  const days: number[] = [];
  for (const run of changed) {
    if (!inCalendar(run.day)) continue;
    const dayIndex = run.day - data.serviceFirstDay;
    tripChanged[run.trip] = SOME_RUNS;
    keys.push(run.trip * DAY_SPAN + dayIndex);
    if (run.cancelled) continue;
    const t = run.trip;
    const p = tt.trips.pattern[t]!;
    const o = tt.trips.stopTimeOffset[t]!;
    const flags = new Uint8Array(run.arrivalSec.length);
    for (let k = 0; k < flags.length; k++) flags[k] = run.skipped[k] ? 0 : boardAlightFlags(tt.stopTimes.pickDrop[o + k]!);
    days.push(dayIndex);
    runs.push({
      trip: t,
      service: runs.length,
      timezone: tt.agencyTimezone[tt.trips.agency[t]!]!,
      stops: tt.patterns.stops.subarray(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p + 1]!),
      arrivalSec: run.arrivalSec,
      departureSec: run.departureSec,
      flags,
    });
  }
  // added runs keep the coverage's time zone (their times are read in it); run i is trip tripCount + i
  const coverageZone = Math.max(0, tt.timezones.indexOf(tt.timezone));
  const addedTripLine = sharedCopy(Int32Array, added.map((run) => run.line));
  added.forEach((run, i) => {
    if (!inCalendar(run.day)) return;
    days.push(run.day - data.serviceFirstDay);
    runs.push({
      trip: data.tripCount + i,
      service: runs.length,
      timezone: coverageZone,
      stops: run.stops,
      arrivalSec: run.arrivalSec,
      departureSec: run.departureSec,
      flags: new Uint8Array(run.stops.length).fill(3),
    });
  });
  keys.sort((a, b) => a - b);
  const words = data.serviceWords;
  const serviceBits = sharedArray(Uint32Array, runs.length * words);
  days.forEach((day, r) => (serviceBits[r * words + (day >>> 5)] = 1 << (day & 31)));
  const routes = layOutOverlayRoutes(
    runs.map((run) => [run]),
    data.stopCount,
    words,
    serviceBits,
  );
  return { routes, tripChanged, changedRuns: sharedCopy(Float64Array, keys), needs: overlayNeeds(data, routes), addedTripLine };
}

/** Whether run (trip, dayIndex) is changed by the overlay. */
export function runChanged(overlay: RaptorOverlay, trip: number, dayIndex: number): boolean {
  const changed = overlay.tripChanged[trip];
  if (changed !== SOME_RUNS) return changed === EVERY_RUN;
  const keys = overlay.changedRuns;
  const key = trip * DAY_SPAN + dayIndex;
  let a = 0;
  let b = keys.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (keys[mid]! < key) a = mid + 1;
    else b = mid;
  }
  return a < keys.length && keys[a] === key;
}

/**
 * Routes of runs as a RouteTable over `stopCount` stops: each route's runs share their stops and
 * time zone and are in order, none overtaking another; `serviceBits` holds the calendars the runs
 * name (`serviceWords` words each).
 */
export function layOutOverlayRoutes(routes: readonly (readonly OverlayRun[])[], stopCount: number, serviceWords: number, serviceBits: Uint32Array): RouteTable {
  const routeCount = routes.length;
  let stopSlots = 0;
  let tripSlots = 0;
  let timeSlots = 0;
  for (const route of routes) {
    const S = route[0]!.stops.length;
    stopSlots += S;
    tripSlots += route.length;
    timeSlots += S * route.length;
  }
  const routeStopOffset = sharedArray(Uint32Array, routeCount + 1);
  const routeStops = sharedArray(Uint32Array, stopSlots);
  const routeTripOffset = sharedArray(Uint32Array, routeCount + 1);
  const routeStopTimeOffset = sharedArray(Uint32Array, routeCount + 1);
  const routeTimezone = sharedArray(Uint16Array, routeCount);
  const routeMinSec = sharedArray(Int32Array, routeCount);
  const routeMaxSec = sharedArray(Int32Array, routeCount);
  const routeTripTrip = sharedArray(Uint32Array, tripSlots);
  const routeTripService = sharedArray(Uint32Array, tripSlots);
  const arrivalSec = sharedArray(Int32Array, timeSlots);
  const departureSec = sharedArray(Int32Array, timeSlots);
  const boardAlight = sharedArray(Uint8Array, timeSlots);
  let minTimeSec = routeCount === 0 ? 0 : Infinity;
  let maxTimeSec = routeCount === 0 ? 0 : -Infinity;
  let stopPos = 0;
  let tripPos = 0;
  let timePos = 0;
  routes.forEach((route, r) => {
    const first = route[0]!;
    routeStopOffset[r] = stopPos;
    routeTripOffset[r] = tripPos;
    routeStopTimeOffset[r] = timePos;
    routeTimezone[r] = first.timezone;
    for (let i = 0; i < first.stops.length; i++) routeStops[stopPos++] = first.stops[i]!;
    let lo = Infinity;
    let hi = -Infinity;
    for (const run of route) {
      routeTripTrip[tripPos] = run.trip;
      routeTripService[tripPos++] = run.service;
      for (let i = 0; i < first.stops.length; i++, timePos++) {
        arrivalSec[timePos] = run.arrivalSec[i]!;
        departureSec[timePos] = run.departureSec[i]!;
        boardAlight[timePos] = run.flags[i]!;
        lo = Math.min(lo, departureSec[timePos]!);
        hi = Math.max(hi, arrivalSec[timePos]!);
      }
    }
    routeMinSec[r] = lo;
    routeMaxSec[r] = hi;
    minTimeSec = Math.min(minTimeSec, lo);
    maxTimeSec = Math.max(maxTimeSec, hi);
  });
  routeStopOffset[routeCount] = stopPos;
  routeTripOffset[routeCount] = tripPos;
  routeStopTimeOffset[routeCount] = timePos;
  const stopIndex = indexStops(stopCount, routeStopOffset, routeStops);
  return {
    routeCount,
    routeTripCount: tripSlots,
    minTimeSec,
    maxTimeSec,
    routeStopOffset,
    routeStops,
    routeTripOffset,
    routeStopTimeOffset,
    routeTimezone,
    routeMinSec,
    routeMaxSec,
    routeDayBits: routeDays(routeTripOffset, routeTripService, serviceBits, serviceWords),
    routeTripTrip,
    routeTripService,
    arrivalSec,
    departureSec,
    boardAlight,
    stopRouteOffset: stopIndex.offset,
    stopRoutes: stopIndex.routes,
    stopRoutePos: stopIndex.pos,
    serviceWords,
    serviceBits,
  };
}
