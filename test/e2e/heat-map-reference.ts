/**
 * A deliberately simple reference computation of walking heat maps, written independently of the
 * engine in `src/routing` to cross-check it on real data. It shares only the data model (the street
 * graph's arrays, the segment grid's access bits, the timetable's arrays, the service-day origins)
 * and the documented rules (navitia-heat-maps.md §3, decisions.md "Heat maps", the "street
 * fidelity" rules); every search is its own:
 *
 *   - streets: a plain Dijkstra with a binary heap over the walking layer of the whole graph, on
 *     integer tenths of a second (edge cost trunc(lengthDm / speed), a linked point seeds the ends
 *     of its edge that its direction bits allow with trunc(alongM * 10 / speed));
 *   - linking points (stops, centres, cells) to the streets: brute force over every segment whose
 *     segment-grid entries carry a walking bit (small islands are taken out there, per layer, before
 *     the stops are linked): the nearest within the link radius (LINK_RADIUS_M, 600 m), ties to the
 *     lowest segment number; nothing when no street lies within the radius. The off-street offset
 *     between a point and its link point is walked in a straight line at walking speed: a centre
 *     seeds at trunc(offset * 10 / speed) tenths, a stop reached by a vehicle at its time plus that;
 *     street access from a centre to a stop is the (float) cost at the stop's link point plus the
 *     stop's offset, within the access limit, truncated to whole seconds;
 *   - cells: the value of a cell is the cost of its link point (straight along the edge from its
 *     ends or from a point seed, as the direction bits allow) plus its offset, truncated to whole
 *     seconds, null when unlinked, unreached or at or after the maximum duration; no value spreads
 *     from cell to cell. A cell links to the exact nearest street, except that the engine's link
 *     lattice may settle on one up to LATTICE_SLACK_M farther, and every such street's outcome is
 *     accepted (see `gridValues`; how often the engine takes one is bounded by the tests);
 *   - transit: a connection scan over every stop time of every trip running on the service days
 *     around the requested instant, forwards (earliest arrival) for departure maps and backwards
 *     (latest departure) for arrival maps, with walking footpaths between stops found by the
 *     Dijkstra above (along the streets only, offsets included, up to TRANSFER_HORIZON_M; no
 *     straight line), and the board slack before every boarding.
 *
 * Times: street costs are tenths of a second (numbers, Infinity when unreached); transit times are
 * whole epoch seconds.
 */
import { LINK_RADIUS_M, type StreetGraph } from '../../src/model/street-graph.js';
import { LINK_LATTICE_STEP_M } from '../../src/model/link-lattice.js';
import { Layer } from '../../src/model/street-layers.js';
import { TRANSFER_HORIZON_M } from '../../src/service/street-data.js';
import type { Timetable } from '../../src/model/timetable.js';
import { serviceRunsOn, PICKUP_MASK, DROP_OFF_SHIFT } from '../../src/model/timetable.js';

/** Walking-layer bits of an edge (street-access.ts): along the edge's geometry, and against it. */
export const WALK_FORWARD = 1;
export const WALK_BACKWARD = 2;

/** Farthest a point (stop, centre, cell) may lie from the street it links to. */
export const SNAP_RADIUS_M = LINK_RADIUS_M;
/** How much farther than the nearest a cell's link may lie: √2 steps of the walking link lattice (model/link-lattice.ts) */
export const LATTICE_SLACK_M = Math.SQRT2 * LINK_LATTICE_STEP_M[Layer.Walk];
/** Stops at most this far apart along the walking streets, offsets included, are linked by a footpath. */
export const FOOTPATH_M = TRANSFER_HORIZON_M;

/** A point attached to the street network: its edge and the distance along the edge (metres). */
export interface RefSnap {
  edge: number;
  alongM: number;
  /** distance from the point to the street, metres */
  distM: number;
}

/**
 * A point seed: a snapped point where a search starts (a centre, a stop), at `costDs` tenths. Other
 * points of its edge are valued straight along the edge from it, and a cell of its segment straight
 * from it. x, y: its position on the edge's geometry.
 */
export interface RefPointSeed {
  edge: number;
  alongM: number;
  costDs: number;
  x: number;
  y: number;
}

