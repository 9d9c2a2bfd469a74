/**
 * A scenario's new stops as the routing engine sees them (docs/scenarios.md, add-trips and reroute:
 * "a new stop point, linked to the streets as any stop is, with walking transfers to its
 * neighbours"). They are numbered after the timetable's stop points (stop index = the timetable's
 * stop count + k), and an overlay carries, for the timetable's stops and its new ones together:
 *
 *   - their positions and their links to the streets: per stop a few bytes, the timetable's copied
 *     once per scenario, never the timetable's or the egress tables' big arrays;
 *   - the walking connections from or to a new stop (the timetable's own stay in `RaptorData`),
 *     by leaving stop and again by arriving stop (for arrival searches), of the length the
 *     timetable's footpaths would have if the new stops were in the feed (routing/footpaths.ts).
 *
 * All arrays are on shared memory: the stops travel to the worker threads with each query without a
 * copy. A query's steps read the stops through `stopsOf`, the overlay's when it has new stops.
 */
import { randomUUID } from 'node:crypto';
import { groupBy } from '../model/csr.js';
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import { emptySnaps, snapRange, type StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import { footpathSearch, walkingFootpaths, walkingFootpathsTo } from './footpaths.js';
import { inOnePiece } from '../util/stepwise.js';
import type { Footpaths } from './raptor-data.js';

/** The most new stops an overlay may have: the engines' per-stop scratch keeps room for them. */
export const MAX_OVERLAY_STOPS = 2000;

/** The stops a query's steps see: their count, positions and links to the streets. */
export interface StopPlaces {
  /** stops, timetable's and new */
  count: number;
  lon: Float64Array;
  lat: Float64Array;
  snaps: StopSnaps;
}

export interface OverlayStops extends StopPlaces {
  /** names these stops across threads (an overlay reaches a worker as a new object each time) */
  id: string;
  /** the timetable's stop count: the index of the first new stop */
  baseCount: number;
  /** connections from or to a new stop by leaving stop: [transferOffset[p], transferOffset[p + 1]), count + 1 offsets */
  transferOffset: Uint32Array;
  transferTo: Uint32Array;
  /** metres of walking (walked in ceil(length / speed) seconds) */
  transferLengthM: Float64Array;
  /** the same connections by arriving stop */
  transferInOffset: Uint32Array;
  transferInFrom: Uint32Array;
  transferInLengthM: Float64Array;
}

/** A new stop's position. */
export interface NewStopPlace {
  lon: number;
  lat: number;
}

/**
 * The timetable's stops (`baseSnaps`, `baseLon`, `baseLat`) and `newStops` after them, the new ones
 * linked to `graph` and joined to every stop within `maxWalkM` (the timetable's footpath horizon).
 */
export function buildOverlayStops(graph: StreetGraph, baseSnaps: StopSnaps, baseLon: Float64Array, baseLat: Float64Array, newStops: readonly NewStopPlace[], maxWalkM: number): OverlayStops {
  return inOnePiece(overlayStopsSteps(graph, baseSnaps, baseLon, baseLat, newStops, maxWalkM));
}

/** New stops whose walks are found between two yields (a few milliseconds' street searches). */
const STOPS_PER_STEP = 16;

/** `buildOverlayStops` a few new stops at a time (a server runs it in slices, answering requests between). */
export function* overlayStopsSteps(graph: StreetGraph, baseSnaps: StopSnaps, baseLon: Float64Array, baseLat: Float64Array, newStops: readonly NewStopPlace[], maxWalkM: number): Generator<void, OverlayStops> {
  if (newStops.length > MAX_OVERLAY_STOPS) throw new RangeError(`${newStops.length} new stops: at most ${MAX_OVERLAY_STOPS}`);
  const baseCount = baseLon.length;
  const count = baseCount + newStops.length;
  const lon = sharedArray(Float64Array, count);
  const lat = sharedArray(Float64Array, count);
  lon.set(baseLon);
  lat.set(baseLat);
  newStops.forEach((s, k) => {
    lon[baseCount + k] = s.lon;
    lat[baseCount + k] = s.lat;
  });
  const snaps = emptySnaps(count);
  baseSnaps.edge.forEach((edge, layer) => {
    snaps.edge[layer]!.set(edge);
    snaps.alongM[layer]!.set(baseSnaps.alongM[layer]!);
    snaps.offsetM[layer]!.set(baseSnaps.offsetM[layer]!);
    snaps.unsnapped[layer] = baseSnaps.unsnapped[layer]!;
  });
  snapRange(graph, lon, lat, snaps, baseCount, count);
  // from each new stop to every stop; into each new stop from the timetable's (new to new is in the first)
  const search = footpathSearch(graph, maxWalkM);
  const parts: Footpaths[] = [];
  for (let from = baseCount; from < count; from += STOPS_PER_STEP) {
    const added = Array.from({ length: Math.min(STOPS_PER_STEP, count - from) }, (_, k) => from + k);
    parts.push(walkingFootpaths(graph, snaps, maxWalkM, added, search), walkingFootpathsTo(graph, snaps, maxWalkM, added, baseCount, search));
    yield;
  }
  return { id: randomUUID(), baseCount, count, lon, lat, snaps, ...connections(count, parts) };
}

type Connections = Pick<OverlayStops, 'transferOffset' | 'transferTo' | 'transferLengthM' | 'transferInOffset' | 'transferInFrom' | 'transferInLengthM'>;

/** The footpaths' connections by leaving stop and by arriving stop, on shared memory. */
function connections(count: number, parts: Footpaths[]): Connections {
  const from = parts.flatMap((f) => Array.from(f.from));
  const to = parts.flatMap((f) => Array.from(f.to));
  const lengthM = parts.flatMap((f) => Array.from(f.lengthM));
  const byFrom = groupBy(from.length, count, (i) => from[i]!);
  const byTo = groupBy(from.length, count, (i) => to[i]!);
  return {
    transferOffset: sharedCopy(Uint32Array, byFrom.offsets),
    transferTo: sharedCopy(Uint32Array, Array.from(byFrom.items, (i) => to[i]!)),
    transferLengthM: sharedCopy(Float64Array, Array.from(byFrom.items, (i) => lengthM[i]!)),
    transferInOffset: sharedCopy(Uint32Array, byTo.offsets),
    transferInFrom: sharedCopy(Uint32Array, Array.from(byTo.items, (i) => from[i]!)),
    transferInLengthM: sharedCopy(Float64Array, Array.from(byTo.items, (i) => lengthM[i]!)),
  };
}

/** The overlay's connections as a search walks them: by leaving stop (row p: from p), or `reverse` by arriving stop (row p: into p). */
export function connectionRows(stops: OverlayStops, reverse: boolean): { offset: Uint32Array; other: Uint32Array; lengthM: Float64Array } {
  return reverse
    ? { offset: stops.transferInOffset, other: stops.transferInFrom, lengthM: stops.transferInLengthM }
    : { offset: stops.transferOffset, other: stops.transferTo, lengthM: stops.transferLengthM };
}

/** What `stopsOf` reads of a coverage's heat-map data (`HeatMapData`): its timetable's stops. */
interface TimetableStops {
  stopLon: Float64Array;
  stopLat: Float64Array;
  snaps: StopSnaps;
}

/** The timetable's stops of a coverage's data, as a query without new stops sees them (one object per data). */
const baseStops = new WeakMap<TimetableStops, StopPlaces>();

/** The stops query `q` sees on `data` (a `HeatMapData`): its overlay's when it has new stops, else the timetable's. */
export function stopsOf(data: TimetableStops, q: { overlay?: { stops?: OverlayStops | null } | null }): StopPlaces {
  const own = q.overlay?.stops;
  if (own) return own;
  let base = baseStops.get(data);
  if (!base) baseStops.set(data, (base = { count: data.stopLon.length, lon: data.stopLon, lat: data.stopLat, snaps: data.snaps }));
  return base;
}

/** The links of the new stops alone (views on the overlay's), for their own egress tables: row k is stop baseCount + k. */
export function newStopSnaps(stops: OverlayStops): StopSnaps {
  const tail = <T extends Int32Array | Float32Array>(a: T) => a.subarray(stops.baseCount) as T;
  return { edge: stops.snaps.edge.map(tail), alongM: stops.snaps.alongM.map(tail), offsetM: stops.snaps.offsetM.map(tail), unsnapped: [...stops.snaps.unsnapped] };
}

/** Whether stop p is allowed by a query's `stopAllowed` (null: all): a mask of the timetable's stops allows the new stops past its end. */
export function stopAllowedAt(allowed: Uint8Array | null, p: number): boolean {
  return allowed === null || p >= allowed.length || allowed[p] !== 0;
}
