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
  const R = grid.resolution;
  const N = R + 2; // lattice points per side, padding included
  const hCount = (N - 1) * N;
  const edgeCount = hCount + N * (N - 1);
  if (scratchNext.length < edgeCount) scratchNext = new Int32Array(edgeCount);
  const next = scratchNext;
  next.fill(-1, 0, edgeCount);

  /** value of lattice point (p, q): the cell (p − 1, q − 1), -1 outside the grid */
  const value = (p: number, q: number) => (p < 1 || q < 1 || p > R || q > R ? -1 : seconds[(p - 1) * R + (q - 1)]!);
  const inBand = (v: number) => v >= lo && v < hi; // lo ≥ 0: unreachable (-1) is never in
  const H = (p: number, q: number) => q * (N - 1) + p; // edge (p, q)–(p + 1, q)
  const V = (p: number, q: number) => hCount + q * N + p; // edge (p, q)–(p, q + 1)

  for (let q = 0; q < N - 1; q++) {
    for (let p = 0; p < N - 1; p++) {
      const va = value(p, q);
      const vb = value(p + 1, q);
      const vc = value(p + 1, q + 1);
      const vd = value(p, q + 1);
      const c = (inBand(va) ? 1 : 0) | (inBand(vb) ? 2 : 0) | (inBand(vc) ? 4 : 0) | (inBand(vd) ? 8 : 0);
      if (c === 0 || c === 15) continue;
      const bottom = H(p, q);
      const right = V(p + 1, q);
      const top = H(p, q + 1);
      const left = V(p, q);
      // each segment runs with the band on its left
      switch (c) {
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
        case 10: {
          const joined = va >= 0 && vb >= 0 && vc >= 0 && vd >= 0 && inBand((va + vb + vc + vd) / 4);
          if (c === 5 && joined) {
            next[bottom] = right; // b and d cut off
            next[top] = left;
          } else if (c === 5) {
            next[bottom] = left; // a and c apart
            next[top] = right;
          } else if (joined) {
            next[left] = bottom; // a and c cut off
            next[right] = top;
          } else {
            next[right] = bottom; // b and d apart
            next[left] = top;
          }
          break;
        }
      }
    }
  }

  const dLon = (grid.maxLon - grid.minLon) / R;
  const dLat = (grid.maxLat - grid.minLat) / R;
  const lonOf = (p: number) => grid.minLon + (p - 0.5) * dLon;
  const latOf = (q: number) => grid.minLat + (q - 0.5) * dLat;
  /** share of the way from the point in the band (value u) to the other (value w) where the outline passes */
  const share = (u: number, w: number) => {
    if (w < 0) return 0.5;
    const bound = w >= hi ? hi : lo;
    return Math.min(MAX_T, Math.max(MIN_T, (bound - u) / (w - u)));
  };
  const pointOf = (e: number): Position => {
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
    const v0 = value(p0, q0);
    const v1 = value(p1, q1);
    const t = inBand(v0) ? share(v0, v1) : 1 - share(v1, v0);
    return [lonOf(p0 + (p1 - p0) * t), latOf(q0 + (q1 - q0) * t)];
  };

  const exact: Ring[] = [];
  for (let e = 0; e < edgeCount; e++) {
    if (next[e]! < 0) continue;
    const ring: Ring = [];
    for (let at = e; next[at]! >= 0; ) {
      ring.push(pointOf(at));
      const to = next[at]!;
      next[at] = -1;
      at = to;
    }
    ring.push(ring[0]!);
    exact.push(ring);
  }

  const midLat = (grid.minLat + grid.maxLat) / 2;
  const rings = simplifyRings(exact, options.simplifyM, Math.cos((midLat * Math.PI) / 180));
  return assemble(rings);
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
