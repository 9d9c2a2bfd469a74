/**
 * Travel times to a point set reduced to accessibility (docs/api.md, "Accessibility"):
 *
 * - cumulative opportunities: the opportunities of every point, each weighted by the decay
 *   function of its travel time and the cutoff (R5's measure; `step` counts the points reached
 *   under the cutoff), summed;
 * - dual access: the least travel time within which at least N opportunities are reached (R5's
 *   "dual accessibility"), null when the reached points hold fewer.
 *
 * Travel times are whole seconds, -1 for unreached (never counted).
 */
import type { Decay } from './decay.js';

/** The decayed sum of `opportunities` over the points reached in `seconds`. */
export function cumulativeOpportunities(seconds: Int32Array, opportunities: Float64Array, cutoffSec: number, decay: Decay): number {
  const zeroAt = decay.zeroAtSec(cutoffSec);
  let sum = 0;
  for (let p = 0; p < seconds.length; p++) {
    const t = seconds[p]!;
    const count = opportunities[p]!;
    if (t < 0 || t >= zeroAt || count === 0) continue;
    sum += count * decay.weight(t, cutoffSec);
  }
  return sum;
}

/**
 * Per-thread scratch for dual access: the opportunities reached at each whole second, so that the
 * least time reaching N is one pass over the points and one over the seconds (no sort).
 */
export class DualAccess {
  private bySecond = new Float64Array(0);

  /** The least whole second by which `opportunities` reached in `seconds` (under `maxSec`) add up to `n`; null if never. */
  nearest(seconds: Int32Array, opportunities: Float64Array, n: number, maxSec: number): number | null {
    if (this.bySecond.length < maxSec) this.bySecond = new Float64Array(maxSec);
    const bySecond = this.bySecond;
    bySecond.fill(0, 0, maxSec);
    let total = 0;
    for (let p = 0; p < seconds.length; p++) {
      const t = seconds[p]!;
      if (t < 0 || t >= maxSec) continue;
      bySecond[t] += opportunities[p]!;
      total += opportunities[p]!;
    }
    if (total < n) return null;
    let sum = 0;
    for (let t = 0; t < maxSec; t++) {
      sum += bySecond[t]!;
      if (sum >= n) return t;
    }
    return null;
  }
}

/** From here on a double is coarser than a millionth, and value × 10^6 would round whole units off: left as is. */
const ROUNDED_BELOW = 2 ** 53 / 1e6;

/** Sums of fractional weights, rounded to 6 decimals: the JSON shows what the decay makes, not float noise. */
export function roundMeasure(value: number): number {
  return Math.abs(value) < ROUNDED_BELOW ? Math.round(value * 1e6) / 1e6 : value;
}

/** A measure against the same on another timetable (a comparison): their difference, NaN (null) when either is. */
export function measureDifference(own: number, other: number): number {
  return Number.isNaN(own) || Number.isNaN(other) ? NaN : roundMeasure(own - other);
}
