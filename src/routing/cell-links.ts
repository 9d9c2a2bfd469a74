/**
 * Where each cell of a heat-map grid links to the street network: the nearest segment of one layer
 * to the cell's centre, within LINK_RADIUS_M, and the squared off-street offset (what R5 calls
 * linking a point set, done here for a grid that each request chooses); the link point itself is
 * found by the raster, only for the cells whose street was reached.
 *
 * Linking a grid costs what the grid holds, not what the city holds. Only the open cells are
 * linked, those within the squares the map can reach widened by the link radius (`markOpen`); then:
 *
 *   1. Seeds: the segments of the layer near the grid, found through the segment grid's buckets
 *      (small islands are not in them for the layer), each visit the cells whose centre lies within
 *      half a cell's diagonal of its box: every cell a street crosses gets its nearest street among
 *      those passing by.
 *      The cells of the grid's border are searched one by one in the segment grid: the nearest
 *      street of a cell near the edge may lie outside the grid.
 *   2. Propagation: two sweeps over the grid, forward and backward, in which each cell also weighs
 *      the nearest segments of its four neighbours already swept (a vector distance transform, as
 *      Danielsson's for points, here with the exact distance to a segment). A cell far from every
 *      street inherits the candidates of the cells between it and the streets.
 *
 * The distances are exact; the choice is the nearest segment except where two streets are at
 * almost the same distance from a cell and the nearer one's region is thinner than a cell, where
 * the other may win (the offset then differs by a fraction of a cell). Ties go to the lower segment
 * number, as `nearestSegment` does.
 *
 * Per-thread scratch, allocated once for the largest grid.
 */
import { layerBits, type Layer } from '../model/street-layers.js';
import { LINK_RADIUS_M, nearestSegment, pointSegmentDistance2, type StreetGraph } from '../model/street-graph.js';
import { bucketOf } from '../model/segment-grid.js';
import { cellGeometry, type Grid } from './grid.js';

/** Squares (projected metres: centre and half-side) outside which a map values nothing. */
export interface ReachSquares {
  count: number;
  x: Float64Array;
  y: Float64Array;
  halfM: Float64Array;
}

export class CellLinks {
  /** per cell (i * R + j): the linked segment, -1 when no street of the layer lies within LINK_RADIUS_M */
  readonly segment: Int32Array;
  /** per linked cell: the squared distance from its centre to the segment (the offset, squared) */
  readonly dist2: Float64Array;
  /**
   * per linked cell: the segment's ends (ax, ay, bx, by): the link point is the centre's projection
   * on them (and neighbours read candidates here in order, not from the graph's scattered geometry)
   */
  readonly ends: Float32Array;
  private readonly segmentStamp: Uint32Array;
  /** per cell: 1 where the map may value it (see `markOpen`); and the sum table that marks them */
  private readonly open: Uint8Array;
  private readonly corners: Int32Array;
  private stampRound = 0;

  constructor(
    readonly graph: StreetGraph,
    maxResolution: number,
  ) {
    const cells = maxResolution * maxResolution;
    this.segment = new Int32Array(cells);
    this.dist2 = new Float64Array(cells);
    this.ends = new Float32Array(4 * cells);
    this.segmentStamp = new Uint32Array(graph.segmentCount);
    this.open = new Uint8Array(cells);
    this.corners = new Int32Array((maxResolution + 1) * (maxResolution + 1));
  }

  /** Link every open cell of `grid` to its nearest segment of `layer` (results in `segment`, `dist2`, `ends`). */
  link(grid: Grid, layer: Layer, reach: ReachSquares | null = null): void {
    const R = grid.resolution;
    const cells = R * R;
    this.segment.fill(-1, 0, cells);
    this.dist2.fill(Infinity, 0, cells);
    this.markOpen(grid, reach);
    this.seed(grid, layer);
    this.propagate(grid);
    this.cutAtRadius(grid);
  }

