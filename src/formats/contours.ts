/**
 * Isochrone bands from a travel-time grid: the area reachable in [lo, hi) seconds (reachable before
 * `hi` and not before `lo`) as GeoJSON MultiPolygon coordinates (RFC 7946: closed rings, exteriors
 * counter-clockwise, holes clockwise).
 *
 * Marching squares on the cell centres, one band at a time on the binary field "in the band":
 * - The grid is padded with a ring of unreachable points, so every ring closes; between a reached
 *   centre and an unreachable one (or the padding) the outline passes half-way, which puts the
 *   border of the box exactly on the box edge.
 * - Between a centre in the band and one reached earlier or later, the outline passes where the
 *   linear interpolation of the two values meets the bound, kept off the centres themselves (between
 *   10 % and 90 % of the way) so that no two outline points of a band coincide, even after rounding.
 *   Neighbouring bands interpolate the same bound on the same edge: they share their outline.
 * - A saddle (two opposite corners in the band) is settled by the mean of the four corners: in the
 *   band, the two corners join; otherwise they stay apart. Each edge of the lattice carries at most
 *   one outline point, so rings never cross or touch.
 * - The outline is walked with the band on its left, which makes exteriors counter-clockwise and
 *   holes clockwise as they come; each hole goes to the smallest exterior around it.
 * - Douglas–Peucker simplification (tolerance in metres), then coordinates rounded to 6 decimals.
 *   A ring that a simplification would make cross itself or another ring keeps its exact outline.
 */
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import type { Grid } from '../routing/grid.js';
import { insideRing, signedArea, type MultiPolygonCoords, type Position, type Ring } from './rings.js';
import { anyCrossing } from './segment-crossings.js';

export type { MultiPolygonCoords, Ring };

export interface BandOptions {
  /** Douglas–Peucker tolerance in metres (0: every vertex kept) */
  simplifyM: number;
}

/** Where an outline crosses a lattice edge, as a share of the edge: kept off both ends. */
const MIN_T = 0.1;
const MAX_T = 0.9;

/** Scratch of the last lattice size, reused from band to band and map to map. */
let scratchNext = new Int32Array(0);

/** The area reachable in [lo, hi) seconds of `seconds` (i * R + j, -1 unreachable) on `grid`. */
export function isoband(grid: Grid, seconds: Int32Array, lo: number, hi: number, options: BandOptions): MultiPolygonCoords {
  const next = linkOutlineEdges(grid.resolution, seconds, lo, hi);
  const exact = walkRings(next, bandField(grid, seconds, lo, hi));
  const midLat = (grid.minLat + grid.maxLat) / 2;
  const rings = simplifyRings(exact, options.simplifyM, Math.cos((midLat * Math.PI) / 180));
  return assemble(rings);
}

// The lattice: the cell centres of an R × R grid padded with a ring of unreachable points, N = R + 2
// points a side. Its edges are numbered horizontal ones first: (p, q)–(p + 1, q) is q * (N − 1) + p,
// then (p, q)–(p, q + 1) is (N − 1) * N + q * N + p.

/** Number of horizontal lattice edges, the number of the first vertical one. */
function horizontalEdgeCount(N: number): number {
  return (N - 1) * N;
}

function latticeEdgeCount(N: number): number {
  return horizontalEdgeCount(N) + N * (N - 1);
}

/** edge (p, q)–(p + 1, q) */
function horizontalEdge(N: number, p: number, q: number): number {
  return q * (N - 1) + p;
}

/** edge (p, q)–(p, q + 1) */
function verticalEdge(N: number, p: number, q: number): number {
  return horizontalEdgeCount(N) + q * N + p;
}

/** Value of lattice point (p, q): the cell (p − 1, q − 1), -1 outside the grid. */
function latticeValue(seconds: Int32Array, R: number, p: number, q: number): number {
  return p < 1 || q < 1 || p > R || q > R ? -1 : seconds[(p - 1) * R + (q - 1)]!;
}

/** lo ≥ 0: unreachable (-1) is never in */
function inBand(v: number, lo: number, hi: number): boolean {
  return v >= lo && v < hi;
}

/**
 * Marching squares: for each lattice edge that the outline crosses, the next such edge along the
 * outline (the band on its left); -1 elsewhere. The answer is the module's scratch, valid until the
 * next call.
 */
