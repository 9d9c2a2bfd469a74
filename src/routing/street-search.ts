/**
 * Bounded multi-source shortest times on one layer of the street graph, with integer costs in
 * tenths of a second and a bucket queue (Dial's algorithm): every cost is an array index, so a push
 * and a pop are O(1), about twice as fast as a binary heap on city graphs.
 *
 * A point on the middle of an edge (a heat map's centre, a stop) is a virtual split of its edge: it
 * seeds the two ends at the time to go along the edge to them, and is kept as a point seed, so that
 * other points of the same edge are valued straight along it from the point rather than through an
 * end (`costAlong`).
 *
 * One instance per thread and graph: its arrays are allocated once and reset by a stamp, so a
 * search costs only the vertices it touches.
 */
import { backwardBit, forwardBit, type Layer } from '../model/street-layers.js';
import { pointAlong, type Snap, type StreetGraph } from '../model/street-graph.js';

import { UNREACHED } from './unreached.js';

/**
 * A linked point's off-street offset walked at `walkSpeed`, as a seed's tenths of a second:
 * truncated, as `StreetSearch.seedSnap` truncates its legs along the edge.
 */
export function offsetSeedDs(offsetM: number, walkSpeed: number): number {
  return Math.trunc((offsetM * 10) / walkSpeed);
}

/**
 * The cost (tenths of a second, Infinity when none) of the point `alongM` metres along an edge of
 * `lengthM` metres from its ends' costs (`cFrom`, `cTo`; UNREACHED: none): from its `from` end when
 * the edge may be travelled towards its `to` end (`increasing` nonzero), from its `to` end the other
 * way (`decreasing`), at an end that end's own cost; at `perMetre` tenths of a second per metre.
 * `StreetSearch.costAlong` adds its point seeds; a caller valuing many points of one edge reads its
 * ends once and calls this for each where the edge holds no point seed.
 */
export function endsCost(cFrom: number, cTo: number, increasing: number, decreasing: number, lengthM: number, alongM: number, perMetre: number): number {
  let best = Infinity;
  if (cFrom !== UNREACHED && (alongM <= 0 || increasing !== 0)) best = cFrom + Math.max(0, alongM) * perMetre;
  if (cTo !== UNREACHED && (alongM >= lengthM || decreasing !== 0)) best = Math.min(best, cTo + Math.max(0, lengthM - alongM) * perMetre);
  return best;
}

/**
 * The access bit of going along an edge from its `from` end to its `to` end on `layer`, in a search
 * of direction `reverse` (its costs to reach the seeds: each edge taken against the travel).
 */
export function towardsToBit(layer: Layer, reverse: boolean): number {
  return reverse ? backwardBit(layer) : forwardBit(layer);
}

/** The access bit of going along an edge from its `to` end to its `from` end (`towardsToBit`'s other way). */
export function towardsFromBit(layer: Layer, reverse: boolean): number {
  return reverse ? forwardBit(layer) : backwardBit(layer);
}

export class StreetSearch {
  private readonly cost: Int32Array;
  private readonly stamp: Uint32Array;
  private current = 0;
  private readonly bucketHead: Int32Array;
  private entryNext: Int32Array;
  private entryVertex: Int32Array;
  private entryCount = 0;
  /** Vertices whose cost was set by the last search, in the order they were first reached. */
  readonly touched: Uint32Array;
  touchedCount = 0;
  private minSeed = UNREACHED;
  private maxSeed = -1;
  /** point seeds (seedSnap) of this search, and per edge the first of them (a chain through pointNext) */
  private readonly edgePointStamp: Uint32Array;
  private readonly edgePointHead: Int32Array;
  private pointNext = new Int32Array(64);
  private pointAlongM = new Float64Array(64);
  private pointCostDs = new Float64Array(64);
  private pointEdge = new Int32Array(64);
  /** positions of the point seeds, in the graph's projection (the raster's lower bound starts from them too) */
  pointX = new Float64Array(64);
  pointY = new Float64Array(64);
  pointCount = 0;
  /**
   * With `logChanges`: the vertices whose cost a search set or lowered since the log was last
   * cleared, each once (a search that keeps its labels across runs, for departure windows).
   */
  changed: Uint32Array = new Uint32Array(0);
  changedCount = 0;
  private changedStamp: Uint32Array = new Uint32Array(0);
  private changedRound = 0;
  /**
   * Since the last reset: the point seeds, the vertex seeds made directly (`seed`), the runs, and
   * the first point seed and run: what `holds` compares (a map's access and its direct path search
   * the same street from the same centre).
   */
  private pointSeeds = 0;
  private vertexSeeds = 0;
  private runs = 0;
  private readonly firstPointSeed = { edge: -1, alongM: 0, baseDs: 0, layer: 0 as Layer, speed: 0, reverse: false };
  private readonly firstRun = { layer: 0 as Layer, speed: 0, limitDs: 0, reverse: false };

