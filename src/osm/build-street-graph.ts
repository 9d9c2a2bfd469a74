/**
 * OpenStreetMap ways -> the street graph of `model/street-graph.ts`.
 *
 * 1. Each way gets its layer bits from its tags (`street-access.ts`), opened to walkers where its
 *    `foot=no` has no mapped sidewalk beside it (`unmapped-sidewalks.ts`), and to walkers and
 *    cyclists where a `foot=no` or `bicycle=no` alone would cut their network (`false-islands.ts`);
 *    ways no layer may use are dropped.
 * 2. A node becomes a vertex when it ends a way or is shared by several ways (or twice by one); the
 *    nodes between two vertices are contracted into the geometry of one edge.
 * 3. Adjacency in compressed rows, segments of every edge geometry in a grid index.
 */
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import { projectionAbout, projectX, projectY, scaleAtLatitude, type BareStreetGraph, type Projection } from '../model/street-graph.js';
import { pointsBox } from '../model/segment-geometry.js';
import { removeSmallIslands } from '../model/small-islands.js';
import { sharedArray } from '../model/shared-arrays.js';
import { buildSegmentGrid } from '../model/segment-grid.js';
import { wayTagSetOf, type OsmExtract } from './osm-extract.js';
import { CAR_BACKWARD, CAR_FORWARD, NO_PARKING } from '../model/street-layers.js';
import { wayAccess } from './street-access.js';
import { openFalseIslands } from './false-islands.js';
import { openUnmappedSidewalks } from './unmapped-sidewalks.js';

export interface StreetGraphBuild {
  graph: BareStreetGraph;
  /** Street names, indexed by `graph.edgeName` (kept out of the shared arrays). */
  names: string[];
  stats: {
    waysUsed: number;
    waysWithoutAccess: number;
    vertices: number;
    edges: number;
    segments: number;
    /** roads closed by their own foot=no with no walkway mapped beside them, opened to walkers */
    unmappedSidewalks: number;
    waysOpenedToWalk: number;
    waysOpenedToBike: number;
    /** edges of the small islands taken out of each layer (model/small-islands.ts) */
    smallIslandEdges: number[];
  };
}

export interface StreetGraphOptions {
  /**
   * Take the small islands out (model/small-islands.ts), as a coverage does; hand-made networks of
   * the unit tests keep them, their pieces standing for what each test is about.
   */
  removeSmallIslands: boolean;
}

/**
 * The street graph of an extract but its link lattices, which the caller computes: the network's
 * build in threads (service/link-lattices-in-threads.ts), a test here (`linkLatticesOf`).
 */
export function buildBareStreetGraph(osm: OsmExtract, options: StreetGraphOptions = { removeSmallIslands: true }): StreetGraphBuild {
  const access = accessOfWays(osm);
  const sidewalks = openUnmappedSidewalks(osm, access);
  const opened = openFalseIslands(osm, access);
  const waysUsed = countUsedWays(access);
  const { vertexOfNode, vertexCount } = numberVertices(osm.nodeCount, markVertexNodes(osm, access));
  const projection = projectionOf(osm);
  const edges = cutWaysIntoEdges(osm, access, vertexOfNode, projection);
  const bare = assembleGraph(osm, projection, vertexOfNode, vertexCount, edges);
  // islands first: a point links to the network, not to a piece of it joined to nothing
  const smallIslandEdges = options.removeSmallIslands ? removeSmallIslands(bare) : [0, 0, 0];
  return {
    graph: bare,
    names: edges.names,
    stats: {
      waysUsed,
      waysWithoutAccess: osm.wayCount - waysUsed,
      vertices: vertexCount,
      edges: bare.edgeCount,
      segments: bare.segmentCount,
      unmappedSidewalks: sidewalks,
      waysOpenedToWalk: opened.walk,
      waysOpenedToBike: opened.bike,
      smallIslandEdges,
    },
  };
}

/** Layer bits of every way from its tags; 0 for the ways no layer may use. */
function accessOfWays(osm: OsmExtract): Uint8Array {
  const access = new Uint8Array(osm.wayCount);
  for (let w = 0; w < osm.wayCount; w++) access[w] = wayAccess(wayTagSetOf(osm, w));
  return access;
}

