/**
 * Per street layer, the stops linked to an edge at each vertex, so that an access offers the stops
 * on the edges its street search reached instead of reading every stop of the coverage: on a
 * country of 153,355 stop points, reading them all took 5.3 ms of each map, 0.4 ms on the city
 * alone.
 *
 * A bit per vertex says whether any stop is linked to an edge at it (a country's 26 M vertices:
 * 3 MB a layer, where offsets per vertex would take 100 MB); the (vertex, stop) pairs, sorted, are
 * found by binary search for the few vertices whose bit is set. Built once per thread and
 * coverage data (`stopsAtVerticesOf`), not again when the thread's engine cache makes an engine again.
 */
import type { Layer } from '../model/street-layers.js';
import { LAYER_NAMES } from '../model/street-layers.js';
import type { StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import type { StreetSearch } from './street-search.js';
import { lowerBound } from '../util/sorted-search.js';

interface LayerPairs {
  /** bit v: some stop is linked to an edge at vertex v */
  flagged: Uint32Array;
  /** the pairs sorted by vertex, then stop */
  vertex: Uint32Array;
  stop: Uint32Array;
}

const built = new WeakMap<StopSnaps, StopsAtVertices>();

/** The index of a coverage's stop links on its graph, made on first use in this thread. */
export function stopsAtVerticesOf(graph: StreetGraph, snaps: StopSnaps): StopsAtVertices {
  let index = built.get(snaps);
  if (!index) built.set(snaps, (index = new StopsAtVertices(graph, snaps)));
  return index;
}

export class StopsAtVertices {
  private readonly layers: LayerPairs[];
  /** per stop: the round in which `reachedBy` last listed it */
  private readonly listed: Uint32Array;
  private round = 0;

  constructor(
    private readonly graph: StreetGraph,
    readonly snaps: StopSnaps,
  ) {
    this.layers = LAYER_NAMES.map((_, layer) => pairsOf(graph, snaps.edge[layer]!));
    this.listed = new Uint32Array(snaps.edge[0]!.length);
  }

  /**
   * Into `out`, ascending, every stop linked on `layer` to an edge with an end `search` touched or
   * holding one of its point seeds (the stops it can reach, and a few more); returns how many.
   */
  reachedBy(search: StreetSearch, layer: Layer, out: Uint32Array): number {
    if (++this.round === 0xffffffff) {
      this.listed.fill(0);
      this.round = 1;
    }
    const { edgeFrom, edgeTo } = this.graph;
    let count = 0;
    for (let k = 0; k < search.touchedCount; k++) count = this.atVertex(layer, search.touched[k]!, out, count);
    for (let k = 0; k < search.pointCount; k++) {
      const e = search.pointEdgeOf(k);
      count = this.atVertex(layer, edgeFrom[e]!, out, count);
      count = this.atVertex(layer, edgeTo[e]!, out, count);
    }
    out.subarray(0, count).sort();
    return count;
  }

  /** The stops at vertex v not listed yet this round, appended to `out` from `count`. */
  private atVertex(layer: Layer, v: number, out: Uint32Array, count: number): number {
    const { flagged, vertex, stop } = this.layers[layer]!;
    if ((flagged[v >>> 5]! & (1 << (v & 31))) === 0) return count;
    for (let k = lowerBound(vertex, v); k < vertex.length && vertex[k] === v; k++) {
      const s = stop[k]!;
      if (this.listed[s] === this.round) continue;
      this.listed[s] = this.round;
      out[count++] = s;
    }
    return count;
  }
}

/** A layer's pairs: each linked stop at both ends of its edge. */
function pairsOf(graph: StreetGraph, edges: Int32Array): LayerPairs {
  const flagged = new Uint32Array((graph.vertexCount >>> 5) + 1);
  const ends: number[] = [];
  for (let s = 0; s < edges.length; s++) {
    const e = edges[s]!;
    if (e < 0) continue;
    for (const v of [graph.edgeFrom[e]!, graph.edgeTo[e]!]) {
      flagged[v >>> 5]! |= 1 << (v & 31);
      ends.push(v, s);
    }
  }
  const order = Array.from({ length: ends.length / 2 }, (_, k) => k);
  order.sort((a, b) => ends[2 * a]! - ends[2 * b]! || ends[2 * a + 1]! - ends[2 * b + 1]!);
  return { flagged, vertex: Uint32Array.from(order, (k) => ends[2 * k]!), stop: Uint32Array.from(order, (k) => ends[2 * k + 1]!) };
}