  /**
   * Step 0: the open cells, those a map can value and those the propagation to them crosses: within
   * the squares the map can reach (`reach`, every cell when null) widened by the link radius and two
   * cells' diagonals (a cell's nearest street, and the cells between them, lie within the link radius
   * of it). The others stay unlinked. A sum table of the squares' corners marks them in two passes
   * over the grid, however many squares overlap.
   */
  private markOpen(grid: Grid, reach: ReachSquares | null): void {
    const R = grid.resolution;
    const { open, corners } = this;
    if (!reach) {
      open.fill(1, 0, R * R);
      return;
    }
    const { x0, y0, dx, dy } = cellGeometry(this.graph, grid);
    const margin = LINK_RADIUS_M + 2 * Math.hypot(dx, dy);
    const W = R + 1;
    corners.fill(0, 0, W * W);
    for (let k = 0; k < reach.count; k++) {
      const half = reach.halfM[k]! + margin;
      const x = reach.x[k]!;
      const y = reach.y[k]!;
      const i0 = Math.max(0, Math.ceil((x - half - x0) / dx - 0.5));
      const i1 = Math.min(R - 1, Math.floor((x + half - x0) / dx - 0.5));
      const j0 = Math.max(0, Math.ceil((y - half - y0) / dy - 0.5));
      const j1 = Math.min(R - 1, Math.floor((y + half - y0) / dy - 0.5));
      if (i0 > i1 || j0 > j1) continue;
      corners[i0 * W + j0]!++;
      corners[i0 * W + j1 + 1]!--;
      corners[(i1 + 1) * W + j0]!--;
      corners[(i1 + 1) * W + j1 + 1]!++;
    }
    for (let i = 0; i < R; i++) {
      for (let j = 0; j < R; j++) {
        const k = i * W + j;
        if (i > 0) corners[k]! += corners[k - W]!;
        if (j > 0) corners[k]! += corners[k - 1]!;
        if (i > 0 && j > 0) corners[k]! -= corners[k - W - 1]!;
        open[i * R + j] = corners[k]! > 0 ? 1 : 0;
      }
    }
  }

  /** Step 1: the segments near the grid visit the open cells around them. */
  private seed(grid: Grid, layer: Layer): void {
    const g = this.graph;
    const R = grid.resolution;
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    const reach = Math.hypot(dx, dy) / 2;
    const { x0: bx0, y0: by0, sizeM, cols, rows, start, segments, coords, access } = g.segmentGrid;
    const mask = layerBits(layer);
    const round = this.nextRound();
    const { segment, dist2, ends, open, segmentStamp } = this;
    const iLo = bucketOf(bx0, sizeM, cols, x0 - reach);
    const iHi = bucketOf(bx0, sizeM, cols, x0 + R * dx + reach);
    const jLo = bucketOf(by0, sizeM, rows, y0 - reach);
    const jHi = bucketOf(by0, sizeM, rows, y0 + R * dy + reach);
    for (let bi = iLo; bi <= iHi; bi++) {
      // the buckets of one column follow each other: one run of entries from row jLo to row jHi
      for (let n = start[bi * rows + jLo]!, end = start[bi * rows + jHi + 1]!; n < end; n++) {
        if ((access[n]! & mask) === 0) continue;
        const s = segments[n]!;
        if (segmentStamp[s] === round) continue;
        segmentStamp[s] = round;
        const ax = coords[4 * n]!;
        const ay = coords[4 * n + 1]!;
        const bx = coords[4 * n + 2]!;
        const by = coords[4 * n + 3]!;
        const i0 = Math.max(0, Math.ceil((Math.min(ax, bx) - reach - x0) / dx - 0.5));
        const i1 = Math.min(R - 1, Math.floor((Math.max(ax, bx) + reach - x0) / dx - 0.5));
        const j0 = Math.max(0, Math.ceil((Math.min(ay, by) - reach - y0) / dy - 0.5));
        const j1 = Math.min(R - 1, Math.floor((Math.max(ay, by) + reach - y0) / dy - 0.5));
        for (let i = i0; i <= i1; i++) {
          const cx = x0 + (i + 0.5) * dx;
          for (let j = j0; j <= j1; j++) {
            const c = i * R + j;
            if (open[c] === 0) continue;
            const d2 = pointSegmentDistance2(cx, y0 + (j + 0.5) * dy, ax, ay, bx, by);
            if (d2 < dist2[c]! || (d2 === dist2[c]! && s < segment[c]!)) {
              dist2[c] = d2;
              segment[c] = s;
              ends[4 * c] = ax;
              ends[4 * c + 1] = ay;
              ends[4 * c + 2] = bx;
              ends[4 * c + 3] = by;
            }
          }
        }
      }
    }
    this.seedBorder(grid, x0, y0, dx, dy, mask);
  }

