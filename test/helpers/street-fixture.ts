/**
 * Hand-made street networks for unit tests: points in metres around (0°, 0°), ways with tags, turned
 * into the reader's extract shape and then into a street graph.
 */
import { buildBareStreetGraph, type StreetGraphOptions } from '../../src/osm/build-street-graph.js';
import { linkLatticesOf } from '../../src/model/street-graph.js';
import { wayTagColumns, type OsmExtract } from '../../src/osm/osm-extract.js';
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';

export const lonOfX = (x: number) => x / METRES_PER_DEGREE;
export const latOfY = (y: number) => y / METRES_PER_DEGREE;

export function extractOf(points: [number, number][], ways: { nodes: number[]; tags: Record<string, string> }[]): OsmExtract {
  const wayNodeOffset = new Uint32Array(ways.length + 1);
  ways.forEach((w, i) => (wayNodeOffset[i + 1] = wayNodeOffset[i]! + w.nodes.length));
  const lons = points.map(([x]) => lonOfX(x));
  const lats = points.map(([, y]) => latOfY(y));
  return {
    nodeCount: points.length,
    nodeIds: Float64Array.from(points, (_, i) => i + 1),
    lon: Float64Array.from(lons),
    lat: Float64Array.from(lats),
    wayCount: ways.length,
    wayIds: Float64Array.from(ways, (_, i) => i + 1),
    wayNodeOffset,
    wayNodes: Uint32Array.from(ways.flatMap((w) => w.nodes)),
    ...wayTagColumns(ways.map((w) => w.tags)),
    stats: {
      nodesRead: points.length,
      waysRead: ways.length,
      relationsRead: 0,
      waysKept: ways.length,
      missingNodeRefs: 0,
      waysDroppedTooShort: 0,
      duplicateWays: 0,
      bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
    },
  } as OsmExtract;
}

/** The graph of a hand-made network; its small islands are kept unless `removeSmallIslands` (see StreetGraphOptions). */
export function graphOf(points: [number, number][], ways: { nodes: number[]; tags: Record<string, string> }[], options: StreetGraphOptions = { removeSmallIslands: false }) {
  const built = buildBareStreetGraph(extractOf(points, ways), options);
  return { ...built, graph: { ...built.graph, linkLattices: linkLatticesOf(built.graph) } };
}
