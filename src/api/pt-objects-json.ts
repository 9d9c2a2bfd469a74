/**
 * The PT-referential objects as Navitia writes them, at a depth: each object embeds its related
 * objects one depth lower (a line at depth 1 has its network, modes and routes at depth 0). Shared
 * by the collections (`/lines`, `/stop_areas`…), the places answers and the trips' own fields.
 *
 * Left out, as the data has none: codes, comments, administrative regions (always `[]`), equipments
 * (always `[]`), geometries of lines and routes, the validity pattern and calendars of a vehicle
 * journey (docs/referential.md, "Where we differ").
 */
import { DROP_OFF_SHIFT, PICKUP_MASK, type Timetable } from '../model/timetable.js';
import type { Caption } from '../ptref/object-types.js';
import type { Referential } from '../ptref/referential.js';

type Json = Record<string, unknown>;

/** Seconds after the service day's origin as Navitia's `HHMMSS` (hours may pass 24). */
export function hhmmss(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  return `${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}${String(s).padStart(2, '0')}`;
}

/** Navitia writes coordinates as strings. */
export function coordJson(lon: number, lat: number): { lon: string; lat: string } {
  return { lon: String(lon), lat: String(lat) };
}

export function networkJson(tt: Timetable, a: number): Json {
  const agency = tt.agencies[a]!;
  return { id: agency.id, name: agency.name };
}

export function physicalModeJson(tt: Timetable, m: number): Json {
  return { id: tt.physicalModes[m]!.id, name: tt.physicalModes[m]!.name };
}

export function commercialModeJson(tt: Timetable, m: number): Json {
  return { id: tt.commercialModes[m]!.id, name: tt.commercialModes[m]!.name };
}

/** A line: code, name and colours; from depth 1 its network, modes and routes. */
export function lineJson(ref: Referential, l: number, depth: number): Json {
  const tt = ref.tt;
  const line = tt.lines[l]!;
  const obj: Json = { id: line.id, code: line.code, name: line.name, color: line.color, text_color: line.textColor };
  if (depth < 1) return obj;
  obj['network'] = networkJson(tt, line.agency);
  obj['commercial_mode'] = commercialModeJson(tt, line.commercialMode);
  obj['physical_modes'] = [physicalModeJson(tt, line.physicalMode)];
  obj['routes'] = Array.from(ref.convert('line', 'route', Uint32Array.of(l)), (r) => routeJson(ref, r, depth - 1));
  return obj;
}

/** A route: its direction type; from depth 1 its line and its direction (the stop area its first trip ends at). */
export function routeJson(ref: Referential, r: number, depth: number): Json {
  const tt = ref.tt;
  const route = tt.routes[r]!;
  const obj: Json = {
    id: route.id,
    name: route.name,
    direction_type: route.direction === 0 ? 'forward' : route.direction === 1 ? 'backward' : '',
    is_frequence: 'False',
  };
  if (depth < 1) return obj;
  obj['line'] = lineJson(ref, route.line, depth - 1);
  const trips = ref.toTrips('route', Uint32Array.of(r));
  const last = trips.length > 0 ? lastStop(tt, trips[0]!) : -1;
  if (last >= 0) obj['direction'] = placeJson(ref, 'stop_area', tt.stopPoints.area[last]!, depth - 1);
  return obj;
}

function lastStop(tt: Timetable, t: number): number {
  const p = tt.trips.pattern[t]!;
  const end = tt.patterns.stopOffset[p + 1]!;
  return end > tt.patterns.stopOffset[p]! ? tt.patterns.stops[end - 1]! : -1;
}

/** A stop area: label (its name: the data names no town), coordinate, time zone. */
export function stopAreaJson(tt: Timetable, a: number): Json {
  const area = tt.stopAreas[a]!;
  return { id: area.id, name: area.name, label: area.name, coord: coordJson(area.lon, area.lat), timezone: tt.timezone, administrative_regions: [], links: [] };
}

