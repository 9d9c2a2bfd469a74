/**
 * The flow the map endpoints share (heat maps, isochrones, accessibility from a place), in
 * Navitia's order: the coverage, the ridesharing refusal, its generation (endpoint.ts `inCoverage`),
 * then the query layer's prologue (the centre, the production period, the street network, the
 * query: queries/map-prologue.ts), the computation on the runner (the worker pool in a server) and
 * its answer, compressed already.
 */
import type { Generation } from '../../service/generation.js';
import type { ComparedSide } from '../../queries/timetable-choice.js';
import { chooseEncoding, type HeatMapRender, type MapFormat } from '../../maps/heat-map-render.js';
import type { Band } from '../../maps/isochrones-json.js';
import { WARNINGS, type Warning } from '../../maps/map-warnings.js';
import type { Direction } from '../../queries/departure-window.js';
import type { MapParams } from '../../queries/journey-params.js';
import { placeMap, refuseRidesharing, type PlaceMap } from '../../queries/map-prologue.js';
import { requestNow, type ParamSpec } from '../../queries/param-table.js';
import { requestTurn, runGrid } from '../../queries/run-computation.js';
import { formatLocal } from '../../util/time-zones.js';
import { resolveCoverage, type CoverageRef } from '../coverage/coverage-resolution.js';
import { inCoverage, type Answer, type EndpointContext, type EnvelopeOf } from '../endpoint.js';
import { unknownParameters } from '../params.js';
import type { QueryPair } from '../query-string.js';
import { contextJson, publishersJson } from '../serialize.js';
import { mapWarnings, serviceWarnings, type MapWindow } from './map-checks.js';
import type { OriginTimesJob } from '../../queries/origin-rows.js';
import { placeJson } from './place-json.js';

export type { Direction } from '../../queries/departure-window.js';

/** What a map endpoint asks of the shared flow, from its own parameters. */
export interface MapRequest {
  collection: 'heat_maps' | 'isochrones';
  params: MapParams;
  maxDurationSec: number;
  /** the endpoint's words for ridesharing, which maps do not take */
  ridesharing: 'heatMapRidesharing' | 'isochroneRidesharing';
  /** what to answer, once the start time and the direction are known */
  format(t0: number, direction: Direction, timeZone: string, generation: Generation): MapFormat;
  /** what the endpoint found in its parameters to warn of (unknown parameters, dropped boundaries) */
  warnings: Warning[];
  /** with a departure window, the percentile a one-band format draws (heat maps' `percentile`) */
  percentile?: number;
  /** a difference map's other side (heat maps' `compare_data_freshness` or `compare_scenario`, checked by the endpoint) */
  compareWith?: ComparedSide;
}

const OSM_PUBLISHER = { id: 'osm', name: 'openstreetmap', url: 'https://www.openstreetmap.org/copyright', license: 'ODbL' };

export async function answerMap(ctx: EndpointContext, coverageRef: CoverageRef, map: MapRequest): Promise<Answer> {
  const { params } = map;
  // the coverage first, then ridesharing, then whether it has data (Navitia's order)
  resolveCoverage(ctx.registry, coverageRef);
  refuseRidesharing(params, map.ridesharing);
  return inCoverage(ctx, coverageRef, requestNow(params), failedAnswerEnvelope(map.collection, '[]'), async ({ coverage, generation, nowSec, timeZone }) => {
    const place = placeMap(coverage, generation, { params, maxDurationSec: map.maxDurationSec, percentile: map.percentile, compareWith: map.compareWith }, nowSec, timeZone);
    const { direction, t0, query } = place;
    const warnings = [...map.warnings, ...placeWarnings(generation, place, map.maxDurationSec, timeZone)];
    const render: HeatMapRender = {
      ...placeEnvelope(generation, place, nowSec, timeZone),
      format: map.format(t0, direction, timeZone, generation),
      encoding: chooseEncoding(ctx.acceptEncoding),
      maxDurationSec: map.maxDurationSec,
      warnings,
    };
    const result = await runGrid(ctx.heatMaps, coverage.id, generation, query, render, requestTurn(ctx.client, ctx.limits.mapDeadlineSec, query));
    const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    const headers = answerHeaders(result.contentType, result.warnings);
    if (result.encoding) headers['content-encoding'] = result.encoding;
    return { body, headers };
  });
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

/** The parts of a place's answer around its values: the place, the date asked, the publishers, the context. */
export function placeEnvelope(generation: Generation, place: PlaceMap, nowSec: number, timeZone: string) {
  return {
    placeKey: place.direction === 'departure' ? ('from' as const) : ('to' as const),
    placeJson: placeJson(generation, place.centre),
    requestedDateTime: formatLocal(place.t0, timeZone),
    publishersJson: publishersWithOsm(generation),
    contextJson: contextJson(nowSec, timeZone),
  };
}

/** What can be told of a place's map before it is computed (map-checks.ts). */
export function placeWarnings(generation: Generation, place: PlaceMap, maxDurationSec: number, timeZone: string): Warning[] {
  return mapWarnings(generation, place.centre.lon, place.centre.lat, mapWindow(place.t0, maxDurationSec, place.direction, timeZone), place.query.transit);
}

/**
 * What can be told of a request of many origins (a matrix, every point of a set, the commands)
 * before it is computed: whether trips run in its window, as a departure map's from any of them.
 */
export function manyOriginsWarnings(generation: Generation, job: Pick<OriginTimesJob, 't0' | 'maxDurationSec' | 'params'>, timeZone: string): Warning[] {
  if (job.params.direct_path === 'only') return [];
  return serviceWarnings(generation, mapWindow(job.t0, job.maxDurationSec, 'departure', timeZone));
}

/** The answer's headers: its type, and the ids of its warnings (for every format: the GeoTIFF and the PNG have no place for them in their body). */
export function answerHeaders(contentType: string, warnings: readonly Warning[]): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (warnings.length > 0) headers[WARNINGS_HEADER] = [...new Set(warnings.map((w) => w.id))].join(', ');
  return headers;
}

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
