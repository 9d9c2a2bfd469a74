/**
 * The RAPTOR overlays of a generation's freshness levels, built on the first heat map that asks for
 * one (a generation nobody draws a map on builds none). base_schedule has none; adapted_schedule
 * overlays the runs of planned disruptions; realtime those and, over them, the TripUpdates' runs and
 * the added runs.
 */
import type { Timetable } from '../model/timetable.js';
import type { FreshnessLevel } from '../ptref/freshness.js';
import type { RealtimeRun } from '../model/realtime-runs.js';
import type { RealtimeRuns } from '../live/realtime/trip-updates.js';
import { runKey } from '../model/realtime-runs.js';
import type { RaptorData } from '../routing/raptor-data.js';
import { buildRaptorOverlay, type RaptorOverlay } from '../routing/raptor-overlay.js';
import { typedArrayBytes } from '../util/typed-array-bytes.js';

export class RaptorOverlays {
  private adapted: RaptorOverlay | undefined;
  private realtime: RaptorOverlay | undefined;

  constructor(
    private readonly tt: Timetable,
    private readonly data: RaptorData,
    /** runs changed by planned disruptions */
    private readonly adaptedRuns: readonly RealtimeRun[],
    /** runs of the realtime sources */
    private readonly realtimeRuns: RealtimeRuns | undefined,
  ) {}

  /**
   * The bytes of the overlays built (on shared memory, their own). Not a cache that grows with use:
   * two at most, dropped with their generation when the next one is swapped in.
   */
  get bytes(): number {
    return typedArrayBytes([this.adapted, this.realtime], undefined, true);
  }

  /** The overlay of `level`, null for the base schedule. */
  of(level: FreshnessLevel): RaptorOverlay | null {
    if (level === 'base_schedule') return null;
    if (level === 'adapted_schedule') return (this.adapted ??= buildRaptorOverlay(this.tt, this.data, this.adaptedRuns, []));
    return (this.realtime ??= this.buildRealtime());
  }

  private buildRealtime(): RaptorOverlay {
    // a realtime run replaces the adapted run of its trip on its day
    const runs = new Map<string, RealtimeRun>();
    for (const run of this.adaptedRuns) runs.set(runKey(run.trip, run.day), run);
    for (const [key, run] of this.realtimeRuns?.runs ?? []) runs.set(key, run);
    return buildRaptorOverlay(this.tt, this.data, runs.values(), this.realtimeRuns?.added ?? []);
  }
}
