/**
 * Where each stop point links to the street network, per layer, computed once per generation: the
 * nearest street of the layer within LINK_RADIUS_M (small islands left out, see small-islands.ts),
 * the stop's off-street offset walked at walking speed (the transfers between stops, walked from
 * these points, are in routing/footpaths.ts). A stop with no street within the radius stays usable
 * by vehicles, not on foot.
 */
import { Layer, LAYER_NAMES } from './street-layers.js';
import { sharedArray } from './shared-arrays.js';
import { LINK_RADIUS_M, projectX, projectY, snapPoint, type Snap, type StreetGraph } from './street-graph.js';

/** Per layer: the linked edge of each stop point (-1 when none within the radius), the position along it and the off-street offset. */
export interface StopSnaps {
  edge: Int32Array[];
  alongM: Float32Array[];
  offsetM: Float32Array[];
  /** stop points left unsnapped, per layer */
  unsnapped: number[];
}

export function snapStops(g: StreetGraph, lon: Float64Array, lat: Float64Array): StopSnaps {
  const snaps = emptySnaps(lon.length);
  snapRange(g, lon, lat, snaps, 0, lon.length);
  return snaps;
}

/** Snaps for `n` points, none linked yet (shared memory, one array set per layer). */
export function emptySnaps(n: number): StopSnaps {
  const snaps: StopSnaps = { edge: [], alongM: [], offsetM: [], unsnapped: [] };
  for (let layer = 0; layer < LAYER_NAMES.length; layer++) {
    snaps.edge.push(sharedArray(Int32Array, n).fill(-1));
    snaps.alongM.push(sharedArray(Float32Array, n));
    snaps.offsetM.push(sharedArray(Float32Array, n));
    snaps.unsnapped.push(0);
  }
  return snaps;
}

/** Link points [from, to) on every layer into `snaps` (a large set links in slices, between turns of the event loop). */
export function snapRange(g: StreetGraph, lon: Float64Array, lat: Float64Array, snaps: StopSnaps, from: number, to: number): void {
  for (let layer = 0; layer < LAYER_NAMES.length; layer++) {
    const edge = snaps.edge[layer]!;
    const alongM = snaps.alongM[layer]!;
    const offsetM = snaps.offsetM[layer]!;
    for (let s = from; s < to; s++) {
      const snap = snapPoint(g, layer as Layer, projectX(g.projection, lon[s]!), projectY(g.projection, lat[s]!), LINK_RADIUS_M);
      if (!snap) {
        snaps.unsnapped[layer]!++;
        continue;
      }
      edge[s] = snap.edge;
      alongM[s] = snap.alongM;
      offsetM[s] = snap.offsetM;
    }
  }
}

/** The snap of stop `s` on `layer`, or null. */
export function stopSnap(snaps: StopSnaps, layer: Layer, s: number): Snap | null {
  const edge = snaps.edge[layer]![s]!;
  if (edge < 0) return null;
  return { edge, alongM: snaps.alongM[layer]![s]!, offsetM: snaps.offsetM[layer]![s]!, segment: -1 };
}