  constructor(
    readonly graph: StreetGraph,
    /** the largest limit a search may use, in tenths of a second */
    readonly maxLimitDs: number,
  ) {
    const v = graph.vertexCount;
    this.cost = new Int32Array(v);
    this.stamp = new Uint32Array(v);
    this.touched = new Uint32Array(v);
    this.bucketHead = new Int32Array(maxLimitDs + 1).fill(-1);
    // every relaxation that improves a cost adds one entry: at most one per adjacency entry, plus seeds
    this.entryNext = new Int32Array(graph.adjTarget.length + 2 * v + 16);
    this.entryVertex = new Int32Array(this.entryNext.length);
    this.edgePointStamp = new Uint32Array(graph.edgeCount);
    this.edgePointHead = new Int32Array(graph.edgeCount);
    this.reset();
  }

  /** Bytes of this search's arrays. */
  scratchBytes(): number {
    const arrays = [this.cost, this.stamp, this.touched, this.bucketHead, this.entryNext, this.entryVertex, this.edgePointStamp, this.edgePointHead, this.changed, this.changedStamp];
    return arrays.reduce((total, a) => total + a.byteLength, 0);
  }

  /** Log the vertices each run sets or lowers (see `changed`). */
  logChanges(): void {
    if (this.changedStamp.length === 0) {
      this.changed = new Uint32Array(this.graph.vertexCount);
      this.changedStamp = new Uint32Array(this.graph.vertexCount);
    }
    this.clearChanges();
  }

  /** Empty the log of changed vertices. */
  clearChanges(): void {
    this.changedCount = 0;
    if (++this.changedRound === 0xffffffff) {
      this.changedStamp.fill(0);
      this.changedRound = 1;
    }
  }

  private noteChange(v: number): void {
    if (this.changedStamp[v] === this.changedRound) return;
    this.changedStamp[v] = this.changedRound;
    this.changed[this.changedCount++] = v;
  }

  /** Forget the previous search. */
  reset(): void {
    if (this.entryCount > 0 && this.maxSeed >= 0) this.bucketHead.fill(-1, 0, this.maxSeed + 1); // seeds never run
    this.current++;
    if (this.current === 0xffffffff) {
      this.stamp.fill(0);
      this.edgePointStamp.fill(0);
      this.current = 1;
    }
    this.entryCount = 0;
    this.touchedCount = 0;
    this.pointCount = 0;
    this.minSeed = UNREACHED;
    this.maxSeed = -1;
    this.pointSeeds = this.vertexSeeds = this.runs = 0;
  }

  /**
   * Whether the labels are those of one search from `snap` alone, seeded at `baseDs` on `layer` at
   * `speed`, run up to `limitDs` in that direction: a search asked again need not run again.
   */
  holds(snap: Snap, layer: Layer, speed: number, baseDs: number, limitDs: number, reverse: boolean): boolean {
    const seed = this.firstPointSeed;
    const run = this.firstRun;
    return (
      this.pointSeeds === 1 &&
      this.vertexSeeds === 0 &&
      this.runs === 1 &&
      seed.edge === snap.edge &&
      seed.alongM === snap.alongM &&
      seed.baseDs === baseDs &&
      seed.layer === layer &&
      seed.speed === speed &&
      seed.reverse === reverse &&
      run.layer === layer &&
      run.speed === speed &&
      run.reverse === reverse &&
      run.limitDs === Math.min(limitDs, this.maxLimitDs)
    );
  }

  /** Cost of vertex v in the last search (tenths of a second), UNREACHED when not reached. */
  costOf(v: number): number {
    return this.stamp[v] === this.current ? this.cost[v]! : UNREACHED;
  }

  /** Start vertex v at `costDs` (kept if lower than an earlier seed). */
  seed(v: number, costDs: number): void {
    this.vertexSeeds++;
    this.seedVertex(v, costDs);
  }

  private seedVertex(v: number, costDs: number): void {
    if (costDs < 0 || costDs > this.maxLimitDs) return;
    if (this.stamp[v] === this.current && this.cost[v]! <= costDs) return;
    this.push(v, costDs);
    if (costDs < this.minSeed) this.minSeed = costDs;
    if (costDs > this.maxSeed) this.maxSeed = costDs;
  }

