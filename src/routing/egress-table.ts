/**
 * Egress tables (R5's, for its point sets): per stop, the points of a set that a street leg from the
 * stop reaches within the leg's limit, and how long it takes. At points (accessibility, travel-time
 * matrices) the leg after the last vehicle lasts at most `max_<mode>_duration_to_pt`, as in R5 and
 * in Navitia's journeys; with that limit a stop reaches a few dozen points, and valuing the points
 * from the stops a search reached is a pass over their rows, not a street search over the city
 * (docs/analysis.md, "How the points are valued"). A heat map's cells keep Navitia's heat-map rule:
 * the street from the stops runs up to max_duration (heat-map.ts).
 *
 * A row is made as a cell is valued: a street search from the stop's link point, on the leg's layer
 * at its speed, up to the limit; each point on an edge the search touched is valued at its own link
 * (the cost at its link point plus its off-street offset at walking speed) and kept when within the
 * limit. Arrival maps read the same legs backwards: from the point to the stop.
 *
 * A scenario's new stops (overlay-stops.ts) get a small table of their own beside the timetable's,
 * whose rows start at the first new stop (`firstStop`): the timetable's table is never copied.
 */
import type { Layer } from '../model/street-layers.js';
import { groupBy, type Csr } from '../model/csr.js';
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import { offsetSeedDs, type StreetSearch } from './street-search.js';
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';

/** The most entries a table may hold over all its stops (8 bytes each): past it the computation is refused. */
export const MAX_EGRESS_ENTRIES = 24_000_000;

export class EgressBudgetError extends Error {}

/** What a table is made for: a point set's links on a layer, a speed, a limit and a direction. */
export interface EgressKey {
  points: LinkedPoints;
  layer: Layer;
  /** m/s on the street, and the walking speed of the off-street offsets */
  speed: number;
  walkSpeed: number;
  /** the leg's longest duration, tenths of a second */
  limitDs: number;
  /** arrival maps: from the points to the stops */
  reverse: boolean;
}

export interface EgressTable extends EgressKey {
  /** the stop of row 0 (0: the timetable's table; an overlay's first new stop: the table of its new stops) */
  firstStop: number;
  /** the points stop firstStop + s reaches: entries [offset[s], offset[s + 1]) */
  offset: Uint32Array;
  point: Uint32Array;
  /**
   * whole tenths of a second between the stop and the point (floored: a value from a stop is a whole
   * number of tenths, the arrival's, plus this; the values are floored to tenths in the end anyway)
   */
  costDs: Int32Array;
}

/**
 * Whether two keys make the same table. The points are named: a set arrives with each computation
 * as a new object on the same shared memory, and an engine's sets never change under one name.
 */
export function sameEgressKey(a: EgressKey, b: EgressKey): boolean {
  return a.points.name === b.points.name && a.layer === b.layer && a.speed === b.speed && a.walkSpeed === b.walkSpeed && a.limitDs === b.limitDs && a.reverse === b.reverse;
}

/** The table of `key` for the stops of `snaps` on `graph` (the first being stop `firstStop`), made with `search` (its labels are overwritten). */
export function buildEgressTable(graph: StreetGraph, snaps: StopSnaps, key: EgressKey, search: StreetSearch, firstStop = 0): EgressTable {
  const { points, layer, speed, walkSpeed, limitDs, reverse } = key;
  const count = pointCount(points);
  const edgeOf = points.links.edge[layer]!;
  const alongOf = points.links.alongM[layer]!;
  const offsetOf = points.links.offsetM[layer]!;
  const byEdge: Csr = groupBy(count, graph.edgeCount, (p) => edgeOf[p]!);
  const stopCount = snaps.edge[layer]!.length;
  // on shared memory, as the entries below: a table made on one thread serves the others (a matrix's first step)
  const offset = sharedArray(Uint32Array, stopCount + 1);
  let point = new Uint32Array(1024);
  let costDs = new Int32Array(1024);
  let n = 0;
  // the last stop that valued each point (a point on several touched edges is valued once a stop)
  const seenBy = new Int32Array(count).fill(-1);
  const perMetre = 10 / speed;
  const walkPerMetre = 10 / walkSpeed;
  const { adjOffset, adjEdge } = graph;
  let s = 0;
  const visit = (e: number) => {
    for (let x = byEdge.offsets[e]!; x < byEdge.offsets[e + 1]!; x++) {
      const p = byEdge.items[x]!;
      if (seenBy[p] === s) continue;
      seenBy[p] = s;
      const ds = search.costAlong(e, alongOf[p]!, layer, perMetre, reverse) + offsetOf[p]! * walkPerMetre;
      if (!(ds <= limitDs)) continue;
      if (n === point.length) {
        if (n >= MAX_EGRESS_ENTRIES) throw new EgressBudgetError(`the egress table of ${points.name} holds more than ${MAX_EGRESS_ENTRIES} (stop, point) pairs`);
        const grownPoint = new Uint32Array(Math.min(2 * n, MAX_EGRESS_ENTRIES));
        grownPoint.set(point);
        point = grownPoint;
        const grownCost = new Int32Array(grownPoint.length);
        grownCost.set(costDs);
        costDs = grownCost;
      }
      point[n] = p;
      costDs[n++] = Math.floor(ds);
    }
  };
  for (; s < stopCount; s++) {
    offset[s] = n;
    const snap = stopSnap(snaps, layer, s);
    if (!snap) continue;
    search.reset();
    search.seedSnap(snap, layer, speed, offsetSeedDs(snap.offsetM, walkSpeed), reverse);
    search.run(layer, speed, limitDs, reverse);
    visit(snap.edge);
    for (let k = 0; k < search.touchedCount; k++) {
      const v = search.touched[k]!;
      for (let a = adjOffset[v]!; a < adjOffset[v + 1]!; a++) visit(adjEdge[a]! >>> 1);
    }
  }
  offset[stopCount] = n;
  return { ...key, firstStop, offset, point: sharedCopy(Uint32Array, point.subarray(0, n)), costDs: sharedCopy(Int32Array, costDs.subarray(0, n)) };
}

/** The memory a table holds, bytes. */
export function egressTableBytes(table: EgressTable): number {
  return table.offset.byteLength + table.point.byteLength + table.costDs.byteLength;
}

/**
 * Value the points from the stops a search reached (the first `reachedCount` of `reached`, each
 * `vehicleSec` after the start), plus `extraDs`: a point keeps the least value under `limitDs`.
 * Stops without a row in the table are another table's (the timetable's, or an overlay's new ones).
 */
export function valueFromStops(table: EgressTable, reached: ArrayLike<number>, reachedCount: number, vehicleSec: Int32Array, extraDs: number, limitDs: number, out: Float64Array): void {
  const { offset, point, costDs, firstStop } = table;
  const rows = offset.length - 1;
  for (let r = 0; r < reachedCount; r++) {
    const s = reached[r]!;
    const row = s - firstStop;
    if (row < 0 || row >= rows) continue;
    const base = vehicleSec[s]! * 10 + extraDs;
    for (let x = offset[row]!; x < offset[row + 1]!; x++) {
      const v = base + costDs[x]!;
      const p = point[x]!;
      if (v < limitDs && v < out[p]!) out[p] = v;
    }
  }
}