  /**
   * The cells of the grid's border, each searched on its own: a street outside the grid may be the
   * nearest to the cells along its edge, and a grid that no street crosses (a park, a block) has no
   * seed otherwise. The propagation carries their links inwards.
   */
  private seedBorder(grid: Grid, x0: number, y0: number, dx: number, dy: number, mask: number): void {
    const g = this.graph;
    const R = grid.resolution;
    const { segment, dist2, ends } = this;
    const visit = (i: number, j: number) => {
      const c = i * R + j;
      if (this.open[c] === 0) return;
      const cx = x0 + (i + 0.5) * dx;
      const cy = y0 + (j + 0.5) * dy;
      const s = nearestSegment(g, cx, cy, LINK_RADIUS_M, mask);
      if (s < 0) return;
      const p = g.segmentPoint[s]!;
      const d2 = pointSegmentDistance2(cx, cy, g.geomX[p]!, g.geomY[p]!, g.geomX[p + 1]!, g.geomY[p + 1]!);
      if (d2 < dist2[c]! || (d2 === dist2[c]! && s < segment[c]!)) {
        dist2[c] = d2;
        segment[c] = s;
        ends[4 * c] = g.geomX[p]!;
        ends[4 * c + 1] = g.geomY[p]!;
        ends[4 * c + 2] = g.geomX[p + 1]!;
        ends[4 * c + 3] = g.geomY[p + 1]!;
      }
    };
    for (let k = 0; k < R; k++) {
      visit(k, 0);
      if (R > 1) visit(k, R - 1);
      if (k > 0 && k < R - 1) {
        visit(0, k);
        visit(R - 1, k);
      }
    }
  }

  /**
   * Step 2: each cell weighs the candidates of its neighbours already swept, forward (the row before
   * and the cell before in its row) then backward. A cell with a street within half its diagonal
   * already has its nearest (no farther street can be nearer) and is skipped; a neighbour farther
   * from its own segment than the link radius plus a diagonal offers nothing that could link.
   */
  private propagate(grid: Grid): void {
    this.sweep(grid, 1);
    this.sweep(grid, -1);
  }