/**
 * The edges of the walking layer's small islands, found my own way: the parts of the walking network
 * (edges with a walking bit, either direction, joined at their ends) other than the largest, with
 * fewer than `minEdges` edges, whether or not a stop stands on them. 1 per such edge.
 */
export function smallWalkIslands(g: StreetGraph, minEdges: number): Uint8Array {
  const walks = (e: number) => (g.edgeAccess[e]! & (WALK_FORWARD | WALK_BACKWARD)) !== 0;
  const incident: number[][] = Array.from({ length: g.vertexCount }, () => []);
  for (let e = 0; e < g.edgeCount; e++) {
    if (!walks(e)) continue;
    incident[g.edgeFrom[e]!]!.push(e);
    incident[g.edgeTo[e]!]!.push(e);
  }
  // each part by a breadth-first search over its edges
  const part = new Int32Array(g.edgeCount).fill(-1);
  const sizes: number[] = [];
  for (let e0 = 0; e0 < g.edgeCount; e0++) {
    if (!walks(e0) || part[e0] !== -1) continue;
    const id = sizes.length;
    let size = 0;
    const queue = [e0];
    part[e0] = id;
    while (queue.length > 0) {
      const e = queue.pop()!;
      size++;
      for (const v of [g.edgeFrom[e]!, g.edgeTo[e]!]) {
        for (const f of incident[v]!) {
          if (part[f] !== -1) continue;
          part[f] = id;
          queue.push(f);
        }
      }
    }
    sizes.push(size);
  }
  const largest = sizes.indexOf(Math.max(...sizes));
  const small = new Uint8Array(g.edgeCount);
  for (let e = 0; e < g.edgeCount; e++) if (part[e]! >= 0 && part[e] !== largest && sizes[part[e]!]! < minEdges) small[e] = 1;
  return small;
}

/** A binary min-heap of (vertex, cost). */
class Heap {
  private v: number[] = [];
  private c: number[] = [];
  get size(): number {
    return this.v.length;
  }
  push(vertex: number, cost: number): void {
    const v = this.v;
    const c = this.c;
    let i = v.length;
    v.push(vertex);
    c.push(cost);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (c[p]! <= cost) break;
      v[i] = v[p]!;
      c[i] = c[p]!;
      i = p;
    }
    v[i] = vertex;
    c[i] = cost;
  }
  /** Pops the minimum; returns [vertex, cost]. */
  pop(): [number, number] {
    const v = this.v;
    const c = this.c;
    const topV = v[0]!;
    const topC = c[0]!;
    const lastV = v.pop()!;
    const lastC = c.pop()!;
    const n = v.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let k = 2 * i + 1;
        if (k >= n) break;
        if (k + 1 < n && c[k + 1]! < c[k]!) k++;
        if (c[k]! >= lastC) break;
        v[i] = v[k]!;
        c[i] = c[k]!;
        i = k;
      }
      v[i] = lastV;
      c[i] = lastC;
    }
    return [topV, topC];
  }
}

/** One leg of a connection scan: trip `trip` from stop `from` at `dep` to stop `to` at `arr` (epoch seconds). */
interface Connection {
  trip: number;
  from: number;
  to: number;
  dep: number;
  arr: number;
  /** boarding allowed at `from`, alighting allowed at `to` */
  pickup: boolean;
  dropOff: boolean;
}

export interface Footpath {
  to: number;
  lengthM: number;
}

export class ReferenceModel {
  readonly g: StreetGraph;
  /** incident edges of each vertex (my own adjacency, from the edge list) */
  private readonly incident: number[][];
  /** segment ends in metres, as doubles */
  private readonly ax: Float64Array;
  private readonly ay: Float64Array;
  private readonly bx: Float64Array;
  private readonly by: Float64Array;
  /** 1 for the segments points may link to on foot */
  readonly walkSegment: Uint8Array;
  /** each stop's walking link (null when no walking street within the link radius) */
  readonly stopSnaps: (RefSnap | null)[];
  /** footpaths[s]: stops reachable on foot from s within FOOTPATH_M, with the length along the streets */
  footpaths: Footpath[][] = [];
  private stopsOnEdge = new Map<number, number[]>();

