/**
 * Which endpoint a `/v1/coverage…` path names (a `Target`), and what follows from it alone: its
 * parameter table (for `OPTIONS ?schema=true`) and what names its answer for the HTTP cache.
 */
import type { FastifyRequest } from 'fastify';
import { COLLECTION_CAPTIONS } from '../ptref/object-types.js';
import type { Limits } from '../service/limits.js';
import { coverageRef, type CoverageRef } from './coverage/coverage-resolution.js';
import { notFoundRoute } from './errors.js';
import { heatMapParams, isochroneParams } from './heat-maps/heat-maps-params.js';
import { baseUrl, type RequestInfo } from './links.js';
import type { CacheTarget } from './operations/http-cache.js';
import type { ParamSpec } from './params.js';
import { parseQueryString } from './query-string.js';
import type { NearbyRequest } from './referential/places-nearby-endpoint.js';
import type { ReferentialRequest } from './referential/referential-endpoint.js';
import { collectionParams, isReferentialCollection, placesNearbyParams, placesParams } from './referential/referential-params.js';
import type { TripsRequest } from './trips/trips-endpoint.js';
import { COVERAGE_PARAMS, tripsParams } from './trips/trips-params.js';

/** The parameter table of an endpoint, for `OPTIONS ?schema=true`. */
export function paramsOf(target: Target, limits: Limits): readonly ParamSpec[] {
  switch (target.kind) {
    case 'coverage':
      return COVERAGE_PARAMS;
    case 'heat_maps':
      return heatMapParams(limits);
    case 'isochrones':
      return isochroneParams(limits);
    case 'trips':
      return tripsParams(limits, target.trips.id === undefined);
    case 'collection':
      return collectionParams(limits, target.collection.collection, target.collection.id === undefined);
    case 'places':
      return placesParams(limits);
    case 'places_nearby':
      return placesNearbyParams(limits);
    case 'street_network':
      return [];
  }
}

export type Target =
  | { kind: 'coverage'; info: RequestInfo; segment: string | undefined }
  | { kind: 'trips'; trips: TripsRequest }
  | { kind: 'collection'; collection: ReferentialRequest }
  | { kind: 'places'; info: RequestInfo; coverageRef: CoverageRef }
  | { kind: 'places_nearby'; nearby: NearbyRequest }
  | { kind: 'heat_maps'; info: RequestInfo; coverageRef: CoverageRef }
  | { kind: 'isochrones'; info: RequestInfo; coverageRef: CoverageRef }
  | { kind: 'street_network'; info: RequestInfo; coverageRef: CoverageRef };

/** Which endpoint a `/v1/coverage…` path names (throws the not-found route error for none). */
export function targetOf(req: FastifyRequest): Target {
  const url = req.raw.url ?? '';
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const pairs = parseQueryString(q < 0 ? '' : url.slice(q + 1));
  const segments: string[] = [];
  for (const s of rawPath.split('/').slice(3)) {
    if (s === '') continue;
    try {
      segments.push(decodeURIComponent(s));
    } catch {
      throw notFoundRoute();
    }
  }
  const info: RequestInfo = { base: baseUrl(req.headers, req.protocol === 'https'), path: rawPath.replace(/\/+$/, ''), pairs };
  if (segments.length <= 1) return { kind: 'coverage', info, segment: segments[0] };
  const rest = segments.slice(1);
  const ref = coverageRef(segments[0]!);
  if (rest.length === 1 && rest[0] === 'heat_maps') return { kind: 'heat_maps', info, coverageRef: ref };
  if (rest.length === 1 && rest[0] === 'isochrones') return { kind: 'isochrones', info, coverageRef: ref };
  if (rest.length === 1 && rest[0] === 'street_network') return { kind: 'street_network', info, coverageRef: ref };
  if (rest.length === 1 && rest[0] === 'places') return { kind: 'places', info, coverageRef: ref };
  if (rest.length === 3 && (rest[0] === 'coords' || rest[0] === 'coord') && rest[2] === 'places_nearby') {
    const point = coverageRef(rest[1]!);
    if (point.kind !== 'coord') throw notFoundRoute();
    return { kind: 'places_nearby', nearby: { info, coverageRef: ref, lon: point.lon, lat: point.lat } };
  }
  const last = rest.length - 1;
  // After a collection name, a collection's name is an object id: `lines/trips` names the line
  // `trips`, not a trips collection (navitia-trips.md §1, route ambiguity); `trips/trips` is the trip `trips`.
  const afterCollection = last >= 1 && Object.hasOwn(COLLECTION_CAPTIONS, rest[last - 1]!);
  const list = afterCollection ? undefined : rest[last]!;
  const ofId = rest.length >= 2 ? rest[last - 1]! : undefined;
  const request = (id?: string) => ({ req: info, coverageRef: ref, uri: rest.slice(0, id === undefined ? -1 : -2), ...(id === undefined ? {} : { id }) });
  if (list === 'trips') return { kind: 'trips', trips: request() };
  if (list !== undefined && isReferentialCollection(list)) return { kind: 'collection', collection: { ...request(), collection: list } };
  if (ofId === 'trips') return { kind: 'trips', trips: request(rest[last]!) };
  if (ofId !== undefined && isReferentialCollection(ofId)) return { kind: 'collection', collection: { ...request(rest[last]!), collection: ofId } };
  throw notFoundRoute();
}

/** What names an answer for the HTTP cache: the endpoint, its coverage (none for the list) and the request. */
export function cacheTargetOf(target: Target): CacheTarget {
  switch (target.kind) {
    case 'coverage':
      return { kind: target.kind, ref: target.segment === undefined ? undefined : coverageRef(target.segment), info: target.info };
    case 'trips':
      return { kind: target.kind, ref: target.trips.coverageRef, info: target.trips.req };
    case 'collection':
      return { kind: target.kind, ref: target.collection.coverageRef, info: target.collection.req };
    case 'places_nearby':
      return { kind: target.kind, ref: target.nearby.coverageRef, info: target.nearby.info };
    default:
      return { kind: target.kind, ref: target.coverageRef, info: target.info };
  }
}
