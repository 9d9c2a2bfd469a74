/**
 * One heat map, end to end (docs/api.md, "How a map is made"), in R5's steps, each a module owning
 * its scratch:
 *
 *   1. the access (access.ts): the centre's free stops and their footpaths, the stops within the
 *      free radius, and the stops reached on the street by each access mode within its limit;
 *   2. the transit pass (transit-pass.ts): RAPTOR one-to-all from those stops (reversed for arrival
 *      maps), with the board slack;
 *   3. the propagation: per street leg at the places' side, a street search seeded by the centre
 *      and by every stop reached by a vehicle, capped at the maximum duration (street-legs.ts),
 *      valued at the cells of the map's grid (map-grid.ts, grid-propagation.ts, raster.ts), the
 *      fastest leg winning, or at the points of a set (point-propagation.ts);
 *   4. over a departure window, the percentiles of each cell's minutes (window-heat-map.ts).
 *
 * Every point meets the streets the same way (R5's linking): the centre, each stop and each cell
 * link to the nearest street of the layer within LINK_RADIUS_M, and the straight offset between the
 * point and its link point is walked at walking speed, whatever the mode on the street.
 *
 * Pure computation on shared data and per-thread scratch: it runs in the worker threads. This file
 * holds the engine, which runs the steps in order; its words are heat-map-types.ts's.
 */
import type { LinkedPoints } from '../model/linked-points.js';
import { RaptorSearch } from './raptor.js';
import type { PrunedTransfers } from './transfer-pruning.js';
import { Rasterizer } from './raster.js';
import type { Grid } from './grid.js';
import type { EgressTable } from './egress-table.js';
import { StreetSearch } from './street-search.js';
import { AccessSearch } from './access.js';
import { TransitSearch, type TransitPass } from './transit-pass.js';
import { centreSnaps, countUnlinked } from './street-legs.js';
import { mapGrid } from './map-grid.js';
import { GridPropagation } from './grid-propagation.js';
import { PointPropagation } from './point-propagation.js';
import { mapLegs, type MapLeg, type ModeLeg } from './mode-legs.js';
import { stopsOf } from './overlay-stops.js';
import type { HeatMapQuery, HeatMapData, HeatMapResult, PointTimes } from './heat-map-types.js';
export type { HeatMapMode, HeatMapQuery, DepartureWindow, PercentileMap, HeatMapData, HeatMapResult, PointTimes } from './heat-map-types.js';

/** The parts a matrix's origins share, each made by one thread (`HeatMapEngine.prepare`). */
export type PreparedPart = 'transfers' | 'egress';

/** Tables every origin of a matrix reads, made once by one thread and adopted by the others. */
export interface PreparedTables {
  /** the connections pruned at the query's walking speed (null: those pruned beforehand, or none pruned) */
  transfers: PrunedTransfers | null;
  /** the timetable's egress tables of the query's legs to its point sets */
  egress: EgressTable[];
}

/** Per-thread state for one coverage's data: the steps of a map, each with its scratch. */
export class HeatMapEngine {
  readonly raptor: RaptorSearch;
  /** the street search the steps take in turn (the access legs, the places' legs, the egress tables) */
  readonly street: StreetSearch;
  readonly rasterizer: Rasterizer;
  readonly transit: TransitSearch;
  private readonly toGrid: GridPropagation;
  private readonly toPoints: PointPropagation;

  constructor(
    readonly data: HeatMapData,
    readonly maxDurationSec: number,
    readonly maxResolution: number,
  ) {
    this.raptor = new RaptorSearch(data.raptor, data.serviceDayOrigins, data.serviceFirstDay, true, data.prunedTransfers);
    this.street = new StreetSearch(data.graph, maxDurationSec * 10);
    this.rasterizer = new Rasterizer(data.graph);
    this.transit = new TransitSearch(data, new AccessSearch(data, this.street, maxDurationSec), this.raptor);
    this.toGrid = new GridPropagation(data, this.street, this.rasterizer, maxResolution);
    this.toPoints = new PointPropagation(data, this.street);
  }

  /** The map of `q`, on `fixedGrid` when given (a departure window's grid), else on the box of what it reaches. */
  compute(q: HeatMapQuery, fixedGrid?: Grid): HeatMapResult {
    this.checkLimits(q);
    const pass = this.transit.pass(q);
    const legs = mapLegs(q);
    const snaps = centreSnaps(this.data.graph, q, legs);
    const grid = fixedGrid ?? this.passGrid(q, pass, legs, snaps);
    const { seconds, reachedCells } = this.toGrid.propagate(q, pass, legs, snaps, grid);
    const vehicleStops = pass.vehicleSec ? pass.reachedCount : 0;
    return { grid, seconds, reachedCells, vehicleStops, unlinkedStops: countUnlinked(stopsOf(this.data, q).snaps, legs, pass.reached, vehicleStops) };
  }

