/** An accessibility request's measures from its parameters: the decay, the cutoffs, how far the searches go. */
import { decayFunction, type DecayName, type DecaySettings } from '../analysis/decay.js';
import { DEFAULT_CUTOFF_SEC } from '../service/limits.js';
import type { MeasureLayout } from '../analysis/travel-time-reducer.js';
import type { OpportunityColumn } from '../maps/points.js';
import { refuse } from './query-errors.js';

export interface Measures {
  decay: DecaySettings;
  cutoffsSec: number[];
  nearest: number[];
  /** the searches' limit: `max_duration`, else as far as the largest cutoff counts, within `limitSec` */
  maxDurationSec: number;
}

interface MeasureParams {
  decay_function: DecayName;
  decay_width?: number | undefined;
  decay_standard_deviation?: number | undefined;
  decay_constant?: number | undefined;
  cutoffs: number[];
  nearest: number[];
  max_duration?: number | undefined;
}

export function measuresOf(params: MeasureParams, limitSec: number): Measures {
  const decay: DecaySettings = {
    name: params.decay_function,
    widthSec: params.decay_width,
    standardDeviationSec: params.decay_standard_deviation,
    constantPerSec: params.decay_constant,
  };
  let f;
  try {
    f = decayFunction(decay);
  } catch (e) {
    if (e instanceof RangeError) throw refuse('badDecay', { why: e.message });
    throw e;
  }
  const cutoffsSec = params.cutoffs.length > 0 ? [...params.cutoffs] : [DEFAULT_CUTOFF_SEC];
  const needed = Math.max(...cutoffsSec.map((c) => Math.ceil(f.zeroAtSec(c))));
  return { decay, cutoffsSec, nearest: [...params.nearest], maxDurationSec: params.max_duration ?? Math.min(limitSec, needed) };
}

/** What the workers reduce each origin's travel times to: the opportunity columns, the measures' layout, the decay, the searches' limit. */
export interface MeasuresRequest {
  columns: OpportunityColumn[];
  layout: MeasureLayout;
  decay: DecaySettings;
  maxDurationSec: number;
}

/** The reduction of `measures` over the opportunity columns `refs`, for travel times labelled with `percentiles` of them. */
export function measuresRequest(measures: Measures, refs: readonly OpportunityColumn[], percentiles: number): MeasuresRequest {
  const layout = { percentiles, cutoffsSec: measures.cutoffsSec, nearest: measures.nearest };
  return { columns: refs.map(({ set, column }) => ({ set, column })), layout, decay: measures.decay, maxDurationSec: measures.maxDurationSec };
}
