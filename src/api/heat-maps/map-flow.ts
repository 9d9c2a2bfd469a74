/**
 * The flow both map endpoints share (heat maps and isochrones), in Navitia's order: the coverage,
 * the ridesharing refusal, its generation (endpoint.ts `inCoverage`), the centre, the production
 * period, the street network, then the computation on the runner (the worker pool in a server)
 * and its answer, compressed already.
 */
import { boardSlackOf } from '../../service/coverage-config.js';
import type { Generation } from '../../service/generation.js';
import { WorkUnavailable } from '../../service/worker-pool.js';
import type { HeatMapRunner } from '../../maps/heat-map-runner.js';
import type { DepartureWindow, HeatMapQuery } from '../../routing/heat-map.js';
import { chooseEncoding, type HeatMapRender, type MapFormat, type RenderedHeatMap } from '../../maps/heat-map-render.js';
import type { Band } from '../../maps/isochrones-json.js';
import { WARNINGS, type Warning } from '../../maps/map-warnings.js';
import { dayNumber } from '../../util/calendar.js';
import { formatLocal } from '../../util/time-zones.js';
import { parseDatetimeParam } from '../../util/api-datetime.js';
import { resolveCoverage, type CoverageRef } from '../coverage/coverage-resolution.js';
import { DETAILS, deadRegion, heatMapsQueueFull, invalidEntryPoint, noStreetNetwork, outOfProduction, windowOutOfProduction, type ApiError } from '../errors.js';
import { inCoverage, type Answer, type EndpointContext, type EnvelopeOf } from '../endpoint.js';
import { isoDay } from '../time-words.js';
import { requestNow, unknownParameters, type ParamSpec } from '../params.js';
import type { QueryPair } from '../query-string.js';
import { contextJson, publishersJson } from '../serialize.js';
import type { MapParams } from './heat-maps-params.js';
import { placeJson, resolveCentre } from './map-centre.js';
import { mapWarnings, type MapWindow } from './map-checks.js';
import { buildQuery, comparisonOf } from './map-query.js';
import type { FreshnessLevel } from '../../ptref/freshness.js';
import { departureWindow, lastDeparture } from './map-window.js';

export type Direction = 'departure' | 'arrival';

/** What a map endpoint asks of the shared flow, from its own parameters. */
export interface MapRequest {
  collection: 'heat_maps' | 'isochrones' | 'accessibility';
  params: MapParams;
  maxDurationSec: number;
  ridesharing: () => ApiError;
  /** what to answer, once the start time and the direction are known */
  format(t0: number, direction: Direction, timeZone: string, generation: Generation): MapFormat;
  /** what the endpoint found in its parameters to warn of (unknown parameters, dropped boundaries) */
  warnings: Warning[];
  /** with a departure window, the percentile a one-band format draws (heat maps' `percentile`) */
  percentile?: number;
  /** a difference map's other level (heat maps' `compare_data_freshness`, checked by the endpoint) */
  compareWith?: FreshnessLevel;
}

const OSM_PUBLISHER = { id: 'osm', name: 'openstreetmap', url: 'https://www.openstreetmap.org/copyright', license: 'ODbL' };

export async function answerMap(ctx: EndpointContext, coverageRef: CoverageRef, map: MapRequest): Promise<Answer> {
  const { params } = map;
  // the coverage first, then ridesharing, then whether it has data (Navitia's order)
  resolveCoverage(ctx.registry, coverageRef);
  if ([...params.first_section_mode, ...params.last_section_mode, ...params.direct_path_mode].includes('ridesharing')) throw map.ridesharing();
  return inCoverage(ctx, coverageRef, requestNow(params), failedAnswerEnvelope(map.collection, '[]'), async ({ coverage, generation, nowSec, timeZone }) => {
    const from = params.from || undefined;
    const direction: Direction = from ? 'departure' : 'arrival';
    const placeId = (from ?? params.to)!;
    const t0 = params.datetime !== undefined ? parseDatetimeParam(params.datetime, timeZone) : nowSec;
    // the centre: typed ids that do not resolve fail before the date check, untyped ones after it
    const centre = resolveCentre(generation, placeId);
    const placeParam = from ? 'from' : 'to';
    const unknownPlace = () => invalidEntryPoint(placeId).withDetails(DETAILS.unknownPlace(placeParam, placeId));
    if (centre.kind === 'invalid') throw centre.outOfRange ? invalidEntryPoint(placeId).withDetails(DETAILS.coordinateOutOfRange(placeParam, placeId)) : unknownPlace();
    checkDay(generation, t0, timeZone);
    if (centre.kind === 'unknown') throw unknownPlace();
    if (!generation.streets) throw noStreetNetwork();
    const window = mapDepartureWindow(generation, params, t0, direction, timeZone, map.percentile);

    const comparison = map.compareWith ? comparisonOf(params, generation, map.compareWith) : null;
    const query = { ...buildQuery(params, generation, direction, centre, t0, map.maxDurationSec, boardSlackOf(coverage.config)), window, comparison };
    const warnings = [...map.warnings, ...mapWarnings(generation, centre.lon, centre.lat, mapWindow(t0, map.maxDurationSec, direction, timeZone), query.transit)];
    const render: HeatMapRender = {
      placeKey: direction === 'departure' ? 'from' : 'to',
      placeJson: placeJson(generation, centre),
      requestedDateTime: formatLocal(t0, timeZone),
      publishersJson: publishersWithOsm(generation),
      contextJson: contextJson(nowSec, timeZone),
      format: map.format(t0, direction, timeZone, generation),
      encoding: chooseEncoding(ctx.acceptEncoding),
      maxDurationSec: map.maxDurationSec,
      warnings,
    };
    const result = await runMap(ctx.heatMaps, coverage.id, generation, query, render);
    const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    const headers: Record<string, string> = { 'content-type': result.contentType };
    if (result.encoding) headers['content-encoding'] = result.encoding;
    // the ids of the warnings for every format, the GeoTIFF and the PNG having no place for them in their body
    if (result.warnings.length > 0) headers[WARNINGS_HEADER] = [...new Set(result.warnings.map((w) => w.id))].join(', ');
    return { body, headers };
  });
}

