/**
 * A deliberately simple reference computation of walking heat maps, written independently of the
 * engine in `src/routing` to cross-check it on real data. It shares only the data model (the street
 * graph's arrays, the timetable's arrays, the service-day origins) and the documented rules
 * (navitia-heat-maps.md §3, decisions.md "Heat maps"); every search is its own:
 *
 *   - streets: a plain Dijkstra with a binary heap over the walking layer of the whole graph, on
 *     integer tenths of a second (edge cost trunc(lengthDm / speed), a snapped point seeds the ends
 *     of its edge that its direction bits allow with trunc(alongM * 10 / speed));
 *   - snapping and cell matching: brute force over every segment;
 *   - transit: a connection scan over every stop time of every trip running on the service days
 *     around the requested instant, forwards (earliest arrival) for departure maps and backwards
 *     (latest departure) for arrival maps, with walking footpaths between stops found by the
 *     Dijkstra above.
 *
 * Times: street costs are tenths of a second (numbers, Infinity when unreached); transit times are
 * whole epoch seconds.
 */
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';
import { type StreetGraph } from '../../src/model/street-graph.js';
import { CLOSE_STOPS_M, TRANSFER_DETOUR } from '../../src/routing/footpaths.js';
import type { Timetable } from '../../src/model/timetable.js';
import { serviceRunsOn, PICKUP_MASK, DROP_OFF_SHIFT } from '../../src/model/timetable.js';

/** Walking-layer bits of an edge (street-access.ts): along the edge's geometry, and against it. */
export const WALK_FORWARD = 1;
export const WALK_BACKWARD = 2;

