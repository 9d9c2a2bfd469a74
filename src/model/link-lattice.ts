/**
 * A link table per street layer, computed once at load: a square lattice of points over the
 * network (every LINK_LATTICE_STEP_M metres) each holding its nearest segment of the layer within
 * LINK_RADIUS_M plus a step. A heat map links each of its cells through it instead of searching the
 * streets (R5 links a fixed grid of points once and keeps the table; a map's grid is chosen per
 * request, so we keep a finer table and read it per cell):
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
 * Stored in tiles of 16 × 16 lattice points, sparsely, so that a country keeps the step a city has
 * (the land between its cities costs a few bytes a tile): each tile lists its distinct segments (at
 * most 256, -1 for "none within reach"); a tile with one (out of reach of any street, or all nearest
 * to one segment) stores nothing more; one with at most 16 stores a half byte per point, its
 * segment's place in that list; one with more, a byte. On rnv-mannheim's 48 × 35 km this is about
 * 1 byte per lattice point. How it is computed: link-lattice-build.ts.
 */
import { Layer } from './street-layers.js';
import type { SegmentGrid } from './segment-grid.js';

/**
 * The lattice's step, metres, per layer: walking maps are drawn finest and their streets are the
 * densest (footways, paths); bike and car maps cover more ground at the same resolution. Over the
 * 6 km square of rnv-mannheim's centre, 30 m links 97.8 % of points to their nearest street and
 * leaves 0.5 % more than 5 m farther than it (at most 14 m); 40 m leaves 1 %, in 1.6 MB instead of 2.6.
 */
export const LINK_LATTICE_STEP_M: Record<Layer, number> = { [Layer.Walk]: 30, [Layer.Bike]: 50, [Layer.Car]: 50 };
/**
 * At most this many tiles per layer (16 bytes each however empty): past it, an extract gets a
 * coarser step (see `latticeStep`). 16 M tiles hold 4 G points: 1,900 km square at 30 m.
 */
export const MAX_LATTICE_TILES = 16_000_000;
/**
 * At most this many rows (points along y) per layer: a strip's scratch holds every row (12 bytes a
 * point, some 300 columns), so an extract taller than 7,800 km at 30 m gets a coarser step.
 */
export const MAX_LATTICE_ROWS = 1 << 18;
/** Extra candidates kept per lattice square (see the header). */
export const EXTRAS_PER_SQUARE = 2;
/** A street passing this close to a lattice square (metres) may be an extra candidate of it. */
export const EXTRA_MARGIN_M = 3;
/** Side of a tile, in lattice points (a point's byte then names one of at most 256 segments). */
export const TILE_SIDE = 16;
export const TILE_SHIFT = 4;
export const TILE_MASK = TILE_SIDE - 1;
export const TILE_POINTS = TILE_SIDE * TILE_SIDE;
/** A tile of at most this many segments stores a half byte per point. */
export const NIBBLE_SEGMENTS = 16;

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
  /** where tile t's places start in `place` (`tilePlaceBytes` each: the tiles' places follow each other in tile order) */
  placeStart: Int32Array;
  /**
   * per lattice point of a tile of several segments, its segment's place in its tile's list (point
   * (i, j) is the tile's point k = (i mod 16) × 16 + j mod 16): a half byte (point k in byte k >> 1,
   * the low half for even k) in a tile of at most NIBBLE_SEGMENTS, else a byte
   */
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

/** Bytes of places a tile of `segments` distinct segments stores. */
export function tilePlaceBytes(segments: number): number {
  return segments <= 1 ? 0 : segments <= NIBBLE_SEGMENTS ? TILE_POINTS / 2 : TILE_POINTS;
}

/** Point k's half byte in the places of a tile of at most NIBBLE_SEGMENTS segments, which start at `at`. */
function halfByte(place: Uint8Array, at: number, k: number): number {
  return (place[at + (k >> 1)]! >> ((k & 1) << 2)) & 15;
}

