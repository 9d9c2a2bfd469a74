/**
 * The parameters of a journey from a place (a map's centre, or each origin of a set) as both front
 * doors take them: modes, speeds, limits, the timetable level, the departure window and its
 * percentiles. The heat maps, isochrones, accessibility and matrices add their own
 * (api/heat-maps/heat-maps-params.ts, analysis-params.ts).
 */
import { CURRENT_DATETIME, type ParamSpec, type ParamsOf } from './param-table.js';
import { FRESHNESS_LEVELS } from '../ptref/freshness.js';
import { MAX_DEPARTURE_WINDOW_SEC, MAX_PERCENTILES } from '../service/limits.js';
import { refuse } from './query-errors.js';
import { DEFAULT_WALKING_SPEED } from '../routing/transfer-pruning.js';

export const STREET_MODES = ['walking', 'bike', 'bss', 'car', 'car_no_park', 'ridesharing', 'taxi'] as const;
export type StreetMode = (typeof STREET_MODES)[number];
export const TRAVELER_TYPES = ['standard', 'slow_walker', 'fast_walker', 'luggage', 'wheelchair', 'cyclist', 'motorist'] as const;

/** A street leg to or from public transport lasts at most this long unless asked or profiled otherwise, seconds. */
const MAX_DURATION_TO_PT = 1800;

/** A mode's speed; `fallback` is the coverage's, under the request's and the traveller profile's. */
const speed = <M extends StreetMode>(mode: M, max: number, what: string, fallback: number) =>
  ({
    name: `${mode}_speed`,
    kind: 'float',
    min: 0.01,
    max,
    fallback,
    description: `${what} speed in metres per second, from 0.01 to ${max}.`,
  }) as const satisfies ParamSpec;
const toPt = <M extends StreetMode>(mode: M, what: string) =>
  ({
    name: `max_${mode}_duration_to_pt`,
    kind: 'int',
    fallback: MAX_DURATION_TO_PT,
    description: `Longest ${what} leg to or from public transport, in seconds.`,
  }) as const satisfies ParamSpec;

/** A scenario of the coverage (docs/scenarios.md): the base schedule as the scenario changes it. */
export const SCENARIO = {
  name: 'scenario',
  kind: 'string',
  description: 'A scenario of the coverage (GET /v1/coverage/{region}/scenarios lists them): the base schedule with its changes (new lines, faster or removed routes). Not with data_freshness=adapted_schedule or realtime.',
} as const satisfies ParamSpec;

/** A comparison with another scenario, or with the base schedule (`base`): wherever compare_data_freshness gives one. */
export const COMPARE_SCENARIO = {
  name: 'compare_scenario',
  kind: 'string',
  description:
    'A scenario to compare with, or base (the schedule without a scenario): the values of this request\'s scenario (or the base schedule) minus those of the other, as compare_data_freshness gives them. Not with compare_data_freshness.',
} as const satisfies ParamSpec;

/** The coverage's value of each parameter that has one under the traveller profile's (`fallback`). */
export const MAP_FALLBACKS: Readonly<Record<string, number>> = Object.fromEntries(
  (mapParams() as readonly ParamSpec[]).flatMap((spec) => (spec.fallback === undefined ? [] : [[spec.name, spec.fallback]])),
);

/** The parameters of a map request as the shared flow reads them (map-prologue.ts, journey-query.ts). */
export type MapParams = ParamsOf<ReturnType<typeof mapParams>> & { resolution: number };

