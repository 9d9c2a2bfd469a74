/** Places on the ground for tests that check the projection: independent of it, on the plane tangent at a point. */
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';

const RAD = Math.PI / 180;

/** The point `east` and `north` metres from (lon, lat) on the plane tangent there, [lon, lat]. */
export function offsetBy(lon: number, lat: number, east: number, north: number): [number, number] {
  return [lon + east / (METRES_PER_DEGREE * Math.cos(lat * RAD)), lat + north / METRES_PER_DEGREE];
}
