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
 *   neither boarded nor left there.
 *
 * All arrays are on shared memory: the overlay travels to the worker threads with each heat map
 * without a copy.
 */
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import type { Timetable } from '../model/timetable.js';
import type { AddedRun, RealtimeRun } from '../model/realtime-runs.js';
import { boardAlightFlags, indexStops, type RaptorData, type RouteTable } from './raptor-data.js';
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
  /** a scenario's new stops (numbered from the timetable's stop count, visited by `routes`), with the timetable's; none: the timetable's stops alone */
  stops?: OverlayStops | null;
}

/** One run as a one-trip route: its trip (timetable index, or >= tripCount when added), stops and times. */
interface OverlayRun {
  trip: number;
  dayIndex: number;
  timezone: number;
  stops: ArrayLike<number>;
  arrivalSec: ArrayLike<number>;
  departureSec: ArrayLike<number>;
  flags: Uint8Array;
}

export function buildRaptorOverlay(tt: Timetable, data: RaptorData, changed: Iterable<RealtimeRun>, added: readonly AddedRun[]): RaptorOverlay {
  const inCalendar = (day: number) => day >= data.serviceFirstDay && day < data.serviceFirstDay + data.serviceDayCount;
  const tripChanged = sharedArray(Uint8Array, data.tripCount);
  const keys: number[] = [];
  const runs: OverlayRun[] = [];
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
    runs.push({
      trip: t,
      dayIndex,
      timezone: tt.agencyTimezone[tt.trips.agency[t]!]!,
      stops: tt.patterns.stops.subarray(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p + 1]!),
      arrivalSec: run.arrivalSec,
      departureSec: run.departureSec,
      flags,
    });
  }
  // added runs keep the coverage's time zone (their times are read in it)
  const coverageZone = Math.max(0, tt.timezones.indexOf(tt.timezone));
  added.forEach((run, i) => {
    if (!inCalendar(run.day)) return;
    runs.push({
      trip: data.tripCount + i,
      dayIndex: run.day - data.serviceFirstDay,
      timezone: coverageZone,
      stops: run.stops,
      arrivalSec: run.arrivalSec,
      departureSec: run.departureSec,
      flags: new Uint8Array(run.stops.length).fill(3),
    });
  });
  keys.sort((a, b) => a - b);
  return { routes: layOut(runs, data), tripChanged, changedRuns: sharedCopy(Float64Array, keys) };
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

function layOut(runs: OverlayRun[], data: RaptorData): RouteTable {
  const routeCount = runs.length;
  let slots = 0;
  for (const run of runs) slots += run.stops.length;
  const words = data.serviceWords;
  const routeStopOffset = sharedArray(Uint32Array, routeCount + 1);
  const routeStops = sharedArray(Uint32Array, slots);
  const routeTripOffset = sharedArray(Uint32Array, routeCount + 1);
  const routeTimezone = sharedArray(Uint16Array, routeCount);
  const routeMinSec = sharedArray(Int32Array, routeCount);
  const routeMaxSec = sharedArray(Int32Array, routeCount);
  const routeTripTrip = sharedArray(Uint32Array, routeCount);
  const routeTripService = sharedArray(Uint32Array, routeCount);
  const serviceBits = sharedArray(Uint32Array, routeCount * words);
  const arrivalSec = sharedArray(Int32Array, slots);
  const departureSec = sharedArray(Int32Array, slots);
  const boardAlight = sharedArray(Uint8Array, slots);
  let minTimeSec = routeCount === 0 ? 0 : Infinity;
  let maxTimeSec = routeCount === 0 ? 0 : -Infinity;
  let pos = 0;
  runs.forEach((run, r) => {
    routeStopOffset[r] = pos;
    routeTripOffset[r] = r;
    routeTimezone[r] = run.timezone;
    routeTripTrip[r] = run.trip;
    routeTripService[r] = r; // each run is its own one-day service
    serviceBits[r * words + (run.dayIndex >>> 5)] = 1 << (run.dayIndex & 31);
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < run.stops.length; k++, pos++) {
      routeStops[pos] = run.stops[k]!;
      arrivalSec[pos] = run.arrivalSec[k]!;
      departureSec[pos] = run.departureSec[k]!;
      boardAlight[pos] = run.flags[k]!;
      lo = Math.min(lo, departureSec[pos]!);
      hi = Math.max(hi, arrivalSec[pos]!);
    }
    routeMinSec[r] = lo;
    routeMaxSec[r] = hi;
    minTimeSec = Math.min(minTimeSec, lo);
    maxTimeSec = Math.max(maxTimeSec, hi);
  });
  routeStopOffset[routeCount] = pos;
  routeTripOffset[routeCount] = routeCount;
  const stopIndex = indexStops(data.stopCount, routeStopOffset, routeStops);
  return {
    routeCount,
    routeTripCount: routeCount,
    minTimeSec,
    maxTimeSec,
    routeStopOffset,
    routeStops,
    routeTripOffset,
    // one trip per route: its stop times start where its stops do
    routeStopTimeOffset: routeStopOffset,
    routeTimezone,
    routeMinSec,
    routeMaxSec,
    routeDayBits: serviceBits,
    routeTripTrip,
    routeTripService,
    arrivalSec,
    departureSec,
    boardAlight,
    stopRouteOffset: stopIndex.offset,
    stopRoutes: stopIndex.routes,
    stopRoutePos: stopIndex.pos,
    serviceWords: words,
    serviceBits,
  };
}