/** The nearest segment of the tile's point k (see `place`). */
function tileSegment(l: LinkLattice, tile: number, k: number): number {
  const first = l.tileStart[tile]!;
  const n = l.tileStart[tile + 1]! - first;
  if (n === 1) return l.segments[first]!;
  const at = l.placeStart[tile]!;
  return l.segments[first + (n <= NIBBLE_SEGMENTS ? halfByte(l.place, at, k) : l.place[at + k]!)]!;
}

/** The nearest segment of lattice point (i, j), -1 when none lies within reach. */
export function latticeSegment(l: LinkLattice, i: number, j: number): number {
  return tileSegment(l, (i >> TILE_SHIFT) * l.tileRows + (j >> TILE_SHIFT), ((i & TILE_MASK) << TILE_SHIFT) + (j & TILE_MASK));
}

/** The nearest segments of lattice points (i, jLo) … (i, jHi) into out[jLo … jHi] (a column read in order). */
export function latticeColumn(l: LinkLattice, i: number, jLo: number, jHi: number, out: Int32Array): void {
  const { tileRows, tileStart, segments, placeStart, place } = l;
  const tiles = (i >> TILE_SHIFT) * tileRows;
  const within = (i & TILE_MASK) << TILE_SHIFT;
  for (let j = jLo; j <= jHi; ) {
    // one tile's run of the column at a time
    const tile = tiles + (j >> TILE_SHIFT);
    const end = Math.min(jHi, j | TILE_MASK);
    const first = tileStart[tile]!;
    const n = tileStart[tile + 1]! - first;
    if (n === 1) {
      out.fill(segments[first]!, j, end + 1);
    } else if (n <= NIBBLE_SEGMENTS) {
      const at = placeStart[tile]!;
      for (; j <= end; j++) out[j] = segments[first + halfByte(place, at, within + (j & TILE_MASK))]!;
    } else {
      const at = placeStart[tile]! + within;
      for (; j <= end; j++) out[j] = segments[first + place[at + (j & TILE_MASK)]!]!;
    }
    j = end + 1;
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
  return l.tileStart.byteLength + l.segments.byteLength + l.placeStart.byteLength + l.place.byteLength + l.extraStart.byteLength + l.extraSquare.byteLength + l.extraSegments.byteLength;
}

/** The step of `layer` for an extract: LINK_LATTICE_STEP_M, or coarser so that the lattice holds at most MAX_LATTICE_TILES and MAX_LATTICE_ROWS. */
export function latticeStep(layer: Layer, widthM: number, heightM: number): number {
  return Math.max(LINK_LATTICE_STEP_M[layer], Math.sqrt((widthM * heightM) / (MAX_LATTICE_TILES * TILE_POINTS)), heightM / MAX_LATTICE_ROWS);
}

/**
 * Whether a tile's places (bytes [from, to) of `place`, a multiple of 4 from a 4-byte boundary)
 * name an entry at or past `size`: four bytes at a time (a country's lattices hold 2 GB of them),
 * each half byte or byte k tested as k + (16 − size) or k + (256 − size) carrying out of its lane,
 * the lanes apart so that no carry crosses into the next.
 */
export function placesPast(words: Uint32Array, from: number, to: number, size: number): boolean {
  let carried = 0;
  if (size <= NIBBLE_SEGMENTS) {
    const add = (16 - size) * 0x01010101;
    for (let k = from >> 2; k < to >> 2; k++) {
      const w = words[k]!;
      carried |= ((w & 0x0f0f0f0f) + add) | (((w >>> 4) & 0x0f0f0f0f) + add);
    }
    return (carried & 0xf0f0f0f0) !== 0;
  }
  const add = (256 - size) * 0x00010001;
  for (let k = from >> 2; k < to >> 2; k++) {
    const w = words[k]!;
    carried |= ((w & 0x00ff00ff) + add) | (((w >>> 8) & 0x00ff00ff) + add);
  }
  return (carried & 0xff00ff00) !== 0;
}

/** The largest entry a tile's places name (for the refusal's message). */
export function largestPlace(place: Uint8Array, from: number, to: number, size: number): number {
  let largest = 0;
  for (let k = from; k < to; k++) largest = Math.max(largest, size <= NIBBLE_SEGMENTS ? Math.max(place[k]! & 15, place[k]! >> 4) : place[k]!);
  return largest;
}
