/**
 * A scenario as a RAPTOR overlay (routing/raptor-overlay.ts), the shape realtime already has: the
 * base trips it masks are skipped on every day, and the trips it runs instead (changed copies and
 * new trips) are laid out in routes of their own as the timetable's are: runs of one stop sequence
 * and time zone sorted by first departure and dealt into routes none of whose runs overtake another.
 * Routes the scenario does not touch stay the timetable's, shared.
 *
 * A changed copy keeps its base trip's index (line and mode filters and wheelchair flags apply to it);
 * a new trip is numbered after the timetable's trips. The overlay's calendars are the timetable's
 * followed by the scenario's new ones. A scenario's new stops are linked to the streets and given
 * their walking connections here (routing/overlay-stops.ts), when the coverage has streets.
 */
import { sharedArray } from '../model/shared-arrays.js';
import type { Timetable } from '../model/timetable.js';
import { boardAlightFlags, dealIntoRoutes, indexStops, routeDays, type RaptorData, type RouteTable } from '../routing/raptor-data.js';
import { EVERY_RUN, type RaptorOverlay } from '../routing/raptor-overlay.js';
import { buildOverlayStops } from '../routing/overlay-stops.js';
import type { HeatMapData } from '../routing/heat-map-types.js';
import type { AppliedScenario } from './apply-scenario.js';
import type { ScenarioTrip } from './scenario-trips.js';

/** One run: a trip and the seconds added to its times. */
interface Run {
  trip: ScenarioTrip;
  /** the route-trip's trip index: the base trip's, or after the timetable's for a new trip */
  tripIndex: number;
  shift: number;
}

/** The streets a scenario's new stops are linked to: the coverage's heat-map data, and the footpaths' horizon (TRANSFER_HORIZON_M). */
export interface ScenarioStreets {
  data: Pick<HeatMapData, 'graph' | 'snaps' | 'stopLon' | 'stopLat'>;
  maxWalkM: number;
}

/**
 * The overlay of `applied` over `data` (the timetable `tt` compiled); its new stops linked to
 * `streets` (null, a coverage without streets: they are served by vehicles only, with no walk).
 */
export function buildScenarioOverlay(tt: Timetable, data: RaptorData, applied: AppliedScenario, streets: ScenarioStreets | null): RaptorOverlay {
  const tripChanged = sharedArray(Uint8Array, data.tripCount);
  applied.masked.forEach((m, t) => m && (tripChanged[t] = EVERY_RUN));
  const stopCount = data.stopCount + applied.newStops.length;
  // the timetable's routes all of whose runs the scenario takes, skipped whole by a search
  const routeGone = sharedArray(Uint8Array, data.routeCount);
  for (let r = 0; r < data.routeCount; r++) {
    let gone = 1;
    for (let rt = data.routeTripOffset[r]!; gone && rt < data.routeTripOffset[r + 1]!; rt++) gone = applied.masked[data.routeTripTrip[rt]!]!;
    routeGone[r] = gone;
  }
  const stops = streets && applied.newStops.length > 0 ? buildOverlayStops(streets.data.graph, streets.data.snaps, streets.data.stopLon, streets.data.stopLat, applied.newStops, streets.maxWalkM) : null;
  return { routes: layOutScenarioRoutes(tt, data, applied, stopCount), tripChanged, changedRuns: sharedArray(Float64Array, 0), routeGone, stops };
}

function layOutScenarioRoutes(tt: Timetable, data: RaptorData, applied: AppliedScenario, stopCount: number): RouteTable {
  const routes = scenarioRoutes(applied.trips, data.tripCount);
  let stopSlots = 0;
  let tripSlots = 0;
  let timeSlots = 0;
  for (const route of routes) {
    const S = route[0]!.trip.stops.length;
    stopSlots += S;
    tripSlots += route.length;
    timeSlots += S * route.length;
  }
  const routeCount = routes.length;
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
  let stopPos = 0;
  let tripPos = 0;
  let timePos = 0;
  let minTimeSec = routeCount === 0 ? 0 : Infinity;
  let maxTimeSec = routeCount === 0 ? 0 : -Infinity;
  routes.forEach((route, r) => {
    const first = route[0]!.trip;
    routeStopOffset[r] = stopPos;
    routeTripOffset[r] = tripPos;
    routeStopTimeOffset[r] = timePos;
    routeTimezone[r] = first.timezone;
    for (const p of first.stops) routeStops[stopPos++] = p;
    let lo = Infinity;
    let hi = -Infinity;
    for (const run of route) {
      routeTripTrip[tripPos] = run.tripIndex;
      routeTripService[tripPos++] = run.trip.service;
      for (let i = 0; i < first.stops.length; i++, timePos++) {
        const a = run.trip.arrival[i]! + run.shift;
        const d = run.trip.departure[i]! + run.shift;
        arrivalSec[timePos] = a;
        departureSec[timePos] = d;
        boardAlight[timePos] = boardAlightFlags(run.trip.pickDrop[i]!);
        lo = Math.min(lo, d);
        hi = Math.max(hi, a);
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
  const serviceBits = sharedArray(Uint32Array, tt.services.bits.length + applied.newServiceBits.length);
  serviceBits.set(tt.services.bits);
  serviceBits.set(applied.newServiceBits, tt.services.bits.length);
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
    routeDayBits: routeDays(routeTripOffset, routeTripService, serviceBits, data.serviceWords),
    routeTripTrip,
    routeTripService,
    arrivalSec,
    departureSec,
    boardAlight,
    stopRouteOffset: stopIndex.offset,
    stopRoutes: stopIndex.routes,
    stopRoutePos: stopIndex.pos,
    serviceWords: data.serviceWords,
    serviceBits,
  };
}

/** The scenario's runs grouped by stop sequence and time zone, sorted, and dealt into routes. */
function scenarioRoutes(trips: ScenarioTrip[], tripCount: number): Run[][] {
  const groups = new Map<string, Run[]>();
  let made = 0;
  for (const trip of trips) {
    const tripIndex = trip.source >= 0 ? trip.source : tripCount + made++;
    if (trip.stops.length < 2) continue; // nothing to ride
    const key = `${trip.timezone}|${trip.stops.join(',')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    for (const shift of trip.shifts) group.push({ trip, tripIndex, shift });
  }
  const routes: Run[][] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!.sort(compareRuns);
    for (const route of dealIntoRoutes(group.map((_, i) => i), (a, b) => follows(group[a]!, group[b]!))) routes.push(route.map((i) => group[i]!));
  }
  return routes;
}

/** Lexicographic on (departures, arrivals) over the positions, then by trip for determinism. */
function compareRuns(a: Run, b: Run): number {
  const n = a.trip.stops.length;
  for (let i = 0; i < n; i++) {
    const d = a.trip.departure[i]! + a.shift - (b.trip.departure[i]! + b.shift);
    if (d !== 0) return d;
  }
  for (let i = 0; i < n; i++) {
    const d = a.trip.arrival[i]! + a.shift - (b.trip.arrival[i]! + b.shift);
    if (d !== 0) return d;
  }
  return a.tripIndex - b.tripIndex || a.shift - b.shift;
}

/** Whether run b, after run a, never overtakes it. */
function follows(a: Run, b: Run): boolean {
  for (let i = 0; i < a.trip.stops.length; i++) {
    if (b.trip.departure[i]! + b.shift < a.trip.departure[i]! + a.shift) return false;
    if (b.trip.arrival[i]! + b.shift < a.trip.arrival[i]! + a.shift) return false;
  }
  return true;
}
