/**
 * Why a PT-referential query found nothing, in the request's terms (Navitia answers only "ptref :
 * Filters: Unable to find object"): an id in `{uri}` or `{id}` that names no object, trips that
 * exist but have no run in the asked `since`/`until` window (with the days they do run), or
 * criteria that nothing matches. Only asked after a query came back empty, so its cost (a second
 * query, a scan of the found trips' calendars) is paid on that path alone.
 */
import { FilterError } from './filter-ast.js';
import type { Freshness } from './freshness.js';
import { COLLECTION_CAPTIONS, isTripLike, type Caption } from './object-types.js';
import type { Referential } from './referential.js';
import type { TripsQuery } from './trips-criteria.js';
import { findObjects } from './trips-query.js';
import type { DisruptionLookup } from './disruption-lookup.js';

export type EmptyReason =
  /** `{uri}` or `{id}` names an object that does not exist */
  | { kind: 'unknown_object'; type: Caption; id: string }
  /** the objects `{uri}` names exist; the trips found without the window run only on these days (day numbers) */
  | { kind: 'no_run_in_window'; subject: { type: Caption; id: string } | undefined; firstDay: number; lastDay: number }
  /** nothing to say but that the criteria match nothing */
  | { kind: 'no_match' };

export function whyEmpty(ref: Referential, freshness: Freshness, target: Caption, q: TripsQuery, disruptions?: DisruptionLookup): EmptyReason {
  const named = namedObjects(q.uri);
  for (const { type, id } of named) if (ref.indexOf(type, id) < 0) return { kind: 'unknown_object', type, id };
  if (q.id !== undefined && ref.indexOf(target, q.id) < 0) return { kind: 'unknown_object', type: target, id: q.id };
  if (!isTripLike(target) || (q.sinceSec === undefined && q.untilSec === undefined)) return { kind: 'no_match' };
  let unbounded: Uint32Array;
  try {
    unbounded = findObjects(ref, freshness, target, { ...q, sinceSec: undefined, untilSec: undefined }, disruptions);
  } catch (e) {
    if (e instanceof FilterError) return { kind: 'no_match' };
    throw e;
  }
  const days = runDays(ref, unbounded);
  if (!days) return { kind: 'no_match' };
  return { kind: 'no_run_in_window', subject: named.at(-1), ...days };
}

/** The objects `{uri}` names by id (`lines/L1/stop_areas/S` → line L1, stop area S); coordinates left out. */
function namedObjects(uri: string[]): { type: Caption; id: string }[] {
  const out: { type: Caption; id: string }[] = [];
  for (let i = 0; i + 1 < uri.length; i += 2) {
    const type = COLLECTION_CAPTIONS[uri[i]!];
    if (type) out.push({ type, id: uri[i + 1]! });
  }
  return out;
}

/** The first and last service day on which one of `trips` runs (timetable trips only), or undefined. */
function runDays(ref: Referential, trips: Uint32Array): { firstDay: number; lastDay: number } | undefined {
  const { tt, days } = ref;
  const tripCount = tt.trips.service.length;
  const services = new Set<number>();
  for (const t of trips) if (t < tripCount) services.add(tt.trips.service[t]!);
  let firstDay = Infinity;
  let lastDay = -Infinity;
  for (const s of services) {
    const first = days.nextActiveDay(s, days.firstDay);
    if (first < 0) continue;
    firstDay = Math.min(firstDay, first);
    lastDay = Math.max(lastDay, lastActiveDay(ref, s));
  }
  return Number.isFinite(firstDay) ? { firstDay, lastDay } : undefined;
}

/** The last day on which service `s` runs (it runs on some day). */
function lastActiveDay(ref: Referential, s: number): number {
  const { firstDay, dayCount, words, bits } = ref.tt.services;
  for (let d = dayCount - 1; d >= 0; d--) {
    if ((bits[s * words + (d >>> 5)]! >>> (d & 31)) & 1) return firstDay + d;
  }
  return -1;
}
