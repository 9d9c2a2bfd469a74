/**
 * Computing a link lattice (link-lattice.ts). Every segment of the layer values the lattice points
 * around its box (exact for any point with a street within half a lattice diagonal), then two
 * sweeps carry each point's nearest segment to its neighbours (a vector distance transform, as
 * Danielsson's for points, here with the exact distance to a segment). A point keeps its segment
 * when within the radius plus a step (a point within the radius of a street has a lattice point
 * around it that close).
 *
 * A lattice of at most DENSE_LATTICE_POINTS points (every city we test on) is computed in one
 * piece. A larger one (a region, a country: 2 G points at 30 m) is computed in strips of
 * STRIP_TILES tile columns, each with a halo of columns on both sides as wide as the reach, so that
 * the scratch is a strip's and any street within reach of a strip's point values the strip: the
 * sweeps carry segments across a strip's edge through its halo only, which can change a point's
 * segment only where one piece would have carried a farther one there (the sweeps are exact for
 * points near a street, and approximate elsewhere either way). Each strip packs its own tiles:
 * they follow each other in tile order, since tiles are numbered column of tiles by column.
 */
import { Layer, layerBits } from './street-layers.js';
import { bucketOf } from './segment-grid.js';
import { pointSegmentDistance2, segmentBoxDistance2 } from './segment-geometry.js';
import { sharedArray } from './shared-arrays.js';
import { growInt32, growUint8 } from './growable.js';
import {
  EXTRA_MARGIN_M,
  EXTRAS_PER_SQUARE,
  latticeStep,
  TILE_MASK,
  TILE_POINTS,
  TILE_SHIFT,
  TILE_SIDE,
  tilePlaceBytes,
  type LatticeSource,
  type LinkLattice,
} from './link-lattice.js';

/** A lattice of at most this many points is computed in one piece (12 bytes of scratch a point). */
export const DENSE_LATTICE_POINTS = 4_000_000;
/** Width of a strip of a larger lattice, in tile columns (256 points: with its halo and 57,000 rows at 30 m, 200 MB of scratch). */
export const STRIP_TILES = 16;

/** Where a strip's scratch lies in the lattice: global columns lo … lo + width - 1, every row. */
interface Window {
  x0: number;
  y0: number;
  step: number;
  cols: number;
  rows: number;
  lo: number;
  width: number;
}

/** How a lattice is cut: the largest computed in one piece, and the strips' width (in tiles) otherwise. */
export interface LatticePieces {
  densePoints: number;
  stripTiles: number;
}
const DEFAULT_PIECES: LatticePieces = { densePoints: DENSE_LATTICE_POINTS, stripTiles: STRIP_TILES };

/** Where the lattice of `layer` lies: its point (0, 0), step, reach (`margin`) and size in points. */
function latticeFrame(g: LatticeSource, layer: Layer, radiusM: number) {
  const grid = g.segmentGrid;
  const width = grid.cols * grid.sizeM;
  const height = grid.rows * grid.sizeM;
  const step = latticeStep(layer, width + 2 * radiusM, height + 2 * radiusM);
  const margin = radiusM + step;
  return { x0: grid.x0 - margin, y0: grid.y0 - margin, step, margin, cols: Math.ceil((width + 2 * margin) / step) + 1, rows: Math.ceil((height + 2 * margin) / step) + 1 };
}

/** Whether the lattice of `layer` is computed in strips (a region's, a country's: minutes of work). */
export function computedInStrips(g: LatticeSource, layer: Layer, radiusM: number, pieces: LatticePieces = DEFAULT_PIECES): boolean {
  const { cols, rows } = latticeFrame(g, layer, radiusM);
  return cols * rows > pieces.densePoints;
}

/**
 * The lattice of `layer` over the segment grid's extent widened by `radiusM` plus a step (a point
 * beyond has no street within `radiusM`). `pieces`: the largest lattice computed in one piece and the
 * strips' width otherwise (parameters for tests, which compare strips with one piece).
 */
