/**
 * The heat-map grid: R × R cells over a lon/lat box, each cell valued from the street segment
 * nearest to its centre (within `matchRadiusM`): the better end of the segment, plus the straight
 * distance from the cell centre to that end at the end speed, truncated to whole seconds; -1 (null)
 * when no segment is near enough, neither end was reached, or the value reaches the maximum duration.
 *
 * Cell (i, j) is longitude band i (west to east) and latitude band j (south to north), stored at
 * i * R + j, the order of Navitia's `lines[i].duration[j]`.
 *
 * Nearest segments are found exactly but only where they matter: a lower bound of the values, cheap
 * to compute from the street search (`boundCells`), rules out the cells that can only be null, and
 * the others ask the segment grid (`nearestSegment`).
 */
import { layerBits, type Layer } from '../osm/street-access.js';
import { METRES_PER_DEGREE, nearestSegment, projectX, projectY, type StreetGraph } from '../model/street-graph.js';
import type { SegmentGrid } from '../model/segment-grid.js';
import { UNREACHED, type StreetSearch } from './street-search.js';

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

  /** The box as a grid, cut to valid coordinates (a centre near a pole or the antimeridian would pass them). */
  grid(resolution: number): Grid {
    return {
      minLon: Math.max(-180, this.minLon),
      minLat: Math.max(-90, this.minLat),
      maxLon: Math.min(180, this.maxLon),
      maxLat: Math.min(90, this.maxLat),
      resolution,
    };
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

/** Side, in cells, of the blocks on which `Rasterizer.boundCells` computes its lower bound. */
const BLOCK = 2;

/** Per-thread scratch for rasters up to `maxResolution` per side. */
export class Rasterizer {
  private readonly bestSegment: Int32Array;
  /** 1 where a cell may take a value below the limit (see `boundCells`) */
  private readonly need: Uint8Array;
  private readonly blockBound: Float64Array;

  constructor(
    readonly graph: StreetGraph,
    maxResolution: number,
  ) {
    const cells = maxResolution * maxResolution;
    this.bestSegment = new Int32Array(cells);
    this.need = new Uint8Array(cells);
    const blocks = Math.ceil(maxResolution / BLOCK);
    this.blockBound = new Float64Array(blocks * blocks);
  }

  /**
   * Mark the cells that may take a value below `limitDs` from the vertices a street search reached
   * (travelled on at `speed` m/s); `nearestSegments` then skips the others, which are null whatever
   * their nearest segment.
   *
   * Every value `fillCells` gives is the cost of some reached vertex or point seed v plus a way from
   * v to the cell at least as long as the straight line, so cost(v) + |cell − v| / speed bounds it
   * from below. That
   * bound is computed on blocks of BLOCK × BLOCK cells by a chamfer distance transform whose steps are
   * shortened so that it never exceeds the straight distance, less the distance from the block's
   * centre to its cells' centres.
   */
  boundCells(grid: Grid, speed: number, limitDs: number, search: StreetSearch): void {
    const g = this.graph;
    const R = grid.resolution;
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    const nb = Math.ceil(R / BLOCK);
    const bw = BLOCK * dx;
    const bh = BLOCK * dy;
    const perMetre = 10 / speed;
    const bound = this.blockBound.subarray(0, nb * nb);
    bound.fill(Infinity);
    const source = (vx: number, vy: number, c: number) => {
      if (c >= limitDs) return;
      const bi = Math.min(nb - 1, Math.max(0, Math.floor((vx - x0) / bw)));
      const bj = Math.min(nb - 1, Math.max(0, Math.floor((vy - y0) / bh)));
      // cost(v) − |centre − v|: propagated by at most the straight distance, it stays below cost(v) + |c − v|
      const seed = c - distance(x0 + (bi + 0.5) * bw - vx, y0 + (bj + 0.5) * bh - vy) * perMetre;
      const b = bi * nb + bj;
      if (seed < bound[b]!) bound[b] = seed;
    };
    const { vertexX, vertexY } = g;
    const { touched, touchedCount } = search;
    for (let k = 0; k < touchedCount; k++) {
      const v = touched[k]!;
      source(vertexX[v]!, vertexY[v]!, search.costOf(v));
    }
    // a point seed values the points of its own edge straight from it, below its ends' costs
    for (let k = 0; k < search.pointCount; k++) source(search.pointX[k]!, search.pointY[k]!, search.pointCostOf(k));
    // an 8-neighbour path is at most `stretch` times longer than the straight line between its ends
    const angle = Math.atan2(bh, bw);
    const stretch = Math.max(1 / Math.cos(angle / 2), 1 / Math.cos((Math.PI / 2 - angle) / 2));
    chamfer(bound, nb, (bw * perMetre) / stretch, (bh * perMetre) / stretch, (Math.hypot(bw, bh) * perMetre) / stretch);
    // a cell's centre lies within half the diagonal of BLOCK − 1 cells of its block's centre (the
    // bound holds at cell centres only); 1 m more covers lengths rounded to decimetres
    const slack = (Math.hypot((BLOCK - 1) * dx, (BLOCK - 1) * dy) / 2 + 1) * perMetre;
    const need = this.need;
    for (let i = 0; i < R; i++) {
      const row = Math.floor(i / BLOCK) * nb;
      for (let j = 0, b = row; j < R; b++) {
        const flag = bound[b]! - slack < limitDs ? 1 : 0;
        for (const end = Math.min(R, j + BLOCK); j < end; j++) need[i * R + j] = flag;
      }
    }
  }

  /**
   * For each cell of `grid`, the nearest segment usable by `layer` within the matching radius (-1
   * when none; ties go to the lowest segment number): what `nearestSegment` answers for the cell's
   * centre. With `onlyNeeded`, only the cells the last `boundCells` marked are searched (the others
   * get -1). The result is a view on scratch memory, valid until the next call.
   *
   * Cells are searched together, a batch per bucket of the segment grid: each ring of buckets
   * around it is read once for the whole batch, each cell leaving the batch when the ring lies
   * farther than its best segment. Cells outside the segment grid are searched one by one.
   */
  nearestSegments(grid: Grid, layer: Layer, onlyNeeded = false): Int32Array {
    const g = this.graph;
    const R = grid.resolution;
    const best = this.bestSegment.subarray(0, R * R);
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    const radius = matchRadiusM(grid);
    const mask = layerBits(layer);
    const need = this.need;
    for (let c = 0; c < R * R; c++) best[c] = onlyNeeded && need[c] === 0 ? -1 : PENDING;
    const sg = g.segmentGrid;
    const S = sg.sizeM;
    // first cell whose centre is at or after coordinate v
    const firstI = (v: number) => Math.min(R, Math.max(0, Math.ceil((v - x0) / dx - 0.5)));
    const firstJ = (v: number) => Math.min(R, Math.max(0, Math.ceil((v - y0) / dy - 0.5)));
    const b = this.batch;
    for (let bi = Math.max(0, Math.floor((x0 - sg.x0) / S)); bi < sg.cols; bi++) {
      const iA = firstI(sg.x0 + bi * S);
      const iB = firstI(sg.x0 + (bi + 1) * S);
      if (iA >= R) break;
      if (iA === iB) continue;
      for (let bj = Math.max(0, Math.floor((y0 - sg.y0) / S)); bj < sg.rows; bj++) {
        const jA = firstJ(sg.y0 + bj * S);
        const jB = firstJ(sg.y0 + (bj + 1) * S);
        if (jA >= R) break;
        for (let i = iA; i < iB; i++) {
          for (let j = jA; j < jB; j++) {
            const cell = i * R + j;
            if (best[cell] !== PENDING) continue;
            b.add(cell, x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dy, radius);
            if (b.count === BATCH) b.search(sg, bi, bj, mask, best);
          }
        }
        if (b.count > 0) b.search(sg, bi, bj, mask, best);
      }
    }
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < R; j++) {
        const cell = i * R + j;
        if (best[cell] === PENDING) best[cell] = nearestSegment(g, x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dy, radius, mask);
      }
    }
    return best;
  }

  private readonly batch = new CellBatch();
}

