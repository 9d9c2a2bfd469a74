/**
 * `/v1/coverage/{region|lon;lat}/heat_maps`: parameters, Navitia's checks in Navitia's order
 * (navitia-heat-maps.md §4.1), the centre, the request for the worker pool, and the response.
 */
import { nearestSegment, projectX, projectY } from '../../model/street-graph.js';
import type { HeatMapMode, HeatMapQuery } from '../../routing/heat-map.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { boardSlackOf } from '../../service/coverage-config.js';
import type { Generation } from '../../service/generation.js';
import type { FreshnessLevel } from '../../ptref/freshness.js';
import { WorkUnavailable } from '../../service/worker-pool.js';
import { type HeatMapRunner } from './heat-map-runner.js';
import { dayNumber } from '../../util/calendar.js';
import { formatLocal } from '../../util/time-zones.js';
import { parseDatetimeParam } from '../../util/api-datetime.js';
import { resolveCoverage, type CoverageRef } from '../coverage/coverage-resolution.js';
import {
  deadRegion,
  HEAT_MAPS_QUEUE_FULL,
  heatMapRidesharing,
  invalidEntryPoint,
  coverageUnavailable,
  NO_STREET_NETWORK,
  OUT_OF_PRODUCTION,
  engineError,
  type ApiError,
  type EngineEnvelope,
  type EngineErrorId,
} from '../errors.js';
import { chooseEncoding, type HeatMapRender, type MapFormat, type RenderedHeatMap } from './heat-map-render.js';
import type { Band } from './isochrones-json.js';
import { heatMapParams, type mapParams } from './heat-maps-params.js';
import type { RequestInfo } from '../links.js';
import { parseParams, requestNow, type ParamsOf } from '../params.js';
import { contextJson, publishersJson } from '../serialize.js';
import { COVERAGE_DEFAULTS, TRAVELER_PROFILES } from './traveler-profiles.js';
import type { Limits } from '../../service/limits.js';

type MapParams = ParamsOf<ReturnType<typeof mapParams>>;

/** A computed map (errors are thrown as ApiError). */
export interface MapAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

/** What a map endpoint asks of the shared flow, from its own parameters. */
export interface MapRequest {
  collection: 'heat_maps' | 'isochrones';
  params: MapParams;
  maxDurationSec: number;
  resolution: number;
  ridesharing: () => ApiError;
  /** what to answer, once the start time and the direction are known */
  format(t0: number, direction: Direction, timeZone: string): MapFormat;
}

type Direction = 'departure' | 'arrival';

const OSM_PUBLISHER = { id: 'osm', name: 'openstreetmap', url: 'https://www.openstreetmap.org/copyright', license: 'ODbL' };

/** `/heat_maps`: Navitia's heat matrix, or the same map as GeoTIFF, PNG or GeoJSON bands (`format`). */
export async function answerHeatMap(
  registry: CoverageRegistry,
  limits: Limits,
  runner: HeatMapRunner,
  req: RequestInfo,
  coverageRef: CoverageRef,
  acceptEncoding?: string,
): Promise<MapAnswer> {
  const params = parseParams(heatMapParams(limits), req.pairs);
  const maxDurationSec = params.max_duration;
  const format = (t0: number, direction: Direction, timeZone: string): MapFormat => {
    switch (params.format) {
      case 'json':
        return { kind: 'heat_matrix' };
      case 'tiff':
        return { kind: 'tiff' };
      case 'png':
        return { kind: 'png', maxDurationSec };
      case 'geojson': {
        const boundaries = params.boundary_duration.length > 0 ? params.boundary_duration : everyStep(GEOJSON_BAND_SEC, maxDurationSec);
        return { kind: 'geojson', bands: bandsOf(0, boundaries, maxDurationSec, t0, direction, timeZone), simplifyM: params.simplify };
      }
    }
  };
  const map: MapRequest = { collection: 'heat_maps', params, maxDurationSec, resolution: params.resolution, ridesharing: heatMapRidesharing, format };
  return answerMap(registry, runner, coverageRef, map, acceptEncoding);
}

/** Default bands of the GeoJSON format: every 10 minutes. */
const GEOJSON_BAND_SEC = 600;

const everyStep = (step: number, max: number) => Array.from({ length: Math.ceil(max / step) - 1 }, (_, k) => (k + 1) * step);

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
 * The flow both map endpoints share, in Navitia's order (navitia-heat-maps.md §4.1): the coverage,
 * the centre, the production period, the street network, then the computation on the runner.
 */
