/**
 * Query parameters of accessibility and travel-time matrices (docs/api.md, "Accessibility"): every
 * parameter of a map (modes, speeds, limits, windows, percentiles, freshness…), then their own.
 */
import { DECAY_NAMES } from '../analysis/decay.js';
import { DEFAULT_CUTOFF_SEC, MATRIX_MAX_DURATION_SEC, MAX_ACCESSIBILITY_SEARCHES, MAX_CUTOFFS, MAX_MATRIX_ORIGINS, MAX_NEAREST, type Limits } from '../service/limits.js';
import { refuse } from './query-errors.js';
import type { ParamSpec } from './param-table.js';
import { COMPARE_DATA_FRESHNESS, COMPARE_SCENARIO, mapParams } from './journey-params.js';

const maxDuration = (limits: Limits, what: string) =>
  ({
    name: 'max_duration',
    kind: 'uint',
    min: 1,
    max: limits.maxDurationSec,
    description: `Longest journey considered, seconds (at most ${limits.maxDurationSec}); ${what}.`,
  }) as const satisfies ParamSpec;

/** What accessibility measures: the opportunities, the cutoffs and their decay, the dual access. */
function measureParams(limits: Limits) {
  return [
    {
      name: 'opportunities',
      kind: 'string',
      array: true,
      required: { error: () => refuse('accessibilityNoOpportunities') },
      description: 'Opportunities to count, as POINT_SET:COLUMN (GET /v1/coverage/{region}/point_sets lists them); one or several.',
    },
    {
      name: 'cutoffs',
      kind: 'uint',
      array: true,
      min: 60,
      max: limits.maxDurationSec,
      maxItems: { count: MAX_CUTOFFS, error: () => refuse('tooManyCutoffs') },
      description: `Travel times, seconds, under which opportunities count (at most ${MAX_CUTOFFS}; ${DEFAULT_CUTOFF_SEC} by default); whole minutes, as R5 counts them.`,
    },
    {
      name: 'decay_function',
      kind: 'enum',
      values: DECAY_NAMES,
      default: 'step',
      description: 'How an opportunity counts by its travel time: step (1 under the cutoff), linear (decay_width), logistic (decay_standard_deviation), exponential (the cutoff as half-life), fixed_exponential (decay_constant). R5\'s definitions.',
    },
    { name: 'decay_width', kind: 'uint', description: 'linear: seconds over which the weight falls from 1 to 0, centred on the cutoff.' },
    { name: 'decay_standard_deviation', kind: 'uint', description: 'logistic: the standard deviation of the weight\'s fall around the cutoff, seconds.' },
    { name: 'decay_constant', kind: 'float', description: 'fixed_exponential: the decay rate per second (the weight is exp(-decay_constant × t)).' },
    {
      name: 'nearest',
      kind: 'uint',
      array: true,
      min: 1,
      maxItems: { count: MAX_NEAREST, error: () => refuse('tooManyNearest') },
      description: `Dual access: the least travel time reaching at least this many opportunities, per opportunity column and percentile (at most ${MAX_NEAREST}).`,
    },
  ] as const satisfies readonly ParamSpec[];
}

/** Realtime accessibility against another level: what a disruption puts out of reach. */
const ACCESSIBILITY_COMPARISON = {
  ...COMPARE_DATA_FRESHNESS,
  description: 'Each measure also at this other level (compared_value) and the difference (value minus compared_value): with data_freshness=realtime and base_schedule, the opportunities today\'s disruptions put out of reach.',
} as const satisfies ParamSpec;

/** Accessibility against another scenario or the base schedule: what a plan puts within reach. */
const ACCESSIBILITY_SCENARIO_COMPARISON = {
  ...COMPARE_SCENARIO,
  description: 'Each measure also with this other scenario, or base (compared_value), and the difference (value minus compared_value): with scenario=NAME and base, the opportunities a plan brings within reach.',
} as const satisfies ParamSpec;

const ACCESSIBILITY_MAX_DURATION = 'by default as long as the largest cutoff can count (its decay reaches 0)';

/**
 * One place (`from` or `to`, a map's centre) or every point of a set (`origins`: regional
 * accessibility), exactly one of them: `from`'s requirement is met by any, `origins` excludes both.
 */