  /**
   * One sweep, forward (`step` 1: rows and cells in increasing order, the neighbours before) or
   * backward (-1: the neighbours after). Each neighbour is written out (a closure, a method or a
   * loop over the four here costs a good part of the map's time: a loop over an offsets table made
   * the whole map 10 % slower) and read only when it exists (a read past a typed array's end slows
   * the whole loop).
   */
  private sweep(grid: Grid, step: 1 | -1): void {
    const R = grid.resolution;
    const { x0, y0, dx, dy } = cellGeometry(this.graph, grid);
    const exact2 = (dx * dx + dy * dy) / 4;
    const far2 = (LINK_RADIUS_M + Math.hypot(dx, dy)) ** 2;
    const { segment, dist2, ends, open } = this;
    // the neighbours already swept: the row before (three cells) and the cell before in this row
    const row = -step * R;
    const before = -step;
    const first = step === 1 ? 0 : R - 1;
    const last = step === 1 ? R - 1 : 0;
    let n = 0;
    let t = 0;
    let d2 = 0;
    let from = -1;
    // the last candidate that lost in this cell: the same segment from another neighbour loses again
    let lost = -1;
    for (let i = first; step === 1 ? i < R : i >= 0; i += step) {
      const cx = x0 + (i + 0.5) * dx;
      const hasRow = i !== first;
      for (let j = first; step === 1 ? j < R : j >= 0; j += step) {
        const c = i * R + j;
        let best2 = dist2[c]!;
        if (best2 <= exact2 || open[c] === 0) continue;
        let best = segment[c]!;
        from = -1;
        lost = -1;
        const cy = y0 + (j + 0.5) * dy;
        const hasBefore = j !== first;
        const hasAfter = j !== last;
        if (hasRow && hasBefore) {
          n = c + row + before;
          t = segment[n]!;
          if (t >= 0 && t !== best && t !== lost && dist2[n]! < far2) {
            d2 = pointSegmentDistance2(cx, cy, ends[4 * n]!, ends[4 * n + 1]!, ends[4 * n + 2]!, ends[4 * n + 3]!);
            if (d2 < best2 || (d2 === best2 && t < best)) {
              best2 = d2;
              best = t;
              from = n;
            } else lost = t;
          }
        }
        if (hasRow) {
          n = c + row;
          t = segment[n]!;
          if (t >= 0 && t !== best && t !== lost && dist2[n]! < far2) {
            d2 = pointSegmentDistance2(cx, cy, ends[4 * n]!, ends[4 * n + 1]!, ends[4 * n + 2]!, ends[4 * n + 3]!);
            if (d2 < best2 || (d2 === best2 && t < best)) {
              best2 = d2;
              best = t;
              from = n;
            } else lost = t;
          }
        }
        if (hasRow && hasAfter) {
          n = c + row - before;
          t = segment[n]!;
          if (t >= 0 && t !== best && t !== lost && dist2[n]! < far2) {
            d2 = pointSegmentDistance2(cx, cy, ends[4 * n]!, ends[4 * n + 1]!, ends[4 * n + 2]!, ends[4 * n + 3]!);
            if (d2 < best2 || (d2 === best2 && t < best)) {
              best2 = d2;
              best = t;
              from = n;
            } else lost = t;
          }
        }
        if (hasBefore) {
          n = c + before;
          t = segment[n]!;
          if (t >= 0 && t !== best && t !== lost && dist2[n]! < far2) {
            d2 = pointSegmentDistance2(cx, cy, ends[4 * n]!, ends[4 * n + 1]!, ends[4 * n + 2]!, ends[4 * n + 3]!);
            if (d2 < best2 || (d2 === best2 && t < best)) {
              best2 = d2;
              best = t;
              from = n;
            } else lost = t;
          }
        }
        if (from >= 0) {
          dist2[c] = best2;
          segment[c] = best;
          ends[4 * c] = ends[4 * from]!;
          ends[4 * c + 1] = ends[4 * from + 1]!;
          ends[4 * c + 2] = ends[4 * from + 2]!;
          ends[4 * c + 3] = ends[4 * from + 3]!;
        }
      }
    }
  }

  /** Cells farther than the link radius from their nearest street are left unlinked. */
  private cutAtRadius(grid: Grid): void {
    const cells = grid.resolution * grid.resolution;
    const { segment, dist2 } = this;
    const radius2 = LINK_RADIUS_M * LINK_RADIUS_M;
    for (let c = 0; c < cells; c++) if (dist2[c]! > radius2) segment[c] = -1;
  }

  private nextRound(): number {
    if (++this.stampRound === 0xffffffff) {
      this.segmentStamp.fill(0);
      this.stampRound = 1;
    }
    return this.stampRound;
  }
}
