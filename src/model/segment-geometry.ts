/** Plane geometry of a point and a segment, in projected metres. */

/** Position (0 to 1) along the segment from (ax, ay) to (bx, by) of its point closest to (px, py). */
export function closestOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  return len2 > 0 ? Math.min(Math.max(((px - ax) * dx + (py - ay) * dy) / len2, 0), 1) : 0;
}

/** Squared distance from (px, py) to the segment from (ax, ay) to (bx, by). */
export function pointSegmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const t = closestOnSegment(px, py, ax, ay, bx, by);
  const cx = ax + t * (bx - ax) - px;
  const cy = ay + t * (by - ay) - py;
  return cx * cx + cy * cy;
}
