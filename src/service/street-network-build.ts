/**
 * The street side of a coverage's heat-map data, from its OpenStreetMap extract and its stops'
 * positions only: the street graph with its small islands removed, the stops linked to it, the
 * walking footpaths between them, and what the load report says of them. Pure data in and out (the
 * arrays on shared memory), so that it runs in a worker thread (street-network-worker.ts) while the
 * coverage's requests are answered.
 */
import { readOsm } from '../osm/read-osm.js';
import { buildBareStreetGraph } from '../osm/build-street-graph.js';
import { linkLatticesInThreads } from './link-lattices-in-threads.js';
import { Layer, LAYER_NAMES } from '../model/street-layers.js';
import { snapStops, type StopSnaps } from '../model/stop-snaps.js';
import { LINK_RADIUS_M, linkLatticesBytes, streetGraphBytes, type StreetGraph } from '../model/street-graph.js';
import { walkingFootpaths } from '../routing/footpaths.js';
import type { Footpaths } from '../routing/raptor-data.js';

/** Stops closer than this along the streets (off-street offsets included) are joined by a walking transfer (R5's transfer finder walks 1 km). */
export const TRANSFER_HORIZON_M = 1000;

export interface StreetNetwork {
  graph: StreetGraph;
  /** street names, by `graph.edgeName` */
  names: string[];
  snaps: StopSnaps;
  footpaths: Footpaths;
  /** lines for the load report */
  notes: string[];
  stats: Record<string, number>;
}

export async function buildStreetNetwork(osmPath: string, stopLon: Float64Array, stopLat: Float64Array): Promise<StreetNetwork> {
  const notes: string[] = [];
  const osm = await readOsm(osmPath);
  const file = osmPath.split(/[\\/]/).pop()!;
  if (osm.stats.missingNodeRefs > 0) notes.push(`${file}: ${osm.stats.missingNodeRefs} node references point to nodes missing from the extract (ways cut at its edge)`);
  if (osm.stats.duplicateWays > 0) notes.push(`${file}: ${osm.stats.duplicateWays} ways repeated with the same id, the first one kept`);
  const built = buildBareStreetGraph(osm);
  const graph: StreetGraph = { ...built.graph, linkLattices: await linkLatticesInThreads(built.graph) };
  const { unmappedSidewalks, waysOpenedToWalk, waysOpenedToBike } = built.stats;
  if (unmappedSidewalks > 0) notes.push(`${file}: ${unmappedSidewalks} roads tagged foot=no with no walkway mapped beside them opened to walkers (their sidewalks are not in the extract)`);
  if (waysOpenedToWalk + waysOpenedToBike > 0) {
    notes.push(`${file}: ${waysOpenedToWalk} ways tagged foot=no opened to walkers and ${waysOpenedToBike} tagged bicycle=no to cyclists, each chain alone joining parts of their network (false islands)`);
  }
  const islands = built.stats.smallIslandEdges;
  const snaps = snapStops(graph, stopLon, stopLat);
  snaps.unsnapped.forEach((n, layer) => {
    if (n === 0) return;
    const usable = layer === Layer.Walk ? ': usable by vehicles, not on foot' : '';
    notes.push(`${file}: ${n} of ${stopLon.length} stop points are more than ${LINK_RADIUS_M} m from a ${LAYER_NAMES[layer]} street${usable}`);
  });
  const footpaths = walkingFootpaths(graph, snaps, TRANSFER_HORIZON_M);
  return {
    graph,
    names: built.names,
    snaps,
    footpaths,
    notes,
    stats: {
      osm_nodes: osm.stats.nodesRead,
      osm_ways: osm.stats.waysRead,
      osm_missing_node_refs: osm.stats.missingNodeRefs,
      osm_duplicate_ways: osm.stats.duplicateWays,
      street_vertices: built.stats.vertices,
      street_edges: built.stats.edges,
      street_segments: built.stats.segments,
      ways_unmapped_sidewalks: built.stats.unmappedSidewalks,
      ways_opened_to_walk: built.stats.waysOpenedToWalk,
      ways_opened_to_bike: built.stats.waysOpenedToBike,
      small_island_edges_walk: islands[0]!,
      small_island_edges_bike: islands[1]!,
      small_island_edges_car: islands[2]!,
      street_graph_bytes: streetGraphBytes(graph),
      link_lattice_bytes: linkLatticesBytes(graph),
      unsnapped_walk: snaps.unsnapped[0]!,
      unsnapped_bike: snaps.unsnapped[1]!,
      unsnapped_car: snaps.unsnapped[2]!,
      footpaths: footpaths.from.length,
    },
  };
}
