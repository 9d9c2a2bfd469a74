/**
 * Distances on the Earth, one sphere for all of Navette: metres per degree, the great-circle
 * distance, the straight distance between nearby points, and the degrees a distance spans (to widen
 * a box around a point). The degree is Navitia's (111,226.2991 m), so that heat-map grids and
 * projections match its own.
 */

/** Metres per degree of latitude (and of longitude at the equator). */
export const METRES_PER_DEGREE = 111226.2991;
/** The radius of that sphere, metres (≈ 6,372.8 km). */
export const EARTH_RADIUS_M = (METRES_PER_DEGREE * 180) / Math.PI;

const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function crowFlyMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Straight distance between two nearby points (metres), on the plane tangent at their middle latitude. */
export function planarMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const cos = Math.cos(((lat1 + lat2) / 2) * RAD);
  return Math.hypot((lon2 - lon1) * cos, lat2 - lat1) * METRES_PER_DEGREE;
}

/** The degrees of longitude and latitude that `metres` span around latitude `lat` (longitude widened by 1/cos, kept finite near the poles). */
export function degreesAround(lat: number, metres: number): { dLon: number; dLat: number } {
  return { dLon: metres / (METRES_PER_DEGREE * Math.max(0.01, Math.cos(lat * RAD))), dLat: metres / METRES_PER_DEGREE };
}