/** Marks a cell not searched yet. */
const PENDING = -2;
/** Most cells searched together. */
const BATCH = 256;

/** Cells searched together from one bucket of the segment grid (see `nearestSegment`, which it mirrors). */
class CellBatch {
  count = 0;
  private readonly cell = new Int32Array(BATCH);
  private readonly x = new Float64Array(BATCH);
  private readonly y = new Float64Array(BATCH);
  private readonly bound = new Float64Array(BATCH);
  private readonly best = new Int32Array(BATCH);
  /** the cells still searching, by their place in the batch */
  private readonly active = new Int32Array(BATCH);
  private readonly inner = new Float64Array(BATCH);
  /** the active cells that one bucket may serve */
  private readonly here = new Int32Array(BATCH);

  add(cell: number, x: number, y: number, maxM: number): void {
    const n = this.count++;
    this.cell[n] = cell;
    this.x[n] = x;
    this.y[n] = y;
    this.bound[n] = maxM * maxM;
    this.best[n] = -1;
  }

  /** Search the batch, whose cells lie in bucket (bi, bj), and write their answers into `out`. */
  search(sg: SegmentGrid, bi: number, bj: number, accessMask: number, out: Int32Array): void {
    const { x0, y0, sizeM, cols, rows, start, segments, coords, access } = sg;
    const m = this.count;
    const { x, y, bound, best, active, inner, here } = this;
    for (let c = 0; c < m; c++) {
      // distance from the cell to the edge of the bucket (1 mm less, for rounding)
      inner[c] = Math.min(x[c]! - (x0 + bi * sizeM), x0 + (bi + 1) * sizeM - x[c]!, y[c]! - (y0 + bj * sizeM), y0 + (bj + 1) * sizeM - y[c]!) - 1e-3;
    }
    let left = m;
    for (let c = 0; c < m; c++) active[c] = c;
    for (let k = 0; ; k++) {
      if (k > 0) {
        // keep the cells whose best segment may still lie in this ring
        let kept = 0;
        for (let a = 0; a < left; a++) {
          const c = active[a]!;
          const gap = inner[c]! + (k - 1) * sizeM;
          if (!(gap > 0 && gap * gap > bound[c]!)) active[kept++] = c;
        }
        left = kept;
        if (left === 0) break;
        if (bi - k < 0 && bj - k < 0 && bi + k >= cols && bj + k >= rows) break;
      }
      for (let i = Math.max(0, bi - k), iHi = Math.min(cols - 1, bi + k); i <= iHi; i++) {
        // the ring's buckets in column i: all of them on its sides, one at each end elsewhere
        const side = i === bi - k || i === bi + k;
        const jStep = side || k === 0 ? 1 : 2 * k;
        const bx0 = x0 + i * sizeM - 1e-3;
        const bx1 = bx0 + sizeM + 2e-3;
        for (let j = bj - k; j <= bj + k; j += jStep) {
          if (j < 0 || j >= rows) continue;
          const from = start[i * rows + j]!;
          const to = start[i * rows + j + 1]!;
          if (from === to) continue;
          // the cells this bucket may still serve: those whose best lies beyond its box
          const by0 = y0 + j * sizeM - 1e-3;
          const by1 = by0 + sizeM + 2e-3;
          let near = 0;
          for (let a = 0; a < left; a++) {
            const c = active[a]!;
            const ox = Math.max(bx0 - x[c]!, x[c]! - bx1, 0);
            const oy = Math.max(by0 - y[c]!, y[c]! - by1, 0);
            if (ox * ox + oy * oy <= bound[c]!) here[near++] = c;
          }
          if (near === 0) continue;
          for (let n = from; n < to; n++) {
            if ((access[n]! & accessMask) === 0) continue;
            const ax = coords[4 * n]!;
            const ay = coords[4 * n + 1]!;
            const bx = coords[4 * n + 2]!;
            const by = coords[4 * n + 3]!;
            const sdx = bx - ax;
            const sdy = by - ay;
            const len2 = sdx * sdx + sdy * sdy;
            const inverse = len2 > 0 ? 1 / len2 : 0;
            const s = segments[n]!;
            for (let a = 0; a < near; a++) {
              const c = here[a]!;
              const px = x[c]!;
              const py = y[c]!;
              // the arithmetic of pointSegmentDistance2, for the same answers
              const t = Math.min(Math.max(((px - ax) * sdx + (py - ay) * sdy) * inverse, 0), 1);
              const ex = ax + t * sdx - px;
              const ey = ay + t * sdy - py;
              const d2 = ex * ex + ey * ey;
              if (d2 > bound[c]!) continue;
              if (d2 < bound[c]! || best[c]! < 0 || s < best[c]!) {
                bound[c] = d2;
                best[c] = s;
              }
            }
          }
        }
      }
    }
    for (let c = 0; c < m; c++) out[this.cell[c]!] = best[c]!;
    this.count = 0;
  }
}

