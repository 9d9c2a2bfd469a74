/**
 * The street at a map's places' side (docs/api.md, "How a map is made", step 3): per leg, one
 * street search seeded by the centre (a direct leg) and by every stop reached by a vehicle (an end
 * leg), capped at the maximum duration, handed to the propagation to the grid (grid-propagation.ts)
 * or to the points (point-propagation.ts) before the next leg reuses it.
 *
 * Every point meets the streets the same way (R5's linking): the centre and each stop link to the
 * nearest street of the leg's layer within LINK_RADIUS_M, and the straight offset between the point
 * and its link point is walked at walking speed, whatever the mode on the street. A centre with no
 * street within the radius reaches nothing on the street; a stop with none is reached by vehicles
 * only.
 */
import type { Layer } from '../model/street-layers.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import { LINK_RADIUS_M, projectX, projectY, snapPoint, type Snap, type StreetGraph } from '../model/street-graph.js';
import { offsetSeedDs, type StreetSearch } from './street-search.js';
import type { MapLeg } from './mode-legs.js';
import type { TransitPass } from './transit-pass.js';
import type { HeatMapQuery } from './heat-map-types.js';

/** How a leg's search is valued: at the cells of a grid or at the points of a set, up to `limitDs`. */
export type ValueLeg = (leg: MapLeg, search: StreetSearch, limitDs: number) => void;

/**
 * Per street leg at the places' side, one search seeded by the centre (a direct leg) and by every
 * stop of `pass` (an end leg), capped at `limitOf(leg)` (default: the maximum duration), handed to
 * `value` before the next leg reuses it.
 */
export function streetLegs(
  search: StreetSearch,
  snaps: StopSnaps,
  q: HeatMapQuery,
  pass: TransitPass,
  legs: MapLeg[],
  centreSnaps: (Snap | null)[],
  value: ValueLeg,
  limitOf: (leg: MapLeg) => number = () => q.maxDurationSec * 10,
): void {
  const reverse = q.direction === 'arrival';
  const walkSpeed = q.speeds.walking;
  const { vehicleSec, reached, reachedCount } = pass;
  legs.forEach((leg, k) => {
    const snap = centreSnaps[k];
    const limitDs = limitOf(leg);
    const centreDs = snap ? leg.extraDs + offsetSeedDs(snap.offsetM, walkSpeed) : 0;
    const fromStops = vehicleSec !== null && leg.fromStops;
    // from the centre alone, the search may hold this leg already: the access's, on the same street
    if (snap && !fromStops && search.holds(snap, leg.layer, leg.speed, centreDs, limitDs, reverse)) {
      value(leg, search, limitDs);
      return;
    }
    search.reset();
    if (snap) search.seedSnap(snap, leg.layer, leg.speed, centreDs, reverse);
    if (fromStops) {
      for (let r = 0; r < reachedCount; r++) {
        const s = reached[r]!;
        const stop = stopSnap(snaps, leg.layer, s);
        if (stop) search.seedSnap(stop, leg.layer, leg.speed, vehicleSec[s]! * 10 + leg.extraDs + offsetSeedDs(stop.offsetM, walkSpeed), reverse);
      }
    }
    search.run(leg.layer, leg.speed, limitDs, reverse);
    value(leg, search, limitDs);
  });
}

/** Where the centre links to each leg's layer (null for a leg that does not start from it, or no street within reach). */
export function centreSnaps(graph: StreetGraph, q: HeatMapQuery, legs: MapLeg[]): (Snap | null)[] {
  const cx = projectX(graph.projection, q.centreLon);
  const cy = projectY(graph.projection, q.centreLat);
  return legs.map((leg) => (leg.fromCentre ? snapPoint(graph, leg.layer, cx, cy, LINK_RADIUS_M) : null));
}

/** The stops reached by a vehicle that no end leg can leave on the street: no street of its layer within the link radius. */
export function countUnlinked(snaps: StopSnaps, legs: readonly { layer: Layer; fromStops: boolean }[], reached: ArrayLike<number>, reachedCount: number): number {
  const edges = legs.filter((leg) => leg.fromStops).map((leg) => snaps.edge[leg.layer]!);
  if (edges.length === 0) return 0;
  let unlinked = 0;
  for (let r = 0; r < reachedCount; r++) {
    const s = reached[r]!;
    if (edges.every((edge) => edge[s]! < 0)) unlinked++;
  }
  return unlinked;
}
