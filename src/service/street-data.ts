/**
 * The heat-map side of a generation: the street graph from the coverage's OpenStreetMap extract,
 * the stops snapped on it, the walking footpaths between stops, and the transit search data, all on
 * shared memory for the worker threads.
 */
import { readOsm } from '../osm/read-osm.js';
import { buildStreetGraph } from '../osm/build-street-graph.js';
import { Layer, LAYER_NAMES } from '../model/street-layers.js';
import { ServiceDays } from '../model/service-days.js';
import { sharedCopy } from '../model/shared-arrays.js';
import { walkingFootpaths } from '../routing/footpaths.js';
import { snapStops } from '../model/stop-snaps.js';
import { removeSmallIslands } from '../model/small-islands.js';
import { LINK_RADIUS_M, streetGraphBytes } from '../model/street-graph.js';
import type { Timetable } from '../model/timetable.js';
import type { HeatMapData } from '../routing/heat-map.js';
import { buildRaptorData } from '../routing/raptor-data.js';
import type { LoadReport } from '../gtfs/load-report.js';

let streetDataCounter = 0;

/** Stops closer than this along the streets (off-street offsets included) are joined by a walking transfer (R5's transfer finder walks 1 km). */
export const TRANSFER_HORIZON_M = 1000;

export interface StreetData {
  /** Identifies this data across generations that share it (realtime updates do): engines are kept per id. */
  id: number;
  data: HeatMapData;
  /** street names, by `graph.edgeName` */
  names: string[];
  stats: Record<string, number>;
}

export async function buildStreetData(tt: Timetable, osmPath: string, report: LoadReport): Promise<StreetData> {
  const osm = await readOsm(osmPath);
  const file = osmPath.split(/[\\/]/).pop()!;
  if (osm.stats.missingNodeRefs > 0) report.note(`${file}: ${osm.stats.missingNodeRefs} node references point to nodes missing from the extract (ways cut at its edge)`);
  if (osm.stats.duplicateWays > 0) report.note(`${file}: ${osm.stats.duplicateWays} ways repeated with the same id, the first one kept`);
  const built = buildStreetGraph(osm);
  const graph = built.graph;
  const { unmappedSidewalks, waysOpenedToWalk, waysOpenedToBike } = built.stats;
  if (unmappedSidewalks > 0) report.note(`${file}: ${unmappedSidewalks} roads tagged foot=no with no walkway mapped beside them opened to walkers (their sidewalks are not in the extract)`);
  if (waysOpenedToWalk + waysOpenedToBike > 0) {
    report.note(`${file}: ${waysOpenedToWalk} ways tagged foot=no opened to walkers and ${waysOpenedToBike} tagged bicycle=no to cyclists, each chain alone joining parts of their network (false islands)`);
  }
  // islands first: a stop links to the network, not to a piece of it joined to nothing
  const islands = removeSmallIslands(graph);
  const snaps = snapStops(graph, tt.stopPoints.lon, tt.stopPoints.lat);
  snaps.unsnapped.forEach((n, layer) => {
    if (n === 0) return;
    const usable = layer === Layer.Walk ? ': usable by vehicles, not on foot' : '';
    report.note(`${file}: ${n} of ${tt.stopPoints.ids.length} stop points are more than ${LINK_RADIUS_M} m from a ${LAYER_NAMES[layer]} street${usable}`);
  });
  const footpaths = walkingFootpaths(graph, snaps, TRANSFER_HORIZON_M);
  const raptor = buildRaptorData(tt, footpaths);
  const days = new ServiceDays(tt);
  const data: HeatMapData = {
    graph,
    snaps,
    raptor,
    serviceDayOrigins: days.originSec.map((o) => sharedCopy(Float64Array, o)),
    serviceFirstDay: days.firstDay,
    stopLon: sharedCopy(Float64Array, tt.stopPoints.lon),
    stopLat: sharedCopy(Float64Array, tt.stopPoints.lat),
  };
  return withStreetDataId({
    data,
    names: built.names,
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
      unsnapped_walk: snaps.unsnapped[0]!,
      unsnapped_bike: snaps.unsnapped[1]!,
      unsnapped_car: snaps.unsnapped[2]!,
      footpaths: footpaths.from.length,
    },
  });
}

/** Street data under a new id (built, or read from a snapshot). */
export function withStreetDataId(parts: Omit<StreetData, 'id'>): StreetData {
  return { id: ++streetDataCounter, ...parts };
}
