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

/**
 * Squared distance from the segment (ax, ay)–(bx, by) to the box [minX, maxX] × [minY, maxY]: 0 when
 * they meet (the segment clipped to the box, Liang–Barsky), else the least of its ends' distances to
 * the box and the box corners' distances to it (two disjoint convex shapes are nearest at a vertex
 * of one of them).
 */
export function segmentBoxDistance2(ax: number, ay: number, bx: number, by: number, minX: number, minY: number, maxX: number, maxY: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  if (clip(-dx, ax - minX) && clip(dx, maxX - ax) && clip(-dy, ay - minY) && clip(dy, maxY - ay)) return 0;
  const toBox = (px: number, py: number) => {
    const ex = px < minX ? minX - px : px > maxX ? px - maxX : 0;
    const ey = py < minY ? minY - py : py > maxY ? py - maxY : 0;
    return ex * ex + ey * ey;
  };
  return Math.min(
    toBox(ax, ay),
    toBox(bx, by),
    pointSegmentDistance2(minX, minY, ax, ay, bx, by),
    pointSegmentDistance2(maxX, minY, ax, ay, bx, by),
    pointSegmentDistance2(minX, maxY, ax, ay, bx, by),
    pointSegmentDistance2(maxX, maxY, ax, ay, bx, by),
  );
}

/** The box of the points (xs[k], ys[k]), null when there are none. */
export function pointsBox(xs: ArrayLike<number>, ys: ArrayLike<number>): { minX: number; minY: number; maxX: number; maxY: number } | null {
  if (xs.length === 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k]!;
    const y = ys[k]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}
