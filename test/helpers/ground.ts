/** Places on the ground for tests that check the projection: independent of it, on the plane tangent at a point. */
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';

const RAD = Math.PI / 180;

/** The point `east` and `north` metres from (lon, lat) on the plane tangent there, [lon, lat]. */
export function offsetBy(lon: number, lat: number, east: number, north: number): [number, number] {
  return [lon + east / (METRES_PER_DEGREE * Math.cos(lat * RAD)), lat + north / METRES_PER_DEGREE];
}

/**
 * The nearest point to (lon, lat) of the segment between a and b ([lon, lat] each), on the plane
 * tangent at (lon, lat): its distance (metres), its fraction along the segment from a, and the
 * segment's length on that plane (metres).
 */
export function tangentNearest(lon: number, lat: number, a: readonly [number, number], b: readonly [number, number]): { offsetM: number; t: number; lengthM: number } {
  const k = METRES_PER_DEGREE * Math.cos(lat * RAD);
  const ax = (a[0] - lon) * k;
  const ay = (a[1] - lat) * METRES_PER_DEGREE;
  const dx = (b[0] - lon) * k - ax;
  const dy = (b[1] - lat) * METRES_PER_DEGREE - ay;
  const t = Math.min(1, Math.max(0, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
  return { offsetM: Math.hypot(ax + t * dx, ay + t * dy), t, lengthM: Math.hypot(dx, dy) };
}
