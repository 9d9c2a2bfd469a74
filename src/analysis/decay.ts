/**
 * Decay functions of accessibility: how much an opportunity reached in a given travel time counts,
 * from 1 (fully) down to 0 (not at all), for a travel-time cutoff. They are Conveyal R5's five
 * (`com.conveyal.r5.analyst.decay`), rewritten from their definitions so that an accessibility
 * figure computed here means what it means in R5:
 *
 *   step               1 before the cutoff, 0 from it on
 *   linear             1, then a straight ramp `widthSec` wide centred on the cutoff, then 0
 *   logistic           an S-curve around the cutoff, as wide as `standardDeviationSec` says
 *   exponential        halves every `cutoff` seconds (the cutoff is the half-life)
 *   fixed_exponential  e^(−constantPerSec × t), whatever the cutoff
 *
 * Units. R5 holds travel times as whole seconds (ints) and cutoffs as whole minutes (turned into
 * seconds before the functions see them). Here both arrive in seconds and are taken as R5 takes them:
 * a travel time is truncated to whole seconds, a cutoff to whole seconds; the step function alone
 * works on whole minutes, both truncated — an opportunity counts when its travel time's whole minutes
 * are strictly under the cutoff's whole minutes (29 min 59 s counts for a 30-minute cutoff, 30 min 0 s
 * does not). For a cutoff of whole minutes, which is all R5 allows, that is exactly R5's test on
 * whole seconds, `travel < cutoff`; a cutoff with spare seconds counts as its whole minutes.
 *
 * Each function also says where it reaches zero (`zeroAtSec`): the travel time from which every
 * weight is 0, so a search for a cutoff may stop there. Step and linear know it; the others find it
 * as R5 does, by bisection over whole seconds for the first weight under 0.001, searched up to four
 * hours. The exponential functions give 0 from two hours on, as R5's do.
 *
 * `weight` is called per destination per origin: it allocates nothing, and the linear ramp is read
 * from a table of its weights by second, made once, as R5 does.
 */

export type DecayName = 'step' | 'linear' | 'logistic' | 'exponential' | 'fixed_exponential';

export const DECAY_NAMES: readonly DecayName[] = ['step', 'linear', 'logistic', 'exponential', 'fixed_exponential'];

export interface DecaySettings {
  name: DecayName;
  /** linear: the width of the ramp, whole seconds in [0, 3600); half of it lies before the cutoff. */
  widthSec?: number;
  /** logistic: the standard deviation of the travel times it models, seconds in (0, 7200). */
  standardDeviationSec?: number;
  /** fixed_exponential: the decay constant per second of travel, in (0, 1). */
  constantPerSec?: number;
}

export interface Decay {
  readonly name: DecayName;
  /** The weight in [0, 1] of an opportunity `travelSec` away, for the cutoff `cutoffSec`. */
  weight(travelSec: number, cutoffSec: number): number;
  /** The travel time (whole seconds) at and past which `weight` is 0 for the cutoff `cutoffSec`. */
  zeroAtSec(cutoffSec: number): number;
}

/** The parameter each function takes (none for step and exponential). */
const PARAMETER_OF: Record<DecayName, 'widthSec' | 'standardDeviationSec' | 'constantPerSec' | null> = {
  step: null,
  linear: 'widthSec',
  logistic: 'standardDeviationSec',
  exponential: null,
  fixed_exponential: 'constantPerSec',
};
const PARAMETERS = ['widthSec', 'standardDeviationSec', 'constantPerSec'] as const;

/** The exponential functions give 0 from this travel time on (R5's two hours). */
const EXPONENTIAL_END_SEC = 2 * 3600;
/** A weight under this is taken as zero when finding where a curve reaches zero (R5's epsilon). */
const NEGLIGIBLE_WEIGHT = 0.001;
/** How far the search for the zero point looks (R5's four hours). */
const ZERO_SEARCH_END_SEC = 4 * 3600;
/** Linear widths are under one hour; logistic standard deviations under two hours (R5's ranges). */
const LINEAR_WIDTH_LIMIT_SEC = 3600;
const STANDARD_DEVIATION_LIMIT_SEC = 2 * 3600;

const LN_HALF = Math.log(0.5);
const SQRT_3 = Math.sqrt(3);

/** The decay function the settings describe; a RangeError says which setting is wrong. */
export function decayFunction(s: DecaySettings): Decay {
  const name = s?.name;
  if (!Object.hasOwn(PARAMETER_OF, name)) {
    throw new RangeError(`unknown decay function ${JSON.stringify(name)}: it is one of ${DECAY_NAMES.join(', ')}`);
  }
  const own = PARAMETER_OF[name];
  for (const p of PARAMETERS) {
    if (p !== own && s[p] !== undefined) {
      throw new RangeError(`${name} decay takes ${own === null ? 'no parameter' : `only ${own}`}, not ${p}`);
    }
  }
  if (own !== null && s[own] === undefined) throw new RangeError(`${name} decay needs ${own}`);
  switch (name) {
    case 'step':
      return new StepDecay();
    case 'linear': {
      const width = s.widthSec!;
      if (!(Number.isInteger(width) && width >= 0 && width < LINEAR_WIDTH_LIMIT_SEC)) {
        throw new RangeError(`linear decay width must be a whole number of seconds from 0 to under ${LINEAR_WIDTH_LIMIT_SEC} (one hour): got ${width}`);
      }
      return new LinearDecay(width);
    }
    case 'logistic': {
      const sd = s.standardDeviationSec!;
      if (!(typeof sd === 'number' && sd > 0 && sd < STANDARD_DEVIATION_LIMIT_SEC)) {
        throw new RangeError(`logistic decay standard deviation must be over 0 and under ${STANDARD_DEVIATION_LIMIT_SEC} seconds (two hours): got ${sd}`);
      }
      return new LogisticDecay(sd);
    }
    case 'exponential':
      return new ExponentialDecay();
    case 'fixed_exponential': {
      const k = s.constantPerSec!;
      if (!(typeof k === 'number' && k > 0 && k < 1)) {
        throw new RangeError(`fixed_exponential decay constant must be over 0 and under 1 per second: got ${k}`);
      }
      return new FixedExponentialDecay(k);
    }
  }
}