export async function answerMap(registry: CoverageRegistry, runner: HeatMapRunner, coverageRef: CoverageRef, map: MapRequest, acceptEncoding?: string): Promise<MapAnswer> {
  const { params } = map;
  const now = requestNow(params);
  const coverage = resolveCoverage(registry, coverageRef);

  const from = params.from || undefined;
  const to = params.to || undefined;
  if ([...params.first_section_mode, ...params.last_section_mode, ...params.direct_path_mode].includes('ridesharing')) throw map.ridesharing();

  const generation = coverage.generation;
  const timeZone = generation?.tt.timezone ?? coverage.config.timezone ?? 'UTC';
  const publishers = (g: Generation | undefined) => publishersWithOsm(g);
  const context = contextJson(now, timeZone);
  const fail = (id: EngineErrorId, message: string, g: Generation | undefined) => engineError(id, message).within(mapEnvelope(map.collection, publishers(g), context));
  if (!generation) throw coverageUnavailable(coverage).within(mapEnvelope(map.collection, publishers(undefined), context));

  const direction: Direction = from ? 'departure' : 'arrival';
  const placeId = (from ?? to)!;
  const t0 = params.datetime !== undefined ? parseDatetimeParam(params.datetime, timeZone) : now;

  // the centre: typed ids that do not resolve fail before the date check, untyped ones after it
  const centre = resolveCentre(generation, placeId);
  if (centre.kind === 'invalid') throw fail('unknown_object', invalidEntryPoint(placeId), generation);
  if (!inProduction(generation, t0, timeZone)) throw fail('date_out_of_bounds', OUT_OF_PRODUCTION, generation);
  if (centre.kind === 'unknown') throw fail('unknown_object', invalidEntryPoint(placeId), generation);
  if (!generation.streets) throw fail('no_solution', NO_STREET_NETWORK, generation);

  const query = buildQuery(params, generation, direction, centre, t0, map, boardSlackOf(coverage.config));
  const render: HeatMapRender = {
    placeKey: direction === 'departure' ? 'from' : 'to',
    placeJson: placeJson(generation, centre),
    requestedDateTime: formatLocal(t0, timeZone),
    publishersJson: publishers(generation),
    contextJson: context,
    format: map.format(t0, direction, timeZone),
    encoding: chooseEncoding(acceptEncoding),
  };
  let result: RenderedHeatMap;
  try {
    result = await runner.run(coverage.id, generation, query, render);
  } catch (e) {
    if (e instanceof WorkUnavailable) {
      const headers = { 'retry-after': String(e.retryAfterSec) };
      if (e.reason === 'timeout') throw deadRegion(coverage.id).withHeaders(headers);
      throw fail('service_unavailable', HEAT_MAPS_QUEUE_FULL, generation).withHeaders(headers);
    }
    throw e;
  }
  const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
  const headers: Record<string, string> = { 'content-type': result.contentType };
  if (result.encoding) headers['content-encoding'] = result.encoding;
  return { body, headers };
}

/** The body of a map endpoint that failed: its collection empty, the error last. */
function mapEnvelope(collection: MapRequest['collection'], publishers: string, context: string): EngineEnvelope {
  return {
    hasFilterKey: false,
    wrap: (errorJson) => `{"${collection}":[],"feed_publishers":${publishers},"links":[],"warnings":[],"context":${context},"error":${errorJson}}`,
  };
}

function publishersWithOsm(g: Generation | undefined): string {
  if (!g?.streets) return publishersJson(g);
  return JSON.stringify([...g.publishers, OSM_PUBLISHER]);
}

/** The local service date of t0 lies in the production period. */
function inProduction(g: Generation, t0: number, timeZone: string): boolean {
  const local = formatLocal(t0, timeZone);
  const day = dayNumber(Number(local.slice(0, 4)), Number(local.slice(4, 6)), Number(local.slice(6, 8)));
  return g.productionStartDay >= 0 && day >= g.productionStartDay && day <= g.productionEndDay;
}

type Centre =
  | { kind: 'coord'; lon: number; lat: number }
  | { kind: 'stop_area'; index: number; lon: number; lat: number }
  | { kind: 'stop_point'; index: number; lon: number; lat: number }
  | { kind: 'invalid' }
  | { kind: 'unknown' };

const NUMBER = '(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)';
const LON_LAT = new RegExp(`^${NUMBER};${NUMBER}$`);
const COORD = new RegExp(`^coord:${NUMBER}:${NUMBER}$`);

