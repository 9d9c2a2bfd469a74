/**
 * From a map request to the computation's query: the traveller profile and the coverage's defaults
 * under the request's own values, the timetable level, and the masks of forbidden and allowed
 * objects.
 */
import type { HeatMapMode, HeatMapQuery } from '../routing/heat-map.js';
import type { Generation } from '../service/generation.js';
import { TRANSIT_MASK_ID_TYPES } from '../ptref/object-types.js';
import type { Centre } from './map-centre.js';
import { TRAVELER_PROFILES } from './traveler-profiles.js';
import { MAP_FALLBACKS, type MapParams } from './journey-params.js';
import { ownOverlay } from './timetable-choice.js';

/** Request parameters, traveller profile and the tables' fallbacks (journey-params.ts) → the computation's query. */
export function buildQuery(
  params: MapParams,
  g: Generation,
  direction: 'departure' | 'arrival',
  centre: Centre & { lon: number; lat: number },
  t0: number,
  maxDurationSec: number,
  boardSlackSec: number,
): Omit<HeatMapQuery, 'window'> {
  const profile = params.traveler_type ? TRAVELER_PROFILES[params.traveler_type] : undefined;
  const { first, last, directModes, speeds, maxToPtSec } = streetLegs(params);
  const endModes = direction === 'departure' ? last : first;
  const wheelchair = params.wheelchair ?? profile?.wheelchair ?? false;
  const freeStops: number[] = [];
  if (centre.kind === 'stop_point') freeStops.push(centre.index);
  else if (centre.kind === 'stop_area') for (const s of g.ref.convert('stop_area', 'stop_point', Uint32Array.of(centre.index))) freeStops.push(s);
  const directPath = params.direct_path;
  const { tripAllowed, stopAllowed } = transitMasks(g, params.forbidden_uris, params.allowed_id);
  return {
    direction,
    centreLon: centre.lon,
    centreLat: centre.lat,
    freeStops,
    freeRadiusM: Math.max(0, direction === 'departure' ? params.free_radius_from : params.free_radius_to),
    accessModes: direction === 'departure' ? first : last,
    endModes,
    directModes: directModes.length > 0 ? directModes : endModes,
    speeds,
    maxToPtSec,
    taxiAccessExtraSec: Math.max(0, direction === 'departure' ? params.additional_time_after_first_section_taxi : params.additional_time_before_last_section_taxi),
    taxiEndExtraSec: Math.max(0, direction === 'departure' ? params.additional_time_before_last_section_taxi : params.additional_time_after_first_section_taxi),
    t0,
    maxDurationSec,
    resolution: params.resolution,
    maxTransfers: Math.max(0, params.max_nb_transfers),
    minTransfers: Math.max(0, params.min_nb_transfers),
    boardSlackSec,
    wheelchair,
    directPath: directPath !== 'none',
    transit: directPath !== 'only',
    tripAllowed,
    stopAllowed,
    overlay: ownOverlay(params, g),
  };
}

/** A journey's parameters, its centre's left out (many origins have one each). */
export type JourneyParams = Omit<MapParams, 'from' | 'to' | 'resolution'>;

/** The street legs of a journey: its first and last modes, its direct modes, each mode's speed and longest leg to or from transit. */
export function streetLegs(params: JourneyParams) {
  const profile = params.traveler_type ? TRAVELER_PROFILES[params.traveler_type] : undefined;
  // ridesharing is refused before this point
  const given = (name: 'first_section_mode' | 'last_section_mode' | 'direct_path_mode') => [...new Set(params[name])] as HeatMapMode[];
  const modes = (name: 'first_section_mode' | 'last_section_mode'): HeatMapMode[] => {
    const list = given(name);
    return list.length > 0 ? list : [...((profile?.[name] as HeatMapMode[] | undefined) ?? ['walking'])];
  };
  const speeds = {
    walking: params.walking_speed ?? profile?.walking_speed ?? MAP_FALLBACKS['walking_speed']!,
    bike: params.bike_speed ?? profile?.bike_speed ?? MAP_FALLBACKS['bike_speed']!,
    bss: params.bss_speed ?? profile?.bss_speed ?? MAP_FALLBACKS['bss_speed']!,
    car: params.car_speed ?? profile?.car_speed ?? MAP_FALLBACKS['car_speed']!,
    car_no_park: params.car_no_park_speed ?? MAP_FALLBACKS['car_no_park_speed']!,
    taxi: params.taxi_speed ?? MAP_FALLBACKS['taxi_speed']!,
  };
  const toPt = (mode: HeatMapMode, profileValue: number | undefined) =>
    params.max_duration_to_pt ?? params[`max_${mode}_duration_to_pt`] ?? profileValue ?? MAP_FALLBACKS['max_duration_to_pt']!;
  const maxToPtSec = {
    walking: toPt('walking', profile?.max_walking_duration_to_pt),
    bike: toPt('bike', profile?.max_bike_duration_to_pt),
    bss: toPt('bss', profile?.max_bss_duration_to_pt),
    car: toPt('car', profile?.max_car_duration_to_pt),
    car_no_park: toPt('car_no_park', undefined),
    taxi: toPt('taxi', undefined),
  };
  return { first: modes('first_section_mode'), last: modes('last_section_mode'), directModes: given('direct_path_mode'), speeds, maxToPtSec };
}

/** Per-trip and per-stop masks from forbidden_uris[] and allowed_id[] (null: everything allowed). */
export function transitMasks(g: Generation, forbidden: string[], allowed: string[]): { tripAllowed: Uint8Array | null; stopAllowed: Uint8Array | null } {
  const ref = g.ref;
  const tripCount = g.tt.trips.ids.length;
  const stopCount = g.tt.stopPoints.ids.length;
  const classify = (ids: string[]) => {
    const trips: Uint32Array[] = [];
    const stops: Uint32Array[] = [];
    for (const id of ids) {
      if (!id) continue;
      // the routing's own order of types, not the PT referential's (object-types.ts says why)
      const object = ref.identify(id, TRANSIT_MASK_ID_TYPES);
      if (!object) continue;
      const one = Uint32Array.of(object.index);
      // a stop point or stop area masks stop points; any other object, its trips
      if (object.type === 'stop_point' || object.type === 'stop_area') stops.push(ref.convert(object.type, 'stop_point', one));
      else trips.push(ref.toTrips(object.type, one));
    }
    return { trips, stops };
  };
  const allow = classify(allowed);
  const forbid = classify(forbidden);
  let tripAllowed: Uint8Array | null = null;
  let stopAllowed: Uint8Array | null = null;
  if (allow.trips.length > 0 || forbid.trips.length > 0) {
    tripAllowed = new Uint8Array(tripCount).fill(allow.trips.length > 0 ? 0 : 1);
    for (const set of allow.trips) for (const t of set) tripAllowed[t] = 1;
    for (const set of forbid.trips) for (const t of set) tripAllowed[t] = 0;
  }
  if (allow.stops.length > 0 || forbid.stops.length > 0) {
    stopAllowed = new Uint8Array(stopCount).fill(allow.stops.length > 0 ? 0 : 1);
    for (const set of allow.stops) for (const s of set) stopAllowed[s] = 1;
    for (const set of forbid.stops) for (const s of set) stopAllowed[s] = 0;
  }
  return { tripAllowed, stopAllowed };
}