/**
 * The first whole second in [0, four hours] at which `weight` is under 0.001 (four hours when there is
 * none), by bisection: the weights do not increase with travel time, so the seconds with a weight of
 * 0.001 or more come first.
 */
function firstNegligibleSecond(decay: Decay, cutoffSec: number): number {
  let low = 0;
  let high = ZERO_SEARCH_END_SEC;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (decay.weight(middle, cutoffSec) < NEGLIGIBLE_WEIGHT) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The cutoff truncated to whole minutes, in seconds. */
function wholeMinutesSec(cutoffSec: number): number {
  return Math.floor(cutoffSec / 60) * 60;
}

/**
 * 1 when the travel time's whole minutes are under the cutoff's. For M whole minutes of cutoff,
 * floor(t / 60) < M exactly when t < 60·M, so the test needs no truncation of the travel time.
 */
class StepDecay implements Decay {
  readonly name = 'step';

  weight(travelSec: number, cutoffSec: number): number {
    return travelSec < wholeMinutesSec(cutoffSec) ? 1 : 0;
  }

  zeroAtSec(cutoffSec: number): number {
    return wholeMinutesSec(cutoffSec);
  }
}

/**
 * A ramp of `width` seconds from 1 to 0, starting half a width (whole seconds, rounded down) before the
 * cutoff. The opportunities counted at a whole second s lie on average at s + ½ (the travel times were
 * truncated), so the weight at s is the ramp's value half a second later: 1 − (s + ½) / width, for s
 * counted from the ramp's start. A width of 0 is the step on whole seconds.
 */
class LinearDecay implements Decay {
  readonly name = 'linear';
  private readonly halfWidth: number;
  /** The weight at each second of the ramp. */
  private readonly rampWeights: Float64Array;

  constructor(private readonly width: number) {
    this.halfWidth = Math.floor(width / 2);
    this.rampWeights = new Float64Array(width);
    for (let s = 0; s < width; s++) this.rampWeights[s] = 1 - (s + 0.5) / width;
  }

  weight(travelSec: number, cutoffSec: number): number {
    const intoRamp = Math.floor(travelSec) - (Math.floor(cutoffSec) - this.halfWidth);
    if (intoRamp < 0) return 1;
    if (intoRamp < this.width) return this.rampWeights[intoRamp]!;
    return 0;
  }

  zeroAtSec(cutoffSec: number): number {
    // the ramp's end: cutoff + width / 2 for an even width, as in R5 (an odd width ends a second later)
    return Math.floor(cutoffSec) - this.halfWidth + this.width;
  }
}

/**
 * The logistic curve of median c and standard deviation σ (Bauer and Groneberg's form, as R5 has it),
 * scaled to be 1 at t = 0:
 *
 *   g(t) = 1 + e^((t − c)·π / (σ·√3))      weight(t) = g(0) / g(t)
 *
 * so at the cutoff the weight is g(0) / 2, a little over ½. It never reaches 0 (its zero point is the
 * first second under 0.001).
 */
class LogisticDecay implements Decay {
  readonly name = 'logistic';
  private readonly spread: number;

  constructor(standardDeviationSec: number) {
    this.spread = standardDeviationSec * SQRT_3;
  }

  weight(travelSec: number, cutoffSec: number): number {
    const t = Math.floor(travelSec);
    const c = Math.floor(cutoffSec);
    return (1 + Math.exp((-c * Math.PI) / this.spread)) / (1 + Math.exp(((t - c) * Math.PI) / this.spread));
  }

  zeroAtSec(cutoffSec: number): number {
    return firstNegligibleSecond(this, cutoffSec);
  }
}

/** ½^(t / c): the cutoff is the half-life. 1 at t ≤ 0, 0 from two hours on. */
class ExponentialDecay implements Decay {
  readonly name = 'exponential';

  weight(travelSec: number, cutoffSec: number): number {
    const t = Math.floor(travelSec);
    if (t <= 0) return 1;
    if (t >= EXPONENTIAL_END_SEC) return 0;
    return Math.exp((LN_HALF / Math.floor(cutoffSec)) * t);
  }

  zeroAtSec(cutoffSec: number): number {
    return firstNegligibleSecond(this, cutoffSec);
  }
}

/**
 * e^(−k·t) for a constant k per second, the cutoff ignored (an exponential whose half-life, ln 2 / k,
 * need not be whole minutes). 1 at t ≤ 0, 0 from two hours on. Its zero point does not move with the
 * cutoff, and may lie before it.
 */
class FixedExponentialDecay implements Decay {
  readonly name = 'fixed_exponential';

  constructor(private readonly constantPerSec: number) {}

  weight(travelSec: number, _cutoffSec: number): number {
    const t = Math.floor(travelSec);
    if (t <= 0) return 1;
    if (t >= EXPONENTIAL_END_SEC) return 0;
    return Math.exp(-this.constantPerSec * t);
  }

  zeroAtSec(cutoffSec: number): number {
    return firstNegligibleSecond(this, cutoffSec);
  }
}
