/**
 * A heat map over a departure window: one departure per minute of the window, each cell summarised
 * by percentiles of its travel time over those minutes (R5's rule: sort the minutes' values,
 * unreached as +∞, take index ceil(p / 100 × n) − 1). docs/api.md, "Departure windows".
 *
 * Minutes are taken latest first (for an arrival map: the earliest deadline first), so that every
 * label only ever improves, and the work grows with what changes from one minute to the next, not
 * with minutes × cells. The steps, each a module owning its scratch:
 *
 *   1-2. the transit (window-transit.ts): the access once, RAPTOR for each minute, a stop's arrival
 *      counted from the window's reference instant kept only where it improves on the later minutes';
 *   3. one grid for the whole window, around each stop as far as its best minute leaves time to go
 *      (map-grid.ts);
 *   4. the propagation, its improvements kept per target as (minute, arrival) changes
 *      (window-changes.ts): on the grid, per end leg, one street search that keeps its labels across
 *      the minutes (window-grid-propagation.ts); at the points of a set (no grid), each minute's
 *      improved stops through the legs' egress tables (egress-table.ts), below;
 *   5. the street alone from the centre (the direct path), once: the same at every minute;
 *   6. the percentiles of each target, from its changes and the direct path (window-percentiles.ts).
 *
 * Per-thread scratch, allocated on the first windowed map and reused; the change lists grow as a
 * map needs them, up to MAX_CHANGES, past which the map is refused (WindowBudgetError).
 */
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import type { Grid } from './grid.js';
import type { HeatMapEngine } from './heat-map.js';
import type { DepartureWindow, HeatMapQuery, HeatMapResult, PercentileMap, PointTimes } from './heat-map-types.js';
import type { EgressTable } from './egress-table.js';
import { centreSnaps, countUnlinked } from './street-legs.js';
import { mapGrid } from './map-grid.js';
import { mapLegs, type MapLeg } from './mode-legs.js';
import { WINDOW_STEP_SEC, WindowTransit } from './window-transit.js';
import { WindowChanges } from './window-changes.js';
import { WindowGridPropagation } from './window-grid-propagation.js';
import { WindowPercentiles } from './window-percentiles.js';
import { MAX_OVERLAY_STOPS, stopsOf } from './overlay-stops.js';
import { WorkCounts } from './work-counts.js';

export { WINDOW_STEP_SEC } from './window-transit.js';
export { MAX_CHANGES, WindowBudgetError } from './window-changes.js';

/** A window's percentiles at its targets: the cells of its grid, or the points of a set (no grid). */
interface WindowRun {
  grid: Grid | null;
  reached: number;
  vehicleStops: number;
  unlinkedStops: number;
  percentiles: PercentileMap[];
}

/**
 * How many single maps' time budget a window's map gets: one, plus one per six minutes of window (a
 * 60-minute window measured about ten single maps' time; docs/api.md, "Departure windows").
 */
export function windowBudgetScale(windowSec: number): number {
  return 1 + windowMinutes(windowSec) / 6;
}

/** The departures of a window of `windowSec` seconds. */
export function windowMinutes(windowSec: number): number {
  return Math.max(1, Math.floor(windowSec / WINDOW_STEP_SEC));
}

/** Per-thread state for windowed maps on one coverage's engine: the steps of a window, each with its scratch. */
export class WindowEngine {
  private readonly transit: WindowTransit;
  private readonly toGrid: WindowGridPropagation;
  private readonly changes: WindowChanges;
  private readonly reducer: WindowPercentiles;
  /** the windows' own work (their RAPTOR searches count theirs: the engine's `raptor.work`) */
  readonly work = new WorkCounts();

  constructor(
    private readonly engine: HeatMapEngine,
    /** the longest window, seconds */
    readonly maxWindowSec: number,
  ) {
    const { data } = engine;
    const capacity = engine.maxResolution * engine.maxResolution;
    this.transit = new WindowTransit(engine.transit, data.stopLon.length + MAX_OVERLAY_STOPS, windowMinutes(maxWindowSec));
    this.toGrid = new WindowGridPropagation(data, engine.rasterizer, (engine.maxDurationSec + maxWindowSec) * 10, capacity);
    this.changes = new WindowChanges(capacity);
    this.reducer = new WindowPercentiles(capacity);
  }

