/**
 * The heat-map grid: R × R cells over a lon/lat box, valued from the street search in two steps.
 *
 *   1. Cells near a reached street: a cell whose centre lies within `nearbyRadiusM` (50 m, or half
 *      the cell's diagonal on large cells) of street segments that value it within the maximum
 *      duration takes the least of those values: the cost of one of the segment's ends (or of a
 *      centre or stop on it) plus the straight line at the end speed. The best nearby street wins,
 *      not the nearest one: a sidewalk reached early beside a carriageway reached late (or never)
 *      values the cell.
 *   2. The grid walk: every cell takes the least, over the cells of step 1, of their value plus the
 *      walk to them on the 8-neighbour grid (steps along rows, columns and diagonals at the end
 *      speed). A cell of step 1 takes it only on foot and when that walk is at most SHORTCUT_M
 *      (1 km), else keeps what its own streets give it: the paths between streets that an extract
 *      may lack are walked, a barrier that the streets go round far away is not crossed. Other cells
 *      (a park, a field, a block with no street near its centre) are null when the nearest cell of
 *      step 1 lies farther than the matching radius, unless they sit in a notch of its edge.
 *
 * Values are tenths of a second; whole seconds are truncated; null (-1) when unreached or at or
 * after the maximum duration. Cell (i, j) is longitude band i (west to east) and latitude band j
 * (south to north), stored at i * R + j, the order of Navitia's `lines[i].duration[j]`.
 */
import { Layer, layerBits } from '../model/street-layers.js';
import { degreesAround, METRES_PER_DEGREE } from '../util/geodesy.js';
import { projectX, projectY, type StreetGraph } from '../model/street-graph.js';
import { UNREACHED } from './unreached.js';
import { type StreetSearch } from './street-search.js';

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
    const { dLon, dLat } = degreesAround(lat, halfM);
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

/** Per-thread scratch for rasters up to `maxResolution` per side. */
export class Rasterizer {
  /** one leg's values, tenths of a second */
  private readonly field: Float64Array;
  /** metres to the nearest cell valued by a street (0 on those cells, which `settled` marks) */
  private readonly reach: Float64Array;
  /** the settled cells' own values, kept while step 2 walks through them */
  private readonly own: Float64Array;
  /** metres from each cell to the settled cell its value comes from, along the grid walk */
  private readonly sourceDist: Float32Array;
  private readonly settled: Uint8Array;
  private readonly values: SegmentValues;
  private readonly edgeStamp: Uint32Array;
  private edgeStampRound = 0;

  constructor(
    readonly graph: StreetGraph,
    maxResolution: number,
  ) {
    const cells = maxResolution * maxResolution;
    this.field = new Float64Array(cells);
    this.reach = new Float64Array(cells);
    this.own = new Float64Array(cells);
    this.sourceDist = new Float32Array(cells);
    this.settled = new Uint8Array(cells);
    this.values = new SegmentValues(graph);
    this.edgeStamp = new Uint32Array(graph.edgeCount);
  }

  /**
   * Value every cell of `grid` from a street search run on `layer` at `speed` m/s up to `limitDs`,
   * keeping in `out` the smaller of its current value and the new one (the end modes of a heat map
   * share one grid). `reverse`: the costs are times to reach the centre (arrival maps).
   */
  valueCells(grid: Grid, layer: Layer, speed: number, reverse: boolean, limitDs: number, search: StreetSearch, out: Float64Array): void {
    const R = grid.resolution;
    const field = this.field.subarray(0, R * R);
    const settled = this.settled.subarray(0, R * R);
    field.fill(Infinity);
    settled.fill(0);
    this.valueNearbyCells(grid, layer, speed, reverse, limitDs, search, field);
    // the paths an extract lacks are walked: cars and bikes keep to their streets
    this.spread(grid, speed, layer === Layer.Walk ? SHORTCUT_M : 0);
    for (let c = 0; c < R * R; c++) if (field[c]! < out[c]!) out[c] = field[c]!;
  }

