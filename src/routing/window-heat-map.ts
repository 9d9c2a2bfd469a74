/**
 * A heat map over a departure window: one departure per minute of the window, each cell summarised
 * by percentiles of its travel time over those minutes (R5's rule: sort the minutes' values,
 * unreached as +∞, take index ceil(p / 100 × n) − 1). docs/api.md, "Departure windows".
 *
 * Minutes are taken latest first (for an arrival map: the earliest deadline first), so that every
 * label only ever improves, and the work grows with what changes from one minute to the next, not
 * with minutes × cells:
 *
 *   1. access, once (the walk to the stops does not depend on the minute);
 *   2. RAPTOR for each minute; a stop's arrival, counted from the window's reference instant (its
 *      first departure, or an arrival map's last deadline), is kept only where it improves on the
 *      later minutes';
 *   3. one grid for the whole window, each cell linked once to its street (raster.ts);
 *   4. per end leg, one street search that keeps its labels across the minutes: each minute seeds
 *      only the stops whose arrival improved and settles only what they improve; the cells linked to
 *      an edge with an improved end are valued again, and a cell's improvements are kept as a list
 *      of (minute, arrival) changes; at the points of a set (no grid), each minute's improved stops
 *      through the legs' egress tables instead (egress-table.ts), the same changes kept;
 *   5. the street alone from the centre (the direct path), once: the same at every minute;
 *   6. per cell with changes, its minutes' values listed from them (within a run of minutes sharing
 *      one arrival the travel time falls by a minute per minute), sorted, and each percentile read
 *      at its rank.
 *
 * Per-thread scratch, allocated on the first windowed map and reused; the change lists grow as a
 * map needs them, up to MAX_CHANGES, past which the map is refused (WindowBudgetError).
 */
import { stopSnap } from '../model/stop-snaps.js';
import { projectX, projectY } from '../model/street-graph.js';
import type { Grid } from './grid.js';
import { mapLegs, type DepartureWindow, type HeatMapEngine, type HeatMapQuery, type HeatMapResult, type ModeLeg, type PercentileMap, type PointTimes } from './heat-map.js';
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import type { CellLinkTable } from './raster.js';
import type { EgressTable } from './egress-table.js';
import { offsetSeedDs, StreetSearch } from './street-search.js';
import { RangeBounds } from './range-bounds.js';
import type { Layer } from '../model/street-layers.js';

/** One departure per this many seconds of the window. */
export const WINDOW_STEP_SEC = 60;
/** The most (cell, minute, arrival) changes a windowed map may keep over all its cells (20 bytes each, grouped copy included). */
export const MAX_CHANGES = 16_000_000;

export class WindowBudgetError extends Error {}

/** Rounds the range bounds are made for at most: RAPTOR searches no more (a transfer limit past it searches this many). */
const MAX_RANGE_ROUNDS = 32;

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

/** Per-thread state for windowed maps on one coverage's engine. */
export class WindowEngine {
  private readonly stopCount: number;
  /** per stop: its best arrival so far (seconds from the reference), and the most time left at it for the box */
  private readonly stopBest: Int32Array;
  private readonly stopRemaining: Int32Array;
  /** the stops whose arrival improved, minute by minute (see `compute`), and their arrival from the reference, seconds */
  private improvedStop = new Int32Array(1024);
  private improvedSec = new Int32Array(1024);
  /** the most targets (cells or points) the scratch below holds; grown for a larger point set */
  private capacity: number;
  /** per cell, the direct path's whole seconds (-1: none): a view on the engine's scratch, for this computation */
  private directSec: Int32Array = new Int32Array(0);
  private best: Int32Array;
  /** per cell, after the minutes: where its changes start in the sorted ones (cells + 1 entries) */
  private cellStart: Int32Array;
  /**
   * The changes as the minutes make them: per entry its cell, its minute and its arrival (tenths
   * from the reference); then grouped by cell in `sorted` (minute, arrival), each cell's in the
   * order made (minutes descending): a cell's changes read in order, not chased through memory.
   */
  private changes = new Int32Array(3 * 65536);
  private sorted = new Int32Array(2 * 65536);
  private changeCount = 0;
  private percentileSeconds: Int32Array[] = [];
  /** one cell's value at each minute, whole seconds (sorted in place to select its percentiles) */
  private minuteSec = new Int32Array(0);
  /** the layers whose cells this map has linked (their tables in `layerScratches`) */
  private readonly linked = new Set<Layer>();
  private readonly searches: StreetSearch[] = [];
  private readonly edgeStamp: Uint32Array;
  private edgeRound = 0;
  private bounds: RangeBounds | null = null;

