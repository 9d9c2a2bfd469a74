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
import { type Projection, type StreetGraph } from '../model/street-graph.js';
import { sharedArray, sharedCopy } from '../model/shared-arrays.js';
import { buildSegmentGrid } from '../model/segment-grid.js';
import { Growable } from '../model/growable.js';
import type { OsmExtract } from './osm-extract.js';
import { CAR_BACKWARD, CAR_FORWARD, NO_PARKING } from '../model/street-layers.js';
import { wayAccess } from './street-access.js';
import { openFalseIslands } from './false-islands.js';
import { openUnmappedSidewalks } from './unmapped-sidewalks.js';

export interface StreetGraphBuild {
  graph: StreetGraph;
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
  };
}

export function buildStreetGraph(osm: OsmExtract): StreetGraphBuild {
  const { nodeCount, wayCount, wayNodeOffset, wayNodes } = osm;
  const access = new Uint8Array(wayCount);
  for (let w = 0; w < wayCount; w++) access[w] = wayAccess(osm.wayTags[w]!);
  const sidewalks = openUnmappedSidewalks(osm, access);
  const opened = openFalseIslands(osm, access);
  let waysUsed = 0;
  for (let w = 0; w < wayCount; w++) if (access[w]) waysUsed++;

  // Vertices: way ends, and nodes met more than once.
  const uses = new Uint8Array(nodeCount);
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
  const vertexOfNode = new Int32Array(nodeCount).fill(-1);
  let vertexCount = 0;
  for (let n = 0; n < nodeCount; n++) if (isVertex[n]) vertexOfNode[n] = vertexCount++;

  const projection = projectionOf(osm);
  const px = (n: number) => (osm.lon[n]! - projection.lon0) * projection.mPerDegLon;
  const py = (n: number) => (osm.lat[n]! - projection.lat0) * METRES_PER_DEGREE;

  // Edges: cut every way at its vertices.
  const edgeFrom = new Growable(Uint32Array);
  const edgeTo = new Growable(Uint32Array);
  const edgeLength = new Growable(Uint32Array);
  const edgeAccess = new Growable(Uint8Array);
  const edgeName = new Growable(Int32Array);
  const geomOffset = new Growable(Uint32Array);
  const geomX = new Growable(Float32Array);
  const geomY = new Growable(Float32Array);
  const geomAlong = new Growable(Float32Array);
  const nameIndex = new Map<string, number>();
  const names: string[] = [];
  geomOffset.push(0);
  for (let w = 0; w < wayCount; w++) {
    if (!access[w]) continue;
    const tags = osm.wayTags[w]!;
    const name = tags['name'];
    let nameId = -1;
    if (name) {
      nameId = nameIndex.get(name) ?? -1;
      if (nameId < 0) {
        nameId = names.push(name) - 1;
        nameIndex.set(name, nameId);
      }
    }
    const start = wayNodeOffset[w]!;
    const end = wayNodeOffset[w + 1]!;
    let first = start;
    for (let i = start + 1; i < end; i++) {
      const n = wayNodes[i]!;
      if (!isVertex[n]) continue;
      // an edge from wayNodes[first] to n along wayNodes[first..i]
      let along = 0;
      let prevX = px(wayNodes[first]!);
      let prevY = py(wayNodes[first]!);
      geomX.push(prevX);
      geomY.push(prevY);
      geomAlong.push(0);
      for (let k = first + 1; k <= i; k++) {
        const x = px(wayNodes[k]!);
        const y = py(wayNodes[k]!);
        along += Math.hypot(x - prevX, y - prevY);
        geomX.push(x);
        geomY.push(y);
        geomAlong.push(along);
        prevX = x;
        prevY = y;
      }
      geomOffset.push(geomX.length);
      edgeFrom.push(vertexOfNode[wayNodes[first]!]!);
      edgeTo.push(vertexOfNode[n]!);
      edgeLength.push(Math.round(along * 10));
      edgeAccess.push(access[w]!);
      edgeName.push(nameId);
      first = i;
    }
  }
  const edgeCount = edgeFrom.length;

  // Adjacency: every edge listed at both of its ends.
  const adjOffset = sharedArray(Uint32Array, vertexCount + 1);
  const from = edgeFrom.data;
  const to = edgeTo.data;
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

  const vertexParkable = sharedArray(Uint8Array, vertexCount);
  const vertexNodeId = sharedArray(Float64Array, vertexCount);
  const vertexX = sharedArray(Float32Array, vertexCount);
  const vertexY = sharedArray(Float32Array, vertexCount);
  for (let n = 0; n < nodeCount; n++) {
    const v = vertexOfNode[n]!;
    if (v < 0) continue;
    vertexNodeId[v] = osm.nodeIds[n]!;
    vertexX[v] = px(n);
    vertexY[v] = py(n);
  }
  for (let e = 0; e < edgeCount; e++) {
    const bits = edgeAccess.data[e]!;
    if (bits & (CAR_FORWARD | CAR_BACKWARD) && !(bits & NO_PARKING)) {
      vertexParkable[from[e]!] = 1;
      vertexParkable[to[e]!] = 1;
    }
  }

  // Segments and their index.
  const pointCount = geomX.length;
  const offsets = geomOffset.data;
  const segmentCount = pointCount - edgeCount;
  const segmentEdge = sharedArray(Uint32Array, segmentCount);
  const segmentPoint = sharedArray(Uint32Array, segmentCount);
  const gx = geomX.data;
  const gy = geomY.data;
  let s = 0;
  for (let e = 0; e < edgeCount; e++) {
    for (let p = offsets[e]!; p < offsets[e + 1]! - 1; p++) {
      segmentEdge[s] = e;
      segmentPoint[s] = p;
      s++;
    }
  }

  const graph: StreetGraph = {
    projection,
    vertexCount,
    edgeCount,
    segmentCount,
    vertexNodeId,
    vertexX,
    vertexY,
    vertexParkable,
    edgeFrom: sharedCopy(Uint32Array, edgeFrom.data.subarray(0, edgeCount)),
    edgeTo: sharedCopy(Uint32Array, edgeTo.data.subarray(0, edgeCount)),
    edgeLengthDm: sharedCopy(Uint32Array, edgeLength.data.subarray(0, edgeCount)),
    edgeAccess: sharedCopy(Uint8Array, edgeAccess.data.subarray(0, edgeCount)),
    edgeName: sharedCopy(Int32Array, edgeName.data.subarray(0, edgeCount)),
    adjOffset,
    adjTarget,
    adjEdge,
    geomOffset: sharedCopy(Uint32Array, geomOffset.data.subarray(0, edgeCount + 1)),
    geomX: sharedCopy(Float32Array, gx.subarray(0, pointCount)),
    geomY: sharedCopy(Float32Array, gy.subarray(0, pointCount)),
    geomAlongM: sharedCopy(Float32Array, geomAlong.data.subarray(0, pointCount)),
    segmentEdge,
    segmentPoint,
    segmentGrid: buildSegmentGrid({ segmentCount, segmentPoint, segmentEdge, edgeAccess: edgeAccess.data, geomX: gx, geomY: gy }),
  };
  return {
    graph,
    names,
    stats: {
      waysUsed,
      waysWithoutAccess: wayCount - waysUsed,
      vertices: vertexCount,
      edges: edgeCount,
      segments: segmentCount,
      unmappedSidewalks: sidewalks,
      waysOpenedToWalk: opened.walk,
      waysOpenedToBike: opened.bike,
    },
  };
}

/** The projection centred on the extract's used nodes. */
function projectionOf(osm: OsmExtract): Projection {
  let minLon = Infinity;
  let maxLon = -Infinity;
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (let n = 0; n < osm.nodeCount; n++) {
    const lon = osm.lon[n]!;
    const lat = osm.lat[n]!;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  if (osm.nodeCount === 0) return { lon0: 0, lat0: 0, mPerDegLon: METRES_PER_DEGREE };
  const lon0 = (minLon + maxLon) / 2;
  const lat0 = (minLat + maxLat) / 2;
  return { lon0, lat0, mPerDegLon: METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180) };
}