/** The grid in the graph's projection: its south-west corner and cell size, metres. */
function cellGeometry(g: StreetGraph, grid: Grid): { x0: number; y0: number; dx: number; dy: number } {
  const p = g.projection;
  const x0 = projectX(p, grid.minLon);
  const y0 = projectY(p, grid.minLat);
  const R = grid.resolution;
  return { x0, y0, dx: (projectX(p, grid.maxLon) - x0) / R, dy: (projectY(p, grid.maxLat) - y0) / R };
}

/**
 * Exact 8-neighbour chamfer distances over an n × n field (in place): each value becomes the least of
 * itself and any other value plus the steps between them (`wi` along the first index, `wj` along
 * the second, `wd` diagonally). Two sweeps, each row scanned both ways: a shortest path can always
 * be taken monotone in both indexes.
 */
function chamfer(f: Float64Array, n: number, wi: number, wj: number, wd: number): void {
  for (let pass = 0; pass < 2; pass++) {
    // pass 0 takes paths from lower rows (down the first index), pass 1 from higher ones
    for (let k = 0; k < n; k++) {
      const i = pass === 0 ? k : n - 1 - k;
      const row = i * n;
      if (k > 0) {
        const prev = pass === 0 ? row - n : row + n;
        // the first and last columns have one diagonal neighbour; the others, two
        f[row] = Math.min(f[row]!, f[prev]! + wi, n > 1 ? f[prev + 1]! + wd : Infinity);
        for (let j = 1; j < n - 1; j++) {
          f[row + j] = Math.min(f[row + j]!, f[prev + j]! + wi, f[prev + j - 1]! + wd, f[prev + j + 1]! + wd, f[row + j - 1]! + wj);
        }
        if (n > 1) f[row + n - 1] = Math.min(f[row + n - 1]!, f[prev + n - 1]! + wi, f[prev + n - 2]! + wd, f[row + n - 2]! + wj);
      } else {
        for (let j = 1; j < n; j++) f[row + j] = Math.min(f[row + j]!, f[row + j - 1]! + wj);
      }
      for (let j = n - 2; j >= 0; j--) f[row + j] = Math.min(f[row + j]!, f[row + j + 1]! + wj);
    }
  }
}

