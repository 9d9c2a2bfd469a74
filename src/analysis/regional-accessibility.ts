/**
 * Regional accessibility: the measures of many origins at once. Each origin's row (per percentile,
 * the whole seconds to every point of an opportunities' set, -1 unreached) is reduced to its
 * measures where it is computed (`originMeasures`, in a worker thread: a row holds a value per point
 * of the set, the measures a few numbers), and the measures are gathered per origin into one array of
 * values per measure (`RegionalAccumulator`). Each value is the one a single origin's answer gives
 * (`cumulativeOpportunities`, `DualAccess`, the same rounding); an origin that reaches no point at
 * all (off the street network) has null instead of 0, so that a map tells "nothing here" from
 * "nothing within reach".
 */
import { cumulativeOpportunities, DualAccess, roundMeasure } from './accessibility.js';
import type { Decay } from './decay.js';

/** The measures of one opportunity column: per percentile, each cutoff's value then each N's duration. */
export interface MeasureLayout {
  percentiles: number;
  cutoffsSec: readonly number[];
  nearest: readonly number[];
}

/** How many numbers `originMeasures` gives for one column. */
export const measureCount = (layout: MeasureLayout) => layout.percentiles * (layout.cutoffsSec.length + layout.nearest.length);

const dual = new DualAccess();

/**
 * One origin's measures for one opportunity column (`counts` at the points of its set), from its row
 * `seconds` (per percentile), into `out` from `at` in MeasureLayout's order; NaN for null (a
 * percentile reaching no point, a count never reached).
 */
export function originMeasures(seconds: readonly Int32Array[], counts: Float64Array, layout: MeasureLayout, decay: Decay, maxDurationSec: number, out: Float64Array, at: number): void {
  let k = at;
  for (let p = 0; p < layout.percentiles; p++) {
    const row = seconds[p]!;
    const reached = reachesAny(row);
    for (const cutoff of layout.cutoffsSec) out[k++] = reached ? roundMeasure(cumulativeOpportunities(row, counts, cutoff, decay)) : NaN;
    for (const n of layout.nearest) out[k++] = reached ? (dual.nearest(row, counts, n, maxDurationSec) ?? NaN) : NaN;
  }
}

export interface RegionalMeasures {
  /** per opportunity column, percentile and cutoff (in that order): a value per origin */
  cumulative: { opportunities: string; percentile: number; cutoff: number; values: (number | null)[] }[];
  /** per opportunity column, percentile and N: the least whole seconds reaching N, per origin */
  nearest: { opportunities: string; percentile: number; n: number; durations: (number | null)[] }[];
}

export class RegionalAccumulator {
  readonly measures: RegionalMeasures = { cumulative: [], nearest: [] };

  constructor(
    labels: readonly string[],
    private readonly percentiles: readonly number[],
    private readonly layout: MeasureLayout,
    originCount: number,
  ) {
    for (const label of labels) {
      for (const percentile of percentiles) {
        for (const cutoff of layout.cutoffsSec) this.measures.cumulative.push({ opportunities: label, percentile, cutoff, values: new Array<number | null>(originCount).fill(null) });
        for (const n of layout.nearest) this.measures.nearest.push({ opportunities: label, percentile, n, durations: new Array<number | null>(originCount).fill(null) });
      }
    }
  }

  /** The measures of `origin` for opportunity column `column` (`originMeasures`' numbers from `at`). */
  add(column: number, origin: number, values: Float64Array, at: number): void {
    const { cutoffsSec, nearest } = this.layout;
    let k = at;
    for (let p = 0; p < this.percentiles.length; p++) {
      const measure = column * this.percentiles.length + p;
      for (let c = 0; c < cutoffsSec.length; c++, k++) this.measures.cumulative[measure * cutoffsSec.length + c]!.values[origin] = Number.isNaN(values[k]!) ? null : values[k]!;
      for (let n = 0; n < nearest.length; n++, k++) this.measures.nearest[measure * nearest.length + n]!.durations[origin] = Number.isNaN(values[k]!) ? null : values[k]!;
    }
  }
}

function reachesAny(seconds: Int32Array): boolean {
  for (let k = 0; k < seconds.length; k++) if (seconds[k]! >= 0) return true;
  return false;
}
