/**
 * A departure window's propagation to the cells of its grid (R5's propagation, made incremental
 * over the minutes): per end leg, one street search that keeps its labels across the minutes, latest
 * first. Each minute seeds only the stops whose arrival improved (window-transit.ts) and settles only
 * what they improve; the cells linked to an edge with an improved end, or holding an improved stop,
 * are valued again, and a cell's improvements kept as changes (window-changes.ts).
 *
 * The cells are linked once for the whole window (raster.ts), on each layer only where the window
 * reaches at all, and grouped by edge, so that a minute visits the cells of the edges it changed.
 *
 * Per-engine scratch: the legs' searches (labels spanning the window and the map's duration), the
 * cells' links and their grouping per layer, sized for the most targets, and a stamp per edge.
 */
import type { Layer } from '../model/street-layers.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import type { Grid } from './grid.js';
import type { CellLinkTable, Rasterizer } from './raster.js';
import { endsCost, offsetSeedDs, StreetSearch, towardsFromBit, towardsToBit } from './street-search.js';
import type { MapLeg } from './mode-legs.js';
import { WINDOW_STEP_SEC, type WindowTransit } from './window-transit.js';
import type { WindowChanges } from './window-changes.js';
import type { HeatMapData, HeatMapQuery } from './heat-map-types.js';
import { stopsOf } from './overlay-stops.js';

/** A layer's cells: their links, and the cells of each edge (edgeCells[edgeStart[e] .. edgeStart[e + 1]); edgeFill: scratch). */
interface LayerCells {
  table: CellLinkTable;
  edgeStart: Int32Array;
  edgeFill: Int32Array;
  edgeCells: Int32Array;
  /** per vertex: 1 when one of its edges holds a target */
  vertexTargets: Uint8Array;
}

export class WindowGridPropagation {
  /** the layers whose cells this map has linked (their tables in `layerCells`) */
  private readonly linked = new Set<Layer>();
  private readonly layerCells = new Map<Layer, LayerCells>();
  private readonly searches: StreetSearch[] = [];
  private readonly edgeStamp: Uint32Array;
  private edgeRound = 0;

  // the minute and leg being valued (set by `valueMinute`, read by `revalueEdge`)
  private search: StreetSearch | null = null;
  private cells: LayerCells | null = null;
  private layer: Layer = 0 as Layer;
  private perMetre = 0;
  private walkSpeed = 1;
  private reverse = false;
  private minute = 0;
  private limitDs = 0;

  constructor(
    private readonly data: HeatMapData,
    private readonly rasterizer: Rasterizer,
    /** how far the legs' searches label, tenths of a second: the longest window and map */
    private readonly labelLimitDs: number,
    /** the most cells the links hold */
    private capacity: number,
  ) {
    this.edgeStamp = new Uint32Array(data.graph.edgeCount);
  }

  /** Room for `targets` cells (a larger grid than any before: the links made again). */
  ensureCapacity(targets: number): void {
    if (targets <= this.capacity) return;
    this.capacity = targets;
    this.layerCells.clear();
  }

  /** The cells of `grid` valued at each of the `n` minutes from the stops `transit` improved, through each end leg of `legs`, into `changes`. */
  propagate(q: HeatMapQuery, n: number, grid: Grid, legs: MapLeg[], transit: WindowTransit, changes: WindowChanges): void {
    this.linked.clear();
    const searches = legs.map((leg, l) => this.legSearch(q, n, grid, legs, l, leg, transit));
    for (let k = n - 1; k >= 0; k--) {
      if (transit.minuteFrom[k] === transit.minuteTo[k]) continue;
      for (let l = 0; l < legs.length; l++) this.valueMinute(q, k, legs[l]!, searches[l]!, transit, changes);
    }
  }

