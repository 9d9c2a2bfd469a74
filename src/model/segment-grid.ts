/**
 * The spatial index of the street segments: a uniform grid of square buckets over the network, each
 * listing the segments whose bounding box meets it (compressed rows on shared memory).
 *
 * Nearest-segment queries search rings of buckets around the query point, outwards, and stop when
 * the next ring lies farther than the best segment found. A heat map asks this for up to a million
 * cells, most of them a few metres from a street, where the answer lies in the first ring or two: a
 * uniform grid answers those with a handful of array reads, where a tree walk would start at its
 * root every time.
 *
 *   bucket (i, j) covers x in [x0 + i·size, x0 + (i+1)·size), y likewise from y0; it is number
 *   i · rows + j, so that the buckets of one column follow each other and a run of them is one
 *   range of `segments`: start[b] .. start[b'+1).
 */
import { sharedArray } from './shared-arrays.js';

export interface SegmentGrid {
  x0: number;
  y0: number;
  sizeM: number;
  cols: number;
  rows: number;
  /** segments of buckets b .. b': segments[start[b] .. start[b' + 1]) */
  start: Int32Array;
  /**
   * (a segment's ends are read from the graph's geometry through `segmentPoint`: a copy of them per
   * entry made searches read memory in order, but cost 25 bytes per OSM node, a fifth of the street
   * side's memory, for searches made at load and once per request)
   */
  segments: Int32Array;
  /** each entry's street-access bits */
  access: Uint8Array;
}

/** What the grid needs of a street graph. */
export interface Segments {
  segmentCount: number;
  segmentPoint: Uint32Array;
  segmentEdge: Uint32Array;
  edgeAccess: Uint8Array;
  geomX: Float32Array;
  geomY: Float32Array;
}

/** Smallest bucket side: below it, rings multiply faster than the segments they skip. */
const MIN_SIZE_M = 50;

/** A grid with about one bucket per segment (never smaller than MIN_SIZE_M). */
export function buildSegmentGrid(g: Segments): SegmentGrid {
  const { segmentCount, segmentPoint, segmentEdge, edgeAccess, geomX, geomY } = g;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let s = 0; s < segmentCount; s++) {
    const p = segmentPoint[s]!;
    for (const q of [p, p + 1]) {
      minX = Math.min(minX, geomX[q]!);
      maxX = Math.max(maxX, geomX[q]!);
      minY = Math.min(minY, geomY[q]!);
      maxY = Math.max(maxY, geomY[q]!);
    }
  }
  if (segmentCount === 0) minX = minY = maxX = maxY = 0;
  const area = Math.max(1, (maxX - minX) * (maxY - minY));
  const sizeM = Math.max(MIN_SIZE_M, Math.sqrt(area / Math.max(1, segmentCount)));
  const cols = Math.floor((maxX - minX) / sizeM) + 1;
  const rows = Math.floor((maxY - minY) / sizeM) + 1;
  const grid: SegmentGrid = { x0: minX, y0: minY, sizeM, cols, rows, start: sharedArray(Int32Array, cols * rows + 1), segments: sharedArray(Int32Array, 0), access: sharedArray(Uint8Array, 0) };
  const start = grid.start;
  // two passes over the segments' boxes: count per bucket, then place (backwards, so that each
  // bucket lists its segments in increasing order)
  const place = (s: number, visit: (b: number) => void) => {
    const p = segmentPoint[s]!;
    const i0 = bucketOf(grid.x0, sizeM, cols, Math.min(geomX[p]!, geomX[p + 1]!));
    const i1 = bucketOf(grid.x0, sizeM, cols, Math.max(geomX[p]!, geomX[p + 1]!));
    const j0 = bucketOf(grid.y0, sizeM, rows, Math.min(geomY[p]!, geomY[p + 1]!));
    const j1 = bucketOf(grid.y0, sizeM, rows, Math.max(geomY[p]!, geomY[p + 1]!));
    for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) visit(i * rows + j);
  };
  const buckets = cols * rows;
  for (let s = 0; s < segmentCount; s++) place(s, (b) => start[b]!++);
  for (let b = 1; b < buckets; b++) start[b]! += start[b - 1]!;
  // start[b] is now the end of bucket b; placing decrements it down to the bucket's beginning
  start[buckets] = start[buckets - 1]!;
  const entries = start[buckets]!;
  const segments = sharedArray(Int32Array, entries);
  const access = sharedArray(Uint8Array, entries);
  for (let s = segmentCount - 1; s >= 0; s--) {
    const bits = edgeAccess[segmentEdge[s]!]!;
    place(s, (b) => {
      const n = --start[b]!;
      segments[n] = s;
      access[n] = bits;
    });
  }
  grid.segments = segments;
  grid.access = access;
  return grid;
}

/** The bucket column (or row) of coordinate v, clamped to the grid. */
export function bucketOf(origin: number, size: number, count: number, v: number): number {
  const k = Math.floor((v - origin) / size);
  return k < 0 ? 0 : k >= count ? count - 1 : k;
}

export function segmentGridBytes(grid: SegmentGrid): number {
  return grid.start.byteLength + grid.segments.byteLength + grid.access.byteLength;
}