  /**
   * The map of `q` over its window: `seconds` views on scratch memory valid until the next
   * computation; on `fixedGrid` when given (a difference map's union of two grids), else on the box
   * of what the window reaches.
   */
  compute(q: HeatMapQuery, w: DepartureWindow, fixedGrid?: Grid): HeatMapResult {
    let result: HeatMapResult | undefined;
    this.run(q, w, null, fixedGrid, (_, { grid, percentiles, reached, vehicleStops, unlinkedStops }) => {
      result = { grid: grid!, seconds: percentiles[w.selected]!.seconds, selected: w.selected, reachedCells: reached, vehicleStops, unlinkedStops, percentiles };
    });
    return result!;
  }

  /** The travel times of `q` over its window to the points of a set, per percentile (views on scratch memory). */
  computePoints(q: HeatMapQuery, w: DepartureWindow, points: LinkedPoints): PointTimes {
    let times: PointTimes | undefined;
    this.computePointSets(q, w, [points], (_, t) => (times = t));
    return times!;
  }

  /** `computePoints` for several sets off one window of searches: `onSet(k, times)` per set in order, its views valid until it returns. */
  computePointSets(q: HeatMapQuery, w: DepartureWindow, sets: LinkedPoints[], onSet: (k: number, times: PointTimes) => void): void {
    this.run(q, w, sets, undefined, (k, { percentiles, reached, vehicleStops, unlinkedStops }) =>
      onSet(k, { seconds: percentiles[w.selected]!.seconds, reachedPoints: reached, vehicleStops, unlinkedStops, percentiles }),
    );
  }

  /** Bytes of this engine's scratch (its share of a worker's memory for windows). */
  scratchBytes(): number {
    return this.transit.scratchBytes() + this.changes.scratchBytes() + this.toGrid.scratchBytes() + this.reducer.scratchBytes();
  }

  /**
   * The window's percentiles at the cells of a grid (its own box, or `fixedGrid`), or at the points
   * of each set of `targets` (the minutes' searches once for them all), handed to `each` in turn:
   * views on scratch memory valid until it returns.
   */
  private run(q: HeatMapQuery, w: DepartureWindow, targets: LinkedPoints[] | null, fixedGrid: Grid | undefined, each: (k: number, run: WindowRun) => void): void {
    const { engine, transit } = this;
    if (q.maxDurationSec > engine.maxDurationSec || q.resolution > engine.maxResolution || w.windowSec > this.maxWindowSec) {
      throw new RangeError(`a windowed heat map of ${q.maxDurationSec} s over ${w.windowSec} s at resolution ${q.resolution} exceeds the engine's limits`);
    }
    const n = windowMinutes(w.windowSec);
    // 1-2. access once, RAPTOR per minute (latest first), the improvements kept per minute
    transit.run(q, n);
    this.work.improvedStops += transit.improved;
    const legs = mapLegs(q);
    const unlinkedStops = countUnlinked(stopsOf(engine.data, q).snaps, legs, transit.reachedStops, transit.reachedCount);
    // 3 to 6 for the grid, or for each point set in turn off the same minutes' searches
    const count = targets ? targets.length : 1;
    for (let t = 0; t < count; t++) {
      const points = targets ? targets[t]! : null;
      // 3. one grid for the window, around each stop as far as its best minute leaves time to go (a point set is its own targets: no grid)
      const grid = points ? null : (fixedGrid ?? this.windowGrid(q, legs));
      const cells = points ? pointCount(points) : grid!.resolution * grid!.resolution;
      this.ensureCapacity(cells);
      // 5. the direct path, once: the engine's map without public transport, on this grid or these
      // points (whole seconds: the percentiles compare values with whole seconds only)
      const direct = { ...q, transit: false };
      const directSec = points ? engine.computePoints(direct, points).seconds : engine.compute(direct, grid!).seconds;
      // 4. the end legs from the stops, minute by minute (at points with a breakdown, each change with the improvement it came from)
      const breakdown = points !== null && q.breakdown === true;
      this.changes.reset(cells, breakdown);
      const transitLegs = legs.filter((leg) => leg.fromStops);
      if (transit.improved > 0 && points) this.propagateToPoints(q, n, points, transitLegs, breakdown);
      else if (transit.improved > 0 && transitLegs.length > 0) this.toGrid.propagate(q, n, grid!, transitLegs, transit, this.changes);
      // 6. the percentiles, from the changes grouped by cell
      this.changes.groupChanges(cells);
      this.work.changes += this.changes.improvements;
      this.work.keptChanges += this.changes.kept;
      this.work.targets += cells;
      const journeys = breakdown ? { improvedSec: transit.improvedSec, journeys: transit.journeys } : null;
      const { percentiles, reached } = this.reducer.select(w.percentiles, n, q.maxDurationSec, this.changes, directSec, cells, journeys);
      each(t, { grid, reached, vehicleStops: transit.reachedCount, unlinkedStops, percentiles });
    }
  }