/** Farthest a stop or a centre may lie from its street (navitia-heat-maps.md §3.4). */
export const SNAP_RADIUS_M = 500;
/** Stops at most this far apart along the walking streets are linked by a footpath. */
export const FOOTPATH_M = 500;

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
  private readonly walkSegment: Uint8Array;
  /** each stop's walking snap (null when no walking street within 500 m) */
  readonly stopSnaps: (RefSnap | null)[];
  /** footpaths[s]: stops reachable on foot from s within FOOTPATH_M, with the length along the streets */
  footpaths: Footpath[][] = [];
  private stopsOnEdge = new Map<number, number[]>();

  constructor(
    readonly tt: Timetable,
    g: StreetGraph,
    /** the stop snaps chosen among equally near segments (see `snapStops`) */
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
      this.walkSegment[s] = g.edgeAccess[g.segmentEdge[s]!]! & (WALK_FORWARD | WALK_BACKWARD) ? 1 : 0;
    }
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
   * Every walking segment at (nearly) the smallest distance from (x, y), if that distance is at
   * most `maxM`: brute force over all segments. Several segments come back when they tie (a point
   * whose nearest street point is a crossing): the engine may pick any of them.
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
    if (!(distM <= maxM + TIE_M)) return { segments: [], distM };
    const segments: number[] = [];
    const within2 = (distM + TIE_M) * (distM + TIE_M);
    for (let s = 0; s < n; s++) if (d2s[s]! <= within2) segments.push(s);
    return { segments, distM };
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
   * Street access between a snapped centre and the stops (navitia-heat-maps.md §3.4): a Dijkstra
   * bounded by `limitSec` from the ends of the centre's edge; a stop is reached through the ends of
   * its own edge; its time is truncated to whole seconds. `reverse`: from the stops to the centre.
   */
  streetAccess(centre: RefSnap, speed: number, limitSec: number, reverse: boolean): Map<number, number> {
    const limitDs = limitSec * 10;
    const cost = this.dijkstra(this.snapSeeds(centre, speed, 0, reverse), speed, reverse, limitDs);
    const points = [this.pointSeed(centre, 0)];
    const result = new Map<number, number>();
    this.stopSnaps.forEach((snap, s) => {
      if (!snap) return;
      const ds = this.pointCost(cost, snap.edge, snap.alongM, speed, reverse, points);
      if (ds <= limitDs) result.set(s, Math.trunc(ds / 10));
    });
    return result;
  }

  /**
   * Footpaths between stops: walking length along the streets from one stop's snapped point to the
   * other's, both directions listed, kept when at most FOOTPATH_M. Lengths are counted like the
   * street costs, in decimetres at 1 m/s: the start's along-edge leg truncated, the end's exact;
   * stops on one edge are also linked straight along it; and the straight-line rule of
   * `walkingFootpaths` (stop-snaps.ts) for stops close together or not joined by the streets,
   * written again here over every pair.
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
      const best = new Map<number, number>();
      const cost = snap ? this.dijkstra(this.snapSeeds(snap, 1, 0, false), 1, false, limitDm) : new Float64Array(g.vertexCount).fill(Infinity);
      if (snap) {
        for (const other of this.stopsOnEdge.get(snap.edge)!) {
          if (other !== s) best.set(other, Math.abs(this.stopSnaps[other]!.alongM - snap.alongM) * 10);
        }
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
      // stops close together: never more than the straight line at the detour factor; stops the
      // streets do not join within FOOTPATH_M: the straight line at that factor
      const { lon, lat } = this.tt.stopPoints;
      for (let other = 0; other < lon.length; other++) {
        if (other === s) continue;
        const cos = Math.cos((((lat[s]! + lat[other]!) / 2) * Math.PI) / 180);
        const straightM = Math.hypot((lon[other]! - lon[s]!) * cos, lat[other]! - lat[s]!) * METRES_PER_DEGREE;
        const plainDm = straightM * TRANSFER_DETOUR * 10;
        if (plainDm > limitDm) continue;
        const streets = best.get(other);
        if (streets === undefined || (straightM < CLOSE_STOPS_M && plainDm < streets)) best.set(other, plainDm);
      }
      const list: Footpath[] = [];
      // the model keeps footpath lengths as 32-bit floats
      for (const [other, d] of best) if (d <= limitDm) list.push({ to: other, lengthM: Math.fround(d / 10) });
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
   * access stops at `t0 + access`, changing vehicles at one stop at no cost or along a footpath
   * (whose time `footSec` gives) after a vehicle arrival. Connections are scanned by departure
   * time; connections leaving at the same second are scanned again until nothing changes, so that
   * zero-duration hops chain.
   */
  earliestArrival(conns: Connection[], t0: number, access: Map<number, number>, footSec: (lengthM: number) => number): Float64Array {
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
            if (!(c.pickup && ready[c.from]! <= c.dep)) continue;
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
   * Latest departure by a vehicle from every stop (epoch seconds, -Infinity when none) that still
   * reaches the centre by `t0`, the access stops being left for the centre at `t0 - access`: the
   * mirror of `earliestArrival`, connections scanned by decreasing arrival time.
   */
  latestDeparture(conns: Connection[], t0: number, access: Map<number, number>, footSec: (lengthM: number) => number): Float64Array {
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
          if (c.pickup && c.dep > vehicle[c.from]!) {
            vehicle[c.from] = c.dep;
            if (c.dep > ready[c.from]!) ready[c.from] = c.dep;
            for (const f of into[c.from]!) {
              const at = c.dep - footSec(f.lengthM);
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

  /**
   * Value (tenths, not truncated) of a point of the nearest segment: an end of its edge takes the
   * vertex's cost; an inner point of the geometry goes along the edge to an end its bits allow.
   */
  private geometryPointCost(cost: Float64Array, e: number, point: number, speed: number, reverse: boolean, points: RefPointSeed[]): number {
    const g = this.g;
    if (point === g.geomOffset[e]) return cost[g.edgeFrom[e]!]!;
    if (point === g.geomOffset[e + 1]! - 1) return cost[g.edgeTo[e]!]!;
    return this.pointCost(cost, e, g.geomAlongM[point]!, speed, reverse, points);
  }

  /**
   * The values each cell of a grid may take, in whole seconds (null: no value), by the documented
   * rule (raster.ts), computed its own way:
   *   1. a cell whose centre lies within `nearbyM` of segments that value it below the limit takes
   *      the least of those values: the best of the segment's two ends and of the point seeds on it,
   *      plus the straight distance at `speed`;
   *   2. a Dijkstra on the 8-neighbour grid of the cell centres from the cells of step 1 (steps of
   *      `cellW`, `cellH` or the diagonal), for the value (with the length of its walk) and for the
   *      distance to the nearest cell of step 1. A cell of step 1 takes the walked value when its walk
   *      is at most `shortcutM` long, else keeps its own; every other cell takes it unless the nearest
   *      cell of step 1 is farther than `radiusM` and fewer than 6 of its 8 neighbours are within it.
   * Truncated to whole seconds, null at or after `maxSec`. `best[c]`: the segment that gave a cell of
   * step 1 its value when no other came within float noise of it, else -1.
   *
   * Float noise: the engine places cell centres by adding cell widths in metres where this code
   * reads them back from the printed degrees, a difference of about 1e-9 m; a value within 1e-6
   * tenths of a whole second may therefore truncate either way, and both outcomes are accepted.
   */
  gridValues(
    centres: { x: Float64Array; y: Float64Array; R: number },
    cell: { widthM: number; heightM: number; nearbyM: number; radiusM: number; shortcutM: number },
    cost: Float64Array,
    speed: number,
    reverse: boolean,
    maxSec: number,
    points: RefPointSeed[] = [],
  ): { values: Set<number | null>[]; best: Int32Array } {
    const g = this.g;
    const R = centres.R;
    const limitDs = maxSec * 10;
    // each segment's end values, and the reached edges
    const n = g.segmentCount;
    const va = new Float64Array(n);
    const vb = new Float64Array(n);
    const reachedEdge = new Uint8Array(g.edgeCount);
    for (const point of points) if (point.costDs < limitDs) reachedEdge[point.edge] = 1;
    for (let s = 0; s < n; s++) {
      if (!this.walkSegment[s]) continue;
      const e = g.segmentEdge[s]!;
      const p = g.segmentPoint[s]!;
      va[s] = this.geometryPointCost(cost, e, p, speed, reverse, points);
      vb[s] = this.geometryPointCost(cost, e, p + 1, speed, reverse, points);
      if (va[s]! < limitDs || vb[s]! < limitDs) reachedEdge[e] = 1;
    }
    // segments of reached edges by tiles of TILE_M, for step 1
    const tiles = new Map<string, number[]>();
    const tileOf = (v: number) => Math.floor(v / TILE_M);
    for (let s = 0; s < n; s++) {
      if (!this.walkSegment[s] || !reachedEdge[g.segmentEdge[s]!]) continue;
      for (let tx = tileOf(Math.min(this.ax[s]!, this.bx[s]!)); tx <= tileOf(Math.max(this.ax[s]!, this.bx[s]!)); tx++) {
        for (let ty = tileOf(Math.min(this.ay[s]!, this.by[s]!)); ty <= tileOf(Math.max(this.ay[s]!, this.by[s]!)); ty++) {
          const key = `${tx},${ty}`;
          const list = tiles.get(key);
          if (list) list.push(s);
          else tiles.set(key, [s]);
        }
      }
    }
    const own = new Float64Array(R * R).fill(Infinity);
    const settled = new Uint8Array(R * R);
    const best = new Int32Array(R * R).fill(-1);
    const reach = tileOf(cell.nearbyM) + 1;
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < R; j++) {
        const x = centres.x[i]!;
        const y = centres.y[j]!;
        const c = i * R + j;
        const seen = new Set<number>();
        let second = Infinity;
        for (let tx = tileOf(x) - reach; tx <= tileOf(x) + reach; tx++) {
          for (let ty = tileOf(y) - reach; ty <= tileOf(y) + reach; ty++) {
            for (const s of tiles.get(`${tx},${ty}`) ?? []) {
              if (seen.has(s)) continue;
              seen.add(s);
              if (this.segmentDistance(s, x, y).d2 > cell.nearbyM * cell.nearbyM) continue;
              const e = g.segmentEdge[s]!;
              const p = g.segmentPoint[s]!;
              let v = Math.min(va[s]! + (Math.hypot(x - this.ax[s]!, y - this.ay[s]!) * 10) / speed, vb[s]! + (Math.hypot(x - this.bx[s]!, y - this.by[s]!) * 10) / speed);
              for (const point of points) {
                if (point.edge !== e || point.alongM < g.geomAlongM[p]! || point.alongM > g.geomAlongM[p + 1]!) continue;
                v = Math.min(v, point.costDs + (Math.hypot(x - point.x, y - point.y) * 10) / speed);
              }
              if (v >= limitDs) continue;
              settled[c] = 1;
              if (v < own[c]!) {
                second = own[c]!;
                own[c] = v;
                best[c] = s;
              } else if (v < second) second = v;
            }
          }
        }
        if (second - own[c]! < TIE_DS) best[c] = -1;
      }
    }
    // step 2: Dijkstra from the cells of step 1, on values and on distances
    const diagonal = Math.hypot(cell.widthM, cell.heightM);
    const walk = (start: Float64Array, perMetre: number): { dist: Float64Array; length: Float64Array } => {
      const dist = Float64Array.from(start);
      const length = new Float64Array(R * R);
      const heap = new Heap();
      for (let c = 0; c < R * R; c++) if (settled[c] && dist[c]! < Infinity) heap.push(c, dist[c]!);
      while (heap.size > 0) {
        const [c, d] = heap.pop();
        if (d > dist[c]!) continue;
        const i = Math.floor(c / R);
        const j = c % R;
        for (let di = -1; di <= 1; di++) {
          for (let dj = -1; dj <= 1; dj++) {
            if ((di === 0 && dj === 0) || i + di < 0 || i + di >= R || j + dj < 0 || j + dj >= R) continue;
            const step = di !== 0 && dj !== 0 ? diagonal : di !== 0 ? cell.widthM : cell.heightM;
            const next = (i + di) * R + j + dj;
            const nd = d + step * perMetre;
            if (nd < dist[next]!) {
              dist[next] = nd;
              length[next] = length[c]! + step;
              heap.push(next, nd);
            }
          }
        }
      }
      return { dist, length };
    };
    const walked = walk(own, 10 / speed);
    const nearest = walk(Float64Array.from(settled, (k) => (k ? 0 : Infinity)), 1).dist;
    const notch = (c: number) => {
      const i = Math.floor(c / R);
      const j = c % R;
      let within = 0;
      for (let di = -1; di <= 1; di++)
        for (let dj = -1; dj <= 1; dj++)
          if ((di || dj) && i + di >= 0 && i + di < R && j + dj >= 0 && j + dj < R && nearest[(i + di) * R + j + dj]! <= cell.radiusM) within++;
      return within >= 6;
    };
    // a cell of step 1 valued by the walk from another street has no best segment of its own
    for (let c = 0; c < R * R; c++) if (settled[c] && walked.length[c]! <= cell.shortcutM && walked.dist[c]! < own[c]! - TIE_DS) best[c] = -1;
    const values: Set<number | null>[] = [];
    for (let c = 0; c < R * R; c++) {
      const out = new Set<number | null>();
      const v = settled[c]
        ? walked.length[c]! <= cell.shortcutM
          ? walked.dist[c]!
          : own[c]!
        : nearest[c]! <= cell.radiusM || notch(c)
          ? walked.dist[c]!
          : Infinity;
      if (v === Infinity) out.add(null);
      else {
        for (const w of [v - NOISE_DS, v, v + NOISE_DS]) {
          const sec = Math.floor(w / 10);
          out.add(sec >= maxSec ? null : sec);
        }
      }
      values.push(out);
    }
    return { values, best };
  }
}

/** Side of the reference's tiles of segments (metres). */
const TILE_M = 100;
/** Two candidate values closer than this (tenths) leave a cell's best segment undecided. */
const TIE_DS = 1e-6;

/** Two segments within this many metres of each other's distance tie. */
const TIE_M = 1e-6;
/** Float noise allowed on a value in tenths before truncation (see `cellValues`). */
const NOISE_DS = 1e-6;

let scratchD2 = new Float64Array(0);
function scratch(n: number): Float64Array {
  if (scratchD2.length < n) scratchD2 = new Float64Array(n);
  return scratchD2;
}
