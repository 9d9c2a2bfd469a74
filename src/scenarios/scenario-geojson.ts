/**
 * What a scenario draws on a map (the explorer shows it, `/scenarios` serves it): each stop sequence
 * it adds or changes (add-trips' patterns, rerouted ones, patterns that lost stops) as a line through
 * its stops, and its new stops as points. A GeoJSON FeatureCollection, WGS84.
 */
import type { Timetable } from '../model/timetable.js';
import type { AppliedScenario } from './apply-scenario.js';
import type { ScenarioTrip } from './scenario-trips.js';

type Feature = { type: 'Feature'; geometry: { type: 'LineString' | 'Point'; coordinates: unknown }; properties: Record<string, unknown> };

export function scenarioGeoJson(tt: Timetable, applied: AppliedScenario): { type: 'FeatureCollection'; features: Feature[] } {
  const base = tt.stopPoints.ids.length;
  const lonLat = (p: number): [number, number] => (p < base ? [tt.stopPoints.lon[p]!, tt.stopPoints.lat[p]!] : [applied.newStops[p - base]!.lon, applied.newStops[p - base]!.lat]);
  const stopId = (p: number) => (p < base ? tt.stopPoints.ids[p]! : applied.newStops[p - base]!.id);
  const patterns = new Map<string, { trip: ScenarioTrip; kind: 'added' | 'changed'; trips: number }>();
  for (const trip of applied.trips) {
    const kind = trip.source < 0 ? 'added' : sameStops(tt, trip) ? null : 'changed';
    if (kind === null) continue;
    const key = `${trip.line}|${trip.stops.join(',')}`;
    const known = patterns.get(key);
    if (known) known.trips++;
    else patterns.set(key, { trip, kind, trips: 1 });
  }
  const features: Feature[] = [];
  for (const { trip, kind, trips } of patterns.values()) {
    const line = trip.line < tt.lines.length ? { id: tt.lines[trip.line]!.id, name: tt.lines[trip.line]!.name, mode: tt.lines[trip.line]!.routeType } : applied.newLines[trip.line - tt.lines.length]!;
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: trip.stops.map(lonLat) },
      properties: { kind, line: line.id, name: line.name, route_type: line.mode, trips, stops: trip.stops.map(stopId) },
    });
  }
  applied.newStops.forEach((stop) => features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [stop.lon, stop.lat] }, properties: { kind: 'new_stop', id: stop.id, name: stop.name } }));
  return { type: 'FeatureCollection', features };
}

/** Whether a copied trip still visits its base trip's stops. */
function sameStops(tt: Timetable, trip: ScenarioTrip): boolean {
  const p = tt.trips.pattern[trip.source]!;
  const from = tt.patterns.stopOffset[p]!;
  const n = tt.patterns.stopOffset[p + 1]! - from;
  return n === trip.stops.length && trip.stops.every((s, i) => tt.patterns.stops[from + i] === s);
}
