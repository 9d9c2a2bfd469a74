/**
 * A link table per street layer, computed once at load: a square lattice of points over the
 * network (every LINK_LATTICE_STEP_M metres, or coarser on a vast extract) each holding its nearest
 * segment of the layer within LINK_RADIUS_M plus a step. A heat map links each of its cells through
 * it instead of searching the streets (R5 links a fixed grid of points once and keeps the table;
 * a map's grid is chosen per request, so we keep a finer table and read it per cell):
 *
 *   the candidates of a point are the nearest segments of the four lattice points around it, each
 *   followed along its edge while the next segment comes nearer, and its link is the nearest of
 *   these (exact distances, ties to the lower segment number; see routing/raster.ts).
 *
 * A street whose own region runs between lattice points without holding one (a stub less than a
 * step long, two streets less than a step apart: a dual carriageway, a service road beside a main
 * one) would be nearest to none of the four. So each lattice square (between points (i, j) and
 * (i + 1, j + 1)) that such a street crosses, or passes within EXTRA_MARGIN_M of, names it as an
 * extra candidate (up to EXTRAS_PER_SQUARE streets, the nearest to the square's centre; 14,237 of
 * rnv-mannheim's 2 million walking squares have one). The link is then the point's nearest segment
 * but where more than EXTRAS_PER_SQUARE such streets meet in a square, or one passes near a square
 * without reaching the margin: on rnv-mannheim, a few metres at most (see LINK_LATTICE_STEP_M).
 *
 * Stored in tiles of 16 × 16 lattice points: each tile lists its distinct segments (at most 256,
 * -1 for "none within reach") and each point holds one byte, its segment's place in that list. On
 * rnv-mannheim's 48 × 35 km this is about 1.4 bytes per lattice point.
 *
 * Building: every segment of the layer values the lattice points around its box (exact for any
 * point with a street within half a lattice diagonal), then two sweeps carry each point's nearest
 * segment to its neighbours (a vector distance transform, as Danielsson's for points, here with the
 * exact distance to a segment).
 */
import { Layer, layerBits } from './street-layers.js';
import type { SegmentGrid } from './segment-grid.js';
import { pointSegmentDistance2, segmentBoxDistance2 } from './segment-geometry.js';
import { sharedArray, sharedCopy } from './shared-arrays.js';

/**
 * The lattice's step on a city-sized extract, metres, per layer: walking maps are drawn finest and
 * their streets are the densest (footways, paths); bike and car maps cover more ground at the same
 * resolution. Over the 6 km square of rnv-mannheim's centre, 30 m links 97.8 % of points to their
 * nearest street and leaves 0.5 % more than 5 m farther than it (at most 14 m); 40 m leaves 1 %,
 * in 1.6 MB instead of 2.6.
 */
export const LINK_LATTICE_STEP_M: Record<Layer, number> = { [Layer.Walk]: 30, [Layer.Bike]: 50, [Layer.Car]: 50 };
/** At most this many lattice points per layer: a vast extract gets a coarser step (see `latticeStep`). */
export const MAX_LATTICE_POINTS = 4_000_000;
/** Extra candidates kept per lattice square (see the header). */
export const EXTRAS_PER_SQUARE = 2;
/** A street passing this close to a lattice square (metres) may be an extra candidate of it. */
export const EXTRA_MARGIN_M = 3;
/** Side of a tile, in lattice points (a point's byte then names one of at most 256 segments). */
export const TILE_SIDE = 16;
const TILE_SHIFT = 4;
const TILE_MASK = TILE_SIDE - 1;
const TILE_POINTS = TILE_SIDE * TILE_SIDE;

