/**
 * The prologue every request of the map family shares (heat maps, isochrones, accessibility from a
 * place or from every point of a set, matrices, and the commands), in Navitia's order: ridesharing
 * refused before the coverage is read; then, on its generation, the instant, the production day
 * and the street network; for one place, its centre and its query.
 */
import type { MapQuery } from '../maps/difference-map.js';
import { boardSlackOf, type CoverageConfig } from '../service/coverage-config.js';
import type { Generation } from '../service/generation.js';
import type { StreetData } from '../service/street-data.js';
import { parseDatetimeParam } from '../util/api-datetime.js';
import { requestDepartures, type Direction } from './departure-window.js';
import type { MapParams } from './journey-params.js';
import { buildQuery } from './journey-query.js';
import { comparisonOf, type ComparedSide } from './timetable-choice.js';
import { resolveCentre, type Centre } from './map-centre.js';
import { checkDay } from './production-day.js';
import { QUERY_DETAILS, refuse } from './query-errors.js';

type ModeParams = Pick<MapParams, 'first_section_mode' | 'last_section_mode' | 'direct_path_mode'>;

/** Ridesharing takes no part in maps: refused (in the endpoint's words) before anything else is read. */
export function refuseRidesharing(params: ModeParams, code: 'heatMapRidesharing' | 'isochroneRidesharing' = 'heatMapRidesharing'): void {
  if ([...params.first_section_mode, ...params.last_section_mode, ...params.direct_path_mode].includes('ridesharing')) throw refuse(code);
}

/** The instant a request names (`datetime`, the coverage's local time unless an offset is given), else now. */
export function requestInstant(params: { datetime?: string | undefined }, nowSec: number, timeZone: string): number {
  return params.datetime !== undefined ? parseDatetimeParam(params.datetime, timeZone) : nowSec;
}

/** What the prologue found: the instant, and the coverage's street network. */
export interface MapStart {
  t0: number;
  streets: StreetData;
}

/**
 * On the coverage's generation: the instant, its day in the production period, the street network
 * (`beforeDay`: what is checked before the day, as a map's typed centre is).
 */
export function mapStart(generation: Generation, params: { datetime?: string | undefined }, nowSec: number, timeZone: string, beforeDay?: () => void, afterDay?: () => void): MapStart {
  const t0 = requestInstant(params, nowSec, timeZone);
  beforeDay?.();
  checkDay(generation, t0, timeZone);
  afterDay?.();
  const streets = generation.streets;
  if (!streets) throw refuse('noStreetNetwork');
  return { t0, streets };
}

/** A map of one place: its direction, its centre (with coordinates), its instant and the query computed. */
export interface PlaceMap {
  direction: Direction;
  centre: Exclude<Centre, { kind: 'invalid' } | { kind: 'unknown' }>;
  t0: number;
  query: MapQuery;
}

export interface PlaceMapRequest {
  params: MapParams;
  maxDurationSec: number;
  /** with a departure window, the percentile a one-band format draws */
  percentile?: number | undefined;
  /** a difference's other side (a freshness level or a scenario) */
  compareWith?: ComparedSide | undefined;
}

/**
 * The query of a map from one place (`from`: a departure map, `to`: an arrival map): a typed id
 * that does not resolve fails before the day's check, an untyped one after it (Navitia's order).
 */
export function placeMap(coverage: { config: CoverageConfig }, generation: Generation, request: PlaceMapRequest, nowSec: number, timeZone: string): PlaceMap {
  const { params, maxDurationSec } = request;
  const from = params.from || undefined;
  const direction: Direction = from ? 'departure' : 'arrival';
  const placeParam = from ? 'from' : 'to';
  const placeId = (from ?? params.to)!;
  const centre = resolveCentre(generation, placeId);
  const unknownPlace = () => refuse('invalidEntryPoint', { place: placeId }).withDetails(QUERY_DETAILS.unknownPlace(placeParam, placeId));
  const { t0 } = mapStart(
    generation,
    params,
    nowSec,
    timeZone,
    () => {
      if (centre.kind === 'invalid') throw centre.outOfRange ? refuse('invalidEntryPoint', { place: placeId }).withDetails(QUERY_DETAILS.coordinateOutOfRange(placeParam, placeId)) : unknownPlace();
    },
    () => {
      if (centre.kind === 'unknown') throw unknownPlace();
    },
  );
  const located = centre as PlaceMap['centre'];
  const window = requestDepartures(generation, params, t0, direction, timeZone, request.percentile);
  const comparison = request.compareWith ? comparisonOf(params, generation, request.compareWith) : null;
  const query = { ...buildQuery(params, generation, direction, located, t0, maxDurationSec, boardSlackOf(coverage.config)), window, comparison };
  return { direction, centre: located, t0, query };
}
