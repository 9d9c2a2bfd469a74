/**
 * The ids a scenario names, found in the coverage: stop points, lines (GTFS routes) and trips, by the
 * id the API shows, or in R5's feed-scoped `feed:id` form (the feed's key, then the id inside it).
 */
import type { Timetable } from '../model/timetable.js';

export const NOT_FOUND = -1;

export class ScenarioIds {
  private readonly stops: Map<string, number>;
  private readonly lines: Map<string, number>;
  private readonly trips: Map<string, number>;
  private readonly feedKeys: Map<string, number>;

  constructor(private readonly tt: Timetable) {
    this.stops = indexOf(tt.stopPoints.ids);
    this.lines = indexOf(tt.lines.map((l) => l.id));
    this.trips = indexOf(tt.trips.ids);
    this.feedKeys = indexOf(tt.feeds.map((f) => f.key));
  }

  stop(id: string): number {
    return this.find(this.stops, id, () => true);
  }

  line(id: string): number {
    return this.find(this.lines, id, (l, feed) => this.tt.lines[l]!.feed === feed);
  }

  trip(id: string): number {
    return this.find(this.trips, id, (t, feed) => this.tt.trips.feed[t] === feed);
  }

  /** The index of `id` as shown, else of `feed:id`'s id in that feed. */
  private find(map: Map<string, number>, id: string, inFeed: (index: number, feed: number) => boolean): number {
    const direct = map.get(id);
    if (direct !== undefined) return direct;
    const colon = id.indexOf(':');
    if (colon <= 0) return NOT_FOUND;
    const feed = this.feedKeys.get(id.slice(0, colon));
    const inner = map.get(id.slice(colon + 1));
    return feed !== undefined && inner !== undefined && inFeed(inner, feed) ? inner : NOT_FOUND;
  }
}

function indexOf(ids: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  ids.forEach((id, i) => map.set(id, i));
  return map;
}