  /** The window's own grid: around the centre, and around each stop as far as its best minute leaves time to go. */
  private windowGrid(q: HeatMapQuery, legs: MapLeg[]): Grid {
    const { transit } = this;
    const { stopRemaining } = transit;
    return mapGrid(this.engine.data, q, legs, centreSnaps(this.engine.data.graph, q, legs), transit.reachedStops, transit.reachedCount, (s) => stopRemaining[s]!);
  }

  /**
   * The points of a set valued at each minute from the stops it improved, through the legs' egress
   * tables (latest first, every leg within a minute: the changes are kept in that order): as the
   * grid's propagation, without a street search.
   */
  private propagateToPoints(q: HeatMapQuery, n: number, points: LinkedPoints, legs: MapLeg[], breakdown: boolean): void {
    // per leg the timetable's table, and its overlay's new stops' beside it
    const tables = legs.flatMap((leg) => this.engine.egressTables(points, leg, q).map((table) => ({ table, extraDs: leg.extraDs })));
    const { minuteFrom, minuteTo } = this.transit;
    for (let k = n - 1; k >= 0; k--) {
      const minuteLimitDs = (k * WINDOW_STEP_SEC + q.maxDurationSec) * 10;
      for (const { table, extraDs } of tables) this.valueFromImproved(table, minuteFrom[k]!, minuteTo[k]!, extraDs, k, minuteLimitDs, breakdown);
    }
  }

  /**
   * The points the stops improved at minute k (improvedStop/improvedSec[from .. to)) reach through
   * `table`, each kept with a change where it improves (with `sources`, and the improvement it came from).
   */
  private valueFromImproved(table: EgressTable, from: number, to: number, extraDs: number, k: number, minuteLimitDs: number, sources: boolean): void {
    const { offset, point, costDs, firstStop } = table;
    const rows = offset.length - 1;
    const { improvedStop, improvedSec } = this.transit;
    const changes = this.changes;
    const best = changes.bestArrivals;
    for (let x = from; x < to; x++) {
      const row = improvedStop[x]! - firstStop;
      // a stop of the other table (the timetable's, or an overlay's new ones)
      if (row < 0 || row >= rows) continue;
      const base = improvedSec[x]! * 10 + extraDs;
      const end = offset[row + 1]!;
      this.work.egressEntries += end - offset[row]!;
      // whole tenths throughout: the arrival's and the table's
      for (let e = offset[row]!; e < end; e++) {
        const whole = base + costDs[e]!;
        const c = point[e]!;
        // most entries improve nothing (95 % on Porto Alegre's matrix): tested here, before a change is kept
        if (whole >= minuteLimitDs || whole >= best[c]!) continue;
        if (sources) changes.keepFrom(c, k, whole, x);
        else changes.keep(c, k, whole);
      }
    }
  }

  /** The scratch per target grown to hold `targets` (a point set larger than the largest grid). */
  private ensureCapacity(targets: number): void {
    this.changes.ensureCapacity(targets);
    this.toGrid.ensureCapacity(targets);
    this.reducer.ensureCapacity(targets);
  }
}
