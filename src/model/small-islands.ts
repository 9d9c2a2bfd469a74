/**
 * Small islands: pieces of a layer's network joined to nothing else (a footway in a park drawn
 * alone, a car park's aisles), too small to stand for a place. A heat map's centre attached to one
 * would reach nothing: so, per layer, the segments of every connected part other than the largest
 * with fewer than SMALL_ISLAND_EDGES edges and no stop point of its own are taken out of the
 * segment grid for that layer, and centres attach to the nearest street of the network instead. A
 * stop point attached to such a part keeps it (the part then holds a stop: a platform), and its
 * footpaths and the walk between cells do the rest. Read after OpenTripPlanner's island pruning,
 * which uses the same threshold for islands without stops.
 */
import { Layer, LAYER_NAMES, layerBits } from './street-layers.js';
import type { StopSnaps } from './stop-snaps.js';
import type { StreetGraph } from './street-graph.js';

/** Connected parts with fewer edges than this, holding no stop, are small islands. */
export const SMALL_ISLAND_EDGES = 40;

/** Take the small islands of every layer out of the segment grid (centres no longer attach to them); returns their edges per layer. */
export function removeSmallIslands(g: StreetGraph, snaps: StopSnaps): number[] {
  const removed: number[] = [];
  for (let layer = 0; layer < LAYER_NAMES.length; layer++) removed.push(removeLayer(g, snaps, layer as Layer));
  return removed;
}

function removeLayer(g: StreetGraph, snaps: StopSnaps, layer: Layer): number {
  const bits = layerBits(layer);
  const parent = new Int32Array(g.vertexCount);
  for (let v = 0; v < g.vertexCount; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]!]!;
      v = parent[v]!;
    }
    return v;
  };
  for (let e = 0; e < g.edgeCount; e++) {
    if (!(g.edgeAccess[e]! & bits)) continue;
    const a = find(g.edgeFrom[e]!);
    const b = find(g.edgeTo[e]!);
    if (a !== b) parent[a] = b;
  }
  const edges = new Int32Array(g.vertexCount);
  let largest = -1;
  for (let e = 0; e < g.edgeCount; e++) {
    if (!(g.edgeAccess[e]! & bits)) continue;
    const r = find(g.edgeFrom[e]!);
    edges[r]!++;
    if (largest < 0 || edges[r]! > edges[largest]!) largest = r;
  }
  const holdsStop = new Uint8Array(g.vertexCount);
  for (const e of snaps.edge[layer]!) if (e >= 0) holdsStop[find(g.edgeFrom[e]!)] = 1;
  const small = (e: number) => {
    const r = find(g.edgeFrom[e]!);
    return r !== largest && edges[r]! < SMALL_ISLAND_EDGES && !holdsStop[r];
  };
  const grid = g.segmentGrid;
  let count = 0;
  for (let e = 0; e < g.edgeCount; e++) if (g.edgeAccess[e]! & bits && small(e)) count++;
  if (count === 0) return 0;
  for (let n = 0; n < grid.segments.length; n++) {
    const e = g.segmentEdge[grid.segments[n]!]!;
    if (grid.access[n]! & bits && small(e)) grid.access[n]! &= ~bits;
  }
  return count;
}
