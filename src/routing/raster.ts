/**
 * The heat-map grid: R × R cells over a lon/lat box, each cell valued from the street segment
 * nearest to its centre (within `matchRadiusM`): the better end of the segment, plus the straight
 * distance from the cell centre to that end at the end speed, truncated to whole seconds; -1 (null)
 * when no segment is near enough, neither end was reached, or the value reaches the maximum duration.
 *
 * Cell (i, j) is longitude band i (west to east) and latitude band j (south to north), stored at
 * i * R + j, the order of Navitia's `lines[i].duration[j]`.
 *
 * Nearest segments come in two passes, both exact: every segment in the box stamps the cells whose
 * centre lies within a couple of cells of it (cheap, and it settles every cell close to a street);
 * the cells left (far from any street) ask the segment index.
 */
import { backwardBit, forwardBit, layerBits, type Layer } from '../osm/street-access.js';
import {
  METRES_PER_DEGREE,
  nearestSegment,
  projectX,
  projectY,
  segmentDistance2,
  segmentIndex,
  type StreetGraph,
} from '../model/street-graph.js';
import { UNREACHED } from './street-search.js';

export interface Grid {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
  resolution: number;
}

/** The box of a heat map: the union of squares around the reached places (see `addSquare`). */
export class BoxBuilder {
  minLon = Infinity;
  minLat = Infinity;
  maxLon = -Infinity;
  maxLat = -Infinity;

  /** A square of half-side `halfM` metres centred on (lon, lat), the longitude span widened by 1/cos(lat). */
  addSquare(lon: number, lat: number, halfM: number): void {
    const dLat = halfM / METRES_PER_DEGREE;
    const dLon = halfM / (METRES_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    if (lon - dLon < this.minLon) this.minLon = lon - dLon;
    if (lon + dLon > this.maxLon) this.maxLon = lon + dLon;
    if (lat - dLat < this.minLat) this.minLat = lat - dLat;
    if (lat + dLat > this.maxLat) this.maxLat = lat + dLat;
  }

  get empty(): boolean {
    return this.minLon > this.maxLon;
  }

  grid(resolution: number): Grid {
    return { minLon: this.minLon, minLat: this.minLat, maxLon: this.maxLon, maxLat: this.maxLat, resolution };
  }
}

/** Cell width and height in metres at the grid's middle latitude. */
export function cellSizeM(grid: Grid): { width: number; height: number } {
  const midLat = (grid.minLat + grid.maxLat) / 2;
  return {
    width: ((grid.maxLon - grid.minLon) / grid.resolution) * METRES_PER_DEGREE * Math.cos((midLat * Math.PI) / 180),
    height: ((grid.maxLat - grid.minLat) / grid.resolution) * METRES_PER_DEGREE,
  };
}

/** The matching radius: at least 500 m, at least a cell. */
export function matchRadiusM(grid: Grid): number {
  const { width, height } = cellSizeM(grid);
  return Math.max(500, width, height);
}

/** Per-thread scratch for rasters up to `maxResolution` per side. */
export class Rasterizer {
  private readonly bestDist2: Float64Array;
  private readonly bestSegment: Int32Array;

  constructor(
    readonly graph: StreetGraph,
    maxResolution: number,
  ) {
    this.bestDist2 = new Float64Array(maxResolution * maxResolution);
    this.bestSegment = new Int32Array(maxResolution * maxResolution);
  }

  /**
   * For each cell of `grid`, the nearest segment usable by `layer` within the matching radius
   * (-1 when none). The result is a view on scratch memory, valid until the next call.
   */
  nearestSegments(grid: Grid, layer: Layer, firstPassM?: number): Int32Array {
    const g = this.graph;
    const R = grid.resolution;
    const cells = R * R;
    const best = this.bestSegment.subarray(0, cells);
    const bestDist2 = this.bestDist2.subarray(0, cells);
    best.fill(-1);
    const p = g.projection;
    const x0 = projectX(p, grid.minLon);
    const y0 = projectY(p, grid.minLat);
    const dx = (projectX(p, grid.maxLon) - x0) / R;
    const dy = (projectY(p, grid.maxLat) - y0) / R;
    const mask = layerBits(layer);
    const radius = matchRadiusM(grid);
    // first pass: cells within `near` metres of a segment
    const near = firstPassM ?? Math.min(radius, 2 * Math.max(dx, dy));
    const near2 = near * near;
    bestDist2.fill(near2);
    if (near <= 0) return this.finishNearest(grid, best, x0, y0, dx, dy, radius, mask);
    const { segmentPoint, geomX, geomY, segmentEdge, edgeAccess } = g;
    const candidates = segmentIndex(g).search(x0 - near, y0 - near, x0 + R * dx + near, y0 + R * dy + near);
    for (const s of candidates) {
      if ((edgeAccess[segmentEdge[s]!]! & mask) === 0) continue;
      const a = segmentPoint[s]!;
      const sx0 = Math.min(geomX[a]!, geomX[a + 1]!);
      const sx1 = Math.max(geomX[a]!, geomX[a + 1]!);
      const sy0 = Math.min(geomY[a]!, geomY[a + 1]!);
      const sy1 = Math.max(geomY[a]!, geomY[a + 1]!);
      // cells whose centre x0 + (i + 0.5) dx lies in [sx0 - near, sx1 + near]
      const i0 = Math.max(0, Math.ceil((sx0 - near - x0) / dx - 0.5));
      const i1 = Math.min(R - 1, Math.floor((sx1 + near - x0) / dx - 0.5));
      const j0 = Math.max(0, Math.ceil((sy0 - near - y0) / dy - 0.5));
      const j1 = Math.min(R - 1, Math.floor((sy1 + near - y0) / dy - 0.5));
      for (let i = i0; i <= i1; i++) {
        const cx = x0 + (i + 0.5) * dx;
        for (let j = j0; j <= j1; j++) {
          const d2 = segmentDistance2(g, s, cx, y0 + (j + 0.5) * dy);
          const cell = i * R + j;
          if (d2 < bestDist2[cell]! || (d2 === bestDist2[cell]! && best[cell]! < 0 && d2 <= near2)) {
            bestDist2[cell] = d2;
            best[cell] = s;
          }
        }
      }
    }
    return this.finishNearest(grid, best, x0, y0, dx, dy, radius, mask);
  }