  /** Step 1 (see the module's comment), driven by the reached edges: each segment visits the few cells around it. */
  private valueNearbyCells(grid: Grid, layer: Layer, speed: number, reverse: boolean, limitDs: number, search: StreetSearch, field: Float64Array): void {
    const g = this.graph;
    const R = grid.resolution;
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    const { adjOffset, adjEdge, edgeAccess, geomOffset, geomX, geomY } = g;
    const { settled, values } = this;
    values.start(search, layer, speed, reverse);
    const mask = layerBits(layer);
    const stamp = this.edgeRound();
    const nearby = nearbyRadiusM(grid);
    const near2 = nearby * nearby;
    const visitEdge = (e: number) => {
      if (this.edgeStamp[e] === stamp) return;
      this.edgeStamp[e] = stamp;
      if ((edgeAccess[e]! & mask) === 0 || !values.load(e, limitDs)) return;
      for (let p = geomOffset[e]!, last = geomOffset[e + 1]! - 1; p < last; p++) {
        const ax = geomX[p]!;
        const ay = geomY[p]!;
        const bx = geomX[p + 1]!;
        const by = geomY[p + 1]!;
        // the cells whose centre lies within `nearby` of the segment's box
        const i0 = Math.max(0, Math.ceil((Math.min(ax, bx) - nearby - x0) / dx - 0.5));
        const i1 = Math.min(R - 1, Math.floor((Math.max(ax, bx) + nearby - x0) / dx - 0.5));
        const j0 = Math.max(0, Math.ceil((Math.min(ay, by) - nearby - y0) / dy - 0.5));
        const j1 = Math.min(R - 1, Math.floor((Math.max(ay, by) + nearby - y0) / dy - 0.5));
        if (i0 > i1 || j0 > j1) continue;
        const sdx = bx - ax;
        const sdy = by - ay;
        const len2 = sdx * sdx + sdy * sdy;
        const inverse = len2 > 0 ? 1 / len2 : 0;
        for (let i = i0; i <= i1; i++) {
          const cx = x0 + (i + 0.5) * dx;
          for (let j = j0; j <= j1; j++) {
            const cy = y0 + (j + 0.5) * dy;
            const t = Math.min(Math.max(((cx - ax) * sdx + (cy - ay) * sdy) * inverse, 0), 1);
            const ex = ax + t * sdx - cx;
            const ey = ay + t * sdy - cy;
            if (ex * ex + ey * ey > near2) continue;
            const v = values.at(p, cx, cy);
            if (v >= limitDs) continue;
            const cell = i * R + j;
            settled[cell] = 1;
            if (v < field[cell]!) field[cell] = v;
          }
        }
      }
    };
    const { touched, touchedCount } = search;
    for (let k = 0; k < touchedCount; k++) {
      const v = touched[k]!;
      for (let i = adjOffset[v]!; i < adjOffset[v + 1]!; i++) visitEdge(adjEdge[i]! >>> 1);
    }
    for (let k = 0; k < search.pointCount; k++) visitEdge(search.pointEdgeOf(k));
  }

