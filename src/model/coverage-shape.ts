/**
 * The shape of a coverage: the convex hull of its stops, each widened by a margin (the hull of
 * eight points on a circle around each stop), served as WKT and used to find the coverage of a
 * `lon;lat` in URLs.
 */
import { degreesAround } from '../util/geodesy.js';

const MARGIN_M = 500;

export type Ring = [number, number][];

/** Hull (counter-clockwise, not closed) of the stops widened by the margin; empty without stops. */
export function coverageHull(lon: ArrayLike<number>, lat: ArrayLike<number>, marginM = MARGIN_M): Ring {
  const points: [number, number][] = [];
  for (let i = 0; i < lon.length; i++) {
    const { dLon, dLat } = degreesAround(lat[i]!, marginM);
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      points.push([lon[i]! + dLon * Math.cos(a), lat[i]! + dLat * Math.sin(a)]);
    }
  }
  return convexHull(points);
}

/** Andrew's monotone chain; counter-clockwise, without the closing point. */
export function convexHull(points: [number, number][]): Ring {
  if (points.length < 3) return points.slice();
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Ring = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Ring = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, q) <= 0) upper.pop();
    upper.push(q);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/** `MULTIPOLYGON(((x y, …, x y)))` with the first point repeated at the end; '' for no ring. */
export function ringToWkt(ring: Ring): string {
  if (ring.length < 3) return '';
  const pts = [...ring, ring[0]!].map(([x, y]) => `${round(x)} ${round(y)}`);
  return `MULTIPOLYGON(((${pts.join(', ')})))`;
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** Whether (lon, lat) is strictly inside the ring (a point on the boundary is outside). */
export function ringContains(ring: Ring, lon: number, lat: number): boolean {
  if (ring.length < 3) return false;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    // On an edge: outside.
    const cross = (xj - xi) * (lat - yi) - (yj - yi) * (lon - xi);
    if (cross === 0 && lon >= Math.min(xi, xj) && lon <= Math.max(xi, xj) && lat >= Math.min(yi, yj) && lat <= Math.max(yi, yj)) return false;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
