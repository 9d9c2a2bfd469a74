/**
 * Data freshness levels (base_schedule, adapted_schedule, realtime) as seen by the referential.
 *
 * A `Freshness` answers, for one data generation, which trips exist at a level and when they run.
 * The base schedule answers from the static timetable. Realtime sources (a later layer) give a
 * generation whose adapted and realtime levels differ; the trips query and the filter language
 * only ever talk to this interface.
 */
import type { AddedTrips } from './added-trips.js';
import { departsWithin } from './departure-window.js';
import type { Referential } from './referential.js';
import { EMPTY } from './sorted-set.js';

export const FRESHNESS_LEVELS = ['base_schedule', 'adapted_schedule', 'realtime'] as const;
export type FreshnessLevel = (typeof FRESHNESS_LEVELS)[number];

export interface Freshness {
  /** Whether trip `trip` has a run at `level` whose first departure is in [sinceSec, untilSec]. */
  departsWithin(trip: number, level: FreshnessLevel, sinceSec: number, untilSec: number): boolean;
  /**
   * The timetable's trips whose runs at `level` may depart otherwise than the timetable says
   * (realtime moved, cancelled or replaced one of their runs), ascending: a period search by
   * first departure (departing-trips.ts) tests them beside the trips the timetable makes
   * candidates.
   */
  changedTrips(level: FreshnessLevel): Uint32Array;
  /** Whether trip `trip` is running (between its first departure and last arrival) at `atSec`. */
  activeAt(trip: number, level: FreshnessLevel, atSec: number): boolean;
  /**
   * The trips that exist at `level` only, beside the timetable's (realtime's added trips), with
   * trip indexes after the timetable's; undefined when none (always, without realtime).
   */
  addedTrips?(level: FreshnessLevel): AddedTrips | undefined;
}

/** The static timetable at every level (no realtime source). */
export class BaseFreshness implements Freshness {
  constructor(private readonly ref: Referential) {}

  departsWithin(trip: number, _level: FreshnessLevel, sinceSec: number, untilSec: number): boolean {
    return departsWithin(this.ref.tt, this.ref.days, trip, sinceSec, untilSec);
  }

  changedTrips(): Uint32Array {
    return EMPTY;
  }

  activeAt(trip: number, level: FreshnessLevel, atSec: number): boolean {
    // A run is active from its first departure to its last arrival: it departed at most one run
    // duration before `atSec`.
    return this.departsWithin(trip, level, atSec - runDuration(this.ref.tt, trip), atSec);
  }
}

/** Seconds from a trip's first departure to its last arrival. */
export function runDuration(tt: Referential['tt'], trip: number): number {
  const { trips, stopTimes } = tt;
  return stopTimes.arrivalSec[trips.stopTimeOffset[trip + 1]! - 1]! - stopTimes.departureSec[trips.stopTimeOffset[trip]!]!;
}