export function buildLinkLattice(g: LatticeSource, layer: Layer, radiusM: number, pieces: LatticePieces = DEFAULT_PIECES): LinkLattice {
  const { x0, y0, step, margin, cols, rows } = latticeFrame(g, layer, radiusM);
  const stripCols = cols * rows <= pieces.densePoints ? cols : pieces.stripTiles * TILE_SIDE;
  const halo = stripCols >= cols ? 0 : Math.ceil(margin / step) + 1;
  const scratchCols = Math.min(cols, stripCols + 2 * halo);
  const nearest = new Int32Array(scratchCols * rows);
  const dist2 = new Float64Array(scratchCols * rows);
  const packer = new TilePacker(cols, rows);
  const strip = growInt32();
  const seen = new Uint8Array(g.segmentCount);
  const reach2 = margin * margin;
  for (let c0 = 0; c0 < cols; c0 += stripCols) {
    const c1 = Math.min(cols, c0 + stripCols);
    const lo = Math.max(0, c0 - halo);
    const w: Window = { x0, y0, step, cols, rows, lo, width: Math.min(cols, c1 + halo) - lo };
    const n = w.width * rows;
    nearest.fill(-1, 0, n);
    dist2.fill(Infinity, 0, n);
    // the layer's segments whose box reaches the window's points or squares
    const around = Math.max((step * Math.SQRT2) / 2, EXTRA_MARGIN_M);
    stripSegments(g, layer, x0 + lo * step - around, x0 + (lo + w.width - 1) * step + around, strip, seen);
    seedLattice(g, strip, w, nearest, dist2);
    sweepLattice(g, w, nearest, dist2, 1);
    sweepLattice(g, w, nearest, dist2, -1);
    for (let k = 0; k < n; k++) if (dist2[k]! > reach2) nearest[k] = -1;
    const extras = findExtras(g, strip, w, c0, c1, nearest);
    packer.add(nearest, w, c0 >> TILE_SHIFT, c1 === cols ? packer.tileCols : c1 >> TILE_SHIFT, extras);
  }
  return { x0, y0, stepM: step, cols, rows, ...packer.finish() };
}

/**
 * Into `out`, each segment of the layer once whose box meets x in [xLo, xHi]: the entries of the
 * segment grid's bucket columns over that range (small islands are cleared there, per layer).
 * `seen` is all zeros before and after.
 */
function stripSegments(g: LatticeSource, layer: Layer, xLo: number, xHi: number, out: ReturnType<typeof growInt32>, seen: Uint8Array): void {
  const { x0, sizeM, cols, rows, start, segments, access } = g.segmentGrid;
  const { segmentPoint, geomX } = g;
  const mask = layerBits(layer);
  out.length = 0;
  const from = start[bucketOf(x0, sizeM, cols, xLo) * rows]!;
  const to = start[(bucketOf(x0, sizeM, cols, xHi) + 1) * rows]!;
  for (let k = from; k < to; k++) {
    const s = segments[k]!;
    if ((access[k]! & mask) === 0 || seen[s]) continue;
    const p = segmentPoint[s]!;
    if (Math.max(geomX[p]!, geomX[p + 1]!) < xLo || Math.min(geomX[p]!, geomX[p + 1]!) > xHi) continue;
    seen[s] = 1;
    out.push(s);
  }
  for (let k = 0; k < out.length; k++) seen[out.data[k]!] = 0;
}

/** Each segment values the window's points within half a lattice diagonal of its box. */
function seedLattice(g: LatticeSource, strip: ReturnType<typeof growInt32>, w: Window, nearest: Int32Array, dist2: Float64Array): void {
  const { x0, y0, step, rows, lo, width } = w;
  const reach = (step * Math.SQRT2) / 2;
  forEachOf(g, strip, (s, ax, ay, bx, by) => {
    const i0 = Math.max(lo, Math.ceil((Math.min(ax, bx) - reach - x0) / step));
    const i1 = Math.min(lo + width - 1, Math.floor((Math.max(ax, bx) + reach - x0) / step));
    const j0 = Math.max(0, Math.ceil((Math.min(ay, by) - reach - y0) / step));
    const j1 = Math.min(rows - 1, Math.floor((Math.max(ay, by) + reach - y0) / step));
    for (let i = i0; i <= i1; i++) {
      const px = x0 + i * step;
      for (let j = j0; j <= j1; j++) {
        const c = (i - lo) * rows + j;
        const d2 = pointSegmentDistance2(px, y0 + j * step, ax, ay, bx, by);
        if (d2 < dist2[c]! || (d2 === dist2[c]! && s < nearest[c]!)) {
          dist2[c] = d2;
          nearest[c] = s;
        }
      }
    }
  });
}

/** `visit` each segment of the strip's list with its ends. */
function forEachOf(g: LatticeSource, strip: ReturnType<typeof growInt32>, visit: (s: number, ax: number, ay: number, bx: number, by: number) => void): void {
  const { segmentPoint, geomX, geomY } = g;
  for (let k = 0; k < strip.length; k++) {
    const s = strip.data[k]!;
    const p = segmentPoint[s]!;
    visit(s, geomX[p]!, geomY[p]!, geomX[p + 1]!, geomY[p + 1]!);
  }
}