  constructor(
    readonly tt: Timetable,
    g: StreetGraph,
    /** each stop's walking link (see `link`), as the engine stores it (32-bit floats) */
    stopSnaps: (RefSnap | null)[],
  ) {
    this.g = g;
    this.incident = Array.from({ length: g.vertexCount }, () => []);
    for (let e = 0; e < g.edgeCount; e++) {
      this.incident[g.edgeFrom[e]!]!.push(e);
      if (g.edgeTo[e] !== g.edgeFrom[e]) this.incident[g.edgeTo[e]!]!.push(e);
    }
    const n = g.segmentCount;
    this.ax = new Float64Array(n);
    this.ay = new Float64Array(n);
    this.bx = new Float64Array(n);
    this.by = new Float64Array(n);
    this.walkSegment = new Uint8Array(n);
    for (let s = 0; s < n; s++) {
      const p = g.segmentPoint[s]!;
      this.ax[s] = g.geomX[p]!;
      this.ay[s] = g.geomY[p]!;
      this.bx[s] = g.geomX[p + 1]!;
      this.by[s] = g.geomY[p + 1]!;
    }
    // the segments points may link to on foot: those the segment grid offers to the walking layer
    // (small islands are taken out of it)
    const grid = g.segmentGrid;
    for (let k = 0; k < grid.segments.length; k++) if (grid.access[k]! & (WALK_FORWARD | WALK_BACKWARD)) this.walkSegment[grid.segments[k]!] = 1;
    this.stopSnaps = stopSnaps;
  }

  /** Squared distance from (x, y) to segment s and the position (0..1) of the closest point. */
  private segmentDistance(s: number, x: number, y: number): { d2: number; t: number } {
    const ax = this.ax[s]!;
    const ay = this.ay[s]!;
    const dx = this.bx[s]! - ax;
    const dy = this.by[s]! - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
    t = Math.min(1, Math.max(0, t));
    const cx = ax + t * dx - x;
    const cy = ay + t * dy - y;
    return { d2: cx * cx + cy * cy, t };
  }

  /**
   * Every walking segment at the smallest distance from (x, y) (within TIE_M of it: float noise), if
   * that distance is at most `maxM`, in increasing segment number: brute force over all segments.
   * Several come back when they tie (a point whose nearest street point is a crossing, two ways
   * drawn on top of each other).
   */
  nearestSegments(x: number, y: number, maxM: number): { segments: number[]; distM: number } {
    const { ax, ay, bx, by, walkSegment } = this;
    let best = Infinity;
    const n = ax.length;
    // squared distances first, in one tight loop
    const d2s = scratch(n);
    for (let s = 0; s < n; s++) {
      if (!walkSegment[s]) {
        d2s[s] = Infinity;
        continue;
      }
      const x0 = ax[s]!;
      const y0 = ay[s]!;
      const dx = bx[s]! - x0;
      const dy = by[s]! - y0;
      const len2 = dx * dx + dy * dy;
      let t = len2 > 0 ? ((x - x0) * dx + (y - y0) * dy) / len2 : 0;
      if (t < 0) t = 0;
      else if (t > 1) t = 1;
      const cx = x0 + t * dx - x;
      const cy = y0 + t * dy - y;
      const d2 = cx * cx + cy * cy;
      d2s[s] = d2;
      if (d2 < best) best = d2;
    }
    const distM = Math.sqrt(best);
    if (!(distM <= maxM)) return { segments: [], distM };
    const segments: number[] = [];
    const within2 = (distM + TIE_M) * (distM + TIE_M);
    for (let s = 0; s < n; s++) if (d2s[s]! <= within2) segments.push(s);
    return { segments, distM };
  }

  /**
   * The link of (x, y) by the linking rule: the nearest walking segment within `maxM` (the link
   * radius), ties to the lowest segment number; null when no walking street lies that near.
   */
  link(x: number, y: number, maxM = SNAP_RADIUS_M): RefSnap | null {
    const { segments } = this.nearestSegments(x, y, maxM);
    return segments.length === 0 ? null : this.snapOn(segments[0]!, x, y);
  }

  /** The snap of (x, y) on segment s. */
  snapOn(s: number, x: number, y: number): RefSnap {
    const { d2, t } = this.segmentDistance(s, x, y);
    const p = this.g.segmentPoint[s]!;
    const a0 = this.g.geomAlongM[p]!;
    return { edge: this.g.segmentEdge[s]!, alongM: a0 + t * (this.g.geomAlongM[p + 1]! - a0), distM: Math.sqrt(d2) };
  }