  /**
   * The search of leg l, cleared and logging its changes; the cells of its layer linked first when
   * no other leg has: from what the window reaches at all on the layer, every minute's stops at once
   * up to the last minute's limit, at the fastest of the layer's legs with the least extra time (a
   * superset of what each of them reaches minute by minute).
   */
  private legSearch(q: HeatMapQuery, n: number, grid: Grid, legs: MapLeg[], l: number, leg: MapLeg, transit: WindowTransit): StreetSearch {
    const search = this.searchFor(l);
    if (!this.linked.has(leg.layer)) {
      const reverse = q.direction === 'arrival';
      const same = legs.filter((other) => other.layer === leg.layer);
      const speed = Math.max(...same.map((other) => other.speed));
      const extraDs = Math.min(...same.map((other) => other.extraDs));
      search.reset();
      this.seedImproved(search, stopsOf(this.data, q).snaps, leg.layer, speed, extraDs, q.speeds.walking, reverse, transit, 0, transit.improved);
      search.run(leg.layer, speed, ((n - 1) * WINDOW_STEP_SEC + q.maxDurationSec) * 10, reverse);
      this.linkCells(grid, leg.layer, search);
    }
    search.reset();
    search.logChanges();
    return search;
  }

  /** Minute k through one leg: its improved stops seeded, the search run on, and the cells of what changed valued again. */
  private valueMinute(q: HeatMapQuery, k: number, leg: MapLeg, search: StreetSearch, transit: WindowTransit, changes: WindowChanges): void {
    const { graph } = this.data;
    const { snaps } = stopsOf(this.data, q);
    const from = transit.minuteFrom[k]!;
    const to = transit.minuteTo[k]!;
    const reverse = q.direction === 'arrival';
    const minuteLimitDs = (k * WINDOW_STEP_SEC + q.maxDurationSec) * 10;
    const cells = this.layerScratch(leg.layer);
    search.clearChanges();
    this.seedImproved(search, snaps, leg.layer, leg.speed, leg.extraDs, q.speeds.walking, reverse, transit, from, to);
    search.run(leg.layer, leg.speed, minuteLimitDs, reverse);
    this.search = search;
    this.cells = cells;
    this.layer = leg.layer;
    this.perMetre = 10 / leg.speed;
    this.walkSpeed = q.speeds.walking;
    this.reverse = reverse;
    this.minute = k;
    this.limitDs = minuteLimitDs;
    // the cells of every edge with an improved end, or holding an improved stop
    const round = this.nextEdgeRound();
    const stopEdge = snaps.edge[leg.layer]!;
    for (let x = from; x < to; x++) {
      const e = stopEdge[transit.improvedStop[x]!]!;
      if (e >= 0) this.revalueEdge(e, round, changes);
    }
    const { adjOffset, adjEdge } = graph;
    const { vertexTargets } = cells;
    for (let x = 0; x < search.changedCount; x++) {
      const v = search.changed[x]!;
      // most vertices have no cell on their edges (the box's parts nothing reaches)
      if (vertexTargets[v] === 0) continue;
      for (let a = adjOffset[v]!; a < adjOffset[v + 1]!; a++) this.revalueEdge(adjEdge[a]! >>> 1, round, changes);
    }
  }

  /** Seed `search` with the improvements [from, to) of `transit`, each at its arrival plus the leg's extra time and its stop's offset on foot. */
  private seedImproved(search: StreetSearch, snaps: StopSnaps, layer: Layer, speed: number, extraDs: number, walkSpeed: number, reverse: boolean, transit: WindowTransit, from: number, to: number): void {
    const { improvedStop, improvedSec } = transit;
    for (let x = from; x < to; x++) {
      const stop = stopSnap(snaps, layer, improvedStop[x]!);
      if (stop) search.seedSnap(stop, layer, speed, improvedSec[x]! * 10 + extraDs + offsetSeedDs(stop.offsetM, walkSpeed), reverse);
    }
  }

