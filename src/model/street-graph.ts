/**
 * The street network of a coverage, for walking, cycling and driving: one graph whose edges carry the
 * layers (and directions) allowed on them, built from OpenStreetMap ways by `osm/build-street-graph.ts`.
 *
 * Vertices are the street intersections and dead ends; an edge is the run of a way between two of
 * them (the degree-2 nodes in between are contracted away, their positions kept as the edge's
 * geometry). Positions are in a local projection in metres (see `Projection`), stored as Float32
 * relative to the projection's origin (millimetre precision across a city).
 *
 *   adjacency of vertex v: entries [adjOffset[v], adjOffset[v+1]), each the neighbour `adjTarget[i]`
 *   and `adjEdge[i] = edge * 2 + side`, side 0 when v is the edge's `from` end, 1 when it is its `to`.
 *
 *   geometry of edge e: points [geomOffset[e], geomOffset[e+1]) of geomX/geomY, from `from` to `to`,
 *   `geomAlongM[p]` the distance along the edge of each point. A segment is a pair of consecutive
 *   points; segment s starts at point `segmentPoint[s]` and belongs to edge `segmentEdge[s]`;
 *   the segments of edge e are numbered from `geomOffset[e] − e`, in order along it.
 *
 * Every array is on a SharedArrayBuffer: worker threads see the same graph.
 */
import { backwardBit, forwardBit, LAYER_NAMES, type Layer } from './street-layers.js';
import { bucketOf, segmentGridBytes, type SegmentGrid } from './segment-grid.js';
import { closestOnSegment, pointSegmentDistance2, pointsBox } from './segment-geometry.js';
import { linkLatticeBytes, type LinkLattice } from './link-lattice.js';
import { buildLinkLattice } from './link-lattice-build.js';
import { METRES_PER_DEGREE } from '../util/geodesy.js';


/**
 * The projection of a network, about its centre: x east, y north, in metres at the centre.
 *
 * A city's is equirectangular: a degree of longitude is the centre's width everywhere, so lengths
 * come out true along the centre's parallel and drift with latitude (east-west, 0.3 % at rnv-mannheim's
 * northern and southern edges, 0.06 % at Porto Alegre's). Past EQUIRECTANGULAR_MAX_ERROR at the extent's edges (a region, a
 * country) it is Mercator about the centre instead: conformal, so at each point the projection
 * stretches every direction alike, by `scaleAt` (nearest in the plane is nearest on the ground, and
 * a length on the ground is the plane's divided by the local scale). Equirectangular where it
 * suffices keeps every city's answers as they were.
 */
export interface Projection {
  lon0: number;
  lat0: number;
  /** metres per degree of longitude at lat0 (on both kinds, x is linear in longitude) */
  mPerDegLon: number;
  /** Mercator about lat0 rather than equirectangular */
  conformal: boolean;
}

/**
 * The most an equirectangular projection may be off at the extent's northern or southern edge
 * (its east-west scale against the ground's, there): past it, the extent is projected conformally.
 * 1 % is about half a degree of latitude from the centre at 50° N.
 */
export const EQUIRECTANGULAR_MAX_ERROR = 0.01;

const RAD = Math.PI / 180;

/** The projection of a network whose nodes span latitudes [minLat, maxLat] and longitudes [minLon, maxLon], about the box's centre. */
export function projectionAbout(minLon: number, minLat: number, maxLon: number, maxLat: number): Projection {
  const lon0 = (minLon + maxLon) / 2;
  const lat0 = (minLat + maxLat) / 2;
  const cos0 = Math.cos(lat0 * RAD);
  const error = Math.max(Math.abs(cos0 / Math.cos(minLat * RAD) - 1), Math.abs(cos0 / Math.cos(maxLat * RAD) - 1));
  return { lon0, lat0, mPerDegLon: METRES_PER_DEGREE * cos0, conformal: error > EQUIRECTANGULAR_MAX_ERROR };
}

/** Mercator's ordinate of a latitude, in radians at the equator. */
function mercatorY(lat: number): number {
  return Math.asinh(Math.tan(lat * RAD));
}

export function projectX(p: Projection, lon: number): number {
  return (lon - p.lon0) * p.mPerDegLon;
}
export function projectY(p: Projection, lat: number): number {
  if (p.conformal) return (mercatorY(lat) - mercatorY(p.lat0)) * (p.mPerDegLon / RAD);
  return (lat - p.lat0) * METRES_PER_DEGREE;
}
export function unprojectLon(p: Projection, x: number): number {
  return p.lon0 + x / p.mPerDegLon;
}
export function unprojectLat(p: Projection, y: number): number {
  if (p.conformal) return Math.atan(Math.sinh(y / (p.mPerDegLon / RAD) + mercatorY(p.lat0))) / RAD;
  return p.lat0 + y / METRES_PER_DEGREE;
}

/**
 * Projected metres per metre on the ground at ordinate y, in every direction: exactly 1 on an
 * equirectangular projection (whose lengths are taken as they are drawn), cos(lat0) / cos(lat) on
 * a conformal one.
 */
export function scaleAt(p: Projection, y: number): number {
  return p.conformal ? scaleAtLatitude(p, unprojectLat(p, y)) : 1;
}