/** A stop point: label, coordinate; from depth 1 its stop area. */
export function stopPointJson(tt: Timetable, s: number, depth: number): Json {
  const sp = tt.stopPoints;
  const obj: Json = {
    id: sp.ids[s],
    name: sp.names[s],
    label: sp.names[s],
    coord: coordJson(sp.lon[s]!, sp.lat[s]!),
    administrative_regions: [],
    equipments: [],
    links: [],
  };
  if (sp.platformCodes[s]) obj['platform_code'] = sp.platformCodes[s];
  if (depth >= 1) obj['stop_area'] = stopAreaJson(tt, sp.area[s]!);
  return obj;
}

/** A vehicle journey: headsign; from depth 1 its trip, journey pattern, stop times and frequency. */
export function vehicleJourneyJson(ref: Referential, t: number, depth: number): Json {
  const tt = ref.tt;
  const trips = tt.trips;
  const obj: Json = { id: ref.id('vehicle_journey', t), name: trips.names[t], headsign: trips.headsigns[t], disruptions: [] };
  if (depth < 1) return obj;
  obj['trip'] = { id: trips.ids[t], name: trips.names[t] };
  obj['journey_pattern'] = { id: ref.id('journey_pattern', trips.pattern[t]!), name: ref.id('journey_pattern', trips.pattern[t]!) };
  const p = trips.pattern[t]!;
  const first = tt.patterns.stopOffset[p]!;
  const s0 = trips.stopTimeOffset[t]!;
  const s1 = trips.stopTimeOffset[t + 1]!;
  const stopTimes: Json[] = [];
  for (let k = 0; k < s1 - s0; k++) {
    const pickDrop = tt.stopTimes.pickDrop[s0 + k]!;
    stopTimes.push({
      arrival_time: hhmmss(tt.stopTimes.arrivalSec[s0 + k]!),
      departure_time: hhmmss(tt.stopTimes.departureSec[s0 + k]!),
      headsign: trips.headsigns[t],
      pickup_allowed: (pickDrop & PICKUP_MASK) !== 1,
      drop_off_allowed: ((pickDrop >>> DROP_OFF_SHIFT) & PICKUP_MASK) !== 1,
      skipped_stop: false,
      stop_point: stopPointJson(tt, tt.patterns.stops[first + k]!, depth - 1),
    });
  }
  obj['stop_times'] = stopTimes;
  const f0 = trips.frequencyOffset[t]!;
  if (trips.frequencyOffset[t + 1]! > f0) {
    obj['start_time'] = hhmmss(tt.frequencies.startSec[f0]!);
    obj['end_time'] = hhmmss(tt.frequencies.endSec[trips.frequencyOffset[t + 1]! - 1]!);
    obj['headway_secs'] = tt.frequencies.headwaySec[f0]!;
  }
  return obj;
}

/** Object `i` of a collection's type at a depth. */
export function ptObjectJson(ref: Referential, type: Caption, i: number, depth: number): Json {
  const tt = ref.tt;
  switch (type) {
    case 'network':
    case 'company':
      return networkJson(tt, i);
    case 'line':
      return lineJson(ref, i, depth);
    case 'route':
      return routeJson(ref, i, depth);
    case 'stop_area':
      return stopAreaJson(tt, i);
    case 'stop_point':
      return stopPointJson(tt, i, depth);
    case 'physical_mode':
      return physicalModeJson(tt, i);
    case 'commercial_mode':
      return commercialModeJson(tt, i);
    case 'vehicle_journey':
      return vehicleJourneyJson(ref, i, depth);
    default:
      return { id: ref.id(type, i), name: ref.name(type, i) };
  }
}

/** A place (Navitia's `{id, name, quality, embedded_type, <type>}`) of a stop area or stop point. */
export function placeJson(ref: Referential, type: 'stop_area' | 'stop_point', i: number, depth: number, quality = 0): Json {
  const embedded = type === 'stop_area' ? stopAreaJson(ref.tt, i) : stopPointJson(ref.tt, i, depth);
  return { id: embedded['id'], name: embedded['name'], quality, embedded_type: type, [type]: embedded };
}