  /** The cells of edge e (once a round) valued at the current minute through the current search: each kept, with a change, when it improves. */
  private revalueEdge(e: number, round: number, changes: WindowChanges): void {
    if (this.edgeStamp[e] === round) return;
    this.edgeStamp[e] = round;
    const search = this.search!;
    const { table, edgeStart, edgeCells } = this.cells!;
    const { layer, perMetre, walkSpeed, reverse, minute, limitDs } = this;
    // the edge's ends read once for its cells (`endsCost`), unless a point seed lies on it
    const g = this.data.graph;
    const bits = g.edgeAccess[e]!;
    const increasing = bits & towardsToBit(layer, reverse);
    const decreasing = bits & towardsFromBit(layer, reverse);
    const cFrom = search.costOf(g.edgeFrom[e]!);
    const cTo = search.costOf(g.edgeTo[e]!);
    const lengthM = g.edgeLengthDm[e]! / 10;
    const seeded = search.hasPointSeed(e);
    const end = edgeStart[e + 1]!;
    for (let x = edgeStart[e]!; x < end; x++) {
      const c = edgeCells[x]!;
      const alongM = table.alongM[c]!;
      const cost = seeded ? search.costAlong(e, alongM, layer, perMetre, reverse) : endsCost(cFrom, cTo, increasing, decreasing, lengthM, alongM, perMetre);
      const ds = cost + (table.offsetM[c]! * 10) / walkSpeed;
      if (!(ds < limitDs)) continue;
      changes.keep(c, minute, Math.floor(ds));
    }
  }

  /**
   * The cells' links on `layer` for this grid, and the cells of each edge, from `reach`, a search of
   * everything the window reaches on the layer (the cells it cannot value stay unlinked).
   */
  private linkCells(grid: Grid, layer: Layer, reach: StreetSearch): void {
    const cells = grid.resolution * grid.resolution;
    const { table } = this.layerScratch(layer);
    this.rasterizer.linkCells(grid, layer, table, reach);
    this.groupByEdge(layer, cells);
  }

  /** The first `cells` targets of `layer`'s table grouped by their edge. */
  private groupByEdge(layer: Layer, cells: number): void {
    const edgeCount = this.data.graph.edgeCount;
    const { table, edgeStart, edgeFill, edgeCells, vertexTargets } = this.layerScratch(layer);
    const { edge } = table;
    const { edgeFrom, edgeTo } = this.data.graph;
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

  private layerScratch(layer: Layer): LayerCells {
    let scratch = this.layerCells.get(layer);
    if (!scratch) {
      const { edgeCount, vertexCount } = this.data.graph;
      scratch = {
        table: { edge: new Int32Array(this.capacity), alongM: new Float64Array(this.capacity), offsetM: new Float64Array(this.capacity) },
        edgeStart: new Int32Array(edgeCount + 1),
        edgeFill: new Int32Array(edgeCount),
        edgeCells: new Int32Array(this.capacity),
        vertexTargets: new Uint8Array(vertexCount),
      };
      this.layerCells.set(layer, scratch);
    }
    return scratch;
  }

  /** The search of the l-th end leg, whose labels span the window and the map's duration. */
  private searchFor(l: number): StreetSearch {
    while (this.searches.length <= l) this.searches.push(new StreetSearch(this.data.graph, this.labelLimitDs));
    return this.searches[l]!;
  }

  private nextEdgeRound(): number {
    if (++this.edgeRound === 0xffffffff) {
      this.edgeStamp.fill(0);
      this.edgeRound = 1;
    }
    return this.edgeRound;
  }

  scratchBytes(): number {
    let total = this.edgeStamp.byteLength;
    for (const { table, edgeStart, edgeFill, edgeCells, vertexTargets } of this.layerCells.values()) {
      total += table.edge.byteLength + table.alongM.byteLength + table.offsetM.byteLength + edgeStart.byteLength + edgeFill.byteLength + edgeCells.byteLength + vertexTargets.byteLength;
    }
    for (const search of this.searches) total += search.scratchBytes();
    return total;
  }
}
