/**
 * The `stops` of add-trips and reroute: `{"id": …}` is an existing stop; `{"lat": …, "lon": …}` (with
 * an optional `name`) a new stop `scenario:NAME:M:K` (M the modification's index, K the stop's index
 * in the list), named by its `name` or else its id. Resolving does not touch the feed (phasing needs
 * the ids first); `addNewStops` writes the new ones into stops.txt.
 */
import type { ModificationContext } from './modification-context.js';

export interface PatternStop {
  stopId: string;
  /** Set for a stop this modification creates. */
  created?: { name: string; lat: number; lon: number };
}

export function resolvePatternStops(context: ModificationContext, list: unknown, where: string): PatternStop[] {
  if (!Array.isArray(list)) throw new Error(`${where}: not a list`);
  return list.map((spec, k) => {
    if (typeof spec !== 'object' || spec === null) throw new Error(`${where}[${k}]: not a stop`);
    const s = spec as Record<string, unknown>;
    if (s['id'] !== undefined) return { stopId: context.ids.stop(s['id'], `${where}[${k}]`) };
    const lat = s['lat'];
    const lon = s['lon'];
    if (typeof lat !== 'number' || typeof lon !== 'number' || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new Error(`${where}[${k}]: an id or a lat and lon are needed`);
    const stopId = `scenario:${context.scenarioName}:${context.index}:${k}`;
    return { stopId, created: { name: typeof s['name'] === 'string' && s['name'] !== '' ? s['name'] : stopId, lat, lon } };
  });
}

export function addNewStops(context: ModificationContext, stops: PatternStop[]): string[] {
  const added: string[] = [];
  for (const stop of stops) {
    if (!stop.created || context.feed.stops.has(stop.stopId)) continue;
    context.feed.addStop(stop.stopId, stop.created.name, stop.created.lat, stop.created.lon);
    added.push(stop.stopId);
  }
  return added;
}