/**
 * One sweep of the window, forward (`dir` 1) or backward (-1): each point weighs the segments of
 * its four neighbours already swept (the column before, three points, and the point before in its
 * column). A point with a street within half a diagonal already holds its nearest and is skipped.
 * (Not weighing a neighbour's segment beyond reach plus a diagonal saves 8 % of a country's build
 * but changes a few hundred of rnv-mannheim's points near the reach: chains of nearest segments
 * do run through points beyond it.)
 */
function sweepLattice(g: LatticeSource, w: Window, nearest: Int32Array, dist2: Float64Array, dir: 1 | -1): void {
  const { segmentPoint, geomX, geomY } = g;
  const { x0, y0, step, rows, lo, width } = w;
  const exact2 = (step * step) / 2;
  const column = -dir * rows;
  const before = -dir;
  const firstA = dir === 1 ? 0 : width - 1;
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
  for (let a = firstA; dir === 1 ? a < width : a >= 0; a += dir) {
    const px = x0 + (lo + a) * step;
    const hasColumn = a !== firstA;
    for (let j = firstJ; dir === 1 ? j < rows : j >= 0; j += dir) {
      const c = a * rows + j;
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

/** A strip's squares with extra candidates: per square (global column i, row j), its segments, nearest to its centre first. */
type Extras = Map<number, { i: number; j: number; segment: number[]; d2: number[] }>;

/**
 * The extra candidates of the squares of columns c0 … c1 - 1 (see link-lattice.ts): for each
 * segment of the layer, the squares it crosses or passes within EXTRA_MARGIN_M of whose four
 * corners' nearest segments are all on other edges; per square, the EXTRAS_PER_SQUARE edges nearest
 * to its centre, each by its segment nearest to it.
 */
function findExtras(g: LatticeSource, strip: ReturnType<typeof growInt32>, w: Window, c0: number, c1: number, nearest: Int32Array): Extras {
  const { segmentEdge } = g;
  const { x0, y0, step, cols, rows, lo } = w;
  const found: Extras = new Map();
  const onCorners = (c: number, e: number) => nearest[c]! >= 0 && segmentEdge[nearest[c]!] === e;
  forEachOf(g, strip, (s, ax, ay, bx, by) => {
    const e = segmentEdge[s]!;
    const i0 = Math.max(c0, Math.floor((Math.min(ax, bx) - EXTRA_MARGIN_M - x0) / step));
    const i1 = Math.min(c1 - 1, cols - 2, Math.floor((Math.max(ax, bx) + EXTRA_MARGIN_M - x0) / step));
    const j0 = Math.max(0, Math.floor((Math.min(ay, by) - EXTRA_MARGIN_M - y0) / step));
    const j1 = Math.min(rows - 2, Math.floor((Math.max(ay, by) + EXTRA_MARGIN_M - y0) / step));
    for (let i = i0; i <= i1; i++) {
      const left = x0 + i * step;
      for (let j = j0; j <= j1; j++) {
        const c = (i - lo) * rows + j;
        if (onCorners(c, e) || onCorners(c + rows, e) || onCorners(c + 1, e) || onCorners(c + rows + 1, e)) continue;
        const bottom = y0 + j * step;
        if (segmentBoxDistance2(ax, ay, bx, by, left, bottom, left + step, bottom + step) > EXTRA_MARGIN_M * EXTRA_MARGIN_M) continue;
        const d2 = pointSegmentDistance2(left + step / 2, bottom + step / 2, ax, ay, bx, by);
        let entry = found.get(c);
        if (!entry) found.set(c, (entry = { i, j, segment: [], d2: [] }));
        keepNearest(entry, s, d2, segmentEdge);
      }
    }
  });
  return found;
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

/**
 * The lattice's tiles, packed strip by strip in tile order (link-lattice.ts's layout): each strip's
 * arrays kept apart until `finish` joins them on shared memory.
 */
class TilePacker {
  readonly tileCols: number;
  private readonly tileRows: number;
  private readonly tileStart: Int32Array;
  private readonly placeStart: Int32Array;
  private readonly extraStart: Int32Array;
  private readonly parts = { segments: [] as Int32Array[], place: [] as Uint8Array[], extraSquare: [] as Uint8Array[], extraSegments: [] as Int32Array[] };
  private segmentTotal = 0;
  private placeTotal = 0;
  /** one tile's distinct segments and each point's place among them */
  private readonly distinct = new Int32Array(TILE_POINTS);
  private readonly places = new Uint8Array(TILE_POINTS);

  constructor(
    private readonly cols: number,
    private readonly rows: number,
  ) {
    this.tileCols = Math.ceil(cols / TILE_SIDE);
    this.tileRows = Math.ceil(rows / TILE_SIDE);
    const tiles = this.tileCols * this.tileRows;
    this.tileStart = sharedArray(Int32Array, tiles + 1);
    this.placeStart = sharedArray(Int32Array, tiles);
    this.extraStart = sharedArray(Int32Array, tiles + 1);
  }

  /** The tiles of tile columns tiFrom … tiTo - 1 from a strip's nearest segments, and the strip's extras. */
  add(nearest: Int32Array, w: Window, tiFrom: number, tiTo: number, extras: Extras): void {
    const { cols, rows, tileRows, distinct, places } = this;
    const segments = growInt32();
    const place = growUint8();
    for (let ti = tiFrom; ti < tiTo; ti++) {
      for (let tj = 0; tj < tileRows; tj++) {
        const t = ti * tileRows + tj;
        let n = 0;
        let last = 0;
        for (let a = 0; a < TILE_SIDE; a++) {
          const i = ti * TILE_SIDE + a;
          for (let b = 0; b < TILE_SIDE; b++) {
            const j = tj * TILE_SIDE + b;
            // points past the lattice's edge (the last tiles' margin) read as "none"
            const s = i < cols && j < rows ? nearest[(i - w.lo) * rows + j]! : -1;
            let k = n > 0 && distinct[last] === s ? last : 0;
            while (k < n && distinct[k] !== s) k++;
            if (k === n) distinct[n++] = s;
            places[(a << TILE_SHIFT) + b] = last = k;
          }
        }
        this.tileStart[t] = this.segmentTotal + segments.length;
        for (let k = 0; k < n; k++) segments.push(distinct[k]!);
        this.placeStart[t] = this.placeTotal + place.length;
        const bytes = tilePlaceBytes(n);
        if (bytes === TILE_POINTS) for (let k = 0; k < TILE_POINTS; k++) place.push(places[k]!);
        else if (bytes > 0) for (let k = 0; k < TILE_POINTS; k += 2) place.push(places[k]! | (places[k + 1]! << 4));
      }
    }
    this.parts.segments.push(segments.finish());
    this.parts.place.push(place.finish());
    this.segmentTotal += segments.length;
    this.placeTotal += place.length;
    this.addExtras(extras);
  }

  /** The strip's squares with extras, packed by tile in the order of their places. */
  private addExtras(found: Extras): void {
    const { tileRows } = this;
    const squares = [...found.values()].map((entry) => ({ entry, tile: (entry.i >> TILE_SHIFT) * tileRows + (entry.j >> TILE_SHIFT), place: ((entry.i & TILE_MASK) << TILE_SHIFT) | (entry.j & TILE_MASK) }));
    squares.sort((a, b) => a.tile - b.tile || a.place - b.place);
    const extraSquare = new Uint8Array(squares.length);
    const extraSegments = new Int32Array(squares.length * EXTRAS_PER_SQUARE).fill(-1);
    squares.forEach(({ entry, tile, place }, k) => {
      this.extraStart[tile + 1]!++;
      extraSquare[k] = place;
      entry.segment.forEach((segment, m) => (extraSegments[k * EXTRAS_PER_SQUARE + m] = segment));
    });
    this.parts.extraSquare.push(extraSquare);
    this.parts.extraSegments.push(extraSegments);
  }

  finish(): Pick<LinkLattice, 'tileRows' | 'tileStart' | 'segments' | 'placeStart' | 'place' | 'extraStart' | 'extraSquare' | 'extraSegments'> {
    const tiles = this.tileCols * this.tileRows;
    this.tileStart[tiles] = this.segmentTotal;
    for (let t = 0; t < tiles; t++) this.extraStart[t + 1]! += this.extraStart[t]!;
    return {
      tileRows: this.tileRows,
      tileStart: this.tileStart,
      segments: joined(Int32Array, this.parts.segments),
      placeStart: this.placeStart,
      place: joined(Uint8Array, this.parts.place),
      extraStart: this.extraStart,
      extraSquare: joined(Uint8Array, this.parts.extraSquare),
      extraSegments: joined(Int32Array, this.parts.extraSegments),
    };
  }
}

/** The parts one after the other, on shared memory. */
function joined<T extends Int32Array | Uint8Array>(ctor: { new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number }, parts: T[]): T {
  const out = sharedArray(ctor, parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
