/**
 * The walking transfers between stop points (the footpaths of the transit search), computed once per
 * generation as R5's transfer finder does: a street search on the walking layer from each stop's
 * link point, and a footpath to every stop whose link point it reaches within the horizon. A
 * footpath's length is the walk along the streets plus the off-street offset of both stops; stops
 * the streets do not join within the horizon (a stop with no street within the link radius, a
 * river between two platforms) get no footpath: no straight line stands in for a street.
 *
 * A scenario's new stops (routing/overlay-stops.ts) need the footpaths from them and to them only:
 * `walkingFootpaths` from a list of stops, and `walkingFootpathsTo` the footpaths into a list of
 * stops, each exactly the length the search from the other stop would find (the walking layer is
 * not symmetric: `oneway:foot`, and the rounding of the seeds along a stop's edge, differ by side).
 */
import { backwardBit, forwardBit, Layer } from '../model/street-layers.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import type { Footpaths } from './raptor-data.js';
import { UNREACHED } from './unreached.js';
import { StreetSearch } from './street-search.js';

/** The street search footpaths of at most `maxM` metres are walked with (a caller walking several lists lends one). */
export function footpathSearch(g: StreetGraph, maxM: number): StreetSearch {
  // lengths in decimetres through a search at 1 m/s (its costs are then tenths of metres)
  return new StreetSearch(g, Math.round(maxM * 10));
}

/**
 * Walking footpaths between stop points at most `maxM` metres apart along the walking layer (each
 * direction listed), off-street offsets included; from the stops of `sources` only when given.
 */
export function walkingFootpaths(g: StreetGraph, snaps: StopSnaps, maxM: number, sources?: ArrayLike<number>, search = footpathSearch(g, maxM)): Footpaths {
  const alongOf = snaps.alongM[Layer.Walk]!;
  const offsetOf = snaps.offsetM[Layer.Walk]!;
  const stopCount = alongOf.length;
  const edgeStops = stopsByEdge(snaps);
  // lengths in decimetres through a search at 1 m/s (its costs are then tenths of metres)
  const limit = Math.round(maxM * 10);
  const out = new FootpathList();
  const best = new Map<number, number>();
  const count = sources ? sources.length : stopCount;
  for (let i = 0; i < count; i++) {
    const s = sources ? sources[i]! : i;
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
    for (const [other, d] of best) out.push(s, other, d);
  }
  return out.footpaths();
}

/**
 * The footpaths into the stops of `targets` from the stops below `fromBelow` (at most `maxM`
 * metres), each of the length `walkingFootpaths` finds from its first stop: per target, one search
 * backwards from each end of its edge, and per stop reached, its seeds (its side of its edge,
 * truncated to a decimetre as the forward search seeds it) joined to the end, plus the target's
 * side of its edge, untruncated, as the forward search reaches it.
 */
export function walkingFootpathsTo(g: StreetGraph, snaps: StopSnaps, maxM: number, targets: ArrayLike<number>, fromBelow: number, search = footpathSearch(g, maxM)): Footpaths {
  const alongOf = snaps.alongM[Layer.Walk]!;
  const offsetOf = snaps.offsetM[Layer.Walk]!;
  const edgeStops = stopsByEdge(snaps, fromBelow);
  const limit = Math.round(maxM * 10);
  const out = new FootpathList();
  const best = new Map<number, number>();
  const walkForward = forwardBit(Layer.Walk);
  const walkBackward = backwardBit(Layer.Walk);
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    const snap = stopSnap(snaps, Layer.Walk, t);
    if (!snap) continue;
    best.clear();
    const targetDm = offsetOf[t]! * 10;
    const offer = (other: number, streetDm: number) => {
      if (other === t) return;
      const d = streetDm + offsetOf[other]! * 10 + targetDm;
      if (d <= limit && d < (best.get(other) ?? UNREACHED)) best.set(other, d);
    };
    // stops on the same edge: straight along it
    for (const other of edgeStops.get(snap.edge) ?? []) offer(other, Math.abs(snap.alongM - alongOf[other]!) * 10);
    const e = snap.edge;
    const lengthDm = g.edgeLengthDm[e]!;
    // the forward search enters the target's edge at either end whatever its direction
    const ends = [
      { vertex: g.edgeFrom[e]!, alongDm: snap.alongM * 10 },
      { vertex: g.edgeTo[e]!, alongDm: Math.max(0, lengthDm - snap.alongM * 10) },
    ];
    for (const end of ends) {
      search.reset();
      search.seed(end.vertex, 0);
      search.run(Layer.Walk, 1, limit, true);
      for (let k = 0; k < search.touchedCount; k++) {
        const v = search.touched[k]!;
        const cost = search.costOf(v) + end.alongDm;
        for (let a = g.adjOffset[v]!; a < g.adjOffset[v + 1]!; a++) {
          const ref = g.adjEdge[a]!;
          const edge = ref >>> 1;
          const onEdge = edgeStops.get(edge);
          if (!onEdge) continue;
          // a stop on `edge` walks to v, its `from` end (side 0) against the edge, its `to` end along it,
          // seeded as `StreetSearch.seedSnap` seeds it
          const fromEnd = (ref & 1) === 0;
          if ((g.edgeAccess[edge]! & (fromEnd ? walkBackward : walkForward)) === 0) continue;
          const edgeM = g.edgeLengthDm[edge]! / 10;
          for (const other of onEdge) {
            const seedDm = Math.trunc(fromEnd ? alongOf[other]! * 10 : Math.max(0, edgeM - alongOf[other]!) * 10);
            offer(other, seedDm + cost);
          }
        }
      }
    }
    for (const [other, d] of best) out.push(other, t, d);
  }
  return out.footpaths();
}

/** The linked stops (below `below`) of each edge of the walking layer. */
function stopsByEdge(snaps: StopSnaps, below = snaps.edge[Layer.Walk]!.length): Map<number, number[]> {
  const edgeOf = snaps.edge[Layer.Walk]!;
  const edgeStops = new Map<number, number[]>();
  for (let s = 0; s < below; s++) {
    const e = edgeOf[s]!;
    if (e < 0) continue;
    const list = edgeStops.get(e);
    if (list) list.push(s);
    else edgeStops.set(e, [s]);
  }
  return edgeStops;
}

/** Footpaths as they are found, lengths in decimetres. */
class FootpathList {
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly lengths: number[] = [];

  push(from: number, to: number, dm: number): void {
    this.from.push(from);
    this.to.push(to);
    this.lengths.push(dm / 10);
  }

  footpaths(): Footpaths {
    return { from: Uint32Array.from(this.from), to: Uint32Array.from(this.to), lengthM: Float32Array.from(this.lengths) };
  }
}