function countUsedWays(access: Uint8Array): number {
  let used = 0;
  for (let w = 0; w < access.length; w++) if (access[w]) used++;
  return used;
}

/** 1 for the nodes that become vertices: the ends of the used ways, and the nodes they use more than once. */
function markVertexNodes(osm: OsmExtract, access: Uint8Array): Uint8Array {
  const { nodeCount, wayCount, wayNodeOffset, wayNodes } = osm;
  const uses = new Uint8Array(nodeCount); // how often a node is used, counted up to 2
  const isVertex = new Uint8Array(nodeCount);
  for (let w = 0; w < wayCount; w++) {
    if (!access[w]) continue;
    const start = wayNodeOffset[w]!;
    const end = wayNodeOffset[w + 1]!;
    isVertex[wayNodes[start]!] = 1;
    isVertex[wayNodes[end - 1]!] = 1;
    for (let i = start; i < end; i++) {
      const n = wayNodes[i]!;
      if (uses[n]! < 2) uses[n]!++;
      if (uses[n] === 2) isVertex[n] = 1;
    }
  }
  return isVertex;
}

/** Vertex numbers in node order; -1 for the nodes inside an edge (or unused). */
function numberVertices(nodeCount: number, isVertex: Uint8Array): { vertexOfNode: Int32Array; vertexCount: number } {
  const vertexOfNode = new Int32Array(nodeCount).fill(-1);
  let vertexCount = 0;
  for (let n = 0; n < nodeCount; n++) if (isVertex[n]) vertexOfNode[n] = vertexCount++;
  return { vertexOfNode, vertexCount };
}

/** Projected x (metres east of the projection's centre) of node `n`. */
function xOfNode(osm: OsmExtract, projection: Projection, n: number): number {
  return projectX(projection, osm.lon[n]!);
}

/** Projected y (metres north of the projection's centre) of node `n`. */
function yOfNode(osm: OsmExtract, projection: Projection, n: number): number {
  return projectY(projection, osm.lat[n]!);
}

/**
 * The edges in cut order and the points of their geometries, in exact-size shared arrays: counted
 * first, then filled (a country has 40 M edges and 150 M points; grown by doubling, then copied to
 * shared memory, they were held up to three times over).
 */
interface EdgeLists {
  from: Uint32Array;
  to: Uint32Array;
  lengthDm: Uint32Array;
  access: Uint8Array;
  name: Int32Array;
  /** points of edge e: geomOffset[e] .. geomOffset[e + 1] */
  geomOffset: Uint32Array;
  geomX: Float32Array;
  geomY: Float32Array;
  geomAlong: Float32Array;
  /** distinct street names, `name` indexes them */
  names: string[];
}

/** Every used way cut at its vertices into edges, each with the geometry of the nodes between. */
function cutWaysIntoEdges(osm: OsmExtract, access: Uint8Array, vertexOfNode: Int32Array, projection: Projection): EdgeLists {
  const { wayCount, wayNodeOffset, wayNodes } = osm;
  const { edgeCount, pointCount } = countEdges(osm, access, vertexOfNode);
  const edges: EdgeLists = {
    from: sharedArray(Uint32Array, edgeCount),
    to: sharedArray(Uint32Array, edgeCount),
    lengthDm: sharedArray(Uint32Array, edgeCount),
    access: sharedArray(Uint8Array, edgeCount),
    name: sharedArray(Int32Array, edgeCount),
    geomOffset: sharedArray(Uint32Array, edgeCount + 1),
    geomX: sharedArray(Float32Array, pointCount),
    geomY: sharedArray(Float32Array, pointCount),
    geomAlong: sharedArray(Float32Array, pointCount),
    names: [],
  };
  const nameIndex = new Map<string, number>();
  let e = 0;
  for (let w = 0; w < wayCount; w++) {
    if (!access[w]) continue;
    const nameId = nameIdOf(edges.names, nameIndex, osm.wayName[w]! < 0 ? undefined : osm.names[osm.wayName[w]!]);
    const end = wayNodeOffset[w + 1]!;
    let first = wayNodeOffset[w]!;
    for (let i = first + 1; i < end; i++) {
      if (vertexOfNode[wayNodes[i]!]! < 0) continue;
      addEdge(edges, e++, osm, projection, vertexOfNode, first, i, access[w]!, nameId);
      first = i;
    }
  }
  return edges;
}