export function resolveCentre(g: Generation, id: string): Centre {
  const m = LON_LAT.exec(id) ?? COORD.exec(id);
  if (m) {
    const lon = Number(m[1]);
    const lat = Number(m[2]);
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) return { kind: 'invalid' };
    return { kind: 'coord', lon, lat };
  }
  const tt = g.tt;
  const sp = g.ref.indexOf('stop_point', id);
  if (sp >= 0) return { kind: 'stop_point', index: sp, lon: tt.stopPoints.lon[sp]!, lat: tt.stopPoints.lat[sp]! };
  const sa = g.ref.indexOf('stop_area', id);
  if (sa >= 0) return { kind: 'stop_area', index: sa, lon: tt.stopAreas[sa]!.lon, lat: tt.stopAreas[sa]!.lat };
  if (/^(coord|stop_area|stop_point|address|admin):/.test(id)) return { kind: 'invalid' };
  return { kind: 'unknown' };
}

const coordJson = (lon: number, lat: number) => ({ lon: String(lon), lat: String(lat) });

function placeJson(g: Generation, centre: Centre): string {
  const tt = g.tt;
  const areaObject = (a: number) => {
    const area = tt.stopAreas[a]!;
    return { id: area.id, name: area.name, label: area.name, coord: coordJson(area.lon, area.lat), timezone: tt.timezone, links: [] };
  };
  switch (centre.kind) {
    case 'stop_area': {
      const area = areaObject(centre.index);
      return JSON.stringify({ id: area.id, name: area.name, quality: 0, embedded_type: 'stop_area', stop_area: area });
    }
    case 'stop_point': {
      const s = centre.index;
      const point = {
        id: tt.stopPoints.ids[s]!,
        name: tt.stopPoints.names[s]!,
        label: tt.stopPoints.names[s]!,
        coord: coordJson(tt.stopPoints.lon[s]!, tt.stopPoints.lat[s]!),
        links: [],
        stop_area: areaObject(tt.stopPoints.area[s]!),
      };
      return JSON.stringify({ id: point.id, name: point.name, quality: 0, embedded_type: 'stop_point', stop_point: point });
    }
    default: {
      const c = centre as { lon: number; lat: number };
      const id = `${c.lon};${c.lat}`;
      const street = streetNameNear(g, c.lon, c.lat);
      const address = { id, name: street, label: street, coord: coordJson(c.lon, c.lat), house_number: 0 };
      return JSON.stringify({ id, name: street, quality: 0, embedded_type: 'address', address });
    }
  }
}

/** Name of the street nearest to a coordinate (within 500 m), or "". */
function streetNameNear(g: Generation, lon: number, lat: number): string {
  const streets = g.streets;
  if (!streets) return '';
  const graph = streets.data.graph;
  const s = nearestSegment(graph, projectX(graph.projection, lon), projectY(graph.projection, lat), 500, 0xff);
  if (s < 0) return '';
  const name = graph.edgeName[graph.segmentEdge[s]!]!;
  return name >= 0 ? streets.names[name]! : '';
}

/** Request parameters, traveller profile and coverage defaults → the computation's query. */
function buildQuery(
  params: MapParams,
  g: Generation,
  direction: 'departure' | 'arrival',
  centre: Centre & { lon: number; lat: number },
  t0: number,
  map: MapRequest,
  boardSlackSec: number,
): HeatMapQuery {
  const profile = params.traveler_type ? TRAVELER_PROFILES[params.traveler_type] : undefined;
  // ridesharing is refused before this point
  const given = (name: 'first_section_mode' | 'last_section_mode' | 'direct_path_mode') => [...new Set(params[name])] as HeatMapMode[];
  const modes = (name: 'first_section_mode' | 'last_section_mode'): HeatMapMode[] => {
    const list = given(name);
    return list.length > 0 ? list : [...((profile?.[name] as HeatMapMode[] | undefined) ?? ['walking'])];
  };
  const first = modes('first_section_mode');
  const last = modes('last_section_mode');
  const endModes = direction === 'departure' ? last : first;
  const directModes = given('direct_path_mode');
  const speeds = {
    walking: params.walking_speed ?? profile?.walking_speed ?? COVERAGE_DEFAULTS.walking_speed,
    bike: params.bike_speed ?? profile?.bike_speed ?? COVERAGE_DEFAULTS.bike_speed,
    bss: params.bss_speed ?? profile?.bss_speed ?? COVERAGE_DEFAULTS.bss_speed,
    car: params.car_speed ?? profile?.car_speed ?? COVERAGE_DEFAULTS.car_speed,
    car_no_park: params.car_no_park_speed ?? COVERAGE_DEFAULTS.car_no_park_speed,
    taxi: params.taxi_speed ?? COVERAGE_DEFAULTS.taxi_speed,
  };
  const toPt = (mode: HeatMapMode, profileValue: number | undefined) =>
    params.max_duration_to_pt ?? params[`max_${mode}_duration_to_pt`] ?? profileValue ?? COVERAGE_DEFAULTS.max_duration_to_pt;
  const maxToPtSec = {
    walking: toPt('walking', profile?.max_walking_duration_to_pt),
    bike: toPt('bike', profile?.max_bike_duration_to_pt),
    bss: toPt('bss', profile?.max_bss_duration_to_pt),
    car: toPt('car', profile?.max_car_duration_to_pt),
    car_no_park: toPt('car_no_park', undefined),
    taxi: toPt('taxi', undefined),
  };
  const wheelchair = params.wheelchair ?? profile?.wheelchair ?? false;
  const freeStops: number[] = [];
  if (centre.kind === 'stop_point') freeStops.push(centre.index);
  else if (centre.kind === 'stop_area') for (const s of g.ref.convert('stop_area', 'stop_point', Uint32Array.of(centre.index))) freeStops.push(s);
  const directPath = params.direct_path;
  const { tripAllowed, stopAllowed } = transitMasks(g, params.forbidden_uris, params.allowed_id);
  return {
    direction,
    centreLon: centre.lon,
    centreLat: centre.lat,
    freeStops,
    freeRadiusM: Math.max(0, direction === 'departure' ? params.free_radius_from : params.free_radius_to),
    accessModes: direction === 'departure' ? first : last,
    endModes,
    directModes: directModes.length > 0 ? directModes : endModes,
    speeds,
    maxToPtSec,
    taxiAccessExtraSec: Math.max(0, direction === 'departure' ? params.additional_time_after_first_section_taxi : params.additional_time_before_last_section_taxi),
    taxiEndExtraSec: Math.max(0, direction === 'departure' ? params.additional_time_before_last_section_taxi : params.additional_time_after_first_section_taxi),
    t0,
    maxDurationSec: map.maxDurationSec,
    resolution: map.resolution,
    maxTransfers: Math.max(0, params.max_nb_transfers),
    minTransfers: Math.max(0, params.min_nb_transfers),
    boardSlackSec,
    wheelchair,
    directPath: directPath !== 'none',
    transit: directPath !== 'only',
    tripAllowed,
    stopAllowed,
    overlay: g.overlays?.of(freshnessLevel(params)) ?? null,
  };
}

