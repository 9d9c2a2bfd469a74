/** Query parameters of the heat-map and isochrone operations (docs/api.md, Heat maps and Isochrones): a journey's (queries/journey-params.ts) and the map's own. */
import type { ParamSpec } from '../../queries/param-table.js';
import { type Limits, MAX_BOUNDARIES } from '../../service/limits.js';
import { COMPARE_DATA_FRESHNESS, COMPARE_SCENARIO, mapParams } from '../../queries/journey-params.js';
import { refuse } from '../../queries/query-errors.js';

/** What the heat-map endpoint can answer (`format`). */
export const HEAT_MAP_FORMATS = ['json', 'tiff', 'png', 'geojson'] as const;
export type HeatMapFormat = (typeof HEAT_MAP_FORMATS)[number];
/** Cells per side of an isochrone's grid unless `resolution` says otherwise. */
export const ISOCHRONE_RESOLUTION = 400;
/** Default outline simplification, metres: well under a cell of a city-sized map. */
export const DEFAULT_SIMPLIFY_M = 10;

const resolution = (limits: Limits, byDefault: number) =>
  ({
    name: 'resolution',
    kind: 'uint',
    default: byDefault,
    min: 1,
    clampMax: limits.maxResolution,
    description: `Sampling resolution: cells per side of the grid (1 to ${limits.maxResolution}).`,
  }) as const satisfies ParamSpec;

const bandParams = (limits: Limits) =>
  [
    {
      name: 'boundary_duration',
      kind: 'uint',
      array: true,
      max: limits.maxDurationSec,
      maxItems: { count: MAX_BOUNDARIES, error: () => refuse('isochroneTooManyBoundaries') },
      description: `Durations in seconds between the bands (at most ${MAX_BOUNDARIES}); the bands run from min_duration to max_duration.`,
    },
    {
      name: 'simplify',
      kind: 'float',
      default: DEFAULT_SIMPLIFY_M,
      min: 0,
      description: `Tolerance in metres of the simplification of the band outlines (${DEFAULT_SIMPLIFY_M} by default; 0 keeps every vertex).`,
    },
  ] as const satisfies readonly ParamSpec[];

export function heatMapParams(limits: Limits) {
  return [
    ...mapParams(),
    {
      name: 'max_duration',
      kind: 'uint',
      // 0 is refused with the standard parameter message, which says why (Navitia's "you should provide" does not)
      min: 1,
      max: limits.maxDurationSec,
      required: { error: () => refuse('heatMapNoMaxDuration') },
      description: `Maximum duration of journeys in seconds from datetime (required, at most ${limits.maxDurationSec}).`,
    },
    resolution(limits, 500),
    {
      name: 'format',
      kind: 'enum',
      values: HEAT_MAP_FORMATS,
      default: 'json',
      description:
        'json: Navitia\'s heat matrix; tiff: a GeoTIFF of the seconds (EPSG:4326); png: a coloured picture, unreachable cells transparent; geojson: the isochrone bands of boundary_duration[] (every 10 minutes by default).',
    },
    ...bandParams(limits),
    {
      name: 'percentile',
      kind: 'uint',
      min: 1,
      max: 99,
      description: "With a departure window, the percentile the png and geojson formats draw: one of percentiles[] (the first by default).",
    },
    COMPARE_DATA_FRESHNESS,
    COMPARE_SCENARIO,
  ] as const satisfies readonly ParamSpec[];
}

export function isochroneParams(limits: Limits) {
  return [
    ...mapParams(),
    {
      name: 'max_duration',
      kind: 'uint',
      min: 1,
      max: limits.maxDurationSec,
      required: { error: () => refuse('isochroneNoDuration'), unless: 'boundary_duration' },
      description: `Upper bound of the last band in seconds (at most ${limits.maxDurationSec}; the largest boundary_duration[] when absent).`,
    },
    { name: 'min_duration', kind: 'uint', default: 0, description: 'Lower bound of the first band in seconds.' },
    resolution(limits, ISOCHRONE_RESOLUTION),
    ...bandParams(limits),
  ] as const satisfies readonly ParamSpec[];
}
