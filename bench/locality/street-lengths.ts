/**
 * A graph's streets (tile 0's, or the northernmost) measured two ways: as a graph measures them (its edges' lengths, in its own
 * projection) and as the great circle measures the same geometry (each point taken back to
 * longitude and latitude, haversine between consecutive points): how far the graph's lengths are
 * from the Earth's, in both directions, edge by edge. A city's projection is centred on it; a
 * country's on the country, so a tile far from that centre is measured in the wrong scale.
 */
import { unprojectLat, unprojectLon, type StreetGraph } from '../../src/model/street-graph.js';
import { crowFlyMetres } from '../../src/util/geodesy.js';
import { percentile } from './percentile.js';

/** Whether a vertex is tile 0's (ids below a million: the generator prefixes each other tile's). */
const inTile0 = (g: StreetGraph, v: number) => g.vertexNodeId[v]! > 0 && g.vertexNodeId[v]! < 1e6;

export interface StreetLengths {
  graphKm: number;
  greatCircleKm: number;
  /** per edge of 10 m or more: graph length / great-circle length − 1, in ‰ (p1, p50, p99) */
  perEdgePermille: [number, number, number];
}

export function tile0StreetLengths(g: StreetGraph): StreetLengths {
  return streetLengths(g, (e) => inTile0(g, g.edgeFrom[e]!) && inTile0(g, g.edgeTo[e]!));
}

/** The streets whose start lies within `degrees` of latitude of the graph's northernmost vertex. */
export function northernStreetLengths(g: StreetGraph, degrees: number): StreetLengths {
  let maxY = -Infinity;
  for (let v = 0; v < g.vertexCount; v++) maxY = Math.max(maxY, g.vertexY[v]!);
  const from = unprojectLat(g.projection, maxY) - degrees;
  return streetLengths(g, (e) => unprojectLat(g.projection, g.vertexY[g.edgeFrom[e]!]!) >= from);
}

function streetLengths(g: StreetGraph, keep: (e: number) => boolean): StreetLengths {
  const { geomOffset, geomX, geomY, projection } = g;
  let graphDm = 0;
  let circleM = 0;
  const ratios: number[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    if (!keep(e)) continue;
    let metres = 0;
    for (let p = geomOffset[e]!; p + 1 < geomOffset[e + 1]!; p++) {
      metres += crowFlyMetres(unprojectLon(projection, geomX[p]!), unprojectLat(projection, geomY[p]!), unprojectLon(projection, geomX[p + 1]!), unprojectLat(projection, geomY[p + 1]!));
    }
    graphDm += g.edgeLengthDm[e]!;
    circleM += metres;
    if (metres >= 10) ratios.push((1000 * g.edgeLengthDm[e]!) / 10 / metres - 1000);
  }
  return { graphKm: graphDm / 1e4, greatCircleKm: circleM / 1000, perEdgePermille: [percentile(ratios, 1), percentile(ratios, 50), percentile(ratios, 99)] };
}

/** One line of the bench's output for a graph. */
export function describeLengths(name: string, l: StreetLengths): string {
  const total = ((1000 * l.graphKm) / l.greatCircleKm - 1000).toFixed(1);
  return `${name} ${l.graphKm.toFixed(1)} km against the great circle's ${l.greatCircleKm.toFixed(1)} km (${total} ‰; per edge p1 ${l.perEdgePermille[0].toFixed(1)} ‰, p50 ${l.perEdgePermille[1].toFixed(1)} ‰, p99 ${l.perEdgePermille[2].toFixed(1)} ‰)`;
}