  /**
   * The travel times of `q` to the points of a set instead of a grid's cells, each valued at its own
   * link as a cell is at its centre's (accessibility, travel-time matrices): the street from the
   * centre, and from the stops reached through the egress tables, each leg within its mode's
   * max_<mode>_duration_to_pt (egress-table.ts).
   */
  computePoints(q: HeatMapQuery, points: LinkedPoints): PointTimes {
    let times: PointTimes | undefined;
    this.computePointSets(q, [points], (_, t) => (times = t));
    return times!;
  }

  /**
   * `computePoints` for several sets off one transit pass (RAPTOR once, then each set's streets and
   * egress): `onSet(k, times)` per set in order, its views valid until it returns.
   */
  computePointSets(q: HeatMapQuery, sets: LinkedPoints[], onSet: (k: number, times: PointTimes) => void): void {
    this.checkLimits(q);
    const pass = this.transit.pass(q);
    sets.forEach((points, k) => onSet(k, this.toPoints.timesAt(q, pass, points)));
  }

  /**
   * The grid `compute(q)` would value, without valuing it (access and RAPTOR only): a difference
   * map puts two maps on the union of their grids (maps/difference-map.ts).
   */
  gridOf(q: HeatMapQuery): Grid {
    const legs = mapLegs(q);
    return this.passGrid(q, this.transit.pass(q), legs, centreSnaps(this.data.graph, q, legs));
  }

  /** The egress tables of a leg of `q` to the points of a set (the timetable's stops', and its overlay's new stops'), made on first use and kept (point-propagation.ts). */
  egressTables(points: LinkedPoints, leg: ModeLeg, q: HeatMapQuery): EgressTable[] {
    return this.toPoints.egressTables(points, leg, q);
  }

  /**
   * One part of what every origin of a matrix shares, made here if not held: the connections
   * pruned at the walking speed of `q`, or the egress tables of its legs to `sets`. Made once by
   * one thread, the tables are adopted by the others (`adopt`), each building the other part beside.
   */
  prepare(q: HeatMapQuery, sets: LinkedPoints[], part: PreparedPart): PreparedTables {
    if (part === 'transfers') return { transfers: this.raptor.prunedFor({ walkingSpeed: q.speeds.walking, stopAllowed: q.stopAllowed, wheelchair: q.wheelchair }), egress: [] };
    const legs = mapLegs(q).filter((leg) => leg.fromStops);
    return { transfers: null, egress: sets.flatMap((points) => legs.map((leg) => this.egressTables(points, leg, q)[0]!)) };
  }

  /** Keep tables another thread prepared (`prepare`). */
  adopt(prepared: PreparedTables): void {
    if (prepared.transfers) this.raptor.adoptPruned(prepared.transfers);
    for (const table of prepared.egress) this.toPoints.adoptEgressTable(table);
  }

  /** The bytes of the egress tables the engine keeps (point-propagation.ts). */
  get egressBytes(): number {
    return this.toPoints.egressBytes;
  }

  /** Drop the egress tables used longest ago until the others hold at most `maxBytes` (the latest kept). */
  trimEgressTables(maxBytes: number): void {
    this.toPoints.trimEgressTables(maxBytes);
  }

  /** The grid around the centre and the stops of `pass`, each stop as far as the time left there (map-grid.ts). */
  private passGrid(q: HeatMapQuery, pass: TransitPass, legs: MapLeg[], snaps: ReturnType<typeof centreSnaps>): Grid {
    const { vehicleSec, reached, reachedCount } = pass;
    return mapGrid(this.data, q, legs, snaps, reached, vehicleSec ? reachedCount : 0, (s) => q.maxDurationSec - vehicleSec![s]!);
  }

  private checkLimits(q: HeatMapQuery): void {
    // the parameter tables cap both; an engine is sized for its limits and never stretched past them
    if (q.maxDurationSec > this.maxDurationSec || q.resolution > this.maxResolution) {
      throw new RangeError(`a heat map of ${q.maxDurationSec} s at resolution ${q.resolution} exceeds the engine's ${this.maxDurationSec} s, ${this.maxResolution}`);
    }
  }
}
