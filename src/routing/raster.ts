/**
 * The heat-map grid: R × R cells over a lon/lat box, each valued as a point is in R5 or
 * OpenTripPlanner: linked to the nearest street segment of the end leg's layer within LINK_RADIUS_M
 * (cell-links.ts), its value the cost of the link point in the street search (straight along the
 * edge from its ends or from a point seed on it, as the edge's directions allow) plus the off-street
 * offset walked in a straight line at walking speed (on a bike or car layer too: the last metres
 * are walked). A cell whose nearest street lies farther, or whose link point the search did not
 * reach within the maximum duration, is null. No value spreads from cell to cell: a cell beside a
 * river takes the value of its own bank, a cell in a block the value of the street it faces.
 *
 * Values are tenths of a second; whole seconds are truncated; null (-1) when unreached or at or
 * after the maximum duration. Cell (i, j) is longitude band i (west to east) and latitude band j
 * (south to north), stored at i * R + j, the order of Navitia's `lines[i].duration[j]`.
 */
import type { Layer } from '../model/street-layers.js';
import { closestOnSegment, type StreetGraph } from '../model/street-graph.js';
import type { StreetSearch } from './street-search.js';
import { CellLinks, type ReachSquares } from './cell-links.js';
import { UNREACHED } from './unreached.js';
import { cellGeometry, type Grid } from './grid.js';

/** Per-thread scratch for rasters up to `maxResolution` per side. */
export class Rasterizer {
  readonly links: CellLinks;

  constructor(
    readonly graph: StreetGraph,
    maxResolution: number,
  ) {
    this.links = new CellLinks(graph, maxResolution);
  }

  /** Link the cells of `grid` to `layer`'s streets (those within `reach`, all when null), for the `valueCells` that follow on that layer. */
  link(grid: Grid, layer: Layer, reach: ReachSquares | null = null): void {
    this.links.link(grid, layer, reach);
  }

  /**
   * Value every cell of `grid`, linked by the last `link` on `layer`, from a street search run on it
   * at `speed` m/s up to `limitDs`, the off-street offset at `walkSpeed`, keeping in `out` the
   * smaller of its current value and the new one (the end legs of a heat map share one grid).
   * `reverse`: the costs are times to reach the centre (arrival maps).
   */
  valueCells(grid: Grid, layer: Layer, speed: number, walkSpeed: number, reverse: boolean, limitDs: number, search: StreetSearch, out: Float64Array): void {
    const g = this.graph;
    const { segment, dist2, ends } = this.links;
    const { segmentEdge, segmentPoint, geomAlongM, edgeFrom, edgeTo } = g;
    const perMetre = 10 / speed;
    const walkPerMetre = 10 / walkSpeed;
    const R = grid.resolution;
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    for (let i = 0; i < R; i++) {
      const cx = x0 + (i + 0.5) * dx;
      for (let j = 0; j < R; j++) {
        const c = i * R + j;
        const s = segment[c]!;
        if (s < 0) continue;
        const e = segmentEdge[s]!;
        // an edge the search did not reach values nothing: no need for its link point
        if (search.costOf(edgeFrom[e]!) === UNREACHED && search.costOf(edgeTo[e]!) === UNREACHED && !search.hasPointSeed(e)) continue;
        // the link point: the centre's projection on the segment
        const t = closestOnSegment(cx, y0 + (j + 0.5) * dy, ends[4 * c]!, ends[4 * c + 1]!, ends[4 * c + 2]!, ends[4 * c + 3]!);
        const p = segmentPoint[s]!;
        const along = geomAlongM[p]! + t * (geomAlongM[p + 1]! - geomAlongM[p]!);
        const v = search.costAlong(e, along, layer, perMetre, reverse) + Math.sqrt(dist2[c]!) * walkPerMetre;
        if (v < limitDs && v < out[c]!) out[c] = v;
      }
    }
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
