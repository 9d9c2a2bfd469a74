/**
 * A trip as Navitia writes it: `{id, name}` at depth 0 and 1, its headsign, line, route, network,
 * modes and first and last stop times from depth 2, its geometry through its stops from depth 3.
 * The added trips of the realtime level are written alike.
 */
import type { Generation } from '../../service/generation.js';
import type { AddedTrips } from '../../ptref/added-trips.js';
import { NO_LINE, NO_ROUTE } from '../../model/realtime-runs.js';
import { ODT_LEVEL_NAMES, OdtLevel } from '../../model/timetable.js';
import type { Referential } from '../../ptref/referential.js';
import { commercialModeJson, hhmmss, lineJson, networkJson, physicalModeJson } from '../pt-objects-json.js';

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
    odt_level: ODT_LEVEL_NAMES[tt.trips.odtLevel[t]!],
    ...lineFields(g.ref, tt.trips.line[t]!, tt.trips.route[t]!),
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
    odt_level: ODT_LEVEL_NAMES[OdtLevel.Scheduled],
    ...(run.line === NO_LINE ? {} : lineFields(added.ref, run.line, run.route)),
  };
  Object.assign(obj, stopFields(tt, run.stops, run.departureSec[0]!, run.arrivalSec[run.arrivalSec.length - 1]!, depth >= 3 && !disableGeojson));
  return JSON.stringify(obj);
}

/** route, line, network and modes of a trip of line `l` and route `r` (NO_ROUTE: none). */
function lineFields(ref: Referential, l: number, r: number): Record<string, unknown> {
  const tt = ref.tt;
  const line = tt.lines[l]!;
  const route = r === NO_ROUTE ? undefined : tt.routes[r]!;
  return {
    ...(route ? { route: { id: route.id, name: route.name, direction_id: route.direction } } : {}),
    line: lineJson(ref, l, 0),
    network: networkJson(tt, line.agency),
    physical_mode: physicalModeJson(tt, line.physicalMode),
    commercial_mode: commercialModeJson(tt, line.commercialMode),
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
