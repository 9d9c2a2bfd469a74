/**
 * The street legs a heat map's modes stand for (docs/api.md, "How a map is made"): each mode is one
 * or two legs, each on a street layer at a speed, at the centre's side (the access to transit, and
 * the street alone from the centre) and at the places' side (the end legs from the stops). bss is a
 * bike plus walking (a bike taken and left at a station); a car at the centre's side is parked, then
 * the traveller walks; a taxi's legs carry its extra time.
 */
import { Layer } from '../model/street-layers.js';
import type { HeatMapMode, HeatMapQuery } from './heat-map-types.js';

/** How a mode moves on the street graph. */
export interface ModeLeg {
  layer: Layer;
  speed: number;
  extraDs: number;
  /** the longest leg from a stop to a point of a set, and from the centre to one on foot or by bike (its mode's max_<mode>_duration_to_pt), seconds */
  toPtSec: number;
}

/** A map's street leg at the cells' side: from the centre (the direct path), from the stops reached (the end modes), or both. */
export type MapLeg = ModeLeg & { fromCentre: boolean; fromStops: boolean };

/** A street leg from the centre to the stops (the access). */
export interface AccessLeg {
  layer: Layer;
  speed: number;
  parkThenWalk: boolean;
  walkSpeed: number;
}

/**
 * The street legs each mode stands for, on its layer at the speed of its own name: bss is a bike
 * plus walking (a bike taken and left at a station). The same table serves the centre's side (the
 * access to transit) and the cells' side.
 */
const MODE_LEGS: Record<HeatMapMode, { layer: Layer; speedOf: HeatMapMode }[]> = {
  walking: [{ layer: Layer.Walk, speedOf: 'walking' }],
  bike: [{ layer: Layer.Bike, speedOf: 'bike' }],
  bss: [
    { layer: Layer.Bike, speedOf: 'bss' },
    { layer: Layer.Walk, speedOf: 'walking' },
  ],
  car: [{ layer: Layer.Car, speedOf: 'car' }],
  car_no_park: [{ layer: Layer.Car, speedOf: 'car_no_park' }],
  taxi: [{ layer: Layer.Car, speedOf: 'taxi' }],
};

/** The legs of a mode at the cells' side; a taxi's carry its extra time there. */
function endLegs(mode: HeatMapMode, q: HeatMapQuery): ModeLeg[] {
  const extraDs = mode === 'taxi' ? q.taxiEndExtraSec * 10 : 0;
  return MODE_LEGS[mode].map(({ layer, speedOf }) => ({ layer, speed: q.speeds[speedOf], extraDs, toPtSec: q.maxToPtSec[mode] }));
}

/** The legs of a map at the places' side: its end modes' and its direct modes', each mode once. */
export function mapLegs(q: HeatMapQuery): MapLeg[] {
  return [...new Set([...q.endModes, ...q.directModes])].flatMap((m) =>
    endLegs(m, q).map((leg) => ({ ...leg, fromCentre: q.directPath && q.directModes.includes(m), fromStops: q.endModes.includes(m) })),
  );
}

/** The legs of a mode at the centre's side: a car (not car_no_park, not a taxi) is parked, then the traveller walks. */
export function accessLegs(mode: HeatMapMode, q: HeatMapQuery): AccessLeg[] {
  return MODE_LEGS[mode].map(({ layer, speedOf }) => ({ layer, speed: q.speeds[speedOf], parkThenWalk: mode === 'car', walkSpeed: q.speeds.walking }));
}

/**
 * The limit of a street-only path from the centre to the points of a set, tenths of a second: as R5
 * bounds walk- and bike-only trips by max_walk_time and max_bike_time, a walking or cycling leg
 * (bss too) lasts at most its mode's max_<mode>_duration_to_pt; a car's, `limitDs` (the maximum
 * duration). A heat map's cells keep Navitia's rule: every direct leg up to the maximum duration.
 */
export function directLimitDs(leg: ModeLeg, limitDs: number): number {
  return leg.layer === Layer.Car ? limitDs : Math.min(limitDs, Math.max(0, leg.toPtSec) * 10);
}
