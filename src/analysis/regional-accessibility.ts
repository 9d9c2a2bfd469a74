/**
 * Regional accessibility: the measures of many origins at once, gathered row by row as each
 * origin's travel times arrive (one row per origin, per percentile the whole seconds to every point
 * of an opportunities' set, -1 unreached), into one array of values per measure. Each value is the
 * one a single origin's answer gives (`cumulativeOpportunities`, `DualAccess`, the same rounding);
 * an origin that reaches no point at all (off the street network) has null instead of 0, so that a
 * map tells "nothing here" from "nothing within reach".
 */
import { cumulativeOpportunities, DualAccess, roundMeasure } from './accessibility.js';
import type { Decay } from './decay.js';

/** One opportunity column, its counts at the points of its set. */
export interface RegionalOpportunities {
  label: string;
  counts: Float64Array;
}

export interface RegionalMeasures {
  /** per opportunity column, percentile and cutoff (in that order): a value per origin */
  cumulative: { opportunities: string; percentile: number; cutoff: number; values: (number | null)[] }[];
  /** per opportunity column, percentile and N: the least whole seconds reaching N, per origin */
  nearest: { opportunities: string; percentile: number; n: number; durations: (number | null)[] }[];
}

export class RegionalAccumulator {
  private readonly dual = new DualAccess();
  readonly measures: RegionalMeasures = { cumulative: [], nearest: [] };

  constructor(
    private readonly opportunities: readonly RegionalOpportunities[],
    private readonly percentiles: readonly number[],
    private readonly cutoffsSec: readonly number[],
    private readonly nearestN: readonly number[],
    private readonly decay: Decay,
    private readonly maxDurationSec: number,
    originCount: number,
  ) {
    for (const { label } of opportunities) {
      for (const percentile of percentiles) {
        for (const cutoff of cutoffsSec) this.measures.cumulative.push({ opportunities: label, percentile, cutoff, values: new Array<number | null>(originCount).fill(null) });
        for (const n of nearestN) this.measures.nearest.push({ opportunities: label, percentile, n, durations: new Array<number | null>(originCount).fill(null) });
      }
    }
  }

  /** The row of `origin` (per percentile, its seconds to the points of opportunity column `column`'s set). */
  add(column: number, origin: number, seconds: readonly Int32Array[]): void {
    const { counts } = this.opportunities[column]!;
    const perColumn = this.percentiles.length;
    this.percentiles.forEach((_, p) => {
      const row = seconds[p]!;
      if (!reachesAny(row)) return;
      const at = column * perColumn + p;
      this.cutoffsSec.forEach((cutoff, c) => {
        this.measures.cumulative[at * this.cutoffsSec.length + c]!.values[origin] = roundMeasure(cumulativeOpportunities(row, counts, cutoff, this.decay));
      });
      this.nearestN.forEach((n, k) => {
        this.measures.nearest[at * this.nearestN.length + k]!.durations[origin] = this.dual.nearest(row, counts, n, this.maxDurationSec);
      });
    });
  }
}

function reachesAny(seconds: Int32Array): boolean {
  for (let k = 0; k < seconds.length; k++) if (seconds[k]! >= 0) return true;
  return false;
}
