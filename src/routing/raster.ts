/**
 * The heat-map grid: R × R cells over a lon/lat box, each valued as a point is in R5 or
 * OpenTripPlanner: linked to the nearest street segment of the end leg's layer within LINK_RADIUS_M,
 * its value the cost of the link point in the street search (straight along the edge from its ends
 * or from a point seed on it, as the edge's directions allow) plus the off-street offset walked in a
 * straight line at walking speed (on a bike or car layer too: the last metres are walked). A cell
 * whose nearest street lies farther, or whose link point the search did not reach within the
 * maximum duration, is null. No value spreads from cell to cell: a cell beside a river takes the
 * value of its own bank, a cell in a block the value of the street it faces.
 *
 * Linking searches no street and costs what the grid holds, not what the city holds: a cell's
 * candidates are the nearest segments of the four points of the layer's link lattice around its
 * centre (computed at load, model/link-lattice.ts) and the extra candidates of the lattice square
 * it lies in (the streets that run between those points, nearest to none), each followed along its
 * edge while the next segment comes nearer (a street is drawn in many segments; the lattice names
 * one), and its link is the nearest of them (exact distances, ties to the lower segment number):
 * the cell's nearest segment but in the rare squares link-lattice.ts describes. A cell none of whose candidates lies on an edge
 * the search reached is null whatever its link: its candidates' distances are not even computed,
 * and on most maps that is most of the box.
 *
 * Values are tenths of a second; whole seconds are truncated; null (-1) when unreached or at or
 * after the maximum duration. Cell (i, j) is longitude band i (west to east) and latitude band j
 * (south to north), stored at i * R + j, the order of Navitia's `lines[i].duration[j]`.
 */
import type { Layer } from '../model/street-layers.js';
import { LINK_RADIUS_M, type StreetGraph } from '../model/street-graph.js';
import { closestOnSegment } from '../model/segment-geometry.js';
import { latticeColumn, latticeColumnExtras, type LinkLattice } from '../model/link-lattice.js';
import type { StreetSearch } from './street-search.js';
import { UNREACHED } from './unreached.js';
import { cellGeometry, rowCentres, type Grid } from './grid.js';

/** What `valueCells` values the cells with. */
interface Valuing {
  search: StreetSearch;
  speed: number;
  walkSpeed: number;
  reverse: boolean;
  limitDs: number;
  out: Float64Array;
}

/** One column of a scan: the grid's rows, the lattice and what the cells are for, and the column's index and centre x. */
interface ColumnScan {
  lattice: LinkLattice;
  layer: Layer;
  valuing: Valuing | null;
  table: CellLinkTable | null;
  R: number;
  i: number;
  cx: number;
}

/** Each cell's link (i * R + j): its edge (-1: none within the link radius), where along it, and how far off it. */
export interface CellLinkTable {
  edge: Int32Array;
  alongM: Float64Array;
  offsetM: Float64Array;
}

/** Per-thread scratch: the edges and segments a search reached, and two columns of a link lattice. */
export class Rasterizer {
  /** per edge: `round` when the last search reached one of its ends or seeded a point on it */
  private readonly edgeReached: Uint32Array;
  /** per segment: `round` when its edge is reached (the cells read this, one array for four candidates) */
  private readonly segmentReached: Uint32Array;
  private round = 0;
  private columnA: Int32Array;
  private columnB: Int32Array;
  /** per lattice row: where the extra candidates of its square in the decoded column start, -1 for none; the rows set, to reset */
  private readonly columnExtras: Int32Array;
  private readonly extrasMarked: Int32Array;
  private extrasCount = 0;
  /** the grid's rows: each one's centre in the projection and the projection's scale there (grown to the largest grid) */
  private rowY = new Float64Array(0);
  private rowScale = new Float64Array(0);
  /** each grid row's lattice row (the square its centres lie in), -1 outside the lattice: the same for every column */
  private rowLattice = new Int32Array(0);

  constructor(readonly graph: StreetGraph) {
    this.edgeReached = new Uint32Array(graph.edgeCount);
    this.segmentReached = new Uint32Array(graph.segmentCount);
    const rows = Math.max(0, ...graph.linkLattices.map((l) => l.rows));
    this.columnA = new Int32Array(rows);
    this.columnB = new Int32Array(rows);
    this.columnExtras = new Int32Array(rows).fill(-1);
    this.extrasMarked = new Int32Array(rows);
  }

  /**
   * Value every cell of `grid` on `layer` from a street search run on it at `speed` m/s up to
   * `limitDs`, the off-street offset at `walkSpeed`, keeping in `out` the smaller of its current
   * value and the new one (the end legs of a heat map share one grid). `reverse`: the costs are
   * times to reach the centre (arrival maps).
   */
  valueCells(grid: Grid, layer: Layer, speed: number, walkSpeed: number, reverse: boolean, limitDs: number, search: StreetSearch, out: Float64Array): void {
    this.markReached(search);
    this.scan(grid, layer, { search, speed, walkSpeed, reverse, limitDs, out }, null);
  }

