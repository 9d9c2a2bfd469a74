/**
 * The ids a scenario names, read as the feed's own ids: a stop is a `stop_id`, a route a `route_id`,
 * a trip a `trip_id`; `feedKey:id` (R5's feed-scoped form, and the prefix the API shows where a
 * coverage has several feeds) is read as `id` when feedKey is this feed's key. An id the feed does
 * not have throws: the oracle never writes a copy of a scenario the server should refuse.
 */
import type { OracleFeed } from './oracle-feed.js';

export class ScenarioIds {
  constructor(
    private readonly feed: OracleFeed,
    private readonly feedKey: string | undefined,
  ) {}

  /** The id without this feed's `feedKey:` prefix. */
  plain(text: string): string {
    const prefix = this.feedKey === undefined ? undefined : `${this.feedKey}:`;
    return prefix !== undefined && text.startsWith(prefix) ? text.slice(prefix.length) : text;
  }

  private strip(id: unknown, what: string, where: string): string {
    if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`${where}: ${what} id ${JSON.stringify(id)} is not a string`);
    return this.plain(String(id));
  }

  stop(id: unknown, where: string): string {
    const stopId = this.strip(id, 'stop', where);
    if (!this.feed.stops.has(stopId)) throw new Error(`${where}: unknown stop id ${String(id)}`);
    return stopId;
  }

  route(id: unknown, where: string): string {
    const routeId = this.strip(id, 'route', where);
    if (!this.feed.routeIds.has(routeId)) throw new Error(`${where}: unknown route id ${String(id)}`);
    return routeId;
  }

  trip(id: unknown, where: string): string {
    const tripId = this.strip(id, 'trip', where);
    if (!this.feed.trips.has(tripId)) throw new Error(`${where}: unknown trip id ${String(id)} (or removed by an earlier modification)`);
    return tripId;
  }
}
