/**
 * Binary searches over ascending data: the first position where a condition starts to hold.
 */

/** The first index in [lo, hi) where `holds` is true (false before it, true from it on), or hi. */
export function firstIndex(lo: number, hi: number, holds: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first index at or after `from` of the ascending `sorted` whose value is >= x (> x when `after`), or its length. */
export function lowerBound(sorted: Uint32Array | Int32Array | Float64Array, x: number, from = 0, after = false): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v < x || (after && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
