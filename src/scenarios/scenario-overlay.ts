/**
 * A scenario as a RAPTOR overlay (routing/raptor-overlay.ts), the shape realtime already has: the
 * base trips it masks are skipped on every day, and the trips it runs instead (changed copies and
 * new trips) are laid out in routes of their own as the timetable's are: runs of one stop sequence
 * and time zone sorted by first departure and dealt into routes none of whose runs overtake another.
 * Routes the scenario does not touch stay the timetable's, shared.
 *
 * A changed copy keeps its base trip's index (line and mode filters and wheelchair flags apply to it);
 * a new trip is numbered after the timetable's trips, its line (a new line's id, `scenario:NAME:M`)
 * kept for naming the journeys that ride it. The overlay's calendars are the timetable's
 * followed by the scenario's new ones. A scenario's new stops are linked to the streets and given
 * their walking connections here (routing/overlay-stops.ts), when the coverage has streets.
 */
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import type { Timetable } from '../model/timetable.js';
import { boardAlightFlags, dealIntoRoutes, type RaptorData } from '../routing/raptor-data.js';
import { EVERY_RUN, layOutOverlayRoutes, type OverlayRun, type RaptorOverlay } from '../routing/raptor-overlay.js';
import { overlayNeeds } from '../routing/transfer-pruning.js';
import { overlayStopsSteps } from '../routing/overlay-stops.js';
import { inOnePiece } from '../util/stepwise.js';
import type { HeatMapData } from '../routing/heat-map-types.js';
import type { AppliedScenario } from './apply-scenario.js';
import type { ScenarioTrip } from './scenario-trips.js';

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
  return inOnePiece(scenarioOverlaySteps(tt, data, applied, streets));
}

/** `buildScenarioOverlay` in steps: its new stops' walks found a few stops at a time. */
export function* scenarioOverlaySteps(tt: Timetable, data: RaptorData, applied: AppliedScenario, streets: ScenarioStreets | null): Generator<void, RaptorOverlay> {
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
  const stops = streets && applied.newStops.length > 0 ? yield* overlayStopsSteps(streets.data.graph, streets.data.snaps, streets.data.stopLon, streets.data.stopLat, applied.newStops, streets.maxWalkM) : null;
  // the overlay's calendars: the timetable's, then the scenario's
  const serviceBits = sharedArray(Uint32Array, tt.services.bits.length + applied.newServiceBits.length);
  serviceBits.set(tt.services.bits);
  serviceBits.set(applied.newServiceBits, tt.services.bits.length);
  const { routes: runs, addedTripLine } = scenarioRoutes(applied.trips, data.tripCount);
  const routes = layOutOverlayRoutes(runs, stopCount, data.serviceWords, serviceBits);
  const newLineIds = applied.newLines.map((line) => line.id);
  return { routes, tripChanged, changedRuns: sharedArray(Float64Array, 0), routeGone, stops, needs: overlayNeeds(data, routes), addedTripLine, newLineIds };
}

/**
 * The scenario's runs (each trip at each of its shifts) grouped by stop sequence and time zone,
 * sorted, and dealt into routes; and the line of each new trip, by its number less `tripCount`.
 */
function scenarioRoutes(trips: ScenarioTrip[], tripCount: number): { routes: OverlayRun[][]; addedTripLine: Int32Array } {
  const groups = new Map<string, OverlayRun[]>();
  const newTripLines: number[] = [];
  for (const trip of trips) {
    // a new trip is numbered after the timetable's, in the order of the scenario's trips
    const tripIndex = trip.source >= 0 ? trip.source : tripCount + newTripLines.push(trip.line) - 1;
    if (trip.stops.length < 2) continue; // nothing to ride
    const key = `${trip.timezone}|${trip.stops.join(',')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    const flags = trip.pickDrop.map(boardAlightFlags);
    for (const shift of trip.shifts) {
      const arrivalSec = shift === 0 ? trip.arrival : trip.arrival.map((t) => t + shift);
      const departureSec = shift === 0 ? trip.departure : trip.departure.map((t) => t + shift);
      group.push({ trip: tripIndex, service: trip.service, timezone: trip.timezone, stops: trip.stops, arrivalSec, departureSec, flags });
    }
  }
  const routes: OverlayRun[][] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!.sort(compareRuns);
    for (const route of dealIntoRoutes(group.map((_, i) => i), (a, b) => follows(group[a]!, group[b]!))) routes.push(route.map((i) => group[i]!));
  }
  return { routes, addedTripLine: sharedCopy(Int32Array, newTripLines) };
}

/** Lexicographic on (departures, arrivals) over the positions, then by trip for determinism. */
function compareRuns(a: OverlayRun, b: OverlayRun): number {
  const n = a.stops.length;
  for (let i = 0; i < n; i++) {
    const d = a.departureSec[i]! - b.departureSec[i]!;
    if (d !== 0) return d;
  }
  for (let i = 0; i < n; i++) {
    const d = a.arrivalSec[i]! - b.arrivalSec[i]!;
    if (d !== 0) return d;
  }
  return a.trip - b.trip;
}

/** Whether run b, after run a, never overtakes it. */
function follows(a: OverlayRun, b: OverlayRun): boolean {
  for (let i = 0; i < a.stops.length; i++) {
    if (b.departureSec[i]! < a.departureSec[i]! || b.arrivalSec[i]! < a.arrivalSec[i]!) return false;
  }
  return true;
}
