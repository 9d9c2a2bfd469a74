/** What drawing a line needs: Douglas–Peucker simplification, and coordinates written to 5 decimals (about a metre). */

/**
 * Douglas–Peucker between points `first` and `last` (both kept by the caller) of the line whose point
 * i is (x[base + i], y[base + i]): sets keep[i] for every point in between that stays, farther than
 * √tolerance2 from the chord of its part. `stack` is scratch.
 */
export function markKept(x: ArrayLike<number>, y: ArrayLike<number>, base: number, first: number, last: number, tolerance2: number, keep: Uint8Array, stack: number[]): void {
  stack.length = 0;
  stack.push(first, last);
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const ax = x[base + a]!;
    const ay = y[base + a]!;
    const dx = x[base + b]! - ax;
    const dy = y[base + b]! - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD2 = tolerance2;
    for (let i = a + 1; i < b; i++) {
      const px = x[base + i]! - ax;
      const py = y[base + i]! - ay;
      // squared distance from the point to the segment a–b
      const t = len2 > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 > worstD2) {
        worstD2 = d2;
        worst = i;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push(a, worst, worst, b);
  }
}

/** A coordinate to 5 decimals. */
export function round5(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}