  /**
   * Seed a snapped point at `baseDs`: the ends of its edge at the time to go along the edge from the
   * point, on `layer` at `speed` m/s, and the point itself for the other points of its edge.
   * `reverse`: the times to reach the point instead.
   */
  seedSnap(snap: Snap, layer: Layer, speed: number, baseDs: number, reverse: boolean): void {
    const g = this.graph;
    const e = snap.edge;
    const bits = g.edgeAccess[e]!;
    const lengthM = g.edgeLengthDm[e]! / 10;
    const toFrom = towardsFromBit(layer, reverse);
    const toTo = towardsToBit(layer, reverse);
    if (this.pointSeeds++ === 0) Object.assign(this.firstPointSeed, { edge: e, alongM: snap.alongM, baseDs, layer, speed, reverse });
    if (bits & toFrom) this.seedVertex(g.edgeFrom[e]!, baseDs + Math.trunc((snap.alongM * 10) / speed));
    if (bits & toTo) this.seedVertex(g.edgeTo[e]!, baseDs + Math.trunc((Math.max(0, lengthM - snap.alongM) * 10) / speed));
    if (baseDs >= 0 && baseDs <= this.maxLimitDs) this.addPoint(e, snap.alongM, baseDs);
  }

  /**
   * The cost (tenths of a second, Infinity when none) of the point `alongM` metres along edge e,
   * from the last search: from its `from` end going along the edge, from its `to` end against it,
   * from a point seed of the same edge straight along it (each as the edge's direction bits allow),
   * at `perMetre` tenths of a second per metre; at an end, that end's own cost. `reverse` (costs to
   * reach the seeds): the point goes to its `from` end against the edge, to its `to` end along it.
   * The counterpart of `seedSnap`.
   */
  costAlong(e: number, alongM: number, layer: Layer, perMetre: number, reverse: boolean): number {
    const g = this.graph;
    const bits = g.edgeAccess[e]!;
    // moving towards the `to` end: along increases
    const increasing = towardsToBit(layer, reverse);
    const decreasing = towardsFromBit(layer, reverse);
    let best = endsCost(this.costOf(g.edgeFrom[e]!), this.costOf(g.edgeTo[e]!), bits & increasing, bits & decreasing, g.edgeLengthDm[e]! / 10, alongM, perMetre);
    if (this.edgePointStamp[e] === this.current) {
      for (let k = this.edgePointHead[e]!; k >= 0; k = this.pointNext[k]!) {
        const delta = alongM - this.pointAlongM[k]!;
        if (bits & (delta >= 0 ? increasing : decreasing)) best = Math.min(best, this.pointCostDs[k]! + Math.abs(delta) * perMetre);
      }
    }
    return best;
  }

  /** The cost (tenths of a second) of point seed k. */
  pointCostOf(k: number): number {
    return this.pointCostDs[k]!;
  }

  /** The edge of point seed k. */
  pointEdgeOf(k: number): number {
    return this.pointEdge[k]!;
  }

  /** How far along its edge point seed k lies, metres. */
  pointAlongOf(k: number): number {
    return this.pointAlongM[k]!;
  }

  /** Whether edge e holds a point seed of this search (its points are then valued by `costAlong`). */
  hasPointSeed(e: number): boolean {
    return this.edgePointStamp[e] === this.current;
  }

  /** The first point seed on edge e, -1 when none; the next one of its edge by `nextPoint`. */
  firstPointOn(e: number): number {
    return this.edgePointStamp[e] === this.current ? this.edgePointHead[e]! : -1;
  }

  nextPoint(k: number): number {
    return this.pointNext[k]!;
  }