/** `scaleAt` where the latitude is known (the build's nodes): no ordinate to take back. */
export function scaleAtLatitude(p: Projection, lat: number): number {
  return p.conformal ? Math.cos(p.lat0 * RAD) / Math.cos(lat * RAD) : 1;
}

export interface StreetGraph {
  projection: Projection;
  vertexCount: number;
  edgeCount: number;
  segmentCount: number;
  /** OSM node id of each vertex (for reports and tests) */
  vertexNodeId: Float64Array;
  /** position of each vertex (the first or last point of its edges' geometries) */
  vertexX: Float32Array;
  vertexY: Float32Array;
  /** 1 where a car may be left: an incident car edge that is not a motorway */
  vertexParkable: Uint8Array;
  edgeFrom: Uint32Array;
  edgeTo: Uint32Array;
  /** length along the geometry, decimetres */
  edgeLengthDm: Uint32Array;
  /** street-access bits (WALK_FORWARD…) */
  edgeAccess: Uint8Array;
  /** index into the coverage's street names, -1 when unnamed */
  edgeName: Int32Array;
  adjOffset: Uint32Array;
  adjTarget: Uint32Array;
  adjEdge: Uint32Array;
  geomOffset: Uint32Array;
  geomX: Float32Array;
  geomY: Float32Array;
  geomAlongM: Float32Array;
  segmentEdge: Uint32Array;
  segmentPoint: Uint32Array;
  /** the segments' spatial index */
  segmentGrid: SegmentGrid;
  /** per layer, each point's nearest street, for heat-map cells (link-lattice.ts) */
  linkLattices: LinkLattice[];
}

/** The graph before its link lattices are computed (they follow the small islands' removal). */
export type BareStreetGraph = Omit<StreetGraph, 'linkLattices'>;

/** Whether layer `layer` may go along edge `e` from its `from` end (side 0) or its `to` end (side 1). */
export function canTraverse(g: StreetGraph, e: number, side: number, layer: Layer): boolean {
  return (g.edgeAccess[e]! & (side === 0 ? forwardBit(layer) : backwardBit(layer))) !== 0;
}

/** Bytes held by the graph's arrays and its segment index (its link lattices apart: `linkLatticesBytes`). */
export function streetGraphBytes(g: StreetGraph): number {
  let total = segmentGridBytes(g.segmentGrid);
  for (const value of Object.values(g)) if (ArrayBuffer.isView(value)) total += value.byteLength;
  return total;
}

/** Bytes held by the graph's link lattices, every layer. */
export function linkLatticesBytes(g: StreetGraph): number {
  return g.linkLattices.reduce((total, lattice) => total + linkLatticeBytes(lattice), 0);
}

/** The box of the graph's vertices in its projection (every street ends at two of them), null without any. */
export function vertexBox(g: StreetGraph): { minX: number; minY: number; maxX: number; maxY: number } | null {
  return pointsBox(g.vertexX.subarray(0, g.vertexCount), g.vertexY.subarray(0, g.vertexCount));
}

/**
 * The farthest a point (a heat-map cell's centre, a map's centre, a stop) may lie from the street it
 * links to, metres; its offset is walked in a straight line at walking speed. R5 links up to 1,600 m;
 * at that distance lakes and rail yards take values walked from their banks, so we link closer: far
 * enough for every hexagon centre of Porto Alegre's opportunity grid (the farthest lies 567 m from a
 * street) and every rnv-mannheim stop (the farthest, 260 m).
 */
export const LINK_RADIUS_M = 600;

/** A point on the street network: an edge, how far along it, and how far the point lies from it. */
export interface Snap {
  edge: number;
  alongM: number;
  offsetM: number;
  segment: number;
}

/** The position (projected metres) of the point `alongM` metres along edge e's geometry. */
export function pointAlong(g: StreetGraph, e: number, alongM: number): { x: number; y: number } {
  const first = g.geomOffset[e]!;
  const last = g.geomOffset[e + 1]! - 1;
  // the segment holding the point: the last geometry point at or before it (binary search)
  let lo = first;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (g.geomAlongM[mid]! <= alongM) lo = mid;
    else hi = mid;
  }
  const a0 = g.geomAlongM[lo]!;
  const span = g.geomAlongM[hi]! - a0;
  const t = span > 0 ? Math.min(1, Math.max(0, (alongM - a0) / span)) : 0;
  return { x: g.geomX[lo]! + t * (g.geomX[hi]! - g.geomX[lo]!), y: g.geomY[lo]! + t * (g.geomY[hi]! - g.geomY[lo]!) };
}

/** Squared distance from (px, py) to segment s, and the position of the closest point along the edge. */
export function projectOnSegment(g: StreetGraph, s: number, px: number, py: number): { dist2: number; alongM: number } {
  const p = g.segmentPoint[s]!;
  const t = closestOnSegment(px, py, g.geomX[p]!, g.geomY[p]!, g.geomX[p + 1]!, g.geomY[p + 1]!);
  const a0 = g.geomAlongM[p]!;
  return { dist2: segmentDistance2(g, s, px, py), alongM: a0 + t * (g.geomAlongM[p + 1]! - a0) };
}

