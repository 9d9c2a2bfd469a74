/**
 * Small islands: pieces of a layer's network joined to nothing else (a footway in a park drawn
 * alone, a platform drawn apart from the streets, a car park's aisles), too small to stand for a
 * place. A point linked to one would reach nothing, and nothing would reach it: so, per layer, the
 * segments of every connected part other than the largest with fewer than SMALL_ISLAND_EDGES edges
 * are taken out of the segment grid for that layer, before the stops are linked, and every point
 * (a stop, a map's centre, a cell) links to the nearest street of the network instead. Read after
 * R5's removal of disconnected subgraphs and OpenTripPlanner's island pruning, which use the same
 * threshold. (A stop used to keep the island it stood on, when straight walks joined it to the
 * streets; walks now follow the streets only, and a platform on an island would be cut off.)
 */
import { Layer, LAYER_NAMES, layerBits } from './street-layers.js';
import type { BareStreetGraph } from './street-graph.js';

/** Connected parts with fewer edges than this are small islands. */
export const SMALL_ISLAND_EDGES = 40;

/**
 * Take the small islands of every layer out of the segment grid (points no longer link to them),
 * before the link lattices are computed from it; returns their edges per layer.
 */
export function removeSmallIslands(g: BareStreetGraph): number[] {
  const removed: number[] = [];
  for (let layer = 0; layer < LAYER_NAMES.length; layer++) removed.push(removeLayer(g, layer as Layer));
  return removed;
}

function removeLayer(g: BareStreetGraph, layer: Layer): number {
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
  const small = (e: number) => {
    const r = find(g.edgeFrom[e]!);
    return r !== largest && edges[r]! < SMALL_ISLAND_EDGES;
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
