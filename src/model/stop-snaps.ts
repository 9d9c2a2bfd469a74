/**
 * Where each stop point meets the street network, per layer, and the walking paths between nearby
 * stop points (the footpaths of the transit search), both computed once per generation.
 */
import { Layer, LAYER_NAMES } from '../osm/street-access.js';
import { StreetSearch, UNREACHED } from '../routing/street-search.js';
import { sharedArray } from './shared-arrays.js';
import { projectX, projectY, snapPoint, type Snap, type StreetGraph } from './street-graph.js';

/** Farthest a stop (or a heat-map centre) may lie from the street it is attached to. */
export const SNAP_HORIZON_M = 500;

/** Per layer: the snapped edge of each stop point (-1 when none within the horizon) and the position along it. */
export interface StopSnaps {
  edge: Int32Array[];
  alongM: Float32Array[];
  offsetM: Float32Array[];
  /** stop points left unsnapped, per layer */
  unsnapped: number[];
}

export function snapStops(g: StreetGraph, lon: Float64Array, lat: Float64Array): StopSnaps {
  const n = lon.length;
  const snaps: StopSnaps = { edge: [], alongM: [], offsetM: [], unsnapped: [] };
  for (let layer = 0; layer < LAYER_NAMES.length; layer++) {
    const edge = sharedArray(Int32Array, n).fill(-1);
    const alongM = sharedArray(Float32Array, n);
    const offsetM = sharedArray(Float32Array, n);
    let unsnapped = 0;
    for (let s = 0; s < n; s++) {
      const snap = snapPoint(g, layer as Layer, projectX(g.projection, lon[s]!), projectY(g.projection, lat[s]!), SNAP_HORIZON_M);
      if (!snap) {
        unsnapped++;
        continue;
      }
      edge[s] = snap.edge;
      alongM[s] = snap.alongM;
      offsetM[s] = snap.offsetM;
    }
    snaps.edge.push(edge);
    snaps.alongM.push(alongM);
    snaps.offsetM.push(offsetM);
    snaps.unsnapped.push(unsnapped);
  }
  return snaps;
}

/** The snap of stop `s` on `layer`, or null. */
export function stopSnap(snaps: StopSnaps, layer: Layer, s: number): Snap | null {
  const edge = snaps.edge[layer]![s]!;
  if (edge < 0) return null;
  return { edge, alongM: snaps.alongM[layer]![s]!, offsetM: snaps.offsetM[layer]![s]!, segment: -1 };
}

export interface Footpaths {
  from: Uint32Array;
  to: Uint32Array;
  lengthM: Float32Array;
}

/**
 * Walking paths between stop points at most `maxM` metres apart along the walking layer (each
 * direction listed). The length runs along the streets from one stop's snapped point to the other's.
 */
export function walkingFootpaths(g: StreetGraph, snaps: StopSnaps, maxM: number): Footpaths {
  const stopCount = snaps.edge[Layer.Walk]!.length;
  // stops by snapped edge, to find the stops reached once the search is done
  const edgeStops = new Map<number, number[]>();
  for (let s = 0; s < stopCount; s++) {
    const e = snaps.edge[Layer.Walk]![s]!;
    if (e < 0) continue;
    const list = edgeStops.get(e);
    if (list) list.push(s);
    else edgeStops.set(e, [s]);
  }
  // lengths in decimetres through a search at 1 m/s (its costs are then tenths of metres)
  const limit = Math.round(maxM * 10);
  const search = new StreetSearch(g, limit);
  const from: number[] = [];
  const to: number[] = [];
  const lengths: number[] = [];
  const best = new Map<number, number>();
  for (let s = 0; s < stopCount; s++) {
    const snap = stopSnap(snaps, Layer.Walk, s);
    if (!snap) continue;
    search.reset();
    search.seedSnap(snap, Layer.Walk, 1, 0, false);
    search.run(Layer.Walk, 1, limit);
    best.clear();
    // stops on the same edge: straight along it
    for (const other of edgeStops.get(snap.edge)!) {
      if (other !== s) best.set(other, Math.abs(snaps.alongM[Layer.Walk]![other]! - snap.alongM) * 10);
    }
    for (let k = 0; k < search.touchedCount; k++) {
      const v = search.touched[k]!;
      const cost = search.costOf(v);
      for (let i = g.adjOffset[v]!; i < g.adjOffset[v + 1]!; i++) {
        const ref = g.adjEdge[i]!;
        const e = ref >>> 1;
        const onEdge = edgeStops.get(e);
        if (!onEdge) continue;
        // from v along edge e to each stop on it: v is the `from` end (side 0) or the `to` end
        const lengthDm = g.edgeLengthDm[e]!;
        for (const other of onEdge) {
          if (other === s) continue;
          const along = snaps.alongM[Layer.Walk]![other]! * 10;
          const d = cost + ((ref & 1) === 0 ? along : Math.max(0, lengthDm - along));
          if (d <= limit && d < (best.get(other) ?? UNREACHED)) best.set(other, d);
        }
      }
    }
    for (const [other, d] of best) {
      if (d > limit) continue;
      from.push(s);
      to.push(other);
      lengths.push(d / 10);
    }
  }
  return { from: Uint32Array.from(from), to: Uint32Array.from(to), lengthM: Float32Array.from(lengths) };
}