  /**
   * Step 2: each cell takes the least, over the settled cells, of their value plus the walk to them
   * on the 8-neighbour grid (`speed`), with the length of that walk; and the length of the shortest
   * walk to any settled cell, for the matching radius. A settled cell whose best walk is longer than
   * `shortcutM` gets its own value back. Two chamfer sweeps, forward and backward, find all three
   * exactly (a shortest walk on the grid can be taken monotone in both indexes).
   */
  private spread(grid: Grid, speed: number, shortcutM: number): void {
    const R = grid.resolution;
    const { field, own, reach, settled, sourceDist } = this;
    const { width, height } = cellSizeM(grid);
    const perMetre = 10 / speed;
    const di = width;
    const dj = height;
    const dd = Math.hypot(width, height);
    const vi = di * perMetre;
    const vj = dj * perMetre;
    const vd = dd * perMetre;
    for (let c = 0; c < R * R; c++) {
      own[c] = field[c]!;
      reach[c] = settled[c] ? 0 : Infinity;
      sourceDist[c] = 0;
    }
    // Each cell takes a neighbour's value plus the step when that is less, and then the distance of
    // that value's source; and the distance to the nearest settled cell. (Written out, each sweep on
    // its own: a closure or a direction test per cell here costs a good part of the map's time.)
    // forward: from the neighbours before (row i - 1, and j - 1 in this row)
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < R; j++) {
        const c = i * R + j;
        let v = field[c]!;
        let d = sourceDist[c]!;
        let r = reach[c]!;
        if (i > 0) {
          let n = c - R;
          if (field[n]! + vi < v) (v = field[n]! + vi), (d = sourceDist[n]! + di);
          if (reach[n]! + di < r) r = reach[n]! + di;
          if (j > 0) {
            n = c - R - 1;
            if (field[n]! + vd < v) (v = field[n]! + vd), (d = sourceDist[n]! + dd);
            if (reach[n]! + dd < r) r = reach[n]! + dd;
          }
          if (j < R - 1) {
            n = c - R + 1;
            if (field[n]! + vd < v) (v = field[n]! + vd), (d = sourceDist[n]! + dd);
            if (reach[n]! + dd < r) r = reach[n]! + dd;
          }
        }
        if (j > 0) {
          const n = c - 1;
          if (field[n]! + vj < v) (v = field[n]! + vj), (d = sourceDist[n]! + dj);
          if (reach[n]! + dj < r) r = reach[n]! + dj;
        }
        field[c] = v;
        sourceDist[c] = d;
        reach[c] = r;
      }
    }
    // backward: from the neighbours after (row i + 1, and j + 1 in this row)
    for (let i = R - 1; i >= 0; i--) {
      for (let j = R - 1; j >= 0; j--) {
        const c = i * R + j;
        let v = field[c]!;
        let d = sourceDist[c]!;
        let r = reach[c]!;
        if (i < R - 1) {
          let n = c + R;
          if (field[n]! + vi < v) (v = field[n]! + vi), (d = sourceDist[n]! + di);
          if (reach[n]! + di < r) r = reach[n]! + di;
          if (j > 0) {
            n = c + R - 1;
            if (field[n]! + vd < v) (v = field[n]! + vd), (d = sourceDist[n]! + dd);
            if (reach[n]! + dd < r) r = reach[n]! + dd;
          }
          if (j < R - 1) {
            n = c + R + 1;
            if (field[n]! + vd < v) (v = field[n]! + vd), (d = sourceDist[n]! + dd);
            if (reach[n]! + dd < r) r = reach[n]! + dd;
          }
        }
        if (j < R - 1) {
          const n = c + 1;
          if (field[n]! + vj < v) (v = field[n]! + vj), (d = sourceDist[n]! + dj);
          if (reach[n]! + dj < r) r = reach[n]! + dj;
        }
        field[c] = v;
        sourceDist[c] = d;
        reach[c] = r;
      }
    }
    const radius = matchRadiusM(grid);
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < R; j++) {
        const c = i * R + j;
        if (settled[c]) {
          // a street's cell takes a better value from the streets around it only up to shortcutM
          if (sourceDist[c]! > shortcutM) field[c] = own[c]!;
        } else if (reach[c]! > radius && !inNotch(reach, R, i, j, radius)) field[c] = Infinity;
      }
    }
  }

  /** A new stamp for `edgeStamp` (edges visited by one `valueNearbyCells`). */
  private edgeRound(): number {
    if (++this.edgeStampRound === 0xffffffff) {
      this.edgeStamp.fill(0);
      this.edgeStampRound = 1;
    }
    return this.edgeStampRound;
  }
}

/**
 * Whether cell (i, j), past the matching radius, sits in a notch of the radius's edge: at least
 * NOTCH_NEIGHBOURS of its 8 neighbours lie within the radius. The edge of the union of the discs
 * around the streets' cells is jagged on the grid; a one-cell notch in it is a hole in the middle of
 * reached cells, not the open country beyond the streets, so it keeps its value.
 */
function inNotch(reach: Float64Array, R: number, i: number, j: number, radius: number): boolean {
  let within = 0;
  for (let di = -1; di <= 1; di++) {
    const ii = i + di;
    if (ii < 0 || ii >= R) continue;
    for (let dj = -1; dj <= 1; dj++) {
      const jj = j + dj;
      if ((di !== 0 || dj !== 0) && jj >= 0 && jj < R && reach[ii * R + jj]! <= radius) within++;
    }
  }
  return within >= NOTCH_NEIGHBOURS;
}

/**
 * How far in a straight line a cell on a street may take a better value from another street (metres):
 * the walkways, squares and paths between streets that an extract may lack (rnv-mannheim's holds
 * motor roads only), and the sidewalk of a carriageway reached late. Farther than this, the streets'
 * own way round stands (a canal, a railway, a motorway with no crossing: barriers the extract may
 * not map either).
 */