/** The parameters every map takes (heat maps and isochrones); the checks run in table order. */
export function mapParams() {
  return [
    {
      name: 'from',
      kind: 'string',
      required: { error: () => refuse('heatMapNoCentre'), unless: 'to' },
      exclusiveWith: { name: 'to', error: () => refuse('heatMapTwoCentres') },
      description: 'Centre of a departure map: a stop area, a stop point or a coordinate lon;lat.',
    },
    { name: 'to', kind: 'string', description: 'Centre of an arrival map: a stop area, a stop point or a coordinate lon;lat.' },
    { name: 'datetime', kind: 'datetime', description: 'Departure time (with from) or arrival time (with to); local time of the coverage unless an offset is given. Now by default.' },
    { name: 'datetime_represents', kind: 'enum', values: ['departure', 'arrival'], default: 'departure', description: 'Kept for compatibility: the direction comes from from or to.' },
    { name: 'max_nb_transfers', kind: 'int', default: 10, description: 'Largest number of transfers of a journey.' },
    { name: 'min_nb_transfers', kind: 'int', default: 0, description: 'Smallest number of transfers of a journey that reaches a stop by public transport.' },
    { name: 'first_section_mode', kind: 'enum', array: true, values: STREET_MODES, description: 'Modes from the centre of a departure map to public transport (and of the cells of an arrival map). Walking by default.' },
    { name: 'last_section_mode', kind: 'enum', array: true, values: STREET_MODES, description: 'Modes from public transport to the cells of a departure map (and to the centre of an arrival map). Walking by default.' },
    { name: 'max_duration_to_pt', kind: 'int', fallback: MAX_DURATION_TO_PT, description: 'Longest street leg to or from public transport, in seconds, for every mode.' },
    toPt('walking', 'walking'),
    toPt('bike', 'bike'),
    toPt('bss', 'bike-sharing'),
    toPt('car', 'car'),
    toPt('ridesharing', 'ridesharing'),
    toPt('car_no_park', 'car (without parking)'),
    toPt('taxi', 'taxi'),
    speed('walking', 4, 'Walking', DEFAULT_WALKING_SPEED),
    speed('bike', 15, 'Cycling', 4.1),
    speed('bss', 15, 'Bike-sharing', 4.1),
    speed('car', 50, 'Driving', 11.11),
    speed('ridesharing', 50, 'Ridesharing', 6.94),
    speed('car_no_park', 50, 'Driving (without parking)', 11.11),
    speed('taxi', 50, 'Taxi', 11.11),
    { name: 'forbidden_uris', kind: 'string', array: true, description: 'Public transport objects not to use: lines, routes, networks, modes, stop points, stop areas.' },
    { name: 'allowed_id', kind: 'string', array: true, description: 'Only these public transport objects may be used (with forbidden_uris[] also applied).' },
    { name: 'disruption_active', kind: 'bool', default: false, deprecated: true, description: 'Deprecated: true is data_freshness=realtime.' },
    { name: 'data_freshness', kind: 'enum', values: FRESHNESS_LEVELS, description: 'Timetable used: base_schedule (default), adapted_schedule or realtime.' },
    SCENARIO,
    { name: 'wheelchair', kind: 'bool', description: 'Only accessible vehicles and stops (false unless the traveller profile says otherwise).' },
    { name: 'traveler_type', kind: 'enum', values: TRAVELER_TYPES, description: 'A traveller profile giving speeds, modes, access limits and accessibility; explicit parameters win.' },
    { name: 'direct_path', kind: 'enum', values: ['indifferent', 'only', 'none', 'only_with_alternatives'], default: 'indifferent', description: 'none: cells reached by public transport only; only: by the street only.' },
    { name: 'free_radius_from', kind: 'int', default: 0, description: 'Stops within this many metres of a departure centre are reached at no cost.' },
    { name: 'free_radius_to', kind: 'int', default: 0, description: 'Stops within this many metres of an arrival centre are reached at no cost.' },
    { name: 'direct_path_mode', kind: 'enum', array: true, values: STREET_MODES, description: 'Modes of the street-only part from the centre (default: the end modes).' },
    { name: 'partner_services', kind: 'enum', array: true, values: ['ridesharing'], description: 'Kept for compatibility; no partner service takes part in heat maps.' },
    { name: 'additional_time_after_first_section_taxi', kind: 'int', default: 0, description: 'Seconds added after a taxi leg from the centre.' },
    { name: 'additional_time_before_last_section_taxi', kind: 'int', default: 0, description: 'Seconds added before a taxi leg to the cells.' },
    CURRENT_DATETIME,
    {
      name: 'departure_window',
      kind: 'uint',
      default: 0,
      max: MAX_DEPARTURE_WINDOW_SEC,
      description: `Seconds of departures to summarise, one per minute from datetime (for an arrival map: deadlines, one per minute up to datetime), 0 to ${MAX_DEPARTURE_WINDOW_SEC}; 0: the single departure at datetime.`,
    },
    {
      name: 'percentiles',
      kind: 'uint',
      array: true,
      min: 1,
      max: 99,
      maxItems: { count: MAX_PERCENTILES, error: () => refuse('tooManyPercentiles') },
      description: `Percentiles of the travel time over the window's minutes, ascending, 1 to 99, at most ${MAX_PERCENTILES}; 50 when a window is given without them. One map (or one set of bands) per percentile.`,
    },
  ] as const satisfies readonly ParamSpec[];
}

/**
 * A difference map (docs/api.md, "Difference maps"): heat maps only; isochrones refuse it
 * (isochrones-endpoint.ts), the bands of a difference having no meaning.
 */
export const COMPARE_DATA_FRESHNESS = {
  name: 'compare_data_freshness',
  kind: 'enum',
  values: FRESHNESS_LEVELS,
  description:
    'A difference map: per cell (and percentile), the seconds at data_freshness minus those at this other level; null where both are unreached, max_duration where access is lost, -max_duration where it is gained. json, tiff or png.',
} as const satisfies ParamSpec;