  /** Second pass: the cells no segment came near ask the index. */
  private finishNearest(grid: Grid, best: Int32Array, x0: number, y0: number, dx: number, dy: number, radius: number, mask: number): Int32Array {
    const R = grid.resolution;
    for (let i = 0; i < R; i++) {
      const cx = x0 + (i + 0.5) * dx;
      for (let j = 0; j < R; j++) {
        const cell = i * R + j;
        if (best[cell]! < 0) best[cell] = nearestSegment(this.graph, cx, y0 + (j + 0.5) * dy, radius, mask);
      }
    }
    return best;
  }
}

/**
 * Fill `out` (tenths of a second, UNREACHED where unknown) with each cell's value from its nearest
 * segment, keeping the smaller of `out`'s current value and the new one (several end modes share a grid).
 *
 * `costOf(v)`: the street search's cost of vertex v (tenths of a second). `reverse`: the costs are
 * times to reach the centre (arrival maps), so a point on an edge uses the ends it can travel to.
 */
export function fillCells(
  g: StreetGraph,
  grid: Grid,
  nearest: Int32Array,
  layer: Layer,
  speed: number,
  reverse: boolean,
  costOf: (v: number) => number,
  out: Float64Array,
): void {
  const R = grid.resolution;
  const p = g.projection;
  const x0 = projectX(p, grid.minLon);
  const y0 = projectY(p, grid.minLat);
  const dx = (projectX(p, grid.maxLon) - x0) / R;
  const dy = (projectY(p, grid.maxLat) - y0) / R;
  const { segmentPoint, segmentEdge, geomX, geomY, geomAlongM, edgeAccess, edgeFrom, edgeTo, edgeLengthDm } = g;
  // a point of an edge is reached from its `from` end going along the edge, from its `to` end going
  // against it; reversed (costs to the centre), it goes to the `from` end against the edge
  const viaFrom = reverse ? backwardBit(layer) : forwardBit(layer);
  const viaTo = reverse ? forwardBit(layer) : backwardBit(layer);
  const perMetre = 10 / speed;
  const { geomOffset } = g;
  const pointValue = (e: number, point: number): number => {
    // an end of the edge is a vertex: its cost already counts the ways into it
    if (point === geomOffset[e]) return valueOf(costOf(edgeFrom[e]!));
    if (point === geomOffset[e + 1]! - 1) return valueOf(costOf(edgeTo[e]!));
    const bits = edgeAccess[e]!;
    let best = Infinity;
    if (bits & viaFrom) {
      const c = costOf(edgeFrom[e]!);
      if (c !== UNREACHED) best = c + geomAlongM[point]! * perMetre;
    }
    if (bits & viaTo) {
      const c = costOf(edgeTo[e]!);
      if (c !== UNREACHED) best = Math.min(best, c + Math.max(0, edgeLengthDm[e]! / 10 - geomAlongM[point]!) * perMetre);
    }
    return best;
  };
  for (let i = 0; i < R; i++) {
    const cx = x0 + (i + 0.5) * dx;
    for (let j = 0; j < R; j++) {
      const cell = i * R + j;
      const s = nearest[cell]!;
      if (s < 0) continue;
      const cy = y0 + (j + 0.5) * dy;
      const e = segmentEdge[s]!;
      const a = segmentPoint[s]!;
      const va = pointValue(e, a);
      const vb = pointValue(e, a + 1);
      let v = Infinity;
      if (va !== Infinity) v = va + Math.hypot(cx - geomX[a]!, cy - geomY[a]!) * perMetre;
      if (vb !== Infinity) v = Math.min(v, vb + Math.hypot(cx - geomX[a + 1]!, cy - geomY[a + 1]!) * perMetre);
      if (v < out[cell]!) out[cell] = v;
    }
  }
}

const valueOf = (cost: number): number => (cost === UNREACHED ? Infinity : cost);

/** Whole seconds of each cell (truncated), -1 for null: unreached or at/after `maxDurationSec`. */
export function toSeconds(values: Float64Array, maxDurationSec: number, out: Int32Array): void {
  for (let k = 0; k < values.length; k++) {
    const s = Math.floor(values[k]! / 10);
    out[k] = values[k] === Infinity || s >= maxDurationSec ? -1 : s;
  }
}