  // ---------------------------------------------------------------------------------------------
  // streets

  /**
   * Seeds (vertex, tenths) of a snapped point: the ends of its edge that can be walked to from the
   * point (`reverse`: that can walk to the point), at `baseDs` + trunc(alongM * 10 / speed).
   */
  snapSeeds(snap: RefSnap, speed: number, baseDs: number, reverse: boolean): [number, number][] {
    const g = this.g;
    const bits = g.edgeAccess[snap.edge]!;
    const lengthM = g.edgeLengthDm[snap.edge]! / 10;
    // point -> `from` end runs against the edge; reversed (`from` end -> point), along it
    const toFrom = reverse ? WALK_FORWARD : WALK_BACKWARD;
    const toTo = reverse ? WALK_BACKWARD : WALK_FORWARD;
    const seeds: [number, number][] = [];
    if (bits & toFrom) seeds.push([g.edgeFrom[snap.edge]!, baseDs + Math.trunc((snap.alongM * 10) / speed)]);
    if (bits & toTo) seeds.push([g.edgeTo[snap.edge]!, baseDs + Math.trunc((Math.max(0, lengthM - snap.alongM) * 10) / speed)]);
    return seeds;
  }

  /** The point seed of a snapped point at `costDs` tenths, placed on its edge's geometry at its distance along. */
  pointSeed(snap: RefSnap, costDs: number): RefPointSeed {
    const g = this.g;
    const first = g.geomOffset[snap.edge]!;
    const last = g.geomOffset[snap.edge + 1]! - 1;
    // the geometry point at or before the distance, then a straight line to the next one
    let p = first;
    while (p + 1 < last && g.geomAlongM[p + 1]! <= snap.alongM) p++;
    const a0 = g.geomAlongM[p]!;
    const span = g.geomAlongM[p + 1]! - a0;
    const t = span > 0 ? Math.min(1, Math.max(0, (snap.alongM - a0) / span)) : 0;
    return { edge: snap.edge, alongM: snap.alongM, costDs, x: g.geomX[p]! + t * (g.geomX[p + 1]! - g.geomX[p]!), y: g.geomY[p]! + t * (g.geomY[p + 1]! - g.geomY[p]!) };
  }

  /**
   * Plain Dijkstra on the walking layer from `seeds` (vertex, tenths), each edge costing
   * trunc(lengthDm / speed) tenths. `reverse`: the cost of reaching a seed from each vertex (every
   * edge walked in the direction opposite to the search). Costs above `limitDs` are not expanded.
   */
  dijkstra(seeds: [number, number][], speed: number, reverse: boolean, limitDs = Infinity): Float64Array {
    const g = this.g;
    const cost = new Float64Array(g.vertexCount).fill(Infinity);
    const heap = new Heap();
    for (const [v, c] of seeds) {
      if (c < cost[v]!) {
        cost[v] = c;
        heap.push(v, c);
      }
    }
    while (heap.size > 0) {
      const [u, c] = heap.pop();
      if (c !== cost[u] || c > limitDs) continue;
      for (const e of this.incident[u]!) {
        const a = g.edgeFrom[e]!;
        const b = g.edgeTo[e]!;
        const bits = g.edgeAccess[e]!;
        const step = Math.trunc(g.edgeLengthDm[e]! / speed);
        // w, the other end of e, is walked to from u (forward) or walks to u (reverse)
        if (u === a) {
          // w = b: walking a -> b needs FORWARD, walking b -> a needs BACKWARD
          if (bits & (reverse ? WALK_BACKWARD : WALK_FORWARD) && c + step < cost[b]!) {
            cost[b] = c + step;
            heap.push(b, c + step);
          }
        }
        if (u === b) {
          if (bits & (reverse ? WALK_FORWARD : WALK_BACKWARD) && c + step < cost[a]!) {
            cost[a] = c + step;
            heap.push(a, c + step);
          }
        }
      }
    }
    return cost;
  }

