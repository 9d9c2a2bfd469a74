/**
 * The trips GTFS-Realtime adds (ADDED TripUpdates, read by realtime/trip-updates.ts) as the
 * referential sees them at the realtime level: a small table built once per generation beside the
 * static timetable, which is never copied nor touched.
 *
 * Added trip i has the trip index `firstIndex + i`, firstIndex being the timetable's trip count:
 * indexes above every static trip, so a trips list at realtime stays ascending, the static trips
 * first, then the added ones in feed order. Only the trips query and the trips JSON look here, and
 * only when the freshness of the request's generation hands them a table (see Freshness.addedTrips):
 * static-only queries run as before.
 *
 *   trip index:   0 … tripCount-1 | tripCount + 0, tripCount + 1, …
 *                 static trips    | added[0], added[1], … (their AddedRun, line, route, network…)
 *
 * A trip id given twice (two entities or two sources) counts once: the later one, at its place.
 */
import { NO_LINE, type AddedRun } from '../model/realtime-runs.js';
import type { Referential } from './referential.js';

/** `network` of an added trip that belongs to no line. */
export const NO_NETWORK = -1;

export class AddedTrips {
  /** trip index of added trip 0 */
  readonly firstIndex: number;
  readonly runs: AddedRun[];
  /** per added trip: its name (its line's code, else its id: docs/realtime-and-disruptions.md, Realtime) */
  readonly names: string[];
  /** per added trip: agency of its line, NO_NETWORK without a line */
  readonly network: Int32Array;
  /** per added trip: epoch seconds of its first departure and of its last arrival */
  readonly firstDepartureSec: Float64Array;
  readonly lastArrivalSec: Float64Array;
  private readonly byId = new Map<string, number>();

  constructor(
    readonly ref: Referential,
    added: readonly AddedRun[],
  ) {
    const tt = ref.tt;
    this.firstIndex = tt.trips.ids.length;
    const last = new Map<string, number>();
    added.forEach((run, k) => last.set(run.tripId, k));
    this.runs = added.filter((run, k) => last.get(run.tripId) === k);
    this.runs.forEach((run, i) => this.byId.set(run.tripId, i));
    const n = this.runs.length;
    this.names = this.runs.map((run) => (run.line === NO_LINE ? '' : tt.lines[run.line]!.code) || run.tripId);
    this.network = Int32Array.from(this.runs, (run) => (run.line === NO_LINE ? NO_NETWORK : tt.lines[run.line]!.agency));
    this.firstDepartureSec = new Float64Array(n);
    this.lastArrivalSec = new Float64Array(n);
    this.runs.forEach((run, i) => {
      this.firstDepartureSec[i] = run.originSec + run.departureSec[0]!;
      this.lastArrivalSec[i] = run.originSec + run.arrivalSec[run.arrivalSec.length - 1]!;
    });
  }

  get count(): number {
    return this.runs.length;
  }

  /** Whether trip index `t` is an added trip of this table. */
  has(t: number): boolean {
    return t >= this.firstIndex && t < this.firstIndex + this.runs.length;
  }

  /** The added trip (0-based in this table) with this trip id, or -1. */
  indexOf(tripId: string): number {
    return this.byId.get(tripId) ?? -1;
  }

  /** The run of trip index `t` (an added trip). */
  run(t: number): AddedRun {
    return this.runs[t - this.firstIndex]!;
  }
}