/** A map's date in the production period, else Navitia's error with the period in its details. */
export function checkDay(generation: Generation, t0: number, timeZone: string): void {
  if (!inProduction(generation, t0, timeZone)) throw outOfProduction().withDetails(outsideProductionDetails(generation, t0, timeZone));
}

/** The request's departure window (map-window.ts), its last minute in the production period too. */
export function mapDepartureWindow(generation: Generation, params: MapParams, t0: number, direction: Direction, timeZone: string, percentile?: number): DepartureWindow | null {
  const window = departureWindow(params, percentile);
  if (window && !inProduction(generation, lastDeparture(window, t0, direction), timeZone)) throw windowOutOfProduction();
  return window;
}

/** One computation on the runner; a pool that cannot take it answers 503 (queue full, or a thread past its budget). */
export async function runMap(runner: HeatMapRunner, coverageId: string, generation: Generation, query: HeatMapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
  try {
    return await runner.run(coverageId, generation, query, render);
  } catch (e) {
    if (e instanceof WorkUnavailable) {
      const headers = { 'retry-after': String(e.retryAfterSec) };
      if (e.reason === 'timeout') throw deadRegion(coverageId).withHeaders(headers);
      throw heatMapsQueueFull().withHeaders(headers);
    }
    throw e;
  }
}

/**
 * Navitia's bands: the sorted bounds [min, boundaries strictly between min and max…, max], one band
 * per consecutive pair; none when min is not below max.
 */
export function bandsOf(minSec: number, boundaries: readonly number[], maxSec: number, t0: number, direction: Direction, timeZone: string): Band[] {
  if (minSec >= maxSec) return [];
  const cuts = [...new Set(boundaries.filter((b) => b > minSec && b < maxSec))].sort((a, b) => a - b);
  const bounds = [minSec, ...cuts, maxSec];
  const at = (sec: number) => formatLocal(direction === 'departure' ? t0 + sec : t0 - sec, timeZone);
  return bounds.slice(1).map((hi, k) => {
    const lo = bounds[k]!;
    return { lo, hi, minDateTime: direction === 'departure' ? at(lo) : at(hi), maxDateTime: direction === 'departure' ? at(hi) : at(lo) };
  });
}

/**
 * The warnings of a map's parameters: those the table does not know (ignored), and the
 * boundaries outside [min, max] that `bandsOf` drops (`bands`: whether the answer has bands).
 */
export function parameterWarnings(specs: readonly ParamSpec[], pairs: QueryPair[], bands?: { minSec: number; boundaries: readonly number[]; maxSec: number }): Warning[] {
  const warnings = unknownParameters(specs, pairs).map((name) => WARNINGS.unknownParameter(name));
  if (bands) {
    for (const b of new Set(bands.boundaries)) {
      if (b > bands.maxSec) warnings.push(WARNINGS.boundaryAboveMax(String(b), String(bands.maxSec)));
      else if (b < bands.minSec) warnings.push(WARNINGS.boundaryBelowMin(String(b), String(bands.minSec)));
    }
  }
  return warnings;
}

/** The publishers of a map's answer: the feeds', and OpenStreetMap's when the coverage has streets. */
export function publishersWithOsm(g: Generation | undefined): string {
  if (!g?.streets) return publishersJson(g);
  return JSON.stringify([...g.publishers, OSM_PUBLISHER]);
}

/** The header that lists a map answer's warning ids (docs/api.md, Warnings). */
export const WARNINGS_HEADER = 'navette-warnings';

/** A map's window: [t0, t0 + max] for a departure map, [t0 - max, t0] for an arrival map. */
function mapWindow(t0: number, maxDurationSec: number, direction: Direction, timeZone: string): MapWindow {
  return direction === 'departure' ? { fromSec: t0, toSec: t0 + maxDurationSec, timeZone } : { fromSec: t0 - maxDurationSec, toSec: t0, timeZone };
}

/**
 * The body of a map or analysis endpoint that failed: its answer's key empty (`[]` for a map's
 * collection, `null` for an analysis's object), the publishers and the context, the error last.
 */
export function failedAnswerEnvelope(key: string, emptyJson: '[]' | 'null'): EnvelopeOf {
  return (g, nowSec, timeZone) => ({
    hasFilterKey: false,
    wrap: (errorJson) => `{"${key}":${emptyJson},"feed_publishers":${publishersWithOsm(g)},"links":[],"warnings":[],"context":${contextJson(nowSec, timeZone)},"error":${errorJson}}`,
  });
}

/** The local service date of t0 lies in the production period. */
function inProduction(g: Generation, t0: number, timeZone: string): boolean {
  const day = localDay(t0, timeZone);
  return g.productionStartDay >= 0 && day >= g.productionStartDay && day <= g.productionEndDay;
}

/** The day number of t0's local date. */
function localDay(t0: number, timeZone: string): number {
  const local = formatLocal(t0, timeZone);
  return dayNumber(Number(local.slice(0, 4)), Number(local.slice(4, 6)), Number(local.slice(6, 8)));
}

function outsideProductionDetails(g: Generation, t0: number, timeZone: string): string {
  if (g.productionStartDay < 0) return DETAILS.noProductionPeriod();
  return DETAILS.outsideProduction(isoDay(localDay(t0, timeZone)), isoDay(g.productionStartDay), isoDay(g.productionEndDay));
}
