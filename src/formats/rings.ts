/** Rings of lon/lat positions (GeoJSON's linear rings) and the two measures the contours need of them. */
export type Position = [number, number];
/** [lon, lat] positions, first = last */
export type Ring = Position[];
export type MultiPolygonCoords = Ring[][];

/** Signed area (shoelace), positive counter-clockwise. */
export function signedArea(ring: Ring): number {
  let s = 0;
  for (let k = 0; k + 1 < ring.length; k++) s += ring[k]![0] * ring[k + 1]![1] - ring[k + 1]![0] * ring[k]![1];
  return s / 2;
}

/** Even-odd rule: the point lies inside the ring. */
export function insideRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let k = 0, l = ring.length - 2; k < ring.length - 1; l = k++) {
    const [xk, yk] = ring[k]!;
    const [xl, yl] = ring[l]!;
    if (yk > y !== yl > y && x < ((xl - xk) * (y - yk)) / (yl - yk) + xk) inside = !inside;
  }
  return inside;
}