/** How many edges the used ways are cut into, and how many points their geometries have (both ends of each counted). */
function countEdges(osm: OsmExtract, access: Uint8Array, vertexOfNode: Int32Array): { edgeCount: number; pointCount: number } {
  const { wayCount, wayNodeOffset, wayNodes } = osm;
  let edgeCount = 0;
  let pointCount = 0;
  for (let w = 0; w < wayCount; w++) {
    if (!access[w]) continue;
    const end = wayNodeOffset[w + 1]!;
    let first = wayNodeOffset[w]!;
    for (let i = first + 1; i < end; i++) {
      if (vertexOfNode[wayNodes[i]!]! < 0) continue;
      edgeCount++;
      pointCount += i - first + 1;
      first = i;
    }
  }
  return { edgeCount, pointCount };
}

/** The index of a street name among `names` (added when new); -1 for no name. */
function nameIdOf(names: string[], nameIndex: Map<string, number>, name: string | undefined): number {
  if (!name) return -1;
  let nameId = nameIndex.get(name) ?? -1;
  if (nameId < 0) {
    nameId = names.push(name) - 1;
    nameIndex.set(name, nameId);
  }
  return nameId;
}

/** Edge e along `osm.wayNodes[first..last]` (both ends vertices), its geometry (after edge e − 1's) and length. */
function addEdge(edges: EdgeLists, e: number, osm: OsmExtract, projection: Projection, vertexOfNode: Int32Array, first: number, last: number, bits: number, nameId: number): void {
  const { wayNodes } = osm;
  const { geomX, geomY, geomAlong } = edges;
  let p = edges.geomOffset[e]!;
  let along = 0;
  let prevX = xOfNode(osm, projection, wayNodes[first]!);
  let prevY = yOfNode(osm, projection, wayNodes[first]!);
  geomX[p] = prevX;
  geomY[p] = prevY;
  geomAlong[p++] = 0;
  for (let k = first + 1; k <= last; k++) {
    const x = xOfNode(osm, projection, wayNodes[k]!);
    const y = yOfNode(osm, projection, wayNodes[k]!);
    // metres on the ground: the plane's, over the projection's scale halfway (1 on a city's projection)
    along += Math.hypot(x - prevX, y - prevY) / scaleAtLatitude(projection, (osm.lat[wayNodes[k - 1]!]! + osm.lat[wayNodes[k]!]!) / 2);
    geomX[p] = x;
    geomY[p] = y;
    geomAlong[p++] = along;
    prevX = x;
    prevY = y;
  }
  edges.geomOffset[e + 1] = p;
  edges.from[e] = vertexOfNode[wayNodes[first]!]!;
  edges.to[e] = vertexOfNode[wayNodes[last]!]!;
  edges.lengthDm[e] = Math.round(along * 10);
  edges.access[e] = bits;
  edges.name[e] = nameId;
}

/** The graph on shared arrays: vertices, edges, adjacency, segments and their grid index (the link lattices come after the small islands). */
function assembleGraph(osm: OsmExtract, projection: Projection, vertexOfNode: Int32Array, vertexCount: number, edges: EdgeLists): BareStreetGraph {
  const edgeCount = edges.from.length;
  const { vertexNodeId, vertexX, vertexY } = placeVertices(osm, projection, vertexOfNode, vertexCount);
  const { adjOffset, adjTarget, adjEdge } = adjacencyOf(edges, vertexCount);
  const { segmentCount, segmentEdge, segmentPoint } = segmentsOf(edges);
  const { geomX, geomY } = edges;
  return {
    projection,
    vertexCount,
    edgeCount,
    segmentCount,
    vertexNodeId,
    vertexX,
    vertexY,
    vertexParkable: parkableVertices(edges, vertexCount),
    edgeFrom: edges.from,
    edgeTo: edges.to,
    edgeLengthDm: edges.lengthDm,
    edgeAccess: edges.access,
    edgeName: edges.name,
    adjOffset,
    adjTarget,
    adjEdge,
    geomOffset: edges.geomOffset,
    geomX,
    geomY,
    geomAlongM: edges.geomAlong,
    segmentEdge,
    segmentPoint,
    segmentGrid: buildSegmentGrid({ segmentCount, segmentPoint, segmentEdge, edgeAccess: edges.access, geomX, geomY }),
  };
}