  /**
   * Time (tenths, not truncated) from a search's costs to a point on edge e at `alongM` (`reverse`:
   * from the point to the search's seeds), through the ends of the edge its direction bits allow
   * (an end itself at that end's cost), or straight along the edge from a point seed on it.
   */
  pointCost(cost: Float64Array, e: number, alongM: number, speed: number, reverse: boolean, points: RefPointSeed[] = []): number {
    const g = this.g;
    const bits = g.edgeAccess[e]!;
    const lengthM = g.edgeLengthDm[e]! / 10;
    // towards the `to` end, along the edge; reversed, the travel runs the other way
    const increasing = reverse ? WALK_BACKWARD : WALK_FORWARD;
    const decreasing = reverse ? WALK_FORWARD : WALK_BACKWARD;
    let best = Infinity;
    if (alongM <= 0 || bits & increasing) best = Math.min(best, cost[g.edgeFrom[e]!]! + (Math.max(0, alongM) * 10) / speed);
    if (alongM >= lengthM || bits & decreasing) best = Math.min(best, cost[g.edgeTo[e]!]! + (Math.max(0, lengthM - alongM) * 10) / speed);
    for (const point of points) {
      if (point.edge !== e) continue;
      const delta = alongM - point.alongM;
      if (bits & (delta >= 0 ? increasing : decreasing)) best = Math.min(best, point.costDs + (Math.abs(delta) * 10) / speed);
    }
    return best;
  }

  /**
   * Street access between a linked centre and the stops (navitia-heat-maps.md §3.4): a Dijkstra
   * bounded by `limitSec` from the ends of the centre's edge, the centre's offset walked first
   * (truncated to tenths); a stop is reached at its link point, its own offset walked after; its
   * time is truncated to whole seconds. `reverse`: from the stops to the centre.
   */
  streetAccess(centre: RefSnap, speed: number, limitSec: number, reverse: boolean): Map<number, number> {
    const limitDs = limitSec * 10;
    const startDs = Math.trunc((centre.distM * 10) / speed);
    const cost = this.dijkstra(this.snapSeeds(centre, speed, startDs, reverse), speed, reverse, limitDs);
    const points = [this.pointSeed(centre, startDs)];
    const result = new Map<number, number>();
    this.stopSnaps.forEach((snap, s) => {
      if (!snap) return;
      const ds = this.pointCost(cost, snap.edge, snap.alongM, speed, reverse, points) + (snap.distM * 10) / speed;
      if (ds <= limitDs) result.set(s, Math.trunc(ds / 10));
    });
    return result;
  }

  /**
   * Footpaths between stops: the walk from one stop's link point to the other's along the streets,
   * plus both offsets, both directions listed, kept when at most FOOTPATH_M. Lengths are counted
   * like the street costs, in decimetres at 1 m/s: the start's along-edge leg truncated, the end's
   * exact; stops on one edge are also linked straight along it. No straight line stands in for a
   * street.
   */
  buildFootpaths(): void {
    const g = this.g;
    const limitDm = FOOTPATH_M * 10;
    this.stopsOnEdge.clear();
    this.stopSnaps.forEach((snap, s) => {
      if (!snap) return;
      const list = this.stopsOnEdge.get(snap.edge);
      if (list) list.push(s);
      else this.stopsOnEdge.set(snap.edge, [s]);
    });
    this.footpaths = this.stopSnaps.map((snap, s) => {
      if (!snap) return [];
      const best = new Map<number, number>();
      const ownDm = snap.distM * 10;
      const cost = this.dijkstra(this.snapSeeds(snap, 1, 0, false), 1, false, limitDm - Math.round(ownDm));
      for (const other of this.stopsOnEdge.get(snap.edge)!) {
        if (other !== s) best.set(other, Math.abs(this.stopSnaps[other]!.alongM - snap.alongM) * 10);
      }
      this.stopSnaps.forEach((o, other) => {
        if (!o || other === s) return;
        const e = o.edge;
        const a = cost[g.edgeFrom[e]!]!;
        const b = cost[g.edgeTo[e]!]!;
        if (a === Infinity && b === Infinity) return;
        const d = Math.min(a + o.alongM * 10, b + Math.max(0, g.edgeLengthDm[e]! - o.alongM * 10));
        if (d < (best.get(other) ?? Infinity)) best.set(other, d);
      });
      const list: Footpath[] = [];
      // with both offsets; the model keeps footpath lengths as 32-bit floats
      for (const [other, street] of best) {
        const d = street + ownDm + this.stopSnaps[other]!.distM * 10;
        if (d <= limitDm) list.push({ to: other, lengthM: Math.fround(d / 10) });
      }
      return list;
    });
  }