/**
 * The nearest point of the street network usable by `layer` within `maxM` metres of (x, y), or null.
 * A segment belongs to a layer when its edge can be travelled in at least one direction.
 */
export function snapPoint(g: StreetGraph, layer: Layer, x: number, y: number, maxM: number): Snap | null {
  // metres on the ground to the plane's and back (a conformal projection stretches all directions alike)
  const scale = scaleAt(g.projection, y);
  const s = nearestSegment(g, x, y, maxM * scale, forwardBit(layer) | backwardBit(layer));
  if (s < 0) return null;
  const { dist2, alongM } = projectOnSegment(g, s, x, y);
  return { edge: g.segmentEdge[s]!, alongM, offsetM: Math.sqrt(dist2) / scale, segment: s };
}

/**
 * The segment nearest to (x, y) among those whose edge has one of `accessMask`'s bits, within
 * `maxM` metres (exact distance to the segment, not to its box); -1 when none. Ties go to the
 * lowest segment number.
 *
 * Searches the segment grid ring by ring around the point, and stops when the next ring lies
 * farther than the best segment found. A point outside the grid searches from its nearest point on
 * the grid: distances from there to the buckets are no larger, so the rings' bounds still hold.
 */
export function nearestSegment(g: StreetGraph, x: number, y: number, maxM: number, accessMask: number): number {
  const { x0, y0, sizeM, cols, rows, start, segments, access } = g.segmentGrid;
  const { segmentPoint, geomX, geomY } = g;
  const qx = Math.min(Math.max(x, x0), x0 + cols * sizeM);
  const qy = Math.min(Math.max(y, y0), y0 + rows * sizeM);
  const bi = bucketOf(x0, sizeM, cols, qx);
  const bj = bucketOf(y0, sizeM, rows, qy);
  // distance from the point to the edge of its own bucket (1 mm less, for rounding)
  const inner = Math.min(qx - (x0 + bi * sizeM), x0 + (bi + 1) * sizeM - qx, qy - (y0 + bj * sizeM), y0 + (bj + 1) * sizeM - qy) - 1e-3;
  let best = -1;
  let bound = maxM * maxM;
  for (let k = 0; ; k++) {
    if (k > 0) {
      const gap = inner + (k - 1) * sizeM;
      if (gap > 0 && gap * gap > bound) break;
      if (bi - k < 0 && bj - k < 0 && bi + k >= cols && bj + k >= rows) break;
    }
    const jLo = Math.max(0, bj - k);
    const jHi = Math.min(rows - 1, bj + k);
    for (let i = Math.max(0, bi - k), iHi = Math.min(cols - 1, bi + k); i <= iHi; i++) {
      const column = i * rows;
      // a side of the ring is one run of buckets; elsewhere the ring has one bucket at each end
      const side = i === bi - k || i === bi + k;
      for (let end = 0; end < 2; end++) {
        let from: number;
        let to: number;
        if (side) {
          from = start[column + jLo]!;
          to = start[column + jHi + 1]!;
        } else {
          const j = end === 0 ? bj - k : bj + k;
          if (j < 0 || j >= rows) continue;
          from = start[column + j]!;
          to = start[column + j + 1]!;
        }
        for (let n = from; n < to; n++) {
          if ((access[n]! & accessMask) === 0) continue;
          const s = segments[n]!;
          const p = segmentPoint[s]!;
          const d2 = pointSegmentDistance2(x, y, geomX[p]!, geomY[p]!, geomX[p + 1]!, geomY[p + 1]!);
          if (d2 > bound) continue;
          if (d2 < bound || best < 0 || s < best) {
            bound = d2;
            best = s;
          }
        }
        if (side) break;
      }
    }
  }
  return best;
}

/** Squared distance from (px, py) to segment s. */
export function segmentDistance2(g: StreetGraph, s: number, px: number, py: number): number {
  const p = g.segmentPoint[s]!;
  return pointSegmentDistance2(px, py, g.geomX[p]!, g.geomY[p]!, g.geomX[p + 1]!, g.geomY[p + 1]!);
}

/**
 * How far a link lattice looks for streets, projected metres: the link radius where the projection
 * stretches most (LINK_RADIUS_M itself on an equirectangular one).
 */
export function linkReachM(g: Pick<BareStreetGraph, 'projection' | 'vertexCount' | 'vertexX' | 'vertexY'>): number {
  const box = g.projection.conformal ? pointsBox(g.vertexX.subarray(0, g.vertexCount), g.vertexY.subarray(0, g.vertexCount)) : null;
  if (!box) return LINK_RADIUS_M;
  return LINK_RADIUS_M * Math.max(scaleAt(g.projection, box.minY), scaleAt(g.projection, box.maxY));
}

/** The link lattice of each layer (see link-lattice.ts), from the graph's segments as its segment grid holds them now. */
export function linkLatticesOf(g: BareStreetGraph): LinkLattice[] {
  const reachM = linkReachM(g);
  return LAYER_NAMES.map((_, layer) => buildLinkLattice(g, layer as Layer, reachM));
}
