/**
 * One reducer of travel times to accessibility, for every request that measures it (one place,
 * every point of a set, the commands), in R5's order (`TravelTimeReducer`): the travel times of a
 * departure window's minutes are first reduced to percentiles (by the window engine), then each
 * percentile's travel times to the measures of each opportunity column, per cutoff with the decay
 * function (built once, here) and per N of the dual access.
 *
 * One null rule: a percentile whose travel times reach no point at all (an origin off the street
 * network, say) has no measure (NaN, answered null), so that a map tells "nothing here" from
 * "nothing within reach" (0); a dual access never reaching N opportunities is null too. Every other
 * value is rounded as `roundMeasure` says.
 */
import { cumulativeOpportunities, DualAccess, roundMeasure } from './accessibility.js';
import { decayFunction, type Decay, type DecaySettings } from './decay.js';

/** The measures of one opportunity column: per percentile, each cutoff's value then each N's duration. */
export interface MeasureLayout {
  percentiles: number;
  cutoffsSec: readonly number[];
  nearest: readonly number[];
}

/** How many numbers the reducer gives for one column. */
export const measureCount = (layout: MeasureLayout) => layout.percentiles * (layout.cutoffsSec.length + layout.nearest.length);

export class TravelTimeReducer {
  private readonly decay: Decay;
  private readonly dual = new DualAccess();
  /** the numbers of one column */
  readonly perColumn: number;

  constructor(
    readonly layout: MeasureLayout,
    decay: DecaySettings,
    private readonly maxDurationSec: number,
  ) {
    this.decay = decayFunction(decay);
    this.perColumn = measureCount(layout);
  }

  /**
   * One origin's measures for one opportunity column (`counts` at the points of its set), from its
   * travel times per percentile (`rows`), into `out` from `at` in MeasureLayout's order.
   */
  reduce(rows: readonly Int32Array[], counts: Float64Array, out: Float64Array, at: number): void {
    const { layout, decay, dual, maxDurationSec } = this;
    let k = at;
    for (let p = 0; p < layout.percentiles; p++) {
      const row = rows[p]!;
      const reached = reachesAny(row);
      for (const cutoff of layout.cutoffsSec) out[k++] = reached ? roundMeasure(cumulativeOpportunities(row, counts, cutoff, decay)) : NaN;
      for (const n of layout.nearest) out[k++] = reached ? (dual.nearest(row, counts, n, maxDurationSec) ?? NaN) : NaN;
    }
  }
}

function reachesAny(seconds: Int32Array): boolean {
  for (let k = 0; k < seconds.length; k++) if (seconds[k]! >= 0) return true;
  return false;
}