/** Each vertex's OSM node id and projected position. */
function placeVertices(osm: OsmExtract, projection: Projection, vertexOfNode: Int32Array, vertexCount: number) {
  const vertexNodeId = sharedArray(Float64Array, vertexCount);
  const vertexX = sharedArray(Float32Array, vertexCount);
  const vertexY = sharedArray(Float32Array, vertexCount);
  for (let n = 0; n < osm.nodeCount; n++) {
    const v = vertexOfNode[n]!;
    if (v < 0) continue;
    vertexNodeId[v] = osm.nodeIds[n]!;
    vertexX[v] = xOfNode(osm, projection, n);
    vertexY[v] = yOfNode(osm, projection, n);
  }
  return { vertexNodeId, vertexX, vertexY };
}

/** Adjacency in compressed rows: every edge listed at both of its ends, as 2e from its `from` end and 2e + 1 from its `to` end. */
function adjacencyOf(edges: EdgeLists, vertexCount: number) {
  const edgeCount = edges.from.length;
  const { from, to } = edges;
  const adjOffset = sharedArray(Uint32Array, vertexCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    adjOffset[from[e]! + 1]!++;
    adjOffset[to[e]! + 1]!++;
  }
  for (let v = 0; v < vertexCount; v++) adjOffset[v + 1]! += adjOffset[v]!;
  const adjTarget = sharedArray(Uint32Array, 2 * edgeCount);
  const adjEdge = sharedArray(Uint32Array, 2 * edgeCount);
  const fill = Uint32Array.from(adjOffset.subarray(0, vertexCount));
  for (let e = 0; e < edgeCount; e++) {
    const a = fill[from[e]!]!++;
    adjTarget[a] = to[e]!;
    adjEdge[a] = e * 2;
    const b = fill[to[e]!]!++;
    adjTarget[b] = from[e]!;
    adjEdge[b] = e * 2 + 1;
  }
  return { adjOffset, adjTarget, adjEdge };
}

/** 1 for the vertices at an end of a car edge where parking is not forbidden. */
function parkableVertices(edges: EdgeLists, vertexCount: number): Uint8Array {
  const vertexParkable = sharedArray(Uint8Array, vertexCount);
  const { from, to, access: bitsOf } = edges;
  for (let e = 0; e < edges.from.length; e++) {
    const bits = bitsOf[e]!;
    if (bits & (CAR_FORWARD | CAR_BACKWARD) && !(bits & NO_PARKING)) {
      vertexParkable[from[e]!] = 1;
      vertexParkable[to[e]!] = 1;
    }
  }
  return vertexParkable;
}

/** Every segment (two consecutive points of an edge's geometry) as its edge and first point. */
function segmentsOf(edges: EdgeLists) {
  const edgeCount = edges.from.length;
  const offsets = edges.geomOffset;
  const segmentCount = edges.geomX.length - edgeCount;
  const segmentEdge = sharedArray(Uint32Array, segmentCount);
  const segmentPoint = sharedArray(Uint32Array, segmentCount);
  let s = 0;
  for (let e = 0; e < edgeCount; e++) {
    for (let p = offsets[e]!; p < offsets[e + 1]! - 1; p++) {
      segmentEdge[s] = e;
      segmentPoint[s] = p;
      s++;
    }
  }
  return { segmentCount, segmentEdge, segmentPoint };
}

/** The projection centred on the extract's used nodes. */
function projectionOf(osm: OsmExtract): Projection {
  const box = pointsBox(osm.lon.subarray(0, osm.nodeCount), osm.lat.subarray(0, osm.nodeCount));
  if (!box) return { lon0: 0, lat0: 0, mPerDegLon: METRES_PER_DEGREE, conformal: false };
  return projectionAbout(box.minX, box.minY, box.maxX, box.maxY);
}