export interface LinkLattice {
  /** the lattice point (0, 0), projected metres */
  x0: number;
  y0: number;
  stepM: number;
  /** lattice points along x and y */
  cols: number;
  rows: number;
  /** tiles along y (tile (ti, tj) is number ti × tileRows + tj) */
  tileRows: number;
  /** segments of tile t: segments[tileStart[t] .. tileStart[t + 1]) */
  tileStart: Int32Array;
  /** each tile's distinct nearest segments, -1 for none within reach */
  segments: Int32Array;
  /** per lattice point, in tile order (tile t's points at t × 256, point (i, j) at (i mod 16) × 16 + j mod 16): its segment's place in its tile's list */
  place: Uint8Array;
  /**
   * The squares with extra candidates (square (i, j) in the tile and place of point (i, j)): tile
   * t's at extraStart[t] .. extraStart[t + 1], in the order of their places `extraSquare`, each
   * with EXTRAS_PER_SQUARE segments in `extraSegments` (-1 for none).
   */
  extraStart: Int32Array;
  extraSquare: Uint8Array;
  extraSegments: Int32Array;
}

/** What the lattice needs of a street graph. */
export interface LatticeSource {
  segmentCount: number;
  segmentPoint: Uint32Array;
  segmentEdge: Uint32Array;
  geomX: Float32Array;
  geomY: Float32Array;
  segmentGrid: SegmentGrid;
}

/** The nearest segment of lattice point (i, j), -1 when none lies within reach. */
export function latticeSegment(l: LinkLattice, i: number, j: number): number {
  const tile = (i >> TILE_SHIFT) * l.tileRows + (j >> TILE_SHIFT);
  return l.segments[l.tileStart[tile]! + l.place[tile * TILE_POINTS + ((i & TILE_MASK) << TILE_SHIFT) + (j & TILE_MASK)]!]!;
}

/** The nearest segments of lattice points (i, jLo) … (i, jHi) into out[jLo … jHi] (a column read in order). */
export function latticeColumn(l: LinkLattice, i: number, jLo: number, jHi: number, out: Int32Array): void {
  const { tileRows, tileStart, segments, place } = l;
  const tiles = (i >> TILE_SHIFT) * tileRows;
  const within = (i & TILE_MASK) << TILE_SHIFT;
  for (let j = jLo; j <= jHi; j++) {
    const tile = tiles + (j >> TILE_SHIFT);
    out[j] = segments[tileStart[tile]! + place[tile * TILE_POINTS + within + (j & TILE_MASK)]!]!;
  }
}

/**
 * The extra candidates of the squares (i, jLo) … (i, jHi) (a column read in order, as
 * `latticeColumn`): for each square (i, j) that has some, out[j] = where they start in
 * `extraSegments`, and j is listed in `marked`; returns how many. The other entries of `out` are
 * left as they are (the caller keeps them at -1).
 */
export function latticeColumnExtras(l: LinkLattice, i: number, jLo: number, jHi: number, out: Int32Array, marked: Int32Array): number {
  const { extraStart, extraSquare, tileRows } = l;
  const tiles = (i >> TILE_SHIFT) * tileRows;
  const column = (i & TILE_MASK) << TILE_SHIFT;
  let count = 0;
  for (let tj = jLo >> TILE_SHIFT; tj <= jHi >> TILE_SHIFT; tj++) {
    const tile = tiles + tj;
    for (let k = extraStart[tile]!; k < extraStart[tile + 1]!; k++) {
      const place = extraSquare[k]!;
      if ((place & ~TILE_MASK) !== column) continue;
      const j = (tj << TILE_SHIFT) | (place & TILE_MASK);
      if (j < jLo || j > jHi) continue;
      out[j] = k * EXTRAS_PER_SQUARE;
      marked[count++] = j;
    }
  }
  return count;
}

export function linkLatticeBytes(l: LinkLattice): number {
  return l.tileStart.byteLength + l.segments.byteLength + l.place.byteLength + l.extraStart.byteLength + l.extraSquare.byteLength + l.extraSegments.byteLength;
}

/** The step of `layer` for an extract: LINK_LATTICE_STEP_M, or coarser so that the lattice holds at most MAX_LATTICE_POINTS. */
export function latticeStep(layer: Layer, widthM: number, heightM: number): number {
  return Math.max(LINK_LATTICE_STEP_M[layer], Math.sqrt((widthM * heightM) / MAX_LATTICE_POINTS));
}

