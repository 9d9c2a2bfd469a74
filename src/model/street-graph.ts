/**
 * The street network of a coverage, for walking, cycling and driving: one graph whose edges carry the
 * layers (and directions) allowed on them, built from OpenStreetMap ways by `osm/build-street-graph.ts`.
 *
 * Vertices are the street intersections and dead ends; an edge is the run of a way between two of
 * them (the degree-2 nodes in between are contracted away, their positions kept as the edge's
 * geometry). Positions are in a local projection in metres (see `Projection`), stored as Float32
 * relative to the projection's origin (millimetre precision across a city).
 *
 *   adjacency of vertex v: entries [adjOffset[v], adjOffset[v+1]), each the neighbour `adjTarget[i]`
 *   and `adjEdge[i] = edge * 2 + side`, side 0 when v is the edge's `from` end, 1 when it is its `to`.
 *
 *   geometry of edge e: points [geomOffset[e], geomOffset[e+1]) of geomX/geomY, from `from` to `to`,
 *   `geomAlongM[p]` the distance along the edge of each point. A segment is a pair of consecutive
 *   points; segment s starts at point `segmentPoint[s]` and belongs to edge `segmentEdge[s]`.
 *
 * Every array is on a SharedArrayBuffer: worker threads see the same graph.
 */
import Flatbush from 'flatbush';
import { backwardBit, forwardBit, type Layer } from '../osm/street-access.js';

/** Metres per degree of latitude (and of longitude at the equator) used throughout the heat maps. */
export const METRES_PER_DEGREE = 111226.2991;

/** Equirectangular projection around the network's centre: x east, y north, in metres. */
export interface Projection {
  lon0: number;
  lat0: number;
  /** metres per degree of longitude at lat0 */
  mPerDegLon: number;
}

export function projectX(p: Projection, lon: number): number {
  return (lon - p.lon0) * p.mPerDegLon;
}
export function projectY(p: Projection, lat: number): number {
  return (lat - p.lat0) * METRES_PER_DEGREE;
}
export function unprojectLon(p: Projection, x: number): number {
  return p.lon0 + x / p.mPerDegLon;
}
export function unprojectLat(p: Projection, y: number): number {
  return p.lat0 + y / METRES_PER_DEGREE;
}

export interface StreetGraph {
  projection: Projection;
  vertexCount: number;
  edgeCount: number;
  segmentCount: number;
  /** OSM node id of each vertex (for reports and tests) */
  vertexNodeId: Float64Array;
  /** 1 where a car may be left: an incident car edge that is not a motorway */
  vertexParkable: Uint8Array;
  edgeFrom: Uint32Array;
  edgeTo: Uint32Array;
  /** length along the geometry, decimetres */
  edgeLengthDm: Uint32Array;
  /** street-access bits (WALK_FORWARD…) */
  edgeAccess: Uint8Array;
  /** index into the coverage's street names, -1 when unnamed */
  edgeName: Int32Array;
  adjOffset: Uint32Array;
  adjTarget: Uint32Array;
  adjEdge: Uint32Array;
  geomOffset: Uint32Array;
  geomX: Float32Array;
  geomY: Float32Array;
  geomAlongM: Float32Array;
  segmentEdge: Uint32Array;
  segmentPoint: Uint32Array;
  /** Flatbush index of the segments' boxes (Float32 metres), rebuilt in each thread with `Flatbush.from` */
  segmentIndexData: SharedArrayBuffer;
}

/** Whether layer `layer` may go along edge `e` from its `from` end (side 0) or its `to` end (side 1). */
export function canTraverse(g: StreetGraph, e: number, side: number, layer: Layer): boolean {
  return (g.edgeAccess[e]! & (side === 0 ? forwardBit(layer) : backwardBit(layer))) !== 0;
}

/** The segment index of a graph, one per thread (cheap: it wraps the shared buffer). */
const indexes = new WeakMap<SharedArrayBuffer, Flatbush>();
export function segmentIndex(g: StreetGraph): Flatbush {
  let index = indexes.get(g.segmentIndexData);
  if (!index) {
    index = Flatbush.from(g.segmentIndexData);
    indexes.set(g.segmentIndexData, index);
  }
  return index;
}

/** Bytes held by the graph's arrays and index. */
export function streetGraphBytes(g: StreetGraph): number {
  let total = g.segmentIndexData.byteLength;
  for (const value of Object.values(g)) if (ArrayBuffer.isView(value)) total += value.byteLength;
  return total;
}

/** A point on the street network: an edge, how far along it, and how far the point lies from it. */
export interface Snap {
  edge: number;
  alongM: number;
  offsetM: number;
  segment: number;
}

/** Squared distance from (px, py) to segment s, and the position of the closest point along the edge. */
export function projectOnSegment(g: StreetGraph, s: number, px: number, py: number): { dist2: number; alongM: number } {
  const dist2 = segmentDistance2(g, s, px, py);
  const p = g.segmentPoint[s]!;
  const a0 = g.geomAlongM[p]!;
  return { dist2, alongM: a0 + lastT * (g.geomAlongM[p + 1]! - a0) };
}

