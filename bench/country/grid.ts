/**
 * The country's grid: square cells of CELL_M, filled row by row from Germany's south-west corner
 * (lon 6°, lat 47°), as many columns as keep the grid's shape Germany's (lon 6–15°, lat 47–55°:
 * 630 × 890 km), and a tile's coordinates moved into its cell.
 *
 *   row 2 (north)  t6  t7
 *   row 1          t3  t4  t5
 *   row 0 (south)  t0  t1  t2      lon 6°, lat 47° at t0's south-west corner
 *
 * A cell must hold the largest extract (rnv-mannheim is 48 km wide, Terre Haute 50 km tall), so the
 * grid stays within Germany's extent up to about 200 tiles (12 × 17 cells); a larger country reaches
 * further north and east (Germany size, 745 tiles: 23 × 33 cells, 1,196 × 1,716 km, up to 62.4° N).
 * Real Germany has more street nodes per km² than these extracts.
 *
 * A tile is moved, not reprojected: latitudes shift by the cells' difference, longitudes shift and
 * stretch by cos(source latitude) / cos(cell latitude) about the extract's centre, so that distances
 * in metres stay what they are (to 0.5 % at the extract's north and south edges). Coordinates are
 * then rounded to the 1e-7° grid the PBF's nodes lie on, which the GTFS stops use too, so that a stop
 * placed on a node is exactly on it.
 */
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';

/** A cell's side, metres: the largest extract (50.1 km) and a gap of at least 1.9 km. */
export const CELL_M = 52_000;
/** The grid's south-west corner: Germany's. */
export const GRID_ORIGIN = { lon: 6, lat: 47 };
/** Germany's box, whose shape the grid keeps. */
const GERMANY_BOX = { west: 6, east: 15, south: 47, north: 55 };

const RAD = Math.PI / 180;

export interface Grid {
  cols: number;
  rows: number;
  tiles: number;
}

/** The grid of `tiles` cells: columns to rows as Germany's width to its height. */
export function gridOf(tiles: number): Grid {
  const midLat = (GERMANY_BOX.south + GERMANY_BOX.north) / 2;
  const widthM = (GERMANY_BOX.east - GERMANY_BOX.west) * METRES_PER_DEGREE * Math.cos(midLat * RAD);
  const heightM = (GERMANY_BOX.north - GERMANY_BOX.south) * METRES_PER_DEGREE;
  const cols = Math.min(tiles, Math.ceil(Math.sqrt((tiles * widthM) / heightM)));
  return { cols, rows: Math.ceil(tiles / cols), tiles };
}

export interface Cell {
  row: number;
  col: number;
  /** the cell's centre, degrees */
  lon: number;
  lat: number;
}

/** Tile `index`'s cell: its row and column, and its centre. */
export function cellOf(grid: Grid, index: number): Cell {
  const row = Math.floor(index / grid.cols);
  const col = index % grid.cols;
  const lat = GRID_ORIGIN.lat + ((row + 0.5) * CELL_M) / METRES_PER_DEGREE;
  // columns are CELL_M apart along their row's latitude
  const lon = GRID_ORIGIN.lon + ((col + 0.5) * CELL_M) / (METRES_PER_DEGREE * Math.cos(lat * RAD));
  return { row, col, lon, lat };
}

/** Moves a point of an extract centred on `from` into the cell centred on `to`: degrees in, 1e-7° units out. */
export interface TileTransform {
  lonE7(lon: number): number;
  latE7(lat: number): number;
}

export function tileTransform(from: { lon: number; lat: number }, to: { lon: number; lat: number }): TileTransform {
  const stretch = Math.cos(from.lat * RAD) / Math.cos(to.lat * RAD);
  return {
    lonE7: (lon) => toE7(to.lon + (lon - from.lon) * stretch),
    latE7: (lat) => toE7(to.lat + (lat - from.lat)),
  };
}

/** Degrees on the 1e-7° grid (the PBF's default granularity of 100 nanodegrees). */
export function toE7(degrees: number): number {
  return Math.round(degrees * 1e7);
}

/** A 1e-7° value as decimal degrees with its seven decimals, written from the integer (no rounding of a double). */
export function e7Text(v: number): string {
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  return `${sign}${Math.floor(a / 1e7)}.${String(a % 1e7).padStart(7, '0')}`;
}
