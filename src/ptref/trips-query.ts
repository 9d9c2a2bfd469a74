/**
 * The PT-referential query, over any object type (trips, lines, stop areas, vehicle journeys…): from
 * the request's `{uri}`, `filter`, `headsign`, `tags[]`, `forbidden_uris[]` and `{id}` to the sorted
 * set of matching objects, then our own filters (external code, ODT level, and for trips and vehicle
 * journeys the since/until window at a freshness level).
 *
 * The pieces are assembled into one filter string the way Navitia does
 * (`((<filter> and <headsign>) and <uri clauses> and <tags>) and <type>.uri="<id>"`, then
 * `(<query>) - (<forbidden objects>)`), so that errors quote the same text.
 */
import type { AddedTrips } from './added-trips.js';
import { addedTripsMatching } from './added-trips-query.js';
import { departingWithin } from './departing-trips.js';
import { FILTER_ERRORS, FilterError, unparsable } from './filter-ast.js';
import { evaluate } from './filter-eval.js';
import { parseFilter, quoteFilterString } from './filter-parser.js';
import type { Freshness } from './freshness.js';
import type { TripsQuery } from './trips-criteria.js';
import { ODT_LEVEL_NAMES } from '../model/timetable.js';
import { COLLECTION_CAPTIONS, COORD_COLLECTIONS, isTripLike, PTREF_ID_TYPES, type Caption } from './object-types.js';
import type { Referential } from './referential.js';
import { EMPTY, intersect } from './sorted-set.js';
import type { DisruptionLookup } from './disruption-lookup.js';

/** `{uri}` names a collection we do not know: HTTP 400 `{"message": "unknown type: <segment>"}`. */
export class UnknownTypeError extends Error {
  constructor(readonly segment: string) {
    super(`unknown type: ${segment}`);
  }
}

/** Matching trips, ascending by trip index. Throws FilterError or UnknownTypeError. */
export function findTrips(ref: Referential, freshness: Freshness, q: TripsQuery, disruptions?: DisruptionLookup): Uint32Array {
  return findObjects(ref, freshness, 'trip', q, disruptions);
}

/**
 * Matching objects of type `target`, ascending by index. Throws FilterError (nothing found
 * included) or UnknownTypeError. The realtime level's added trips join the trips only.
 */
export function findObjects(ref: Referential, freshness: Freshness, target: Caption, q: TripsQuery, disruptions?: DisruptionLookup): Uint32Array {
  const tripLike = isTripLike(target);
  // the trips realtime adds, at the realtime level only (after the static ones, see added-trips.ts)
  const added = target === 'trip' ? freshness.addedTrips?.(q.dataFreshness) : undefined;
  const query = assembleFilter(ref, q, added, target);
  let expr;
  try {
    expr = parseFilter(query);
  } catch (e) {
    if (e instanceof FilterError) throw unparsable(e);
    throw e;
  }
  let trips = evaluate(expr, target, { ref, freshness, disruptions });
  if (q.externalCode !== undefined) {
    trips = intersect(trips, externalCodeSet(ref, target, q.externalCode));
  }
  if (q.odtLevel !== 'all') {
    const level = ODT_LEVEL_NAMES.indexOf(q.odtLevel);
    if (tripLike) trips = trips.filter((t) => ref.tt.trips.odtLevel[t] === level);
    else if (target === 'line') trips = trips.filter((l) => ((ref.lineOdtLevels[l]! >>> level) & 1) === 1);
  }
  if (tripLike && (q.sinceSec !== undefined || q.untilSec !== undefined)) {
    const since = q.sinceSec ?? -Infinity;
    const until = q.untilSec ?? Infinity;
    if (until < since) throw FILTER_ERRORS.invalidPeriod();
    trips = departingWithin(ref, freshness, q.dataFreshness, since, until, trips);
  }
  if (added) trips = concat(trips, addedTripsMatching(added, expr, q, { ref, freshness, disruptions }));
  if (trips.length === 0) throw FILTER_ERRORS.nothingFound();
  return trips;
}

/** The objects of a type with an external code: a trip's codes (trips-criteria.ts), another object's source id. */
export function externalCodeSet(ref: Referential, target: Caption, code: string): Uint32Array {
  if (isTripLike(target)) return ref.tt.tripCodes.get(code) ?? EMPTY;
  const i = ref.indexOf(target, code);
  return i < 0 ? EMPTY : Uint32Array.of(i);
}

/** The whole filter string of a request (`added`: the added trips the request sees, if any). */
export function assembleFilter(ref: Referential, q: TripsQuery, added?: AddedTrips, target: Caption = 'trip'): string {
  let user = q.filter?.trim() ?? '';
  if (q.headsign) {
    const clause = `vehicle_journey.has_headsign(${quoteFilterString(q.headsign)})`;
    user = user ? `${user} and ${clause}` : clause;
  }
  const pieces: string[] = [];
  if (user) pieces.push(`(${user})`);
  pieces.push(...uriClauses(q.uri, q.distance));
  if (q.tags.length > 0) pieces.push(`disruption.tags(${q.tags.map(quoteFilterString).join(', ')})`);
  let query = pieces.join(' and ');
  if (q.id !== undefined) {
    const clause = `${target}.uri=${quoteFilterString(q.id)}`;
    query = query ? `(${query}) and ${clause}` : clause;
  }
  const forbidden = forbiddenClauses(ref, q.forbiddenUris, added);
  if (forbidden.length > 0) query = `(${query || 'all'}) - (${forbidden.join(' or ')})`;
  return query;
}

/** `lines/L1/coord/2.3;48.8` → ['line.uri="L1"', 'stop_point.coord DWITHIN(2.3, 48.8, 200)']. */
export function uriClauses(segments: string[], distance: number): string[] {
  const clauses: string[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    const type = segments[i]!;
    const value = segments[i + 1];
    if (COORD_COLLECTIONS.has(type)) {
      if (value === undefined) continue;
      const parts = value.split(';');
      if (parts.length === 2) clauses.push(`stop_point.coord DWITHIN(${parts[0]}, ${parts[1]}, ${distance})`);
      else clauses.push(`${type === 'addresses' ? 'address' : 'coord'}.uri=${quoteFilterString(value)}`);
      continue;
    }
    const caption = COLLECTION_CAPTIONS[type];
    if (!caption) throw new UnknownTypeError(type);
    if (value === undefined) continue; // a trailing type without a value is ignored
    clauses.push(`${caption}.uri=${quoteFilterString(value)}`);
  }
  return clauses;
}

function forbiddenClauses(ref: Referential, ids: string[], added: AddedTrips | undefined): string[] {
  const clauses: string[] = [];
  for (const id of ids) {
    if (!id) continue;
    // Ids whose type cannot be named (coordinates, addresses, admins) make the query unparsable.
    if (/^-?\d+(\.\d+)?;-?\d+(\.\d+)?$/.test(id) || id.startsWith('address:') || id.startsWith('admin:')) {
      throw FILTER_ERRORS.unknownType(id);
    }
    let type = ref.identify(id, PTREF_ID_TYPES)?.type;
    // an unknown id shaped like the stop area of a stop without station (docs/data-loading.md) still names a stop area
    if (!type && id.startsWith('stop_area:')) type = 'stop_area';
    if (!type && added && added.indexOf(id) >= 0) type = 'trip';
    if (type) clauses.push(`${type}.id=${quoteFilterString(id)}`);
  }
  return clauses;
}

/** `a` then `b` (every element of `b` above those of `a`: still ascending). */
function concat(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
