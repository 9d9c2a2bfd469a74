/**
 * The eight trips operations: `/v1/coverage/{region | lon;lat}[/{uri}]/trips[/{id}]`.
 *
 * Pipeline (navitia-trips.md §2): parameters → coverage → `{uri}` and filter → trips → our own
 * filters → page → JSON written as a string.
 */
import type { Generation } from '../../service/generation.js';
import type { AddedTrips } from '../../ptref/added-trips.js';
import { NO_LINE, NO_ROUTE } from '../../model/realtime-runs.js';
import { FilterError } from '../../ptref/filter-ast.js';
import { type TripsQuery } from '../../ptref/trips-criteria.js';
import { findTrips, UnknownTypeError } from '../../ptref/trips-query.js';
import { engineError, plainError, unknownExternalCode } from '../errors.js';
import { cleanHref, paginationLinks, type Link, type PageInfo, type RequestInfo } from '../links.js';
import { parseParams, resolveDatetime } from '../params.js';
import { contextJson, publishersJson } from '../serialize.js';
import { pageDisruptionsJson } from './disruption-json.js';
import { type Limits } from '../../service/limits.js';
import { tripsParams } from './trips-params.js';
import type { CoverageRef } from '../coverage/coverage-resolution.js';

export interface TripsRequest {
  req: RequestInfo;
  /** How the coverage was named in the path (region id or lon;lat). */
  coverageRef: CoverageRef;
  uri: string[];
  id?: string;
}

/** Validate parameters first: a bad parameter beats an unknown region (§2). */
export function parseTripsParams(r: TripsRequest, limits: Limits) {
  return parseParams(tripsParams(limits, r.id === undefined), r.req.pairs);
}

export function answerTrips(r: TripsRequest, generation: Generation, params: ReturnType<typeof parseTripsParams>, nowSec: number): string {
  const tz = generation.tt.timezone;
  const forbidden = [...params.forbidden_uris, ...params.forbidden_id];
  const query: TripsQuery = {
    uri: r.uri,
    id: r.id,
    filter: r.id === undefined ? params.filter : undefined,
    headsign: params.headsign || undefined,
    tags: params.tags,
    forbiddenUris: forbidden,
    externalCode: params.external_code,
    odtLevel: params.odt_level,
    dataFreshness: params.data_freshness,
    sinceSec: resolveDatetime(params.since, tz),
    untilSec: resolveDatetime(params.until, tz),
    distance: params.distance,
  };
  let trips: Uint32Array;
  try {
    trips = findTrips(generation.ref, generation.freshness, query, generation.disruptions);
  } catch (e) {
    if (e instanceof UnknownTypeError) throw plainError(400, e.message);
    if (e instanceof FilterError) {
      // An external code that matches nothing names the code, like Navitia's other collections.
      if (query.externalCode !== undefined && e.id === 'bad_filter' && !generation.ref.tt.tripCodes.has(query.externalCode)) {
        throw unknownExternalCode(query.externalCode);
      }
      throw engineError(e.id, e.message);
    }
    throw e;
  }
  const startPage = params.start_page;
  const count = params.count;
  const from = startPage * count;
  const page = from < trips.length ? trips.subarray(from, Math.min(trips.length, from + count)) : trips.subarray(0, 0);
  const info: PageInfo = { totalResult: trips.length, startPage, itemsPerPage: count, itemsOnPage: page.length };

  const links: Link[] = [];
  if (page.length > 0) {
    links.push({ href: cleanHref(`${r.req.base}/v1/coverage/${r.coverageRef.text}/trips/{trips.id}`), templated: true, rel: 'trips', type: 'trips' });
  }
  if (r.coverageRef.kind === 'region') links.push(...paginationLinks(r.req, info));

  const depth = params.depth;
  const parts: string[] = [];
  parts.push(`{"pagination":{"total_result":${info.totalResult},"start_page":${startPage},"items_per_page":${count},"items_on_page":${info.itemsOnPage}}`);
  if (page.length > 0) {
    const items: string[] = [];
    for (let k = 0; k < page.length; k++) items.push(tripJson(generation, page[k]!, depth, params.disable_geojson));
    parts.push(`,"trips":[${items.join(',')}]`);
  }
  parts.push(`,"disruptions":${params.disable_disruption ? '[]' : pageDisruptionsJson(generation, page, nowSec)}`);
  parts.push(`,"feed_publishers":${publishersJson(generation)}`);
  parts.push(`,"context":${contextJson(nowSec, tz)}`);
  parts.push(`,"links":${JSON.stringify(links)}}`);
  return parts.join('');
}