export const SHORTCUT_M = 1000;

/** Neighbours (of 8) within the matching radius that keep a cell past it: 6, three sides of it. */
const NOTCH_NEIGHBOURS = 6;

/**
 * A street this close to a cell's centre (metres) may value the cell even when it is not the
 * nearest: a sidewalk beside an unreached carriageway, the platform street of a stop next to a
 * road reached late. About the width of a main road with its sidewalks and tram platforms, and
 * less than a river or a rail yard, so that the straight line to the cell crosses no barrier that
 * the streets go round.
 */
export const NEARBY_M = 50;

/** How near a street must be to value a cell directly: NEARBY_M, or more on cells so large that a street crossing them may pass farther from their centre. */
export function nearbyRadiusM(grid: Grid): number {
  const { width, height } = cellSizeM(grid);
  return Math.max(NEARBY_M, Math.hypot(width, height) / 2);
}

/**
 * The values, for one street search, of the points of one edge at a time: a segment's value at a
 * point (x, y) is the least, over the segment's two ends and the point seeds on it, of that place's
 * cost plus the straight line to (x, y) at the search's speed (tenths of a second; Infinity when
 * none is reached). Along a segment the cost runs straight from its ends or from a seed at that same
 * speed, so this is also the least over every point of the segment.
 */
class SegmentValues {
  private search!: StreetSearch;
  private layer!: Layer;
  private perMetre = 0;
  private reverse = false;
  private edge = -1;
  private first = 0;
  private seeded = false;
  /** values of the loaded edge's geometry points, from `first` */
  private point = new Float64Array(64);

  constructor(readonly graph: StreetGraph) {}

  start(search: StreetSearch, layer: Layer, speed: number, reverse: boolean): void {
    this.search = search;
    this.layer = layer;
    this.perMetre = 10 / speed;
    this.reverse = reverse;
    this.edge = -1;
  }

  /** Value the points of edge e; false when none of them (nor a seed on it) is below `limitDs`. */
  load(e: number, limitDs: number): boolean {
    const g = this.graph;
    const { search } = this;
    const first = g.geomOffset[e]!;
    const last = g.geomOffset[e + 1]! - 1;
    if (last - first + 1 > this.point.length) this.point = new Float64Array(2 * (last - first + 1));
    this.edge = e;
    this.first = first;
    this.seeded = false;
    for (let k = search.firstPointOn(e); k >= 0; k = search.nextPoint(k)) if (search.pointCostOf(k) < limitDs) this.seeded = true;
    // an end of the edge is a vertex: its cost already counts the ways into it
    const from = valueOf(search.costOf(g.edgeFrom[e]!));
    const to = valueOf(search.costOf(g.edgeTo[e]!));
    this.point[0] = from;
    this.point[last - first] = to;
    let reached = this.seeded || from < limitDs || to < limitDs;
    for (let p = first + 1; p < last; p++) {
      const v = search.costAlong(e, g.geomAlongM[p]!, this.layer, this.perMetre, this.reverse);
      this.point[p - first] = v;
      if (v < limitDs) reached = true;
    }
    return reached;
  }

  /** The value at (x, y) of segment `a` → `a + 1` (geometry points) of the loaded edge. */
  at(a: number, x: number, y: number): number {
    const g = this.graph;
    const { geomX, geomY } = g;
    const perMetre = this.perMetre;
    const va = this.point[a - this.first]!;
    const vb = this.point[a + 1 - this.first]!;
    let v = Infinity;
    if (va !== Infinity) v = va + distance(x - geomX[a]!, y - geomY[a]!) * perMetre;
    if (vb !== Infinity) v = Math.min(v, vb + distance(x - geomX[a + 1]!, y - geomY[a + 1]!) * perMetre);
    if (this.seeded) {
      // the point seeds on this segment (few: a centre, the stops of the street)
      const { search } = this;
      const from = g.geomAlongM[a]!;
      const to = g.geomAlongM[a + 1]!;
      for (let k = search.firstPointOn(this.edge); k >= 0; k = search.nextPoint(k)) {
        const along = search.pointAlongOf(k);
        if (along < from || along > to) continue;
        v = Math.min(v, search.pointCostOf(k) + distance(x - search.pointX[k]!, y - search.pointY[k]!) * perMetre);
      }
    }
    return v;
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
