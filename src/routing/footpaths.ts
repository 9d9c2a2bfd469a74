/**
 * The walking transfers between stop points (the footpaths of the transit search), computed once per
 * generation as R5's transfer finder does: a street search on the walking layer from each stop's
 * link point, and a footpath to every stop whose link point it reaches within the horizon. A
 * footpath's length is the walk along the streets plus the off-street offset of both stops; stops
 * the streets do not join within the horizon (a stop with no street within the link radius, a
 * river between two platforms) get no footpath: no straight line stands in for a street.
 */
import { Layer } from '../model/street-layers.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import type { Footpaths } from './raptor-data.js';
import { UNREACHED } from './unreached.js';
import { StreetSearch } from './street-search.js';

/**
 * Walking footpaths between stop points at most `maxM` metres apart along the walking layer (each
 * direction listed), off-street offsets included.
 */
export function walkingFootpaths(g: StreetGraph, snaps: StopSnaps, maxM: number): Footpaths {
  const edgeOf = snaps.edge[Layer.Walk]!;
  const alongOf = snaps.alongM[Layer.Walk]!;
  const offsetOf = snaps.offsetM[Layer.Walk]!;
  const stopCount = edgeOf.length;
  // stops by linked edge, to find the stops reached once the search is done
  const edgeStops = new Map<number, number[]>();
  for (let s = 0; s < stopCount; s++) {
    const e = edgeOf[s]!;
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
    best.clear();
    const ownDm = offsetOf[s]! * 10;
    const streetLimit = limit - Math.round(ownDm);
    if (streetLimit < 0) continue;
    const offer = (other: number, streetDm: number) => {
      const d = streetDm + ownDm + offsetOf[other]! * 10;
      if (d <= limit && d < (best.get(other) ?? UNREACHED)) best.set(other, d);
    };
    search.reset();
    search.seedSnap(snap, Layer.Walk, 1, 0, false);
    search.run(Layer.Walk, 1, streetLimit);
    // stops on the same edge: straight along it
    for (const other of edgeStops.get(snap.edge)!) if (other !== s) offer(other, Math.abs(alongOf[other]! - snap.alongM) * 10);
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
          const along = alongOf[other]! * 10;
          offer(other, cost + ((ref & 1) === 0 ? along : Math.max(0, lengthDm - along)));
        }
      }
    }
    for (const [other, d] of best) {
      from.push(s);
      to.push(other);
      lengths.push(d / 10);
    }
  }
  return { from: Uint32Array.from(from), to: Uint32Array.from(to), lengthM: Float32Array.from(lengths) };
}