/**
 * The lattice of `layer` over the segment grid's extent widened by `radiusM` plus a step (a point
 * beyond has no street within `radiusM`), each point's nearest segment kept when within `radiusM`
 * plus a step (a point within `radiusM` of a street has a lattice point around it that close).
 */
export function buildLinkLattice(g: LatticeSource, layer: Layer, radiusM: number): LinkLattice {
  const grid = g.segmentGrid;
  const width = grid.cols * grid.sizeM;
  const height = grid.rows * grid.sizeM;
  const step = latticeStep(layer, width + 2 * radiusM, height + 2 * radiusM);
  const margin = radiusM + step;
  const x0 = grid.x0 - margin;
  const y0 = grid.y0 - margin;
  const cols = Math.ceil((width + 2 * margin) / step) + 1;
  const rows = Math.ceil((height + 2 * margin) / step) + 1;
  const nearest = new Int32Array(cols * rows).fill(-1);
  const dist2 = new Float64Array(cols * rows).fill(Infinity);
  seedLattice(g, layer, x0, y0, step, cols, rows, nearest, dist2);
  sweepLattice(g, x0, y0, step, cols, rows, nearest, dist2, 1);
  sweepLattice(g, x0, y0, step, cols, rows, nearest, dist2, -1);
  const reach2 = margin * margin;
  for (let n = 0; n < nearest.length; n++) if (dist2[n]! > reach2) nearest[n] = -1;
  const tiles = packTiles(nearest, cols, rows);
  return { x0, y0, stepM: step, cols, rows, ...tiles, ...findExtras(g, layer, x0, y0, step, cols, rows, nearest) };
}

/**
 * The extra candidates of the squares (see the header): for each segment of the layer, the squares
 * it crosses or passes within EXTRA_MARGIN_M of whose four corners' nearest segments are all on
 * other edges; per square, the EXTRAS_PER_SQUARE edges nearest to its centre, each by its segment
 * nearest to it.
 */
function findExtras(g: LatticeSource, layer: Layer, x0: number, y0: number, step: number, cols: number, rows: number, nearest: Int32Array): Pick<LinkLattice, 'extraStart' | 'extraSquare' | 'extraSegments'> {
  const { segmentEdge } = g;
  // per square (i × rows + j) with extras: its segments and their squared distances to its centre, nearest first
  const found = new Map<number, { segment: number[]; d2: number[] }>();
  const onCorners = (c: number, e: number) => nearest[c]! >= 0 && segmentEdge[nearest[c]!] === e;
  forEachSegment(g, layer, (s, ax, ay, bx, by) => {
    const e = segmentEdge[s]!;
    const i0 = Math.max(0, Math.floor((Math.min(ax, bx) - EXTRA_MARGIN_M - x0) / step));
    const i1 = Math.min(cols - 2, Math.floor((Math.max(ax, bx) + EXTRA_MARGIN_M - x0) / step));
    const j0 = Math.max(0, Math.floor((Math.min(ay, by) - EXTRA_MARGIN_M - y0) / step));
    const j1 = Math.min(rows - 2, Math.floor((Math.max(ay, by) + EXTRA_MARGIN_M - y0) / step));
    for (let i = i0; i <= i1; i++) {
      const left = x0 + i * step;
      for (let j = j0; j <= j1; j++) {
        const c = i * rows + j;
        if (onCorners(c, e) || onCorners(c + rows, e) || onCorners(c + 1, e) || onCorners(c + rows + 1, e)) continue;
        const bottom = y0 + j * step;
        if (segmentBoxDistance2(ax, ay, bx, by, left, bottom, left + step, bottom + step) > EXTRA_MARGIN_M * EXTRA_MARGIN_M) continue;
        const d2 = pointSegmentDistance2(left + step / 2, bottom + step / 2, ax, ay, bx, by);
        let entry = found.get(c);
        if (!entry) found.set(c, (entry = { segment: [], d2: [] }));
        keepNearest(entry, s, d2, segmentEdge);
      }
    }
  });
  const tileRows = Math.ceil(rows / TILE_SIDE);
  return packExtras(found, rows, tileRows, Math.ceil(cols / TILE_SIDE) * tileRows);
}