  /**
   * Run from the seeds on `layer` at `speed` m/s up to `limitDs` (inclusive). `reverse`: costs to
   * reach the seeds (each edge taken in the direction opposite to the travel), for arrival searches.
   */
  run(layer: Layer, speed: number, limitDs: number, reverse = false): void {
    // a cost must be a whole number of tenths, 0 or more, for the queue to drain
    if (!(speed > 0 && speed < Infinity)) throw new RangeError(`street search speed must be a positive number of metres per second, not ${speed}`);
    const limit = Math.min(limitDs, this.maxLimitDs);
    if (this.runs++ === 0) Object.assign(this.firstRun, { layer, speed, limitDs: limit, reverse });
    const { adjOffset, adjTarget, adjEdge, edgeAccess, edgeLengthDm } = this.graph;
    // an edge leaving v from its `from` end, or from its `to` end
    const bitFrom = towardsToBit(layer, reverse);
    const bitTo = towardsFromBit(layer, reverse);
    const { cost, stamp, bucketHead, entryNext, entryVertex, touched } = this;
    const current = this.current;
    const logging = this.changedStamp.length > 0;
    let pending = this.entryCount;
    let c = this.minSeed;
    for (; pending > 0 && c <= limit; c++) {
      // an edge that costs 0 (shorter than a tenth of a second at this speed) pushes into bucket c
      // while it is drained: take the bucket again until nothing was added to it
      for (let entry = bucketHead[c]!; entry >= 0; entry = bucketHead[c]!) {
        bucketHead[c] = -1;
        while (entry >= 0) {
          pending--;
          const v = entryVertex[entry]!;
          entry = entryNext[entry]!;
          if (cost[v] !== c) continue; // stale: v was improved after this entry
          for (let i = adjOffset[v]!, end = adjOffset[v + 1]!; i < end; i++) {
            const ref = adjEdge[i]!;
            const e = ref >>> 1;
            if ((edgeAccess[e]! & ((ref & 1) === 0 ? bitFrom : bitTo)) === 0) continue;
            // trunc(lengthDm / speed), the rule the seeds follow too: multiplying by 1 / speed instead
            // falls on the other side of a whole tenth for some lengths (28 dm, 364 dm at 1.12 m/s)
            const next = c + Math.trunc(edgeLengthDm[e]! / speed);
            if (next > limit) continue;
            const w = adjTarget[i]!;
            if (stamp[w] === current) {
              if (cost[w]! <= next) continue;
            } else {
              stamp[w] = current;
              touched[this.touchedCount++] = w;
            }
            cost[w] = next;
            if (logging) this.noteChange(w);
            const n = this.entryCount++;
            entryVertex[n] = w;
            entryNext[n] = bucketHead[next]!;
            bucketHead[next] = n;
            pending++;
          }
        }
      }
    }
    // seeds above the limit are still queued: drop them
    if (pending > 0) bucketHead.fill(-1, c, Math.max(c, this.maxSeed + 1));
    this.entryCount = 0;
    this.minSeed = UNREACHED;
    this.maxSeed = -1;
  }

  /** Entries left in the queue: 0 between searches (a check for tests and invariants, O(limit)). */
  queuedEntries(): number {
    let count = 0;
    for (let c = 0; c < this.bucketHead.length; c++) {
      for (let entry = this.bucketHead[c]!; entry >= 0 && count <= this.entryNext.length; entry = this.entryNext[entry]!) count++;
    }
    return count;
  }

  private addPoint(e: number, alongM: number, costDs: number): void {
    const k = this.pointCount++;
    if (k === this.pointNext.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const next = new (a.constructor as new (n: number) => T)(a.length * 2);
        next.set(a);
        return next;
      };
      this.pointNext = grow(this.pointNext);
      this.pointAlongM = grow(this.pointAlongM);
      this.pointCostDs = grow(this.pointCostDs);
      this.pointEdge = grow(this.pointEdge);
      this.pointX = grow(this.pointX);
      this.pointY = grow(this.pointY);
    }
    this.pointAlongM[k] = alongM;
    this.pointCostDs[k] = costDs;
    this.pointEdge[k] = e;
    const { x, y } = pointAlong(this.graph, e, alongM);
    this.pointX[k] = x;
    this.pointY[k] = y;
    this.pointNext[k] = this.edgePointStamp[e] === this.current ? this.edgePointHead[e]! : -1;
    this.edgePointStamp[e] = this.current;
    this.edgePointHead[e] = k;
  }

  private push(v: number, c: number): void {
    if (this.entryCount + this.graph.adjTarget.length >= this.entryNext.length) this.growEntries();
    if (this.stamp[v] !== this.current) {
      this.stamp[v] = this.current;
      this.touched[this.touchedCount++] = v;
    }
    this.cost[v] = c;
    if (this.changedStamp.length > 0) this.noteChange(v);
    const n = this.entryCount++;
    this.entryVertex[n] = v;
    this.entryNext[n] = this.bucketHead[c]!;
    this.bucketHead[c] = n;
  }

  /** Many seeds on few vertices: keep room for a whole search after them. */
  private growEntries(): void {
    const next = new Int32Array(this.entryNext.length * 2);
    next.set(this.entryNext);
    this.entryNext = next;
    const vertex = new Int32Array(next.length);
    vertex.set(this.entryVertex);
    this.entryVertex = vertex;
  }
}