function linkOutlineEdges(R: number, seconds: Int32Array, lo: number, hi: number): Int32Array {
  const N = R + 2;
  const edgeCount = latticeEdgeCount(N);
  if (scratchNext.length < edgeCount) scratchNext = new Int32Array(edgeCount);
  const next = scratchNext;
  next.fill(-1, 0, edgeCount);
  for (let q = 0; q < N - 1; q++) {
    for (let p = 0; p < N - 1; p++) {
      const va = latticeValue(seconds, R, p, q);
      const vb = latticeValue(seconds, R, p + 1, q);
      const vc = latticeValue(seconds, R, p + 1, q + 1);
      const vd = latticeValue(seconds, R, p, q + 1);
      const corners = (inBand(va, lo, hi) ? 1 : 0) | (inBand(vb, lo, hi) ? 2 : 0) | (inBand(vc, lo, hi) ? 4 : 0) | (inBand(vd, lo, hi) ? 8 : 0);
      if (corners === 0 || corners === 15) continue;
      const joined = (corners === 5 || corners === 10) && saddleJoined(va, vb, vc, vd, lo, hi);
      linkCell(next, corners, joined, horizontalEdge(N, p, q), verticalEdge(N, p + 1, q), horizontalEdge(N, p, q + 1), verticalEdge(N, p, q));
    }
  }
  return next;
}

/** Whether the two corners in the band of a saddle cell join: all four reached, and their mean in the band. */
function saddleJoined(va: number, vb: number, vc: number, vd: number, lo: number, hi: number): boolean {
  return va >= 0 && vb >= 0 && vc >= 0 && vd >= 0 && inBand((va + vb + vc + vd) / 4, lo, hi);
}

/**
 * The outline's segments in the cell whose corners in the band are the bits of `corners` (1 a = (p, q),
 * 2 b = (p + 1, q), 4 c = (p + 1, q + 1), 8 d = (p, q + 1)), each running with the band on its left.
 */
function linkCell(next: Int32Array, corners: number, joined: boolean, bottom: number, right: number, top: number, left: number): void {
  switch (corners) {
    case 1: next[bottom] = left; break;
    case 2: next[right] = bottom; break;
    case 4: next[top] = right; break;
    case 8: next[left] = top; break;
    case 14: next[left] = bottom; break;
    case 13: next[bottom] = right; break;
    case 11: next[right] = top; break;
    case 7: next[top] = left; break;
    case 3: next[right] = left; break;
    case 6: next[top] = bottom; break;
    case 12: next[left] = right; break;
    case 9: next[bottom] = top; break;
    case 5:
      if (joined) {
        next[bottom] = right; // b and d cut off
        next[top] = left;
      } else {
        next[bottom] = left; // a and c apart
        next[top] = right;
      }
      break;
    case 10:
      if (joined) {
        next[left] = bottom; // a and c cut off
        next[right] = top;
      } else {
        next[right] = bottom; // b and d apart
        next[left] = top;
      }
      break;
  }
}

/** One band on one grid, with what places the outline points (computed once a band). */
interface BandField {
  seconds: Int32Array;
  lo: number;
  hi: number;
  /** grid resolution, lattice points a side, horizontal lattice edges */
  R: number;
  N: number;
  hCount: number;
  minLon: number;
  minLat: number;
  /** size of a grid cell in degrees */
  dLon: number;
  dLat: number;
}

function bandField(grid: Grid, seconds: Int32Array, lo: number, hi: number): BandField {
  const R = grid.resolution;
  const N = R + 2;
  const dLon = (grid.maxLon - grid.minLon) / R;
  const dLat = (grid.maxLat - grid.minLat) / R;
  return { seconds, lo, hi, R, N, hCount: horizontalEdgeCount(N), minLon: grid.minLon, minLat: grid.minLat, dLon, dLat };
}

/** The closed rings of the outline, each followed from its first edge along `next` (emptied on the way). */
function walkRings(next: Int32Array, band: BandField): Ring[] {
  const edgeCount = latticeEdgeCount(band.N);
  const exact: Ring[] = [];
  for (let e = 0; e < edgeCount; e++) {
    if (next[e]! < 0) continue;
    const ring: Ring = [];
    for (let at = e; next[at]! >= 0; ) {
      ring.push(outlinePoint(band, at));
      const to = next[at]!;
      next[at] = -1;
      at = to;
    }
    ring.push(ring[0]!);
    exact.push(ring);
  }
  return exact;
}

/** Where the outline crosses lattice edge `e`, in degrees. */
function outlinePoint(band: BandField, e: number): Position {
  const { seconds, lo, hi, R, N, hCount } = band;
  let p0: number, q0: number, p1: number, q1: number;
  if (e < hCount) {
    q0 = Math.floor(e / (N - 1));
    p0 = e - q0 * (N - 1);
    p1 = p0 + 1;
    q1 = q0;
  } else {
    const k = e - hCount;
    q0 = Math.floor(k / N);
    p0 = k - q0 * N;
    p1 = p0;
    q1 = q0 + 1;
  }
  const v0 = latticeValue(seconds, R, p0, q0);
  const v1 = latticeValue(seconds, R, p1, q1);
  const t = inBand(v0, lo, hi) ? share(v0, v1, lo, hi) : 1 - share(v1, v0, lo, hi);
  // lattice point p is the centre of grid column p − 1
  return [band.minLon + (p0 + (p1 - p0) * t - 0.5) * band.dLon, band.minLat + (q0 + (q1 - q0) * t - 0.5) * band.dLat];
}