/**
 * The nearest point of the street network usable by `layer` within `maxM` metres of (x, y), or null.
 * A segment belongs to a layer when its edge can be travelled in at least one direction.
 */
export function snapPoint(g: StreetGraph, layer: Layer, x: number, y: number, maxM: number): Snap | null {
  const s = nearestSegment(g, x, y, maxM, forwardBit(layer) | backwardBit(layer));
  if (s < 0) return null;
  const { dist2, alongM } = projectOnSegment(g, s, x, y);
  return { edge: g.segmentEdge[s]!, alongM, offsetM: Math.sqrt(dist2), segment: s };
}

/**
 * The segment nearest to (x, y) among those whose edge has one of `accessMask`'s bits, within
 * `maxM` metres (exact distance to the segment, not to its box); -1 when none.
 *
 * A best-first walk of the Flatbush tree: blocks are visited by increasing box distance and the walk
 * stops when the nearest block is farther than the best segment found.
 */
export function nearestSegment(g: StreetGraph, x: number, y: number, maxM: number, accessMask: number): number {
  const index = segmentIndex(g);
  const boxes = index._boxes;
  const indices = index._indices;
  const levelBounds = index._levelBounds;
  const items4 = index.numItems * 4;
  const nodeSize4 = index.nodeSize * 4;
  const heap = scratchHeap;
  heap.clear();
  let best = -1;
  let bound = maxM * maxM;
  heap.push(boxes.length - 4, 0);
  while (heap.size > 0 && heap.minPriority() <= bound) {
    const block = heap.pop();
    const end = Math.min(block + nodeSize4, upperBound(block, levelBounds));
    const leafLevel = block < items4;
    for (let pos = block; pos < end; pos += 4) {
      const dx = Math.max(boxes[pos]! - x, x - boxes[pos + 2]!, 0);
      const dy = Math.max(boxes[pos + 1]! - y, y - boxes[pos + 3]!, 0);
      const d2 = dx * dx + dy * dy;
      if (d2 > bound) continue;
      const child = indices[pos >> 2]!;
      if (!leafLevel) {
        heap.push(child, d2);
        continue;
      }
      if ((g.edgeAccess[g.segmentEdge[child]!]! & accessMask) === 0) continue;
      const exact = segmentDistance2(g, child, x, y);
      if (exact < bound || (exact === bound && best < 0)) {
        bound = exact;
        best = child;
      }
    }
  }
  return best;
}

/** Position (0..1) of the closest point on the segment, set by the last `segmentDistance2`. */
let lastT = 0;

/** Squared distance from (px, py) to segment s. */
export function segmentDistance2(g: StreetGraph, s: number, px: number, py: number): number {
  const p = g.segmentPoint[s]!;
  const ax = g.geomX[p]!;
  const ay = g.geomY[p]!;
  const dx = g.geomX[p + 1]! - ax;
  const dy = g.geomY[p + 1]! - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  lastT = t;
  const cx = ax + t * dx - px;
  const cy = ay + t * dy - py;
  return cx * cx + cy * cy;
}

function upperBound(value: number, bounds: number[]): number {
  let i = 0;
  let j = bounds.length - 1;
  while (i < j) {
    const m = (i + j) >> 1;
    if (bounds[m]! > value) j = m;
    else i = m + 1;
  }
  return bounds[i]!;
}

/** A binary min-heap of (id, priority) on growable typed arrays, reused by every query of a thread. */
class MinHeap {
  private ids = new Int32Array(64);
  private priorities = new Float64Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  minPriority(): number {
    return this.priorities[0]!;
  }

  push(id: number, priority: number): void {
    if (this.size === this.ids.length) {
      const ids = new Int32Array(this.size * 2);
      ids.set(this.ids);
      this.ids = ids;
      const priorities = new Float64Array(this.size * 2);
      priorities.set(this.priorities);
      this.priorities = priorities;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.priorities[parent]! <= priority) break;
      this.ids[i] = this.ids[parent]!;
      this.priorities[i] = this.priorities[parent]!;
      i = parent;
    }
    this.ids[i] = id;
    this.priorities[i] = priority;
  }

  pop(): number {
    const top = this.ids[0]!;
    const lastId = this.ids[--this.size]!;
    const lastPriority = this.priorities[this.size]!;
    let i = 0;
    const half = this.size >> 1;
    while (i < half) {
      let child = 2 * i + 1;
      if (child + 1 < this.size && this.priorities[child + 1]! < this.priorities[child]!) child++;
      if (this.priorities[child]! >= lastPriority) break;
      this.ids[i] = this.ids[child]!;
      this.priorities[i] = this.priorities[child]!;
      i = child;
    }
    this.ids[i] = lastId;
    this.priorities[i] = lastPriority;
    return top;
  }
}

const scratchHeap = new MinHeap();
