/**
 * The country's point set (`points.csv`, the coverage's set `points`): the origins and destinations
 * of a national travel-time matrix or accessibility study, as `navette matrix --shard` spreads them
 * over the pods of an Indexed Job (docs/analysis.md, "Past one machine").
 *
 * A national study samples the country evenly and keeps its hubs: here each tile's intercity station,
 * then a regular lattice over the country, POINT_LATTICE.perSide × perSide positions a cell (4 × 4:
 * one every 13 km, the cells tiling the country row by row, grid.ts). A lattice position is kept only
 * where the tile has streets, its nearest node of the extract's largest walking network within
 * keepWithinM (1 km): further off it lies in fields, woods or beyond the extract, where nobody would
 * start a trip. A kept position moves onto that node, as the stations and the stops laid on a tile
 * do (walk-nodes.ts), so that every point stands on a street Navette walks and links at no offset.
 * Two positions on the same node (or on the station's) are one place: the later is left out.
 *
 * Germany size, 745 tiles: 4,659 points (6.25 a tile: rnv-mannheim's streets keep 8 of their 16
 * lattice positions, Terre Haute's 6, Milan's 4, Porto Alegre's 13.7 km square 2).
 *
 *   t12:station      the tile's intercity station (country.json's)
 *   t12:r1c2         lattice position row 1, column 2 of tile 12's cell, from its south-west corner
 */
import { METRES_PER_DEGREE, planarMetres } from '../../src/util/geodesy.js';
import { CELL_M, e7Text, type TileTransform } from './grid.js';
import type { PointE7 } from './feed-placement.js';
import type { StreetSource } from './street-source.js';
import type { WalkNodes } from './walk-nodes.js';

export const POINTS_FILE = 'points.csv';
/** The point set's name in the generated configuration. */
export const POINT_SET = 'points';

export interface PointLattice {
  /** the side of the square the lattice divides (a grid cell) */
  cellM: number;
  /** positions along each side */
  perSide: number;
  /** a position is kept when a walking node lies this near, metres */
  keepWithinM: number;
}

export const POINT_LATTICE: PointLattice = { cellM: CELL_M, perSide: 4, keepWithinM: 1_000 };

export interface CountryPoint {
  id: string;
  lonE7: number;
  latE7: number;
}

/** What the points of one tile are made from: its extract, the extract's walking nodes, its move into its cell, its station. */
export interface PointTile {
  index: number;
  streets: { source: StreetSource; walkNodes: WalkNodes };
  transform: TileTransform;
  station: PointE7;
}

/** Tile `tile`'s points: its station, then its kept lattice positions row by row from the south-west. */
export function tilePoints(tile: PointTile, lattice: PointLattice = POINT_LATTICE): CountryPoint[] {
  const { source, walkNodes } = tile.streets;
  const { lonE7, latE7 } = tile.transform;
  const prefix = `t${tile.index}:`;
  const points: CountryPoint[] = [{ id: `${prefix}station`, lonE7: tile.station[0], latE7: tile.station[1] }];
  const taken = new Set([`${tile.station[0]} ${tile.station[1]}`]);
  // the extract's centre is the cell's (grid.ts), and the move keeps metres: a position's offset
  // from the cell's centre is its offset from the extract's
  const { lon: centreLon, lat: centreLat } = source.centre;
  const cosLat = Math.cos((centreLat * Math.PI) / 180);
  const step = lattice.cellM / lattice.perSide;
  for (let row = 0; row < lattice.perSide; row++) {
    for (let col = 0; col < lattice.perSide; col++) {
      const lon = centreLon + ((col + 0.5) * step - lattice.cellM / 2) / (METRES_PER_DEGREE * cosLat);
      const lat = centreLat + ((row + 0.5) * step - lattice.cellM / 2) / METRES_PER_DEGREE;
      const k = walkNodes.nearest(lon, lat);
      const nodeLon = source.a.lon[k]!;
      const nodeLat = source.a.lat[k]!;
      if (planarMetres(lon, lat, nodeLon, nodeLat) > lattice.keepWithinM) continue;
      const at: PointE7 = [lonE7(nodeLon), latE7(nodeLat)];
      const key = `${at[0]} ${at[1]}`;
      if (taken.has(key)) continue;
      taken.add(key);
      points.push({ id: `${prefix}r${row}c${col}`, lonE7: at[0], latE7: at[1] });
    }
  }
  return points;
}

/** The point set's CSV: `id,lon,lat`, positions written from their 1e-7° integers as the PBF's nodes are. */
export function pointsCsv(points: readonly CountryPoint[]): string {
  return ['id,lon,lat', ...points.map((p) => `${p.id},${e7Text(p.lonE7)},${e7Text(p.latE7)}`)].join('\n') + '\n';
}