  /**
   * Link the cells of `grid` to their streets on `layer` (as `valueCells` does) into `table`, for
   * the cells of a departure window, valued again at each minute: only the cells with a candidate
   * street `reach` reached (the others, null whatever their link, keep edge -1).
   */
  linkCells(grid: Grid, layer: Layer, table: CellLinkTable, reach: StreetSearch): void {
    this.markReached(reach);
    this.scan(grid, layer, null, table);
  }

  /**
   * The cells' links through the lattice, for the cells with a candidate the last marked search
   * reached: each cell valued (`valuing`) or its link written to `table`, column by column. One loop
   * for both, the choice made once per cell on a loop-invariant test: the linking is the map's hot path.
   */
  private scan(grid: Grid, layer: Layer, valuing: Valuing | null, table: CellLinkTable | null): void {
    const lattice = this.graph.linkLattices[layer]!;
    const R = grid.resolution;
    if (table) table.edge.fill(-1, 0, R * R);
    const { x0, dx } = cellGeometry(this.graph, grid);
    if (this.rowY.length < R) {
      this.rowY = new Float64Array(R);
      this.rowScale = new Float64Array(R);
      this.rowLattice = new Int32Array(R);
    }
    rowCentres(this.graph, grid, this.rowY, this.rowScale);
    const { x0: lx0, y0: ly0, stepM, cols, rows } = lattice;
    for (let j = 0; j < R; j++) {
      const lj = Math.floor((this.rowY[j]! - ly0) / stepM);
      this.rowLattice[j] = lj < 0 || lj >= rows - 1 ? -1 : lj;
    }
    // the lattice rows under the grid's cell centres (and the row above each)
    const jLo = Math.max(0, Math.floor((this.rowY[0]! - ly0) / stepM));
    const jHi = Math.min(rows - 1, Math.floor((this.rowY[R - 1]! - ly0) / stepM) + 1);
    if (jLo > jHi) return;
    const column: ColumnScan = { lattice, layer, valuing, table, R, i: 0, cx: 0 };
    let decoded = -2;
    for (let i = 0; i < R; i++) {
      const cx = x0 + (i + 0.5) * dx;
      const li = Math.floor((cx - lx0) / stepM);
      // outside the lattice, no street lies within the link radius
      if (li < 0 || li >= cols - 1) continue;
      if (li !== decoded) {
        this.decodeColumns(lattice, li, decoded, jLo, jHi);
        decoded = li;
      }
      column.i = i;
      column.cx = cx;
      this.scanColumn(column);
    }
  }

  /** The lattice columns li and li + 1 in columnA and columnB, and the extras of the squares between; moving one column east keeps the east one. */
  private decodeColumns(lattice: LinkLattice, li: number, decoded: number, jLo: number, jHi: number): void {
    if (li === decoded + 1) {
      const west = this.columnA;
      this.columnA = this.columnB;
      this.columnB = west;
    } else latticeColumn(lattice, li, jLo, jHi, this.columnA);
    latticeColumn(lattice, li + 1, jLo, jHi, this.columnB);
    const columnExtras = this.columnExtras;
    for (let k = 0; k < this.extrasCount; k++) columnExtras[this.extrasMarked[k]!] = -1;
    this.extrasCount = latticeColumnExtras(lattice, li, jLo, jHi, columnExtras, this.extrasMarked);
  }

