/**
 * The freshness levels of a generation that has realtime runs (see realtime/trip-updates.ts):
 * base_schedule answers from the static timetable; adapted_schedule and realtime from the runs of
 * their level, which replace the static run of their trip on their day (a cancelled run is gone, a
 * delayed one departs at its new time), as Navitia's realtime vehicle journeys replace the base ones
 * on their day at their level and above. The realtime level also has the trips realtime adds
 * (added-trips.ts), which the other levels never see.
 */
import type { RealtimeRun } from '../model/realtime-runs.js';
import type { AddedTrips } from './added-trips.js';
import { someRunDay } from './departure-window.js';
import { BaseFreshness, runDuration, type Freshness, type FreshnessLevel } from './freshness.js';
import type { Referential } from './referential.js';
import { EMPTY, union } from './sorted-set.js';

/** How many runs `LevelRuns.steps` files between two yields. */
const RUNS_PER_STEP = 8192;

/** Runs of one level, by trip then by service day. */
export class LevelRuns {
  private readonly byTrip = new Map<number, Map<number, RealtimeRun>>();
  private tripSet: Uint32Array | undefined;

  constructor(runs: Iterable<RealtimeRun>) {
    for (const run of runs) this.add(run);
  }

  /** The runs of `runs`, yielding every few thousand (the planned runs of a year are hundreds of thousands). */
  static *steps(runs: readonly RealtimeRun[]): Generator<void, LevelRuns> {
    const level = new LevelRuns([]);
    for (let i = 0; i < runs.length; i++) {
      level.add(runs[i]!);
      if (i % RUNS_PER_STEP === RUNS_PER_STEP - 1) yield;
    }
    return level;
  }

  private add(run: RealtimeRun): void {
    let days = this.byTrip.get(run.trip);
    if (!days) this.byTrip.set(run.trip, (days = new Map()));
    days.set(run.day, run);
  }

  of(trip: number): Map<number, RealtimeRun> | undefined {
    return this.byTrip.get(trip);
  }

  /** The trips with a run here, ascending (computed once: the runs do not change after the steps). */
  trips(): Uint32Array {
    return (this.tripSet ??= Uint32Array.from(this.byTrip.keys()).sort());
  }
}

export class RealtimeFreshness implements Freshness {
  private readonly base: BaseFreshness;
  /** the trips changed at the realtime level (adapted's and realtime's), once asked */
  private realtimeTrips: Uint32Array | undefined;

  constructor(
    private readonly ref: Referential,
    /** runs changed by planned disruptions (adapted_schedule and realtime) */
    private readonly adapted: LevelRuns,
    /** runs changed by realtime updates (realtime only; they win over `adapted`) */
    private readonly realtime: LevelRuns,
    /** trips added by realtime updates (realtime only) */
    private readonly added?: AddedTrips,
  ) {
    this.base = new BaseFreshness(ref);
  }

  addedTrips(level: FreshnessLevel): AddedTrips | undefined {
    return level === 'realtime' && this.added && this.added.count > 0 ? this.added : undefined;
  }

  changedTrips(level: FreshnessLevel): Uint32Array {
    if (level === 'base_schedule') return EMPTY;
    if (level === 'adapted_schedule') return this.adapted.trips();
    return (this.realtimeTrips ??= union(this.adapted.trips(), this.realtime.trips()));
  }

  departsWithin(trip: number, level: FreshnessLevel, sinceSec: number, untilSec: number): boolean {
    const changed = this.changedRuns(trip, level);
    if (!changed) return this.base.departsWithin(trip, level, sinceSec, untilSec);
    const { tt, days } = this.ref;
    // the changed runs at their new times
    for (const run of changed.values()) {
      if (run.cancelled) continue;
      const at = firstDeparture(this.ref, run);
      if (at !== null && at >= sinceSec && at <= untilSec) return true;
    }
    // the others as scheduled
    return someRunDay(tt, days, trip, sinceSec, untilSec, (day, at) => !changed.has(day) && at >= sinceSec && at <= untilSec);
  }

  activeAt(trip: number, level: FreshnessLevel, atSec: number): boolean {
    const changed = this.changedRuns(trip, level);
    if (!changed) return this.base.activeAt(trip, level, atSec);
    const { tt, days } = this.ref;
    for (const run of changed.values()) {
      if (run.cancelled) continue;
      const from = firstDeparture(this.ref, run);
      const to = lastArrival(this.ref, run);
      if (from !== null && to !== null && from <= atSec && atSec <= to) return true;
    }
    const duration = runDuration(tt, trip);
    return someRunDay(tt, days, trip, atSec - duration, atSec, (day, at) => !changed.has(day) && at >= atSec - duration && at <= atSec);
  }

  /** The runs of `trip` changed at `level` (realtime ones over adapted ones), by day; undefined when none. */
  private changedRuns(trip: number, level: FreshnessLevel): Map<number, RealtimeRun> | undefined {
    if (level === 'base_schedule') return undefined;
    const adapted = this.adapted.of(trip);
    if (level === 'adapted_schedule') return adapted;
    const realtime = this.realtime.of(trip);
    if (!adapted) return realtime;
    if (!realtime) return adapted;
    return new Map([...adapted, ...realtime]);
  }
}

/** Epoch second of a run's first served departure, null when it serves no stop. */
function firstDeparture(ref: Referential, run: RealtimeRun): number | null {
  for (let k = 0; k < run.departureSec.length; k++) {
    if (!run.skipped[k]) return originOf(ref, run) + run.departureSec[k]!;
  }
  return null;
}

function lastArrival(ref: Referential, run: RealtimeRun): number | null {
  for (let k = run.arrivalSec.length - 1; k >= 0; k--) {
    if (!run.skipped[k]) return originOf(ref, run) + run.arrivalSec[k]!;
  }
  return null;
}

function originOf(ref: Referential, run: RealtimeRun): number {
  const tt = ref.tt;
  return ref.days.origin(tt.agencyTimezone[tt.trips.agency[run.trip]!]!, run.day);
}