export function accessibilityParams(limits: Limits) {
  const [from, ...rest] = mapParams();
  return [
    { ...from, required: { error: () => refuse('accessibilityNoPlace'), unless: ['to', 'origins'] } },
    ...rest,
    {
      name: 'origins',
      kind: 'string',
      exclusiveWith: { name: ['from', 'to'], error: () => refuse('accessibilityOriginsAndPlace') },
      description: `Instead of from or to: the accessibility of every point of this set, each a departure from its position (GET /v1/coverage/{region}/point_sets lists them; at most ${MAX_ACCESSIBILITY_SEARCHES} points × departures of the window).`,
    },
    maxDuration(limits, ACCESSIBILITY_MAX_DURATION),
    ...measureParams(limits),
    ACCESSIBILITY_COMPARISON,
    ACCESSIBILITY_SCENARIO_COMPARISON,
  ] as const satisfies readonly ParamSpec[];
}

/** The parameters of a journey from any origin: a map's, without its centre. */
function journeyParams() {
  return mapParams().filter((spec) => spec.name !== 'from' && spec.name !== 'to');
}

/**
 * `navette accessibility`: the journeys' parameters, the measures and the comparisons (the origins
 * are the command's; a comparison writes, per origin, the difference).
 */
export function accessibilityCommandParams(limits: Limits) {
  return [...journeyParams(), maxDuration(limits, ACCESSIBILITY_MAX_DURATION), ...measureParams(limits), ACCESSIBILITY_COMPARISON, ACCESSIBILITY_SCENARIO_COMPARISON] as const satisfies readonly ParamSpec[];
}

/** A matrix's skims (docs/analysis.md, "Skims"): each travel time's journey in parts, and the lines it rides. */
const SKIM_PARAMS = [
  { name: 'breakdown', kind: 'bool', default: false, description: 'Each travel time\'s journey in parts: access, wait, ride, transfer and egress seconds, and the vehicles boarded (rides); they add up to the travel time.' },
  { name: 'routes', kind: 'bool', default: false, description: 'With breakdown: the ids of the lines ridden, in order.' },
] as const satisfies readonly ParamSpec[];

/**
 * Which points of the origins' and destinations' sets a matrix computes: the API's `origin_ids[]`
 * and `destination_ids[]`, the command's `--origin-ids` and `--destination-ids` (docs/analysis.md).
 */
const POINT_IDS = [
  {
    name: 'origin_ids',
    kind: 'string',
    array: true,
    description: `Only these points of the origins' set, by id, in the order given (each once): the matrix's rows. All of the set's points by default. The limits count the points named (at most ${MAX_MATRIX_ORIGINS} origins).`,
  },
  {
    name: 'destination_ids',
    kind: 'string',
    array: true,
    description: 'Only these points of the destinations\' set, by id, in the order given (each once): the matrix\'s columns. All of the set\'s points by default.',
  },
] as const satisfies readonly ParamSpec[];

/** `navette matrix`: the journeys' parameters, the points' ids and the skims (origins and destinations are the command's). */
export function matrixCommandParams(limits: Limits) {
  return [...journeyParams(), { ...maxDuration(limits, 'longer journeys are null'), default: MATRIX_MAX_DURATION_SEC }, ...POINT_IDS, ...SKIM_PARAMS] as const satisfies readonly ParamSpec[];
}

export function matrixParams(limits: Limits) {
  return [
    ...matrixCommandParams(limits),
    {
      name: 'origins',
      kind: 'string',
      required: { error: () => refuse('matrixNoOrigins') },
      description: 'The point set the journeys leave from (GET /v1/coverage/{region}/point_sets lists them).',
    },
    { name: 'destinations', kind: 'string', description: 'The point set the journeys reach (the origins\' by default).' },
    {
      name: 'format',
      kind: 'enum',
      values: MATRIX_FORMATS,
      default: 'json',
      description: 'json: the durations as arrays; parquet: a Parquet file of the command\'s columns, from_id, to_id, travel_time_pNN (seconds, null when unreached), one row per origin and destination.',
    },
  ] as const satisfies readonly ParamSpec[];
}

/** What the travel_time_matrix endpoint can answer (`format`). */
export const MATRIX_FORMATS = ['json', 'parquet'] as const;