  // ---------------------------------------------------------------------------------------------
  // transit

  /**
   * Every connection (consecutive stop times of one trip) of the trips running on service days
   * `days`, whose departure lies in [fromSec, untilSec].
   */
  connections(days: number[], origin: (tz: number, day: number) => number, fromSec: number, untilSec: number): Connection[] {
    const tt = this.tt;
    const { stopTimeOffset, pattern, service, agency } = tt.trips;
    const { arrivalSec, departureSec, pickDrop } = tt.stopTimes;
    const { stopOffset, stops } = tt.patterns;
    const list: Connection[] = [];
    for (const day of days) {
      for (let t = 0; t < tt.trips.ids.length; t++) {
        if (!serviceRunsOn(tt, service[t]!, day)) continue;
        const base = origin(tt.agencyTimezone[agency[t]!]!, day);
        const first = stopTimeOffset[t]!;
        const last = stopTimeOffset[t + 1]!;
        const p0 = stopOffset[pattern[t]!]!;
        for (let k = first; k + 1 < last; k++) {
          const dep = base + departureSec[k]!;
          if (dep < fromSec || dep > untilSec) continue;
          list.push({
            trip: t * 8 + (day & 7), // one run of a trip per service day
            from: stops[p0 + k - first]!,
            to: stops[p0 + k + 1 - first]!,
            dep,
            arr: base + arrivalSec[k + 1]!,
            pickup: (pickDrop[k]! & PICKUP_MASK) !== 1,
            dropOff: ((pickDrop[k + 1]! >> DROP_OFF_SHIFT) & PICKUP_MASK) !== 1,
          });
        }
      }
    }
    return list;
  }

