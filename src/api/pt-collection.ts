/**
 * What every PT-referential collection answer shares (trips, lines, stop areas, vehicle
 * journeys…): the query from the parameters, the engine's errors as Navitia answers them, and the
 * page with its pagination, templated id link and paging links, disruptions, publishers and context.
 */
import type { Generation } from '../service/generation.js';
import { FILTER_ERRORS, FilterError } from '../ptref/filter-ast.js';
import type { Caption } from '../ptref/object-types.js';
import type { TripsQuery } from '../ptref/trips-criteria.js';
import { externalCodeSet, findObjects, UnknownTypeError } from '../ptref/trips-query.js';
import { engineError, plainError, unknownExternalCode } from './errors.js';
import { objectLink, paginationJson, paginationLinks, type Link, type PageInfo, type RequestInfo } from './links.js';
import { nothingFoundDetails } from './nothing-found.js';
import { contextJson, publishersJson } from './serialize.js';
import type { CoverageRef } from './coverage/coverage-resolution.js';
import type { FreshnessLevel } from '../ptref/freshness.js';
import { resolveDatetime } from '../queries/param-table.js';

/** A request of a collection: `/v1/coverage/{region | lon;lat}[/{uri}]/{collection}[/{id}]`. */
export interface CollectionRequest {
  req: RequestInfo;
  /** How the coverage was named in the path (region id or lon;lat). */
  coverageRef: CoverageRef;
  uri: string[];
  id?: string;
}

/** The parameters every collection table has (trips-params.ts, referential-params.ts). */
export interface CollectionParams {
  start_page: number;
  count: number;
  forbidden_uris: string[];
  forbidden_id: string[];
  filter?: string | undefined;
  headsign?: string | undefined;
  tags: string[];
  external_code?: string | undefined;
  odt_level: TripsQuery['odtLevel'];
  data_freshness: FreshnessLevel;
  since?: string | undefined;
  until?: string | undefined;
  distance: number;
  disable_disruption: boolean;
}

/** The query of a request, its datetimes read in the coverage's time zone. */
export function collectionQuery(r: CollectionRequest, params: CollectionParams, timeZone: string): TripsQuery {
  return {
    uri: r.uri,
    id: r.id,
    filter: r.id === undefined ? params.filter : undefined,
    headsign: params.headsign || undefined,
    tags: params.tags,
    forbiddenUris: [...params.forbidden_uris, ...params.forbidden_id],
    externalCode: params.external_code,
    odtLevel: params.odt_level,
    dataFreshness: params.data_freshness,
    sinceSec: resolveDatetime(params.since, timeZone),
    untilSec: resolveDatetime(params.until, timeZone),
    distance: params.distance,
  };
}

const NOTHING_FOUND = FILTER_ERRORS.nothingFound().message;

/** The matching objects of type `target`, or the error Navitia answers (§8), with its details when nothing matches. */
export function findOrFail(generation: Generation, target: Caption, query: TripsQuery): Uint32Array {
  try {
    return findObjects(generation.ref, generation.freshness, target, query, generation.disruptions);
  } catch (e) {
    if (e instanceof UnknownTypeError) throw plainError(400, e.message);
    if (e instanceof FilterError) {
      // An external code that matches nothing names the code, like Navitia's other collections.
      if (query.externalCode !== undefined && e.id === 'bad_filter' && externalCodeSet(generation.ref, target, query.externalCode).length === 0) {
        throw unknownExternalCode(query.externalCode);
      }
      const error = engineError(e.id, e.message);
      if (e.message === NOTHING_FOUND) error.withDetails(nothingFoundDetails(generation, target, query, generation.tt.timezone));
      throw error;
    }
    throw e;
  }
}

/** How the objects of one page are written. */
export interface PageWriter {
  /** the collection's name in the answer and its links (`trips`, `lines`…) */
  collection: string;
  /** one object as JSON text */
  item(i: number): string;
  /** the disruptions of the page's objects as JSON text */
  disruptions(page: Uint32Array): string;
}

/** The answer of one page of `set` (ascending object indexes). */
export function collectionPageJson(r: CollectionRequest, generation: Generation, set: Uint32Array, params: CollectionParams, nowSec: number, writer: PageWriter): string {
  const { start_page: startPage, count } = params;
  const from = startPage * count;
  const page = from < set.length ? set.subarray(from, Math.min(set.length, from + count)) : set.subarray(0, 0);
  const info: PageInfo = { totalResult: set.length, startPage, itemsPerPage: count, itemsOnPage: page.length };
  const name = writer.collection;
  const links: Link[] = [];
  if (page.length > 0) {
    links.push(objectLink(r.req.base, r.coverageRef.text, name));
  }
  if (r.coverageRef.kind === 'region') links.push(...paginationLinks(r.req, info));

  const parts: string[] = [];
  parts.push(`{"pagination":${paginationJson(info)}`);
  if (page.length > 0) {
    const items: string[] = [];
    for (let k = 0; k < page.length; k++) items.push(writer.item(page[k]!));
    parts.push(`,${JSON.stringify(name)}:[${items.join(',')}]`);
  }
  parts.push(`,"disruptions":${params.disable_disruption ? '[]' : writer.disruptions(page)}`);
  parts.push(`,"feed_publishers":${publishersJson(generation)}`);
  parts.push(`,"context":${contextJson(nowSec, generation.tt.timezone)}`);
  parts.push(`,"links":${JSON.stringify(links)}}`);
  return parts.join('');
}
