/**
 * Which endpoint a `/v1/coverage…` path names (a `Target`): Navitia's paths are ambiguous (an
 * object id may be a collection's name), and this is the one place that reads them. Also what names
 * an answer for the HTTP cache, which follows from the target alone.
 */
import type { FastifyRequest } from 'fastify';
import { COLLECTION_CAPTIONS } from '../ptref/object-types.js';
import { coverageRef, type CoverageRef } from './coverage/coverage-resolution.js';
import { notFoundRoute } from './errors.js';
import { baseUrl, type RequestInfo } from './links.js';
import type { CacheTarget } from './operations/http-cache.js';
import { parseQueryString } from './query-string.js';
import type { CollectionRequest } from './pt-collection.js';
import { isReferentialCollection, type ReferentialCollection } from './referential/referential-params.js';

/** Every target carries its request and the coverage its path names (none for the coverage list). */
interface Addressed {
  info: RequestInfo;
  coverageRef: CoverageRef;
}

/** A collection of the PT referential other than trips: `…[/{uri}]/{collection}[/{id}]`. */
export interface ReferentialRequest extends CollectionRequest {
  collection: ReferentialCollection;
}

export type Target =
  | { kind: 'coverage'; info: RequestInfo; coverageRef: CoverageRef | undefined }
  | (Addressed & { kind: 'trips'; request: CollectionRequest })
  | (Addressed & { kind: 'collection'; request: ReferentialRequest })
  | (Addressed & { kind: 'places' })
  | (Addressed & { kind: 'places_nearby'; lon: number; lat: number })
  | (Addressed & { kind: 'heat_maps' })
  | (Addressed & { kind: 'isochrones' })
  | (Addressed & { kind: 'street_network' })
  | (Addressed & { kind: 'accessibility' })
  | (Addressed & { kind: 'travel_time_matrix' })
  | (Addressed & { kind: 'point_sets' })
  | (Addressed & { kind: 'scenarios' });

export type TargetKind = Target['kind'];

/** The endpoints a coverage's path names with one more segment, the same on a region and on a point. */
const SINGLE_SEGMENT_KINDS = ['heat_maps', 'isochrones', 'street_network', 'places', 'accessibility', 'travel_time_matrix', 'point_sets', 'scenarios'] as const;
type SingleSegmentKind = (typeof SINGLE_SEGMENT_KINDS)[number];
const SINGLE_SEGMENT_TARGETS: ReadonlySet<string> = new Set(SINGLE_SEGMENT_KINDS);
export type TargetOf<K extends TargetKind> = Extract<Target, { kind: K }>;

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
  if (segments.length <= 1) return { kind: 'coverage', info, coverageRef: segments[0] === undefined ? undefined : coverageRef(segments[0]) };
  const rest = segments.slice(1);
  const at = { info, coverageRef: coverageRef(segments[0]!) };
  if (rest.length === 1 && SINGLE_SEGMENT_TARGETS.has(rest[0]!)) return { kind: rest[0] as SingleSegmentKind, ...at };
  if (rest.length === 3 && (rest[0] === 'coords' || rest[0] === 'coord') && rest[2] === 'places_nearby') {
    const point = coverageRef(rest[1]!);
    if (point.kind !== 'coord') throw notFoundRoute();
    return { kind: 'places_nearby', ...at, lon: point.lon, lat: point.lat };
  }
  const last = rest.length - 1;
  // After a collection name, a collection's name is an object id: `lines/trips` names the line
  // `trips`, not a trips collection (Navitia's route ambiguity); `trips/trips` is the trip `trips`.
  const afterCollection = last >= 1 && Object.hasOwn(COLLECTION_CAPTIONS, rest[last - 1]!);
  const list = afterCollection ? undefined : rest[last]!;
  const ofId = rest.length >= 2 ? rest[last - 1]! : undefined;
  const request = (id?: string): CollectionRequest => ({ req: info, coverageRef: at.coverageRef, uri: rest.slice(0, id === undefined ? -1 : -2), ...(id === undefined ? {} : { id }) });
  if (list === 'trips') return { kind: 'trips', ...at, request: request() };
  if (list !== undefined && isReferentialCollection(list)) return { kind: 'collection', ...at, request: { ...request(), collection: list } };
  if (ofId === 'trips') return { kind: 'trips', ...at, request: request(rest[last]!) };
  if (ofId !== undefined && isReferentialCollection(ofId)) return { kind: 'collection', ...at, request: { ...request(rest[last]!), collection: ofId } };
  throw notFoundRoute();
}

/** What names an answer for the HTTP cache: the endpoint, its coverage (none for the list) and the request. */
export function cacheTargetOf(target: Target): CacheTarget {
  return { kind: target.kind, ref: target.coverageRef, info: target.info };
}
