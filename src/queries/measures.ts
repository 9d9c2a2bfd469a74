/** An accessibility request's measures from its parameters: the decay, the cutoffs, how far the searches go. */
import { decayFunction, type DecayName, type DecaySettings } from '../analysis/decay.js';
import { DEFAULT_CUTOFF_SEC } from '../service/limits.js';
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
