/**
 * A map's grid (docs/api.md, "How a map is made", step 4): the box of everything the map may reach,
 * cut into q.resolution cells a side. Around the centre (its direct legs) and around each stop
 * reached by a vehicle (its end legs), a square as far as the time left there takes a traveller: the
 * street at its leg's speed, the offsets on foot. A departure window's grid is one for all its
 * minutes, each stop at its best minute (window-heat-map.ts).
 */
import type { Snap } from '../model/street-graph.js';
import { BoxBuilder, type Grid } from './grid.js';
import type { MapLeg, ModeLeg } from './mode-legs.js';
import type { HeatMapData, HeatMapQuery } from './heat-map-types.js';
import { stopsOf } from './overlay-stops.js';

/**
 * The box of the squares around the centre (the legs with a centre snap) and around the first
 * `count` of `stops` (the end legs), each as far as the time left there takes a traveller
 * (`remainingSec` of a stop, less a leg's extra time), cut into q.resolution cells a side.
 */
export function mapGrid(data: HeatMapData, q: HeatMapQuery, legs: MapLeg[], centreSnaps: (Snap | null)[], stops: ArrayLike<number>, count: number, remainingSec: (s: number) => number): Grid {
  const T = q.maxDurationSec;
  const walkSpeed = q.speeds.walking;
  const box = new BoxBuilder();
  const { snaps, lon, lat } = stopsOf(data, q);
  // the farthest a place reached with `remainingSec` left can value a cell: the street at its speed, the offsets on foot
  const reachM = (leg: ModeLeg, remaining: number) => remaining * Math.max(leg.speed, walkSpeed);
  legs.forEach((leg, k) => {
    if (centreSnaps[k]) box.addSquare(q.centreLon, q.centreLat, reachM(leg, T - leg.extraDs / 10));
    if (!leg.fromStops) return;
    for (let r = 0; r < count; r++) {
      const s = stops[r]!;
      if (snaps.edge[leg.layer]![s]! < 0) continue;
      const remaining = remainingSec(s) - leg.extraDs / 10;
      if (remaining > 0) box.addSquare(lon[s]!, lat[s]!, reachM(leg, remaining));
    }
  });
  if (box.empty) box.addSquare(q.centreLon, q.centreLat, T * walkSpeed);
  return box.grid(q.resolution);
}