/** A trip: `{id, name}` at depth 0 and 1; more fields from depth 2; its geometry from depth 3. */
export function tripJson(g: Generation, t: number, depth: number, disableGeojson: boolean): string {
  const tt = g.tt;
  // trip indexes past the timetable's are the added trips of the realtime level (ptref/added-trips.ts)
  if (t >= tt.trips.ids.length) return addedTripJson(g.freshness.addedTrips!('realtime')!, t, depth, disableGeojson);
  const id = JSON.stringify(tt.trips.ids[t]);
  const name = JSON.stringify(tt.trips.names[t]);
  if (depth < 2) return `{"id":${id},"name":${name}}`;
  const obj: Record<string, unknown> = {
    id: tt.trips.ids[t],
    name: tt.trips.names[t],
    headsign: tt.trips.headsigns[t],
    short_name: tt.trips.shortNames[t],
    odt_level: ['scheduled', 'with_stops', 'zonal'][tt.trips.odtLevel[t]!],
    ...lineFields(tt, tt.trips.line[t]!, tt.trips.route[t]!),
  };
  const s0 = tt.trips.stopTimeOffset[t]!;
  const s1 = tt.trips.stopTimeOffset[t + 1]!;
  const p = tt.trips.pattern[t]!;
  const stops = tt.patterns.stops.subarray(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p + 1]!);
  Object.assign(obj, stopFields(tt, stops, tt.stopTimes.departureSec[s0]!, tt.stopTimes.arrivalSec[s1 - 1]!, depth >= 3 && !disableGeojson));
  return JSON.stringify(obj);
}

/** An added trip, like a static one: its line's fields when it has one, no headsign nor short name. */
function addedTripJson(added: AddedTrips, t: number, depth: number, disableGeojson: boolean): string {
  const tt = added.ref.tt;
  const run = added.run(t);
  const name = added.names[t - added.firstIndex]!;
  if (depth < 2) return `{"id":${JSON.stringify(run.tripId)},"name":${JSON.stringify(name)}}`;
  const obj: Record<string, unknown> = {
    id: run.tripId,
    name,
    headsign: '',
    short_name: '',
    odt_level: 'scheduled',
    ...(run.line === NO_LINE ? {} : lineFields(tt, run.line, run.route)),
  };
  Object.assign(obj, stopFields(tt, run.stops, run.departureSec[0]!, run.arrivalSec[run.arrivalSec.length - 1]!, depth >= 3 && !disableGeojson));
  return JSON.stringify(obj);
}

/** route, line, network and modes of a trip of line `l` and route `r` (NO_ROUTE: none). */
function lineFields(tt: Generation['tt'], l: number, r: number): Record<string, unknown> {
  const line = tt.lines[l]!;
  const route = r === NO_ROUTE ? undefined : tt.routes[r]!;
  const agency = tt.agencies[line.agency]!;
  return {
    ...(route ? { route: { id: route.id, name: route.name, direction_id: route.direction } } : {}),
    line: { id: line.id, code: line.code, name: line.name, color: line.color, text_color: line.textColor },
    network: { id: agency.id, name: agency.name },
    physical_mode: tt.physicalModes[line.physicalMode],
    commercial_mode: tt.commercialModes[line.commercialMode],
  };
}

/** first_stop_time, last_stop_time and, when asked, the geometry through the stops. */
function stopFields(tt: Generation['tt'], stops: Uint32Array, firstDepartureSec: number, lastArrivalSec: number, geojson: boolean): Record<string, unknown> {
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const obj: Record<string, unknown> = {
    first_stop_time: { stop_point: { id: tt.stopPoints.ids[first], name: tt.stopPoints.names[first] }, departure_time: hhmmss(firstDepartureSec) },
    last_stop_time: { stop_point: { id: tt.stopPoints.ids[last], name: tt.stopPoints.names[last] }, arrival_time: hhmmss(lastArrivalSec) },
  };
  if (geojson) {
    const coordinates: [number, number][] = [];
    for (const s of stops) coordinates.push([tt.stopPoints.lon[s]!, tt.stopPoints.lat[s]!]);
    obj['geojson'] = { type: 'LineString', coordinates };
  }
  return obj;
}

/** Seconds after the service day's origin as Navitia's `HHMMSS` (hours may pass 24). */
function hhmmss(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  return `${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}${String(s).padStart(2, '0')}`;
}