/** Keep `s` among the entry's segments if its edge is new or it is nearer than its edge's, the EXTRAS_PER_SQUARE nearest edges. */
function keepNearest(entry: { segment: number[]; d2: number[] }, s: number, d2: number, segmentEdge: Uint32Array): void {
  const same = entry.segment.findIndex((t) => segmentEdge[t] === segmentEdge[s]);
  if (same >= 0) {
    if (d2 >= entry.d2[same]!) return;
    entry.segment.splice(same, 1);
    entry.d2.splice(same, 1);
  }
  let at = 0;
  while (at < entry.d2.length && entry.d2[at]! <= d2) at++;
  if (at >= EXTRAS_PER_SQUARE) return;
  entry.segment.splice(at, 0, s);
  entry.d2.splice(at, 0, d2);
  entry.segment.length = Math.min(entry.segment.length, EXTRAS_PER_SQUARE);
  entry.d2.length = entry.segment.length;
}

/** The squares with extras (keyed i × rows + j) packed by tile, in the order of their places. */
function packExtras(found: Map<number, { segment: number[] }>, rows: number, tileRows: number, tileCount: number): Pick<LinkLattice, 'extraStart' | 'extraSquare' | 'extraSegments'> {
  const squares = [...found.keys()].map((c) => {
    const i = Math.floor(c / rows);
    const j = c - i * rows;
    return { c, tile: (i >> TILE_SHIFT) * tileRows + (j >> TILE_SHIFT), place: ((i & TILE_MASK) << TILE_SHIFT) | (j & TILE_MASK) };
  });
  squares.sort((a, b) => a.tile - b.tile || a.place - b.place);
  const extraStart = sharedArray(Int32Array, tileCount + 1);
  const extraSquare = sharedArray(Uint8Array, squares.length);
  const extraSegments = sharedArray(Int32Array, squares.length * EXTRAS_PER_SQUARE).fill(-1);
  squares.forEach(({ c, tile, place }, k) => {
    extraStart[tile + 1]!++;
    extraSquare[k] = place;
    found.get(c)!.segment.forEach((segment, m) => (extraSegments[k * EXTRAS_PER_SQUARE + m] = segment));
  });
  for (let t = 0; t < tileCount; t++) extraStart[t + 1]! += extraStart[t]!;
  return { extraStart, extraSquare, extraSegments };
}


/** Each segment of the layer values the lattice points within half a lattice diagonal of its box. */
function seedLattice(g: LatticeSource, layer: Layer, x0: number, y0: number, step: number, cols: number, rows: number, nearest: Int32Array, dist2: Float64Array): void {
  const reach = (step * Math.SQRT2) / 2;
  forEachSegment(g, layer, (s, ax, ay, bx, by) => {
    const i0 = Math.max(0, Math.ceil((Math.min(ax, bx) - reach - x0) / step));
    const i1 = Math.min(cols - 1, Math.floor((Math.max(ax, bx) + reach - x0) / step));
    const j0 = Math.max(0, Math.ceil((Math.min(ay, by) - reach - y0) / step));
    const j1 = Math.min(rows - 1, Math.floor((Math.max(ay, by) + reach - y0) / step));
    for (let i = i0; i <= i1; i++) {
      const px = x0 + i * step;
      for (let j = j0; j <= j1; j++) {
        const c = i * rows + j;
        const d2 = pointSegmentDistance2(px, y0 + j * step, ax, ay, bx, by);
        if (d2 < dist2[c]! || (d2 === dist2[c]! && s < nearest[c]!)) {
          dist2[c] = d2;
          nearest[c] = s;
        }
      }
    }
  });
}

/** Each segment of `layer` once, with its ends: every entry of the segment grid's buckets (small islands are cleared there, per layer). */
function forEachSegment(g: LatticeSource, layer: Layer, visit: (s: number, ax: number, ay: number, bx: number, by: number) => void): void {
  const { segments, access } = g.segmentGrid;
  const { segmentPoint, geomX, geomY } = g;
  const mask = layerBits(layer);
  const seen = new Uint8Array(g.segmentCount);
  for (let n = 0; n < segments.length; n++) {
    const s = segments[n]!;
    if ((access[n]! & mask) === 0 || seen[s]) continue;
    seen[s] = 1;
    const p = segmentPoint[s]!;
    visit(s, geomX[p]!, geomY[p]!, geomX[p + 1]!, geomY[p + 1]!);
  }
}