  /**
   * Earliest arrival by a vehicle at every stop (epoch seconds, Infinity when none), leaving the
   * access stops at `t0 + access`, changing vehicles at one stop or along a footpath (whose time
   * `footSec` gives) after a vehicle arrival; every boarding `slackSec` after being at the stop. Connections are scanned by departure
   * time; connections leaving at the same second are scanned again until nothing changes, so that
   * zero-duration hops chain.
   */
  earliestArrival(conns: Connection[], t0: number, access: Map<number, number>, footSec: (lengthM: number) => number, slackSec: number): Float64Array {
    const n = this.tt.stopPoints.ids.length;
    const ready = new Float64Array(n).fill(Infinity);
    const vehicle = new Float64Array(n).fill(Infinity);
    for (const [s, sec] of access) ready[s] = Math.min(ready[s]!, t0 + sec);
    const sorted = [...conns].sort((a, b) => a.dep - b.dep || a.arr - b.arr);
    const onBoard = new Set<number>();
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j < sorted.length && sorted[j]!.dep === sorted[i]!.dep) j++;
      for (let changed = true; changed; ) {
        changed = false;
        for (let k = i; k < j; k++) {
          const c = sorted[k]!;
          if (!onBoard.has(c.trip)) {
            if (!(c.pickup && ready[c.from]! + slackSec <= c.dep)) continue;
            onBoard.add(c.trip);
            changed = true;
          }
          if (c.dropOff && c.arr < vehicle[c.to]!) {
            vehicle[c.to] = c.arr;
            if (c.arr < ready[c.to]!) ready[c.to] = c.arr;
            for (const f of this.footpaths[c.to]!) {
              const at = c.arr + footSec(f.lengthM);
              if (at < ready[f.to]!) ready[f.to] = at;
            }
            changed = true;
          }
        }
      }
      i = j;
    }
    return vehicle;
  }

  /**
   * The latest time to be at every stop (epoch seconds, -Infinity when none) to board a vehicle that
   * still reaches the centre by `t0`, `slackSec` before it leaves, the access stops being left for
   * the centre at `t0 - access`: the mirror of `earliestArrival`, connections scanned by decreasing
   * arrival time.
   */
  latestDeparture(conns: Connection[], t0: number, access: Map<number, number>, footSec: (lengthM: number) => number, slackSec: number): Float64Array {
    const n = this.tt.stopPoints.ids.length;
    const ready = new Float64Array(n).fill(-Infinity);
    const vehicle = new Float64Array(n).fill(-Infinity);
    for (const [s, sec] of access) ready[s] = Math.max(ready[s]!, t0 - sec);
    // footpaths into each stop
    const into: Footpath[][] = Array.from({ length: n }, () => []);
    this.footpaths.forEach((list, from) => {
      for (const f of list) into[f.to]!.push({ to: from, lengthM: f.lengthM });
    });
    const sorted = [...conns].sort((a, b) => b.arr - a.arr || b.dep - a.dep);
    const onBoard = new Set<number>();
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j < sorted.length && sorted[j]!.arr === sorted[i]!.arr) j++;
      for (let changed = true; changed; ) {
        changed = false;
        for (let k = i; k < j; k++) {
          const c = sorted[k]!;
          if (!onBoard.has(c.trip)) {
            if (!(c.dropOff && ready[c.to]! >= c.arr)) continue;
            onBoard.add(c.trip);
            changed = true;
          }
          const atStop = c.dep - slackSec;
          if (c.pickup && atStop > vehicle[c.from]!) {
            vehicle[c.from] = atStop;
            if (atStop > ready[c.from]!) ready[c.from] = atStop;
            for (const f of into[c.from]!) {
              const at = atStop - footSec(f.lengthM);
              if (at > ready[f.to]!) ready[f.to] = at;
            }
            changed = true;
          }
        }
      }
      i = j;
    }
    return vehicle;
  }

  // ---------------------------------------------------------------------------------------------
  // cells

  /** The walking segments by tiles of TILE_M (built once), to find a point's nearest ones. */
  private segmentTiles: Map<string, number[]> | null = null;

  private tiles(): Map<string, number[]> {
    if (this.segmentTiles) return this.segmentTiles;
    const tiles = new Map<string, number[]>();
    for (let s = 0; s < this.g.segmentCount; s++) {
      if (!this.walkSegment[s]) continue;
      for (let tx = tileOf(Math.min(this.ax[s]!, this.bx[s]!)); tx <= tileOf(Math.max(this.ax[s]!, this.bx[s]!)); tx++) {
        for (let ty = tileOf(Math.min(this.ay[s]!, this.by[s]!)); ty <= tileOf(Math.max(this.ay[s]!, this.by[s]!)); ty++) {
          const key = `${tx},${ty}`;
          const list = tiles.get(key);
          if (list) list.push(s);
          else tiles.set(key, [s]);
        }
      }
    }
    this.segmentTiles = tiles;
    return tiles;
  }

  /** The walking segments within `maxM` of (x, y), with their distances (through the tiles). */
  private segmentsNear(x: number, y: number, maxM: number): { s: number; d: number }[] {
    const tiles = this.tiles();
    const reach = tileOf(maxM) + 1;
    const seen = new Set<number>();
    const out: { s: number; d: number }[] = [];
    for (let tx = tileOf(x) - reach; tx <= tileOf(x) + reach; tx++) {
      for (let ty = tileOf(y) - reach; ty <= tileOf(y) + reach; ty++) {
        for (const s of tiles.get(`${tx},${ty}`) ?? []) {
          if (seen.has(s)) continue;
          seen.add(s);
          const d = Math.sqrt(this.segmentDistance(s, x, y).d2);
          if (d <= maxM) out.push({ s, d });
        }
      }
    }
    return out;
  }

  /**
   * The values the cells `cells` ([i, j]) of a grid may take, in whole seconds (null: no value), by
   * the documented rule (raster.ts, link-lattice.ts), computed its own way: a cell's centre links to
   * its nearest walking segment within SNAP_RADIUS_M; its value is the cost of the link point (the
   * ends of the edge as its bits allow, or a point seed on it, straight along the edge) plus the
   * offset walked at `speed`, truncated to whole seconds, null at or after `maxSec`; an unlinked or
   * unreached cell is null, whatever its neighbours hold.
   *
   * Which street: the exact nearest (ties to the lowest segment number) where no other lies within
   * LATTICE_SLACK_M of it; else the engine's link lattice may settle on any segment up to that much
   * farther than the nearest (where that street's region holds none of the cell's four lattice
   * points), so each of those is accepted, and null too when one of them lies past the radius (the
   * engine then leaves the cell unlinked). `choices[c]`: how
   * many links the cell may take (0 when no street lies within the radius, more than 1 for an
   * ambiguous cell); `nearestValues[c]`: the values by the nearest street alone (for statistics);
   * `best[c]`: the segment of a cell linked without a choice, else -1.
   *
   * Float noise: the engine places cell centres by adding cell widths in metres where this code
   * reads them back from the printed degrees, a difference of about 1e-9 m; a value within 1e-6
   * tenths of a whole second may therefore truncate either way, and both outcomes are accepted;
   * segments within 1e-6 m of the same distance that do not tie exactly are all accepted, and so is
   * null at the radius within 1e-6 m.
   */
  gridValues(
    centres: { x: Float64Array; y: Float64Array; R: number },
    cost: Float64Array,
    speed: number,
    reverse: boolean,
    maxSec: number,
    points: RefPointSeed[],
    cells: [number, number][],
  ): { values: Set<number | null>[]; nearestValues: Set<number | null>[]; best: Int32Array; choices: Int32Array } {
    const R = centres.R;
    const values: Set<number | null>[] = [];
    const nearestValues: Set<number | null>[] = [];
    const best = new Int32Array(R * R).fill(-1);
    const choices = new Int32Array(R * R);
    const addValue = (out: Set<number | null>, v: number) => {
      if (v === Infinity) out.add(null);
      else {
        for (const w of [v - NOISE_DS, v, v + NOISE_DS]) {
          const sec = Math.floor(w / 10);
          out.add(sec >= maxSec ? null : sec);
        }
      }
    };
    for (const [i, j] of cells) {
      const x = centres.x[i]!;
      const y = centres.y[j]!;
      const c = i * R + j;
      const out = new Set<number | null>();
      values[c] = out;
      const near = this.segmentsNear(x, y, SNAP_RADIUS_M + LATTICE_SLACK_M + TIE_M).sort((a, b) => a.s - b.s);
      let nearest = Infinity;
      for (const n of near) nearest = Math.min(nearest, n.d);
      if (!(nearest <= SNAP_RADIUS_M + TIE_M)) {
        out.add(null);
        nearestValues[c] = out;
        continue;
      }
      let candidates: { s: number; d: number }[];
      // the exact nearest, ties to the lowest segment number (all of them when float noise parts them),
      // and those the lattice may settle on instead
      const tied = near.filter((n) => n.d <= nearest + TIE_M);
      const exact = tied.every((n) => n.d === tied[0]!.d) ? [tied[0]!] : tied;
      candidates = [...exact, ...near.filter((n) => n.d > nearest + TIE_M && n.d <= nearest + LATTICE_SLACK_M + TIE_M)];
      const unlinked = candidates.some((n) => n.d > SNAP_RADIUS_M - TIE_M);
      const linked = candidates.filter((n) => n.d <= SNAP_RADIUS_M + TIE_M);
      if (unlinked) out.add(null);
      const own = new Set<number | null>();
      nearestValues[c] = own;
      for (const { s, d } of linked) {
        const link = this.snapOn(s, x, y);
        const v = this.pointCost(cost, link.edge, link.alongM, speed, reverse, points) + (link.distM * 10) / speed;
        addValue(out, v);
        if (d <= nearest + TIE_M) addValue(own, v);
      }
      if (own.size === 0) own.add(null);
      choices[c] = linked.length + (unlinked ? 1 : 0);
      if (choices[c] === 1 && linked.length === 1) best[c] = linked[0]!.s;
    }
    return { values, nearestValues, best, choices };
  }
}

const tileOf = (v: number) => Math.floor(v / TILE_M);

/** Side of the reference's tiles of segments (metres). */
const TILE_M = 100;

/** Two distances within this many metres of each other are equal up to float noise. */
const TIE_M = 1e-6;
/** Float noise allowed on a value in tenths before truncation (see `gridValues`). */
const NOISE_DS = 1e-6;

let scratchD2 = new Float64Array(0);
function scratch(n: number): Float64Array {
  if (scratchD2.length < n) scratchD2 = new Float64Array(n);
  return scratchD2;
}
