/**
 * Regional accessibility: the measures of many origins gathered into one array of values per
 * measure. Each origin's row (per percentile, the whole seconds to every point of an opportunities'
 * set) is reduced to its measures where it is computed (travel-time-reducer.ts, in a worker thread: a
 * row holds a value per point of the set, the measures a few numbers); NaN, the reducer's null,
 * becomes null here.
 */
import type { MeasureLayout } from './travel-time-reducer.js';

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