/** Share of the way from the point in the band (value u) to the other (value w) where the outline passes. */
function share(u: number, w: number, lo: number, hi: number): number {
  if (w < 0) return 0.5;
  const bound = w >= hi ? hi : lo;
  return Math.min(MAX_T, Math.max(MIN_T, (bound - u) / (w - u)));
}

/** Douglas–Peucker on each ring, rounding to 6 decimals; exact outlines where simplified ones would cross. */
function simplifyRings(exact: Ring[], toleranceM: number, cosLat: number): Ring[] {
  const round = (ring: Ring) => dedupe(ring.map(([x, y]) => [Math.round(x * 1e6) / 1e6, Math.round(y * 1e6) / 1e6] as Position));
  const exactRounded = exact.map(round);
  if (toleranceM <= 0) return exactRounded.filter((r) => r.length >= 4);
  const tolerance = toleranceM / METRES_PER_DEGREE;
  const rings = exact.map((ring, k) => {
    const simplified = round(douglasPeucker(ring, tolerance, cosLat));
    return simplified.length >= 4 ? simplified : exactRounded[k]!;
  });
  // revert the rings that take part in a crossing until none is left (the exact outlines never cross)
  for (let attempt = 0; attempt < 4; attempt++) {
    const crossing = anyCrossing(rings);
    if (crossing.size === 0) break;
    for (const k of crossing) rings[k] = exactRounded[k]!;
    if (attempt === 3) return exactRounded.filter((r) => r.length >= 4);
  }
  return rings.filter((r) => r.length >= 4);
}

/** consecutive duplicates removed, still closed */
function dedupe(ring: Ring): Ring {
  const out: Ring = [];
  for (const pt of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== pt[0] || last[1] !== pt[1]) out.push(pt);
  }
  return out;
}

/** Douglas–Peucker on a closed ring (its first point kept), distances in degrees of latitude. */
function douglasPeucker(ring: Ring, tolerance: number, cosLat: number): Ring {
  const n = ring.length - 1; // distinct points
  if (n < 4) return ring;
  // split the closed ring at its first point and the point farthest from it
  let far = 0;
  let farD = -1;
  for (let k = 1; k < n; k++) {
    const d = ((ring[k]![0] - ring[0]![0]) * cosLat) ** 2 + (ring[k]![1] - ring[0]![1]) ** 2;
    if (d > farD) [far, farD] = [k, d];
  }
  const keep = new Uint8Array(n + 1);
  keep[0] = keep[far] = keep[n] = 1;
  const stack = [0, far, far, n];
  const tol2 = tolerance * tolerance;
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const ax = ring[a]![0] * cosLat;
    const ay = ring[a]![1];
    const dx = ring[b]![0] * cosLat - ax;
    const dy = ring[b]![1] - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = tol2;
    for (let k = a + 1; k < b; k++) {
      const px = ring[k]![0] * cosLat - ax;
      const py = ring[k]![1] - ay;
      const t = len2 > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const d = (px - t * dx) ** 2 + (py - t * dy) ** 2;
      if (d > worstD) [worst, worstD] = [k, d];
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
  const out: Ring = [];
  for (let k = 0; k <= n; k++) if (keep[k]) out.push(ring[k]!);
  return out;
}

/** Exteriors (counter-clockwise) with the holes (clockwise) that the smallest of them surrounds. */
function assemble(rings: Ring[]): MultiPolygonCoords {
  const exteriors: { ring: Ring; area: number; box: [number, number, number, number]; holes: Ring[] }[] = [];
  const holes: Ring[] = [];
  for (const ring of rings) {
    const area = signedArea(ring);
    if (area > 0) exteriors.push({ ring, area, box: boxOf(ring), holes: [] });
    else if (area < 0) holes.push(ring);
  }
  for (const hole of holes) {
    const [x, y] = hole[0]!;
    let best: (typeof exteriors)[number] | undefined;
    for (const e of exteriors) {
      if (x < e.box[0] || x > e.box[2] || y < e.box[1] || y > e.box[3]) continue;
      if ((!best || e.area < best.area) && insideRing(x, y, e.ring)) best = e;
    }
    best?.holes.push(hole);
  }
  return exteriors.map((e) => [e.ring, ...e.holes]);
}

function boxOf(ring: Ring): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring) {
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (x > box[2]) box[2] = x;
    if (y > box[3]) box[3] = y;
  }
  return box;
}