  /**
   * The cells of column `i` (centre x `cx`), between the decoded lattice columns: each linked to the
   * nearest of its candidates (each distinct one once; exact distances, ties to the lower segment),
   * then valued or its link written. The lattice names one segment of a street drawn in many, so from
   * a candidate whose nearest point is one of its ends the search goes on along its edge while the
   * next segment is nearer. All inline: this loop is the map's hot path.
   */
  private scanColumn({ lattice, layer, valuing, table, R, i, cx }: ColumnScan): void {
    const { segmentCount, segmentEdge, segmentPoint, geomX, geomY, geomAlongM } = this.graph;
    const { segmentReached: reached, round, columnExtras, columnA: west, columnB: east, rowY, rowScale, rowLattice } = this;
    const { extraSegments } = lattice;
    const perMetre = valuing ? 10 / valuing.speed : 0;
    const walkPerMetre = valuing ? 10 / valuing.walkSpeed : 0;
    for (let j = 0; j < R; j++) {
      const lj = rowLattice[j]!;
      if (lj < 0) continue;
      const cy = rowY[j]!;
      const s0 = west[lj]!;
      const s1 = west[lj + 1]!;
      const s2 = east[lj]!;
      const s3 = east[lj + 1]!;
      // the square's extra candidates (streets between the lattice points; EXTRAS_PER_SQUARE, two), for a few squares in a hundred
      const extras = columnExtras[lj]!;
      const s4 = extras < 0 ? -1 : extraSegments[extras]!;
      const s5 = extras < 0 ? -1 : extraSegments[extras + 1]!;
      // a cell none of whose candidates the search reached is null, whichever is nearest
      if ((s0 < 0 || reached[s0] !== round) && (s1 < 0 || reached[s1] !== round) && (s2 < 0 || reached[s2] !== round)) {
        if ((s3 < 0 || reached[s3] !== round) && (s4 < 0 || reached[s4] !== round) && (s5 < 0 || reached[s5] !== round)) continue;
      }
      let best = -1;
      let best2 = Infinity;
      let bestT = 0;
      // (the extras are on other edges than the corners' and than each other)
      const candidates = extras < 0 ? 4 : 6;
      for (let k = 0; k < candidates; k++) {
        const first = k === 0 ? s0 : k === 1 ? s1 : k === 2 ? s2 : k === 3 ? s3 : k === 4 ? s4 : s5;
        if (first < 0 || (k > 0 && k < 4 && (first === s0 || (k > 1 && first === s1) || (k > 2 && first === s2)))) continue;
        const e = segmentEdge[first]!;
        let near = -1;
        let d2 = Infinity;
        let t = 0;
        for (let s = first, step = 0; ; ) {
          const p = segmentPoint[s]!;
          const ax = geomX[p]!;
          const ay = geomY[p]!;
          const bx = geomX[p + 1]!;
          const by = geomY[p + 1]!;
          const u = closestOnSegment(cx, cy, ax, ay, bx, by);
          const ex = ax + u * (bx - ax) - cx;
          const ey = ay + u * (by - ay) - cy;
          const u2 = ex * ex + ey * ey;
          if (u2 >= d2) break;
          near = s;
          d2 = u2;
          t = u;
          // the way the edge may come nearer: past the end the centre projects on, never back
          const next = u === 0 && step <= 0 ? -1 : u === 1 && step >= 0 ? 1 : 0;
          if (next === 0 || s + next < 0 || s + next >= segmentCount || segmentEdge[s + next] !== e) break;
          step = next;
          s += next;
        }
        if (d2 < best2 || (d2 === best2 && near < best)) {
          best2 = d2;
          best = near;
          bestT = t;
        }
      }
      // the link radius and the offset on the ground (the projection's scale is 1 but on a country's)
      const scale = rowScale[j]!;
      const radius = LINK_RADIUS_M * scale;
      if (best < 0 || best2 > radius * radius) continue;
      const offsetM = Math.sqrt(best2) / scale;
      const p = segmentPoint[best]!;
      const along = geomAlongM[p]! + bestT * (geomAlongM[p + 1]! - geomAlongM[p]!);
      const c = i * R + j;
      if (table) {
        table.edge[c] = segmentEdge[best]!;
        table.alongM[c] = along;
        table.offsetM[c] = offsetM;
        continue;
      }
      if (!valuing || reached[best] !== round) continue;
      const v = valuing.search.costAlong(segmentEdge[best]!, along, layer, perMetre, valuing.reverse) + offsetM * walkPerMetre;
      if (v < valuing.limitDs && v < valuing.out[c]!) valuing.out[c] = v;
    }
  }

  /**
   * Stamp the edges at a vertex the search reached and those holding one of its point seeds, and
   * their segments.
   */
  private markReached(search: StreetSearch): void {
    if (++this.round === 0xffffffff) {
      this.edgeReached.fill(0);
      this.segmentReached.fill(0);
      this.round = 1;
    }
    const { adjOffset, adjEdge, geomOffset } = this.graph;
    const { edgeReached, segmentReached, round } = this;
    // edge e's segments are numbered geomOffset[e] − e onwards, one fewer than its points
    const mark = (e: number) => {
      if (edgeReached[e] === round) return;
      edgeReached[e] = round;
      segmentReached.fill(round, geomOffset[e]! - e, geomOffset[e + 1]! - e - 1);
    };
    for (let k = 0; k < search.touchedCount; k++) {
      const v = search.touched[k]!;
      if (search.costOf(v) === UNREACHED) continue;
      for (let a = adjOffset[v]!; a < adjOffset[v + 1]!; a++) mark(adjEdge[a]! >>> 1);
    }
    for (let k = 0; k < search.pointCount; k++) mark(search.pointEdgeOf(k));
  }
}

/** Whole seconds of each cell (truncated), -1 for null: unreached or at/after `maxDurationSec`. Returns the count of cells with a value. */
export function toSeconds(values: Float64Array, maxDurationSec: number, out: Int32Array): number {
  // values are tenths of a second, never negative: below the limit, truncation is `| 0`
  const limit = maxDurationSec * 10;
  let reached = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (v < limit) {
      out[k] = (v / 10) | 0;
      reached++;
    } else out[k] = -1;
  }
  return reached;
}