/**
 * Fill `out` (tenths of a second, UNREACHED where unknown) with each cell's value from its nearest
 * segment, keeping the smaller of `out`'s current value and the new one (several end modes share a
 * grid): the least, over the points of the segment, of the point's cost plus the straight line to
 * the cell's centre at `speed`. Along a segment the cost runs straight from its ends, or from a
 * point seed on it (a centre or a stop in its middle), at that same speed, so the least is at an
 * end or at such a seed.
 *
 * `search`: the street search whose costs (tenths of a second) value the segment. `reverse`: the
 * costs are times to reach the centre (arrival maps), so a point uses the ways it can go.
 */
export function fillCells(
  g: StreetGraph,
  grid: Grid,
  nearest: Int32Array,
  layer: Layer,
  speed: number,
  reverse: boolean,
  search: StreetSearch,
  out: Float64Array,
): void {
  const R = grid.resolution;
  const { x0, y0, dx, dy } = cellGeometry(g, grid);
  const { segmentPoint, segmentEdge, geomX, geomY, geomAlongM, geomOffset, edgeFrom, edgeTo } = g;
  const perMetre = 10 / speed;
  const pointValue = (e: number, point: number): number => {
    // an end of the edge is a vertex: its cost already counts the ways into it
    if (point === geomOffset[e]) return valueOf(search.costOf(edgeFrom[e]!));
    if (point === geomOffset[e + 1]! - 1) return valueOf(search.costOf(edgeTo[e]!));
    return search.costAlong(e, geomAlongM[point]!, layer, perMetre, reverse);
  };
  // neighbouring cells often share their segment (away from the streets): its ends are valued once
  let lastSegment = -1;
  let va = Infinity;
  let vb = Infinity;
  let seeded = false;
  for (let i = 0; i < R; i++) {
    const cx = x0 + (i + 0.5) * dx;
    for (let j = 0; j < R; j++) {
      const cell = i * R + j;
      const s = nearest[cell]!;
      if (s < 0) continue;
      const cy = y0 + (j + 0.5) * dy;
      const a = segmentPoint[s]!;
      const e = segmentEdge[s]!;
      if (s !== lastSegment) {
        va = pointValue(e, a);
        vb = pointValue(e, a + 1);
        seeded = search.hasPointSeed(e);
        lastSegment = s;
      }
      let v = Infinity;
      if (va !== Infinity) v = va + distance(cx - geomX[a]!, cy - geomY[a]!) * perMetre;
      if (vb !== Infinity) v = Math.min(v, vb + distance(cx - geomX[a + 1]!, cy - geomY[a + 1]!) * perMetre);
      if (seeded) {
        // the point seeds on this segment (few: a centre, the stops of the street)
        const from = geomAlongM[a]!;
        const to = geomAlongM[a + 1]!;
        for (let k = search.firstPointOn(e); k >= 0; k = search.nextPoint(k)) {
          const along = search.pointAlongOf(k);
          if (along < from || along > to) continue;
          v = Math.min(v, search.pointCostOf(k) + distance(cx - search.pointX[k]!, cy - search.pointY[k]!) * perMetre);
        }
      }
      if (v < out[cell]!) out[cell] = v;
    }
  }
}

/** Math.hypot, without its care for overflow (several times slower, and never needed at city scale). */
const distance = (dx: number, dy: number): number => Math.sqrt(dx * dx + dy * dy);

const valueOf = (cost: number): number => (cost === UNREACHED ? Infinity : cost);

/** Whole seconds of each cell (truncated), -1 for null: unreached or at/after `maxDurationSec`. */
export function toSeconds(values: Float64Array, maxDurationSec: number, out: Int32Array): void {
  // values are tenths of a second, never negative: below the limit, truncation is `| 0`
  const limit = maxDurationSec * 10;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    out[k] = v < limit ? (v / 10) | 0 : -1;
  }
}
