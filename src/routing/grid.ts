/**
 * A heat map's grid: R × R cells over a lon/lat box (the union of squares around what a map can
 * reach), their size in metres and their place in the street graph's projection.
 */
import { degreesAround, METRES_PER_DEGREE } from '../util/geodesy.js';
import { projectX, projectY, scaleAtLatitude, type StreetGraph } from '../model/street-graph.js';

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

/** The grid in the graph's projection: its south-west corner and cell size, metres. */
export function cellGeometry(g: StreetGraph, grid: Grid): { x0: number; y0: number; dx: number; dy: number } {
  const p = g.projection;
  const x0 = projectX(p, grid.minLon);
  const y0 = projectY(p, grid.minLat);
  const R = grid.resolution;
  return { x0, y0, dx: (projectX(p, grid.maxLon) - x0) / R, dy: (projectY(p, grid.maxLat) - y0) / R };
}

/**
 * The ordinate of each row's centre in the graph's projection (`y`), and, when asked, the
 * projection's scale there (`scale`, projected metres per metre). The rows are even bands of latitude: evenly spaced
 * on an equirectangular projection (scale 1), spreading northwards on a conformal one.
 */
export function rowCentres(g: StreetGraph, grid: Grid, y: Float64Array, scale?: Float64Array): void {
  const p = g.projection;
  const R = grid.resolution;
  if (!p.conformal) {
    const { y0, dy } = cellGeometry(g, grid);
    for (let j = 0; j < R; j++) {
      y[j] = y0 + (j + 0.5) * dy;
    }
    scale?.fill(1, 0, R);
    return;
  }
  const dLat = (grid.maxLat - grid.minLat) / R;
  for (let j = 0; j < R; j++) {
    const lat = grid.minLat + (j + 0.5) * dLat;
    y[j] = projectY(p, lat);
    if (scale) scale[j] = scaleAtLatitude(p, lat);
  }
}

/** The grid over the box of both grids, at `a`'s resolution (a difference map's one grid for its two maps). */
export function gridUnion(a: Grid, b: Grid): Grid {
  return {
    minLon: Math.min(a.minLon, b.minLon),
    minLat: Math.min(a.minLat, b.minLat),
    maxLon: Math.max(a.maxLon, b.maxLon),
    maxLat: Math.max(a.maxLat, b.maxLat),
    resolution: a.resolution,
  };
}

/** The same box and resolution. */
export function sameGrid(a: Grid, b: Grid): boolean {
  return a.minLon === b.minLon && a.minLat === b.minLat && a.maxLon === b.maxLon && a.maxLat === b.maxLat && a.resolution === b.resolution;
}
