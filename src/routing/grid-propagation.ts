/**
 * A map's last step on a grid (R5's propagation to a grid of targets): each street leg at the
 * places' side searched from the centre and from the stops of the transit pass (street-legs.ts),
 * then every cell linked to its nearest street of the leg's layer and valued there (raster.ts), the
 * fastest leg winning; the values in whole seconds, null at or past the maximum duration.
 *
 * Scratch allocated once per engine for its largest grid, reused by each map.
 */
import type { Snap } from '../model/street-graph.js';
import type { Grid } from './grid.js';
import { toSeconds, type Rasterizer } from './raster.js';
import type { StreetSearch } from './street-search.js';
import { streetLegs } from './street-legs.js';
import type { MapLeg } from './mode-legs.js';
import type { TransitPass } from './transit-pass.js';
import { stopsOf } from './overlay-stops.js';
import type { HeatMapData, HeatMapQuery } from './heat-map-types.js';

/** A grid's cells valued: whole seconds, -1 for null (a view on scratch memory valid until the next map), and how many have a value. */
export interface GridTimes {
  seconds: Int32Array;
  reachedCells: number;
}

export class GridPropagation {
  /** per cell, its best value in tenths of a second (Infinity: none yet), then its whole seconds */
  private readonly cellValues: Float64Array;
  private readonly cellSeconds: Int32Array;

  constructor(
    private readonly data: HeatMapData,
    private readonly street: StreetSearch,
    private readonly rasterizer: Rasterizer,
    maxResolution: number,
  ) {
    this.cellValues = new Float64Array(maxResolution * maxResolution);
    this.cellSeconds = new Int32Array(maxResolution * maxResolution);
  }

  /** The cells of `grid` valued from the centre and from the stops of `pass`, each leg of `legs` in turn. */
  propagate(q: HeatMapQuery, pass: TransitPass, legs: MapLeg[], centreSnaps: (Snap | null)[], grid: Grid): GridTimes {
    const R = grid.resolution;
    const values = this.cellValues.subarray(0, R * R);
    values.fill(Infinity);
    const walkSpeed = q.speeds.walking;
    const reverse = q.direction === 'arrival';
    const limitDs = q.maxDurationSec * 10;
    streetLegs(this.street, stopsOf(this.data, q).snaps, q, pass, legs, centreSnaps, (leg, search) => this.rasterizer.valueCells(grid, leg.layer, leg.speed, walkSpeed, reverse, limitDs, search, values));
    const seconds = this.cellSeconds.subarray(0, R * R);
    const reachedCells = toSeconds(values, q.maxDurationSec, seconds);
    return { seconds, reachedCells };
  }
}
