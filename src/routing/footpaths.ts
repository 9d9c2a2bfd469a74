/**
 * The walking paths between nearby stop points (the footpaths of the transit search), computed
 * once per generation from the stops' snapped points on the walking layer.
 */
import { Layer } from '../model/street-layers.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import { METRES_PER_DEGREE, planarMetres } from '../util/geodesy.js';
import type { Footpaths } from './raptor-data.js';
import { UNREACHED } from './unreached.js';
import { StreetSearch } from './street-search.js';

/** Stop points closer than this (metres, straight) never take longer to walk between than the straight line at TRANSFER_DETOUR. */
export const CLOSE_STOPS_M = 100;
/** How much longer than the straight line a walk between stops is counted where the streets do not give it. */
export const TRANSFER_DETOUR = 1.3;

/**
 * Walking paths between stop points at most `maxM` metres apart (each direction listed): along the
 * walking layer, from one stop's snapped point to the other's; but between stops closer than
 * CLOSE_STOPS_M, never longer than the straight line times TRANSFER_DETOUR (two platforms that a
 * connector tagged `foot=no` or a missing crossing puts far apart on the map are not far apart in
 * the street); and between stops the streets do not join within `maxM` (a stop with no street
 * near it, a platform on a footway island), the straight line times TRANSFER_DETOUR.
 */
export function walkingFootpaths(g: StreetGraph, snaps: StopSnaps, lon: Float64Array, lat: Float64Array, maxM: number): Footpaths {
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
  const near = new NearbyStops(lon, lat, maxM / TRANSFER_DETOUR);
  // lengths in decimetres through a search at 1 m/s (its costs are then tenths of metres)
  const limit = Math.round(maxM * 10);
  const search = new StreetSearch(g, limit);
  const from: number[] = [];
  const to: number[] = [];
  const lengths: number[] = [];
  const best = new Map<number, number>();
  for (let s = 0; s < stopCount; s++) {
    best.clear();
    const snap = stopSnap(snaps, Layer.Walk, s);
    if (snap) {
      search.reset();
      search.seedSnap(snap, Layer.Walk, 1, 0, false);
      search.run(Layer.Walk, 1, limit);
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
    }
    near.forEach(s, (other, straightM) => {
      const plainDm = straightM * TRANSFER_DETOUR * 10;
      const streets = best.get(other);
      if (streets === undefined || (straightM < CLOSE_STOPS_M && plainDm < streets)) best.set(other, plainDm);
    });
    for (const [other, d] of best) {
      if (d > limit) continue;
      from.push(s);
      to.push(other);
      lengths.push(d / 10);
    }
  }
  return { from: Uint32Array.from(from), to: Uint32Array.from(to), lengthM: Float32Array.from(lengths) };
}

/** The stop points within `radiusM` (straight) of each other, found through square buckets of that side. */
class NearbyStops {
  private readonly buckets = new Map<string, number[]>();
  /** the least cos(latitude) of the stops: east-west distances in the buckets never exceed true ones */
  private readonly cos: number;

  constructor(
    private readonly lon: Float64Array,
    private readonly lat: Float64Array,
    private readonly radiusM: number,
  ) {
    let cos = 1;
    for (let s = 0; s < lat.length; s++) cos = Math.min(cos, Math.cos((lat[s]! * Math.PI) / 180));
    this.cos = Math.max(0.01, cos);
    for (let s = 0; s < lon.length; s++) {
      const key = this.keyOf(this.x(s), this.y(s));
      const list = this.buckets.get(key);
      if (list) list.push(s);
      else this.buckets.set(key, [s]);
    }
  }

  /** Call `visit` with each other stop within the radius of stop s and its straight distance (metres). */
  forEach(s: number, visit: (other: number, straightM: number) => void): void {
    const x = this.x(s);
    const y = this.y(s);
    const bx = Math.floor(x / this.radiusM);
    const by = Math.floor(y / this.radiusM);
    for (let i = bx - 1; i <= bx + 1; i++) {
      for (let j = by - 1; j <= by + 1; j++) {
        for (const other of this.buckets.get(`${i},${j}`) ?? []) {
          if (other === s) continue;
          const d = planarMetres(this.lon[s]!, this.lat[s]!, this.lon[other]!, this.lat[other]!);
          if (d <= this.radiusM) visit(other, d);
        }
      }
    }
  }

  /** Positions in metres east and north of (0°, 0°), only for bucketing. */
  private x(s: number): number {
    return this.lon[s]! * METRES_PER_DEGREE * this.cos;
  }
  private y(s: number): number {
    return this.lat[s]! * METRES_PER_DEGREE;
  }
  private keyOf(x: number, y: number): string {
    return `${Math.floor(x / this.radiusM)},${Math.floor(y / this.radiusM)}`;
  }
}