  constructor(
    private readonly engine: HeatMapEngine,
    /** the longest window, seconds */
    readonly maxWindowSec: number,
  ) {
    const data = engine.data;
    this.stopCount = data.stopLon.length;
    this.stopBest = new Int32Array(this.stopCount);
    this.stopRemaining = new Int32Array(this.stopCount);
    this.capacity = engine.maxResolution * engine.maxResolution;
    this.best = new Int32Array(this.capacity);
    this.cellStart = new Int32Array(this.capacity + 1);
    this.edgeStamp = new Uint32Array(data.graph.edgeCount);
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

  /**
   * The window's percentiles at the cells of a grid (its own box, or `fixedGrid`), or at the points
   * of each set of `targets` (the minutes' searches once for them all), handed to `each` in turn:
   * views on scratch memory valid until it returns.
   */
  private run(q: HeatMapQuery, w: DepartureWindow, targets: LinkedPoints[] | null, fixedGrid: Grid | undefined, each: (k: number, run: WindowRun) => void): void {
    const engine = this.engine;
    const { graph, snaps } = engine.data;
    if (q.maxDurationSec > engine.maxDurationSec || q.resolution > engine.maxResolution || w.windowSec > this.maxWindowSec) {
      throw new RangeError(`a windowed heat map of ${q.maxDurationSec} s over ${w.windowSec} s at resolution ${q.resolution} exceeds the engine's limits`);
    }
    const reverse = q.direction === 'arrival';
    const T = q.maxDurationSec;
    const n = windowMinutes(w.windowSec);
    const cx = projectX(graph.projection, q.centreLon);
    const cy = projectY(graph.projection, q.centreLat);

    // 1-2. access once, RAPTOR per minute (latest first), the improvements kept per minute:
    // minute k's are improvedStop/improvedSec[minuteFrom[k] .. minuteTo[k])
    const minuteFrom = new Int32Array(n);
    const minuteTo = new Int32Array(n);
    this.stopBest.fill(0x7fffffff);
    this.stopRemaining.fill(-1);
    let improved = 0;
    const accessCount = q.transit ? engine.access(q, cx, cy, reverse) : 0;
    const rounds = Math.max(0, Math.floor(q.maxTransfers)) + 1;
    // (past MAX_RANGE_ROUNDS, each minute a whole search)
    const bounds = rounds <= MAX_RANGE_ROUNDS ? this.rangeBounds(rounds) : null;
    for (let k = n - 1; k >= 0; k--) {
      minuteFrom[k] = minuteTo[k] = improved;
      if (accessCount === 0) continue;
      // range RAPTOR: each minute prunes against the later minutes' labels, k minutes after the reference
      const result = engine.transitFrom(q, q.t0 + (reverse ? -1 : 1) * k * WINDOW_STEP_SEC, accessCount, bounds && { bounds, shiftSec: k * WINDOW_STEP_SEC });
      for (let r = 0; r < result.reachedCount; r++) {
        const s = result.reached[r]!;
        const sec = result.vehicleSec[s]!;
        if (T - sec > this.stopRemaining[s]!) this.stopRemaining[s] = T - sec;
        const fromReference = k * WINDOW_STEP_SEC + sec;
        if (fromReference >= this.stopBest[s]!) continue;
        this.stopBest[s] = fromReference;
        if (improved === this.improvedStop.length) this.growImproved();
        this.improvedStop[improved] = s;
        this.improvedSec[improved++] = fromReference;
      }
      minuteTo[k] = improved;
    }
    // 3. one grid for the window, around each stop as far as its best minute leaves time to go
    const legs = mapLegs(q);
    const walkSpeed = q.speeds.walking;
    const reachedStops: number[] = [];
    for (let s = 0; s < this.stopCount; s++) if (this.stopRemaining[s]! >= 0) reachedStops.push(s);
    const unlinkedStops = engine.countUnlinked(legs, reachedStops, reachedStops.length);
    // 3 to 6 for the grid, or for each point set in turn off the same minutes' searches
    const count = targets ? targets.length : 1;
    for (let t = 0; t < count; t++) {
      const points = targets ? targets[t]! : null;
      // (a point set is its own targets: no grid)
      const grid = points ? null : (fixedGrid ?? engine.mapGrid(q, legs, engine.centreSnaps(q, legs), reachedStops, reachedStops.length, (s) => this.stopRemaining[s]!));
      const cells = points ? pointCount(points) : grid!.resolution * grid!.resolution;
      this.ensureCapacity(cells);

      // 5. the direct path, once: the engine's map without public transport, on this grid or these
      // points (whole seconds: the percentiles compare values with whole seconds only)
      const direct = { ...q, transit: false };
      this.directSec = points ? engine.computePoints(direct, points).seconds : engine.compute(direct, grid!).seconds;

      // 4. the end legs from the stops, minute by minute
      this.best.fill(0x7fffffff, 0, cells);
      this.changeCount = 0;
      const transitLegs = legs.filter((leg) => leg.fromStops);
      if (improved > 0 && points) {
        // points: each minute's improved stops through the legs' egress tables, minute by minute
        // (latest first, every leg within a minute: the changes are kept in that order)
        const tables = transitLegs.map((leg) => engine.egressTable(points, leg, q));
        for (let k = n - 1; k >= 0; k--) {
          tables.forEach((table, l) => this.valueFromImproved(table, minuteFrom[k]!, minuteTo[k]!, transitLegs[l]!.extraDs, k, (k * WINDOW_STEP_SEC + T) * 10));
        }
      } else if (improved > 0 && transitLegs.length > 0) {
        this.linked.clear();
        const searches = transitLegs.map((leg, k) => {
          const search = this.searchFor(k);
          if (!this.linked.has(leg.layer)) {
            // what the window reaches at all on the layer: every minute's stops at once, up to the last
            // minute's limit, at the fastest of the layer's legs with the least extra time (a superset
            // of what each of them reaches minute by minute)
            const same = transitLegs.filter((other) => other.layer === leg.layer);
            const speed = Math.max(...same.map((other) => other.speed));
            const extraDs = Math.min(...same.map((other) => other.extraDs));
            search.reset();
            for (let x = 0; x < improved; x++) {
              const stop = stopSnap(snaps, leg.layer, this.improvedStop[x]!);
              if (stop) search.seedSnap(stop, leg.layer, speed, this.improvedSec[x]! * 10 + extraDs + offsetSeedDs(stop.offsetM, walkSpeed), reverse);
            }
            search.run(leg.layer, speed, ((n - 1) * WINDOW_STEP_SEC + T) * 10, reverse);
            this.linkCells(grid!, leg.layer, search);
          }
          search.reset();
          search.logChanges();
          return search;
        });
        for (let k = n - 1; k >= 0; k--) {
          const from = minuteFrom[k]!;
          const to = minuteTo[k]!;
          if (from === to) continue;
          const minuteLimitDs = (k * WINDOW_STEP_SEC + T) * 10;
          transitLegs.forEach((leg, l) => {
            const search = searches[l]!;
            const { table, edgeStart, edgeCells, vertexTargets } = this.layerScratch(leg.layer);
            search.clearChanges();
            for (let x = from; x < to; x++) {
              const stop = stopSnap(snaps, leg.layer, this.improvedStop[x]!);
              if (stop) search.seedSnap(stop, leg.layer, leg.speed, this.improvedSec[x]! * 10 + leg.extraDs + offsetSeedDs(stop.offsetM, walkSpeed), reverse);
            }
            search.run(leg.layer, leg.speed, minuteLimitDs, reverse);
            // the cells of every edge with an improved end, or holding an improved stop
            const round = this.nextEdgeRound();
            const revalue = (e: number) => {
              if (this.edgeStamp[e] === round) return;
              this.edgeStamp[e] = round;
              for (let x = edgeStart[e]!; x < edgeStart[e + 1]!; x++) this.revalue(edgeCells[x]!, search, table, leg, walkSpeed, reverse, k, minuteLimitDs);
            };
            for (let x = from; x < to; x++) {
              const e = snaps.edge[leg.layer]![this.improvedStop[x]!]!;
              if (e >= 0) revalue(e);
            }
            const { adjOffset, adjEdge } = graph;
            for (let x = 0; x < search.changedCount; x++) {
              const v = search.changed[x]!;
              // most vertices have no cell on their edges (the box's parts nothing reaches)
              if (vertexTargets[v] === 0) continue;
              for (let a = adjOffset[v]!; a < adjOffset[v + 1]!; a++) revalue(adjEdge[a]! >>> 1);
            }
          });
        }
      }

      // 6. the percentiles, from the changes grouped by cell
      this.groupChanges(cells);
      if (this.minuteSec.length < n) this.minuteSec = new Int32Array(n);
      const seconds = w.percentiles.map((_, p) => this.secondsFor(p).subarray(0, cells));
      const ranks = w.percentiles.map((p) => Math.max(1, Math.ceil((p / 100) * n)));
      for (let c = 0; c < cells; c++) this.selectPercentiles(c, n, T, ranks, seconds);
      // the lowest percentile has the most cells with a value: nothing is reached when it has none
      let reachedCells = 0;
      for (let c = 0; c < cells; c++) if (seconds[0]![c]! >= 0) reachedCells++;
      each(t, {
        grid,
        reached: reachedCells,
        vehicleStops: reachedStops.length,
        unlinkedStops,
        percentiles: w.percentiles.map((percentile, p) => ({ percentile, seconds: seconds[p]! })),
      });
    }
  }

  /** The range bounds for searches of `rounds` vehicles, forgotten (a new window). */
  private rangeBounds(rounds: number): RangeBounds {
    if (!this.bounds || this.bounds.rounds < rounds) this.bounds = new RangeBounds(this.stopCount, rounds);
    else this.bounds.reset();
    return this.bounds;
  }

  /** The scratch per target grown to hold `targets` (a point set larger than the largest grid). */
  private ensureCapacity(targets: number): void {
    if (targets <= this.capacity) return;
    this.capacity = targets;
    this.best = new Int32Array(targets);
    this.cellStart = new Int32Array(targets + 1);
    this.percentileSeconds = [];
    this.layerScratches.clear();
  }

  /** Bytes of this engine's scratch (its share of a worker's memory for windows). */
  scratchBytes(): number {
    let total = this.stopBest.byteLength + this.stopRemaining.byteLength + this.improvedStop.byteLength + this.improvedSec.byteLength;
    total += this.bounds?.bytes() ?? 0;
    total += this.best.byteLength + this.cellStart.byteLength + this.changes.byteLength + this.sorted.byteLength + this.edgeStamp.byteLength;
    for (const seconds of this.percentileSeconds) total += seconds.byteLength;
    for (const { table, edgeStart, edgeFill, edgeCells, vertexTargets } of this.layerScratches.values()) {
      total += table.edge.byteLength + table.alongM.byteLength + table.offsetM.byteLength + edgeStart.byteLength + edgeFill.byteLength + edgeCells.byteLength + vertexTargets.byteLength;
    }
    for (const search of this.searches) total += search.scratchBytes();
    return total;
  }

  /**
   * The points the stops improved at minute k (improvedStop/improvedSec[from .. to)) reach through
   * `table`, each kept with a change where it improves: as `revalue`, without a street search.
   */
  private valueFromImproved(table: EgressTable, from: number, to: number, extraDs: number, k: number, minuteLimitDs: number): void {
    const { offset, point, costDs } = table;
    for (let x = from; x < to; x++) {
      const s = this.improvedStop[x]!;
      const base = this.improvedSec[x]! * 10 + extraDs;
      // whole tenths throughout: the arrival's and the table's
      for (let e = offset[s]!; e < offset[s + 1]!; e++) {
        const whole = base + costDs[e]!;
        if (whole < minuteLimitDs) this.keepChange(point[e]!, k, whole);
      }
    }
  }

  /** Cell c's value at minute k through `search` (a departure from minute k's instant): kept, with a change, when it improves. */
  private revalue(c: number, search: StreetSearch, table: CellLinkTable, leg: ModeLeg, walkSpeed: number, reverse: boolean, k: number, minuteLimitDs: number): void {
    const ds = search.costAlong(table.edge[c]!, table.alongM[c]!, leg.layer, 10 / leg.speed, reverse) + (table.offsetM[c]! * 10) / walkSpeed;
    if (!(ds < minuteLimitDs)) return;
    this.keepChange(c, k, Math.floor(ds));
  }

  /** Target c reached `whole` tenths after the reference at minute k: a change when it improves on its best. */
  private keepChange(c: number, k: number, whole: number): void {
    if (whole >= this.best[c]!) return;
    this.best[c] = whole;
    if (this.changeCount * 3 + 3 > this.changes.length) this.growChanges();
    const x = this.changeCount++;
    this.changes[3 * x] = c;
    this.changes[3 * x + 1] = k;
    this.changes[3 * x + 2] = whole;
  }

  /**
   * The percentiles of cell c over the n minutes: its value at minute k is the smaller of the direct
   * path and its arrival at k (the change of the smallest minute at or after k) less k minutes, in
   * whole seconds (T when unreached). The minutes' values are listed from the cell's changes (read
   * backwards, minutes ascending), sorted, and the p-th percentile is the value of rank
   * ceil(p / 100 × n), null from T on. At most 180 values a cell: listing and a native sort cost
   * less than counting the runs of minutes at each step of a halving search.
   */
  private selectPercentiles(c: number, n: number, T: number, ranks: number[], out: Int32Array[]): void {
    const directSec = this.directSec[c]!;
    // in tenths, a whole second's: every comparison below is with a whole second
    const direct = directSec < 0 ? Infinity : directSec * 10;
    const first = this.cellStart[c]!;
    const end = this.cellStart[c + 1]!;
    const limit = T * 10;
    if (first === end) {
      const sec = direct < limit ? Math.floor(direct / 10) : -1;
      for (let p = 0; p < ranks.length; p++) out[p]![c] = sec;
      return;
    }
    const { sorted, minuteSec } = this;
    const stepDs = WINDOW_STEP_SEC * 10;
    const directWhole = direct < limit ? directSec : T;
    let k = 0;
    // the cell's changes were made minutes descending: read backwards, minutes ascend
    for (let x = end - 1; x >= first; x--) {
      const to = sorted[2 * x]!;
      // a cell improved twice in one minute: the later change, read first, covers it already
      if (to < k) continue;
      const arrival = sorted[2 * x + 1]!;
      for (; k <= to; k++) {
        const v = arrival - stepDs * k;
        const value = v < direct ? v : direct;
        minuteSec[k] = value < limit ? Math.floor(value / 10) : T;
      }
    }
    // minutes after the last change: the direct path or nothing
    for (; k < n; k++) minuteSec[k] = directWhole;
    const values = minuteSec.subarray(0, n).sort();
    for (let p = 0; p < ranks.length; p++) {
      const sec = values[ranks[p]! - 1]!;
      out[p]![c] = sec < T ? sec : -1;
    }
  }

  /**
   * The cells' links on `layer` for this grid, and the cells of each edge, from `reach`, a search of
   * everything the window reaches on the layer (the cells it cannot value stay unlinked).
   */
  private linkCells(grid: Grid, layer: Layer, reach: StreetSearch): void {
    const cells = grid.resolution * grid.resolution;
    const { table } = this.layerScratch(layer);
    this.engine.rasterizer.linkCells(grid, layer, table, reach);
    this.groupByEdge(layer, cells);
  }

  /** The first `cells` targets of `layer`'s table grouped by their edge. */
  private groupByEdge(layer: Layer, cells: number): void {
    const edgeCount = this.engine.data.graph.edgeCount;
    const { table, edgeStart, edgeFill, edgeCells, vertexTargets } = this.layerScratch(layer);
    const { edge } = table;
    const { edgeFrom, edgeTo } = this.engine.data.graph;
    vertexTargets.fill(0);
    for (let c = 0; c < cells; c++) {
      const e = edge[c]!;
      if (e < 0) continue;
      vertexTargets[edgeFrom[e]!] = 1;
      vertexTargets[edgeTo[e]!] = 1;
    }
    // cells grouped by edge: a counting sort
    edgeStart.fill(0);
    for (let c = 0; c < cells; c++) if (edge[c]! >= 0) edgeStart[edge[c]! + 1]!++;
    for (let e = 0; e < edgeCount; e++) edgeStart[e + 1]! += edgeStart[e]!;
    edgeFill.set(edgeStart.subarray(0, edgeCount));
    for (let c = 0; c < cells; c++) if (edge[c]! >= 0) edgeCells[edgeFill[edge[c]!]!++] = c;
    this.linked.add(layer);
  }

  /** per layer: the cells' links, and the cells of each edge (edgeCells[edgeStart[e] .. edgeStart[e + 1]); edgeFill: scratch) */
  private readonly layerScratches = new Map<Layer, { table: CellLinkTable; edgeStart: Int32Array; edgeFill: Int32Array; edgeCells: Int32Array; vertexTargets: Uint8Array }>();

  private layerScratch(layer: Layer) {
    let scratch = this.layerScratches.get(layer);
    if (!scratch) {
      scratch = {
        table: { edge: new Int32Array(this.capacity), alongM: new Float64Array(this.capacity), offsetM: new Float64Array(this.capacity) },
        edgeStart: new Int32Array(this.engine.data.graph.edgeCount + 1),
        edgeFill: new Int32Array(this.engine.data.graph.edgeCount),
        edgeCells: new Int32Array(this.capacity),
        /** per vertex: 1 when one of its edges holds a target */
        vertexTargets: new Uint8Array(this.engine.data.graph.vertexCount),
      };
      this.layerScratches.set(layer, scratch);
    }
    return scratch;
  }

  /** The search of the k-th end leg, whose labels span the window and the map's duration. */
  private searchFor(k: number): StreetSearch {
    while (this.searches.length <= k) this.searches.push(new StreetSearch(this.engine.data.graph, (this.engine.maxDurationSec + this.maxWindowSec) * 10));
    return this.searches[k]!;
  }

  private secondsFor(p: number): Int32Array {
    while (this.percentileSeconds.length <= p) this.percentileSeconds.push(new Int32Array(this.capacity));
    return this.percentileSeconds[p]!;
  }

  private nextEdgeRound(): number {
    if (++this.edgeRound === 0xffffffff) {
      this.edgeStamp.fill(0);
      this.edgeRound = 1;
    }
    return this.edgeRound;
  }

  private growImproved(): void {
    const stop = new Int32Array(this.improvedStop.length * 2);
    stop.set(this.improvedStop);
    this.improvedStop = stop;
    const sec = new Int32Array(this.improvedSec.length * 2);
    sec.set(this.improvedSec);
    this.improvedSec = sec;
  }

  /** `sorted` and `cellStart` from `changes`: a counting sort by cell, each cell's in the order made. */
  private groupChanges(cells: number): void {
    const { changes, cellStart } = this;
    const count = this.changeCount;
    if (this.sorted.length < 2 * count) this.sorted = new Int32Array(Math.max(2 * count, this.sorted.length * 2));
    const sorted = this.sorted;
    cellStart.fill(0, 0, cells + 1);
    for (let x = 0; x < count; x++) cellStart[changes[3 * x]! + 1]!++;
    for (let c = 0; c < cells; c++) cellStart[c + 1]! += cellStart[c]!;
    // place each change at its cell's next slot (cellStart[c] moves on, and is put back after)
    for (let x = 0; x < count; x++) {
      const at = cellStart[changes[3 * x]!]!++;
      sorted[2 * at] = changes[3 * x + 1]!;
      sorted[2 * at + 1] = changes[3 * x + 2]!;
    }
    for (let c = cells; c > 0; c--) cellStart[c] = cellStart[c - 1]!;
    cellStart[0] = 0;
  }

  private growChanges(): void {
    if (this.changes.length / 3 >= MAX_CHANGES) throw new WindowBudgetError(`a windowed map keeps more than ${MAX_CHANGES} changes`);
    const next = new Int32Array(Math.min(this.changes.length * 2, 3 * MAX_CHANGES));
    next.set(this.changes);
    this.changes = next;
  }
}