/**
 * One sweep, forward (`dir` 1) or backward (-1): each point weighs the segments of its four
 * neighbours already swept (the column before, three points, and the point before in its column).
 * A point with a street within half a diagonal already holds its nearest and is skipped.
 */
function sweepLattice(g: LatticeSource, x0: number, y0: number, step: number, cols: number, rows: number, nearest: Int32Array, dist2: Float64Array, dir: 1 | -1): void {
  const { segmentPoint, geomX, geomY } = g;
  const exact2 = (step * step) / 2;
  const column = -dir * rows;
  const before = -dir;
  const firstI = dir === 1 ? 0 : cols - 1;
  const firstJ = dir === 1 ? 0 : rows - 1;
  const lastJ = dir === 1 ? rows - 1 : 0;
  const offer = (c: number, n: number, px: number, py: number) => {
    const t = nearest[n]!;
    if (t < 0 || t === nearest[c]) return;
    const p = segmentPoint[t]!;
    const d2 = pointSegmentDistance2(px, py, geomX[p]!, geomY[p]!, geomX[p + 1]!, geomY[p + 1]!);
    if (d2 < dist2[c]! || (d2 === dist2[c]! && t < nearest[c]!)) {
      dist2[c] = d2;
      nearest[c] = t;
    }
  };
  for (let i = firstI; dir === 1 ? i < cols : i >= 0; i += dir) {
    const px = x0 + i * step;
    const hasColumn = i !== firstI;
    for (let j = firstJ; dir === 1 ? j < rows : j >= 0; j += dir) {
      const c = i * rows + j;
      if (dist2[c]! <= exact2) continue;
      const py = y0 + j * step;
      const hasBefore = j !== firstJ;
      const hasAfter = j !== lastJ;
      if (hasColumn) {
        if (hasBefore) offer(c, c + column + before, px, py);
        offer(c, c + column, px, py);
        if (hasAfter) offer(c, c + column - before, px, py);
      }
      if (hasBefore) offer(c, c + before, px, py);
    }
  }
}

/** The lattice's nearest segments (point (i, j) at i × rows + j) in tiles: per tile its distinct segments, per point a byte. */
function packTiles(nearest: Int32Array, cols: number, rows: number): Pick<LinkLattice, 'tileRows' | 'tileStart' | 'segments' | 'place'> {
  const tileCols = Math.ceil(cols / TILE_SIDE);
  const tileRows = Math.ceil(rows / TILE_SIDE);
  const tiles = tileCols * tileRows;
  const tileStart = sharedArray(Int32Array, tiles + 1);
  const place = sharedArray(Uint8Array, tiles * TILE_POINTS);
  const list: number[] = [];
  const local = new Map<number, number>();
  for (let ti = 0; ti < tileCols; ti++) {
    for (let tj = 0; tj < tileRows; tj++) {
      const t = ti * tileRows + tj;
      tileStart[t] = list.length;
      local.clear();
      for (let a = 0; a < TILE_SIDE; a++) {
        const i = ti * TILE_SIDE + a;
        for (let b = 0; b < TILE_SIDE; b++) {
          const j = tj * TILE_SIDE + b;
          // points past the lattice's edge (the last tiles' margin) read as "none"
          const s = i < cols && j < rows ? nearest[i * rows + j]! : -1;
          let k = local.get(s);
          if (k === undefined) {
            k = local.size;
            local.set(s, k);
            list.push(s);
          }
          place[t * TILE_POINTS + (a << TILE_SHIFT) + b] = k;
        }
      }
    }
  }
  tileStart[tiles] = list.length;
  return { tileRows, tileStart, segments: sharedCopy(Int32Array, Int32Array.from(list)), place };
}