/** data_freshness, else realtime when the deprecated disruption_active=true, else base_schedule (Navitia's order). */
function freshnessLevel(params: MapParams): FreshnessLevel {
  return params.data_freshness ?? (params.disruption_active ? 'realtime' : 'base_schedule');
}

/** Types an id of forbidden_uris[] or allowed_id[] may name, in the order they are tried. */
const TRIP_TYPES = ['line', 'route', 'network', 'physical_mode', 'commercial_mode', 'company', 'vehicle_journey', 'trip'] as const;

/** Per-trip and per-stop masks from forbidden_uris[] and allowed_id[] (null: everything allowed). */
export function transitMasks(g: Generation, forbidden: string[], allowed: string[]): { tripAllowed: Uint8Array | null; stopAllowed: Uint8Array | null } {
  const ref = g.ref;
  const tripCount = g.tt.trips.ids.length;
  const stopCount = g.tt.stopPoints.ids.length;
  const classify = (ids: string[]) => {
    const trips: Uint32Array[] = [];
    const stops: Uint32Array[] = [];
    for (const id of ids) {
      if (!id) continue;
      const sp = ref.indexOf('stop_point', id);
      if (sp >= 0) {
        stops.push(Uint32Array.of(sp));
        continue;
      }
      const sa = ref.indexOf('stop_area', id);
      if (sa >= 0) {
        stops.push(ref.convert('stop_area', 'stop_point', Uint32Array.of(sa)));
        continue;
      }
      for (const type of TRIP_TYPES) {
        const i = ref.indexOf(type, id);
        if (i >= 0) {
          trips.push(ref.toTrips(type, Uint32Array.of(i)));
          break;
        }
      }
    }
    return { trips, stops };
  };
  const allow = classify(allowed);
  const forbid = classify(forbidden);
  let tripAllowed: Uint8Array | null = null;
  let stopAllowed: Uint8Array | null = null;
  if (allow.trips.length > 0 || forbid.trips.length > 0) {
    tripAllowed = new Uint8Array(tripCount).fill(allow.trips.length > 0 ? 0 : 1);
    for (const set of allow.trips) for (const t of set) tripAllowed[t] = 1;
    for (const set of forbid.trips) for (const t of set) tripAllowed[t] = 0;
  }
  if (allow.stops.length > 0 || forbid.stops.length > 0) {
    stopAllowed = new Uint8Array(stopCount).fill(allow.stops.length > 0 ? 0 : 1);
    for (const set of allow.stops) for (const s of set) stopAllowed[s] = 1;
    for (const set of forbid.stops) for (const s of set) stopAllowed[s] = 0;
  }
  return { tripAllowed, stopAllowed };
}
