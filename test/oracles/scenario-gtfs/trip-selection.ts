/**
 * The trips a modification applies to, chosen by exactly one of `routes`, `patterns` or `trips`:
 * every trip of the routes; every trip with the same route and the same stop sequence as one of the
 * pattern trips (its stops as the earlier modifications left them); the trips themselves.
 */
import type { OracleFeed, TripRecord } from './oracle-feed.js';
import type { ScenarioIds } from './scenario-ids.js';

export type Selector = 'routes' | 'patterns' | 'trips';

export function patternKey(feed: OracleFeed, trip: TripRecord): string {
  return JSON.stringify([feed.tripField(trip, 'route_id'), feed.stopIdsOf(trip)]);
}

export function chooseTrips(feed: OracleFeed, ids: ScenarioIds, modification: Record<string, unknown>, allowed: Selector[], where: string): TripRecord[] {
  const given = allowed.filter((s) => modification[s] !== undefined);
  if (given.length !== 1) throw new Error(`${where}: give exactly one of ${allowed.join(', ')}`);
  const selector = given[0]!;
  const list = modification[selector];
  if (!Array.isArray(list)) throw new Error(`${where}: ${selector} is not a list`);
  if (selector === 'routes') {
    const routes = new Set(list.map((id) => ids.route(id, `${where}.routes`)));
    return [...feed.trips.values()].filter((t) => routes.has(feed.tripField(t, 'route_id')));
  }
  const named = list.map((id) => feed.trips.get(ids.trip(id, `${where}.${selector}`))!);
  if (selector === 'trips') return [...new Set(named)];
  const keys = new Set(named.map((t) => patternKey(feed, t)));
  return [...feed.trips.values()].filter((t) => keys.has(patternKey(feed, t)));
}
