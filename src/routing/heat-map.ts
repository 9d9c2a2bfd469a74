/**
 * One heat map, end to end (docs/api.md, "How a map is made"):
 *
 *   1. access: the centre's free stops and their footpaths, the stops within the free radius, and
 *      the stops reached on the street by each access mode within its limit;
 *   2. RAPTOR one-to-all from those stops (reversed for arrival maps), with the board slack;
 *   3. per end mode: a street search seeded by the centre and by every stop reached by a vehicle,
 *      capped at the maximum duration;
 *   4. the grid: a box around everything reached, each cell linked to its nearest street of the end
 *      mode's layer and valued there (raster.ts), the fastest end mode winning.
 *
 * Every point meets the streets the same way (R5's linking): the centre, each stop and each cell
 * link to the nearest street of the layer within LINK_RADIUS_M, and the straight offset between the
 * point and its link point is walked at walking speed, whatever the mode on the street. A centre
 * with no street within the radius reaches nothing on the street; a stop with none is reached by
 * vehicles only.
 *
 * Pure computation on shared data and per-thread scratch: it runs in the worker threads.
 */
import { Layer } from '../model/street-layers.js';
import { pointCount, type LinkedPoints } from '../model/linked-points.js';
import { stopSnap, type StopSnaps } from '../model/stop-snaps.js';
import { METRES_PER_DEGREE } from '../util/geodesy.js';
import { LINK_RADIUS_M, projectX, projectY, snapPoint, type Snap, type StreetGraph } from '../model/street-graph.js';
import { transferSec, type RaptorData } from './raptor-data.js';
import type { RaptorOverlay } from './raptor-overlay.js';
import { RaptorSearch, type RaptorQuery, type RaptorResult } from './raptor.js';
import { Rasterizer, toSeconds } from './raster.js';
import { BoxBuilder, type Grid } from './grid.js';
import { buildEgressTable, MAX_EGRESS_ENTRIES, sameEgressKey, valueFromStops, type EgressKey, type EgressTable } from './egress-table.js';
import { offsetSeedDs, StreetSearch } from './street-search.js';

/** Street modes that heat maps compute (ridesharing is refused before). */
export type HeatMapMode = 'walking' | 'bike' | 'bss' | 'car' | 'car_no_park' | 'taxi';

export interface HeatMapQuery {
  direction: 'departure' | 'arrival';
  centreLon: number;
  centreLat: number;
  /** stop points reached at no cost (the centre's own stops) */
  freeStops: number[];
  freeRadiusM: number;
  accessModes: HeatMapMode[];
  endModes: HeatMapMode[];
  /** modes of the street-only part from the centre (direct_path_mode[]; default: the end modes) */
  directModes: HeatMapMode[];
  /** m/s per mode */
  speeds: Record<HeatMapMode, number>;
  /** longest access leg per mode, seconds */
  maxToPtSec: Record<HeatMapMode, number>;
  /** seconds added to a taxi leg at the centre's side and at the cells' side */
  taxiAccessExtraSec: number;
  taxiEndExtraSec: number;
  t0: number;
  maxDurationSec: number;
  resolution: number;
  maxTransfers: number;
  minTransfers: number;
  /** seconds a rider must be at a stop before the vehicle leaves, at every boarding */
  boardSlackSec: number;
  wheelchair: boolean;
  /** false: cells reached from the centre by the street alone are left out (direct_path=none) */
  directPath: boolean;
  /** false: no public transport (direct_path=only) */
  transit: boolean;
  tripAllowed: Uint8Array | null;
  stopAllowed: Uint8Array | null;
  /** the runs of the query's freshness level over the timetable (null: base schedule) */
  overlay: RaptorOverlay | null;
  /** a departure window (window-heat-map.ts); none: one departure, at t0 */
  window?: DepartureWindow | null;
}

/** A map over a window of departures, summarised per cell by percentiles of its travel time. */
export interface DepartureWindow {
  /** seconds from t0 (departure maps: later departures; arrival maps: earlier deadlines) */
  windowSec: number;
  /** 1 to 99, ascending */
  percentiles: number[];
  /** the percentile a one-band format draws (png, geojson): an index into `percentiles` */
  selected: number;
}

/** One percentile's map of a window. */
export interface PercentileMap {
  percentile: number;
  /** R × R whole seconds, -1 for null */
  seconds: Int32Array;
}

export interface HeatMapData {
  graph: StreetGraph;
  /** the coverage's point sets (accessibility, matrices), linked to the streets at load */
  pointSets?: LinkedPoints[];
  snaps: StopSnaps;
  raptor: RaptorData;
  /** service-day origins passed to RaptorSearch */
  serviceDayOrigins: Float64Array[];
  serviceFirstDay: number;
  stopLon: Float64Array;
  stopLat: Float64Array;
}

export interface HeatMapResult {
  grid: Grid;
  /** R × R whole seconds, -1 for null; a view on scratch memory valid until the next computation */
  seconds: Int32Array;
  /** cells with a value (not null) */
  reachedCells: number;
  /** stops reached by a vehicle, and those of them with no street of an end mode's layer within the link radius (they value no cell) */
  vehicleStops: number;
  unlinkedStops: number;
  /** a windowed map's percentiles, and which of them `seconds` is (the one a one-band format draws) */
  percentiles?: PercentileMap[];
  selected?: number;
}

/** The travel times of a query to the points of a set (`HeatMapEngine.computePoints`). */
export interface PointTimes {
  /** per point, whole seconds, -1 for null; a view on scratch memory valid until the next computation */
  seconds: Int32Array;
  reachedPoints: number;
  vehicleStops: number;
  unlinkedStops: number;
  /** a window's percentiles, `seconds` being the selected one */
  percentiles?: PercentileMap[];
}

/** Egress tables an engine keeps at most (a matrix uses one or two; requests for other speeds or limits make theirs), within MAX_EGRESS_ENTRIES together. */
const EGRESS_TABLES_KEPT = 4;

/** What RAPTOR left at the stops: each reached stop's time from the centre (seconds), none without public transport. */
type TransitPass = Pick<RaptorResult, 'reached' | 'reachedCount'> & { vehicleSec: Int32Array | null };

const NO_TRANSIT: TransitPass = { vehicleSec: null, reached: new Uint32Array(0), reachedCount: 0 };

/**
 * Value each point of a set linked to `layer` from a street search, as raster.ts values a cell:
 * the cost at its link point plus its off-street offset at walking speed, the smaller one kept.
 */
export function valuePoints(points: LinkedPoints, layer: Layer, speed: number, walkSpeed: number, reverse: boolean, limitDs: number, search: StreetSearch, out: Float64Array): void {
  const edge = points.links.edge[layer]!;
  const alongM = points.links.alongM[layer]!;
  const offsetM = points.links.offsetM[layer]!;
  const perMetre = 10 / speed;
  const walkPerMetre = 10 / walkSpeed;
  for (let p = 0; p < edge.length; p++) {
    const e = edge[p]!;
    if (e < 0) continue;
    const v = search.costAlong(e, alongM[p]!, layer, perMetre, reverse) + offsetM[p]! * walkPerMetre;
    if (v < limitDs && v < out[p]!) out[p] = v;
  }
}

/** How a mode moves on the street graph. */
export interface ModeLeg {
  layer: Layer;
  speed: number;
  extraDs: number;
  /** the longest leg from a stop to a point of a set, and from the centre to one on foot or by bike (its mode's max_<mode>_duration_to_pt), seconds */
  toPtSec: number;
}

/**
 * The street legs each mode stands for, on its layer at the speed of its own name: bss is a bike
 * plus walking (a bike taken and left at a station). The same table serves the centre's side (the
 * access to transit) and the cells' side.
 */
const MODE_LEGS: Record<HeatMapMode, { layer: Layer; speedOf: HeatMapMode }[]> = {
  walking: [{ layer: Layer.Walk, speedOf: 'walking' }],
  bike: [{ layer: Layer.Bike, speedOf: 'bike' }],
  bss: [
    { layer: Layer.Bike, speedOf: 'bss' },
    { layer: Layer.Walk, speedOf: 'walking' },
  ],
  car: [{ layer: Layer.Car, speedOf: 'car' }],
  car_no_park: [{ layer: Layer.Car, speedOf: 'car_no_park' }],
  taxi: [{ layer: Layer.Car, speedOf: 'taxi' }],
};

/** The legs of a mode at the cells' side; a taxi's carry its extra time there. */
function endLegs(mode: HeatMapMode, q: HeatMapQuery): ModeLeg[] {
  const extraDs = mode === 'taxi' ? q.taxiEndExtraSec * 10 : 0;
  return MODE_LEGS[mode].map(({ layer, speedOf }) => ({ layer, speed: q.speeds[speedOf], extraDs, toPtSec: q.maxToPtSec[mode] }));
}

/**
 * The limit of a street-only path from the centre to the points of a set, tenths of a second: as R5
 * bounds walk- and bike-only trips by max_walk_time and max_bike_time, a walking or cycling leg
 * (bss too) lasts at most its mode's max_<mode>_duration_to_pt; a car's, `limitDs` (the maximum
 * duration). A heat map's cells keep Navitia's rule: every direct leg up to the maximum duration.
 */
export function directLimitDs(leg: ModeLeg, limitDs: number): number {
  return leg.layer === Layer.Car ? limitDs : Math.min(limitDs, Math.max(0, leg.toPtSec) * 10);
}

/** A map's street leg at the cells' side: from the centre (the direct path), from the stops reached (the end modes), or both. */
export type MapLeg = ModeLeg & { fromCentre: boolean; fromStops: boolean };

export function mapLegs(q: HeatMapQuery): MapLeg[] {
  return [...new Set([...q.endModes, ...q.directModes])].flatMap((m) =>
    endLegs(m, q).map((leg) => ({ ...leg, fromCentre: q.directPath && q.directModes.includes(m), fromStops: q.endModes.includes(m) })),
  );
}

/** Per-thread state for one coverage's data. */
export class HeatMapEngine {
  readonly raptor: RaptorSearch;
  readonly street: StreetSearch;
  private readonly parkedWalk: StreetSearch;
  readonly rasterizer: Rasterizer;
  private readonly accessSec: Int32Array;
  private readonly accessStamp: Uint32Array;
  private accessRound = 0;
  /** the stops `access` found, and their times (its first `count` entries) */
  readonly accessStops: Uint32Array;
  readonly accessTimes: Int32Array;
  private cellValues: Float64Array;
  private cellSeconds: Int32Array;
  /** the points' values and seconds (computePoints), grown to the largest set valued */
  private pointValues = new Float64Array(0);
  private pointSeconds = new Int32Array(0);
  /** the egress tables made last, the latest first */
  private readonly egressTables: EgressTable[] = [];

  constructor(
    readonly data: HeatMapData,
    readonly maxDurationSec: number,
    readonly maxResolution: number,
  ) {
    this.raptor = new RaptorSearch(data.raptor, data.serviceDayOrigins, data.serviceFirstDay);
    this.street = new StreetSearch(data.graph, maxDurationSec * 10);
    this.parkedWalk = new StreetSearch(data.graph, maxDurationSec * 10);
    this.rasterizer = new Rasterizer(data.graph);
    const stops = data.stopLon.length;
    this.accessSec = new Int32Array(stops);
    this.accessStamp = new Uint32Array(stops);
    this.accessStops = new Uint32Array(stops);
    this.accessTimes = new Int32Array(stops);
    this.cellValues = new Float64Array(maxResolution * maxResolution);
    this.cellSeconds = new Int32Array(maxResolution * maxResolution);
  }

  /** The map of `q`, on `fixedGrid` when given (a departure window's grid), else on the box of what it reaches. */
  compute(q: HeatMapQuery, fixedGrid?: Grid): HeatMapResult {
    this.checkLimits(q);
    const pass = this.transitPass(q);
    const legs = mapLegs(q);
    const centreSnaps = this.centreSnaps(q, legs);
    const { vehicleSec, reached, reachedCount } = pass;
    const grid = fixedGrid ?? this.mapGrid(q, legs, centreSnaps, reached, vehicleSec ? reachedCount : 0, (s) => q.maxDurationSec - vehicleSec![s]!);
    const R = grid.resolution;
    const values = this.cellValues.subarray(0, R * R);
    values.fill(Infinity);
    const walkSpeed = q.speeds.walking;
    const reverse = q.direction === 'arrival';
    const limitDs = q.maxDurationSec * 10;
    this.streetLegs(q, pass, legs, centreSnaps, (leg, search) => this.rasterizer.valueCells(grid, leg.layer, leg.speed, walkSpeed, reverse, limitDs, search, values));
    const seconds = this.cellSeconds.subarray(0, R * R);
    const reachedCells = toSeconds(values, q.maxDurationSec, seconds);
    return { grid, seconds, reachedCells, vehicleStops: vehicleSec ? reachedCount : 0, unlinkedStops: this.countUnlinked(legs, reached, vehicleSec ? reachedCount : 0) };
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
    const pass = this.transitPass(q);
    sets.forEach((points, k) => onSet(k, this.timesAt(q, pass, points)));
  }

  /** The travel times of `q` to `points` from its centre and from the stops of `pass`. */
  private timesAt(q: HeatMapQuery, pass: TransitPass, points: LinkedPoints): PointTimes {
    const legs = mapLegs(q);
    const count = pointCount(points);
    if (this.pointValues.length < count) {
      this.pointValues = new Float64Array(count);
      this.pointSeconds = new Int32Array(count);
    }
    const values = this.pointValues.subarray(0, count);
    values.fill(Infinity);
    const walkSpeed = q.speeds.walking;
    const reverse = q.direction === 'arrival';
    const limitDs = q.maxDurationSec * 10;
    // the street from the centre alone, then the stops' rows
    const direct = legs.filter((leg) => leg.fromCentre);
    this.streetLegs(q, NO_TRANSIT, direct, this.centreSnaps(q, direct), (leg, search, legLimitDs) => valuePoints(points, leg.layer, leg.speed, walkSpeed, reverse, legLimitDs, search, values), (leg) => directLimitDs(leg, limitDs));
    const { vehicleSec, reached, reachedCount } = pass;
    if (vehicleSec) for (const leg of legs) if (leg.fromStops) valueFromStops(this.egressTable(points, leg, q), reached, reachedCount, vehicleSec, leg.extraDs, limitDs, values);
    const seconds = this.pointSeconds.subarray(0, count);
    const reachedPoints = toSeconds(values, q.maxDurationSec, seconds);
    return { seconds, reachedPoints, vehicleStops: vehicleSec ? reachedCount : 0, unlinkedStops: this.countUnlinked(legs, reached, vehicleSec ? reachedCount : 0) };
  }

  /**
   * The egress table of a leg of `q` to the points of a set (egress-table.ts): made on first use
   * and kept for the next computations alike (the origins of a matrix), the last few of them.
   */
  egressTable(points: LinkedPoints, leg: ModeLeg, q: HeatMapQuery): EgressTable {
    const key: EgressKey = {
      points,
      layer: leg.layer,
      speed: leg.speed,
      walkSpeed: q.speeds.walking,
      limitDs: Math.max(0, Math.min(leg.toPtSec, q.maxDurationSec)) * 10,
      reverse: q.direction === 'arrival',
    };
    const known = this.egressTables.findIndex((t) => sameEgressKey(t, key));
    if (known >= 0) {
      // the latest used first: a request over several sets and legs keeps its own tables
      const [table] = this.egressTables.splice(known, 1);
      this.egressTables.unshift(table!);
      return table!;
    }
    const table = buildEgressTable(this.data.graph, this.data.snaps, key, this.street);
    this.egressTables.unshift(table);
    // the newest kept, and older ones while they fit in one table's budget
    let entries = 0;
    const kept = this.egressTables.findIndex((t, k) => (entries += t.point.length) > MAX_EGRESS_ENTRIES && k > 0);
    if (kept > 0) this.egressTables.length = kept;
    if (this.egressTables.length > EGRESS_TABLES_KEPT) this.egressTables.length = EGRESS_TABLES_KEPT;
    return table;
  }

  private checkLimits(q: HeatMapQuery): void {
    // the parameter tables cap both; an engine is sized for its limits and never stretched past them
    if (q.maxDurationSec > this.maxDurationSec || q.resolution > this.maxResolution) {
      throw new RangeError(`a heat map of ${q.maxDurationSec} s at resolution ${q.resolution} exceeds the engine's ${this.maxDurationSec} s, ${this.maxResolution}`);
    }
  }

  /** Steps 1-2: the access and RAPTOR from it (no stop reached without public transport or access). */
  private transitPass(q: HeatMapQuery): TransitPass {
    if (!q.transit) return NO_TRANSIT;
    const { graph } = this.data;
    const cx = projectX(graph.projection, q.centreLon);
    const cy = projectY(graph.projection, q.centreLat);
    const accessCount = this.access(q, cx, cy, q.direction === 'arrival');
    if (accessCount === 0) return NO_TRANSIT;
    return this.transitFrom(q, q.t0, accessCount);
  }

  /**
   * Step 3: per street leg at the places' side, one search seeded by the centre (a direct leg) and
   * by every stop reached by a vehicle (an end leg), capped at the maximum duration, handed to
   * `value` before the next leg reuses it.
   */
  private streetLegs(
    q: HeatMapQuery,
    pass: TransitPass,
    legs: MapLeg[],
    centreSnaps: (Snap | null)[],
    value: (leg: MapLeg, search: StreetSearch, limitDs: number) => void,
    limitOf: (leg: MapLeg) => number = () => q.maxDurationSec * 10,
  ): void {
    const reverse = q.direction === 'arrival';
    const walkSpeed = q.speeds.walking;
    const { vehicleSec, reached, reachedCount } = pass;
    legs.forEach((leg, k) => {
      const search = this.street;
      search.reset();
      const snap = centreSnaps[k];
      if (snap) search.seedSnap(snap, leg.layer, leg.speed, leg.extraDs + offsetSeedDs(snap.offsetM, walkSpeed), reverse);
      if (vehicleSec && leg.fromStops) {
        for (let r = 0; r < reachedCount; r++) {
          const s = reached[r]!;
          const stop = stopSnap(this.data.snaps, leg.layer, s);
          if (stop) search.seedSnap(stop, leg.layer, leg.speed, vehicleSec[s]! * 10 + leg.extraDs + offsetSeedDs(stop.offsetM, walkSpeed), reverse);
        }
      }
      const limitDs = limitOf(leg);
      search.run(leg.layer, leg.speed, limitDs, reverse);
      value(leg, search, limitDs);
    });
  }

  /**
   * The grid `compute(q)` would value, without valuing it (access and RAPTOR only): a difference
   * map puts two maps on the union of their grids (maps/difference-map.ts).
   */
  gridOf(q: HeatMapQuery): Grid {
    const { vehicleSec, reached, reachedCount } = this.transitPass(q);
    const legs = mapLegs(q);
    return this.mapGrid(q, legs, this.centreSnaps(q, legs), reached, vehicleSec ? reachedCount : 0, (s) => q.maxDurationSec - vehicleSec![s]!);
  }

  /** The stops reached by a vehicle that no end leg can leave on the street: no street of its layer within the link radius. */
  countUnlinked(legs: readonly { layer: Layer; fromStops: boolean }[], reached: ArrayLike<number>, reachedCount: number): number {
    const edges = legs.filter((leg) => leg.fromStops).map((leg) => this.data.snaps.edge[leg.layer]!);
    if (edges.length === 0) return 0;
    let unlinked = 0;
    for (let r = 0; r < reachedCount; r++) {
      const s = reached[r]!;
      if (edges.every((edge) => edge[s]! < 0)) unlinked++;
    }
    return unlinked;
  }

  /** Where the centre links to each leg's layer (null for a leg that does not start from it, or no street within reach). */
  centreSnaps(q: HeatMapQuery, legs: MapLeg[]): (Snap | null)[] {
    const { graph } = this.data;
    const cx = projectX(graph.projection, q.centreLon);
    const cy = projectY(graph.projection, q.centreLat);
    return legs.map((leg) => (leg.fromCentre ? snapPoint(graph, leg.layer, cx, cy, LINK_RADIUS_M) : null));
  }

  /**
   * A map's grid: the box of the squares around the centre (its direct legs) and around the first
   * `count` of `stops` (its end legs), each as far as the time left there takes a traveller
   * (`remainingSec` of a stop, less a leg's extra time), cut into q.resolution cells a side.
   */
  mapGrid(q: HeatMapQuery, legs: MapLeg[], centreSnaps: (Snap | null)[], stops: ArrayLike<number>, count: number, remainingSec: (s: number) => number): Grid {
    const T = q.maxDurationSec;
    const walkSpeed = q.speeds.walking;
    const box = new BoxBuilder();
    // the farthest a place reached with `remainingSec` left can value a cell: the street at its speed, the offsets on foot
    const reachM = (leg: ModeLeg, remaining: number) => remaining * Math.max(leg.speed, walkSpeed);
    legs.forEach((leg, k) => {
      if (centreSnaps[k]) box.addSquare(q.centreLon, q.centreLat, reachM(leg, T - leg.extraDs / 10));
      if (!leg.fromStops) return;
      for (let r = 0; r < count; r++) {
        const s = stops[r]!;
        if (this.data.snaps.edge[leg.layer]![s]! < 0) continue;
        const remaining = remainingSec(s) - leg.extraDs / 10;
        if (remaining > 0) box.addSquare(this.data.stopLon[s]!, this.data.stopLat[s]!, reachM(leg, remaining));
      }
    });
    if (box.empty) box.addSquare(q.centreLon, q.centreLat, T * walkSpeed);
    return box.grid(q.resolution);
  }

  /** RAPTOR from the stops `access` found (its first `accessCount`), by the query's rules, from `t0` (a window's minute: with its range bounds). */
  transitFrom(q: HeatMapQuery, t0: number, accessCount: number, range: RaptorQuery['range'] = null): RaptorResult {
    return this.raptor.search({
      direction: q.direction,
      t0,
      maxDurationSec: q.maxDurationSec,
      maxTransfers: q.maxTransfers,
      minTransfers: q.minTransfers,
      accessStops: this.accessStops,
      accessSec: this.accessTimes,
      count: accessCount,
      tripAllowed: q.tripAllowed,
      stopAllowed: q.stopAllowed,
      wheelchair: q.wheelchair,
      walkingSpeed: q.speeds.walking,
      boardSlackSec: q.boardSlackSec,
      overlay: q.overlay,
      range,
    });
  }

  /**
   * Fill accessStops/accessTimes with the stops reachable from the centre (departure) or from which
   * the centre is reachable (arrival), with the best time over the access modes. Returns their count.
   */
  access(q: HeatMapQuery, cx: number, cy: number, reverse: boolean): number {
    const { stopLon, stopLat } = this.data;
    const round = ++this.accessRound;
    const best = this.accessSec;
    const stamp = this.accessStamp;
    let count = 0;
    const offer = (s: number, sec: number) => {
      if (q.stopAllowed && !q.stopAllowed[s]) return;
      if (stamp[s] !== round) {
        stamp[s] = round;
        best[s] = sec;
        this.accessStops[count++] = s;
      } else if (sec < best[s]!) best[s] = sec;
    };
    for (const s of q.freeStops) offer(s, 0);
    // the footpaths of the centre's own stops: a platform across the street is one transfer away
    const { raptor } = this.data;
    for (const s of q.freeStops) {
      if (reverse) {
        for (let k = raptor.transferInOffset[s]!; k < raptor.transferInOffset[s + 1]!; k++) {
          offer(raptor.transferInFrom[k]!, transferSec(raptor, raptor.transferInEdge[k]!, q.speeds.walking));
        }
      } else {
        for (let k = raptor.transferOffset[s]!; k < raptor.transferOffset[s + 1]!; k++) offer(raptor.transferTo[k]!, transferSec(raptor, k, q.speeds.walking));
      }
    }
    if (q.freeRadiusM > 0) {
      const cosLat = Math.cos((q.centreLat * Math.PI) / 180);
      for (let s = 0; s < stopLon.length; s++) {
        const dx = (stopLon[s]! - q.centreLon) * METRES_PER_DEGREE * cosLat;
        const dy = (stopLat[s]! - q.centreLat) * METRES_PER_DEGREE;
        if (dx * dx + dy * dy <= q.freeRadiusM * q.freeRadiusM) offer(s, 0);
      }
    }
    for (const mode of q.accessModes) {
      const limitSec = q.maxToPtSec[mode];
      if (!(limitSec > 0)) continue;
      const extraSec = mode === 'taxi' ? q.taxiAccessExtraSec : 0;
      for (const leg of accessLegs(mode, q)) this.streetAccess(leg, limitSec, extraSec, cx, cy, reverse, offer);
    }
    for (let k = 0; k < count; k++) this.accessTimes[k] = best[this.accessStops[k]!]!;
    return count;
  }

  /** Stops reached by one access leg; a car leg continues on foot from wherever it may park. */
  private streetAccess(
    leg: AccessLeg,
    limitSec: number,
    extraSec: number,
    cx: number,
    cy: number,
    reverse: boolean,
    offer: (s: number, sec: number) => void,
  ): void {
    const { graph, snaps } = this.data;
    const limitDs = Math.min(limitSec, this.maxDurationSec) * 10;
    const search = this.street;
    search.reset();
    const snap = snapPoint(graph, leg.layer, cx, cy, LINK_RADIUS_M);
    // no street within the link radius: nothing to walk or ride on
    if (!snap) return;
    search.seedSnap(snap, leg.layer, leg.speed, offsetSeedDs(snap.offsetM, leg.walkSpeed), reverse);
    search.run(leg.layer, leg.speed, limitDs, reverse);
    let final: StreetSearch = search;
    let stopLayer = leg.layer;
    let stopSpeed = leg.speed;
    if (leg.parkThenWalk) {
      // leave the car at any vertex where parking is allowed, then walk (both legs within the limit)
      const walk = this.parkedWalk;
      walk.reset();
      for (let k = 0; k < search.touchedCount; k++) {
        const v = search.touched[k]!;
        if (graph.vertexParkable[v]) walk.seed(v, search.costOf(v));
      }
      walk.run(Layer.Walk, leg.walkSpeed, limitDs, reverse);
      final = walk;
      stopLayer = Layer.Walk;
      stopSpeed = leg.walkSpeed;
    }
    const edges = snaps.edge[stopLayer]!;
    const along = snaps.alongM[stopLayer]!;
    const offsets = snaps.offsetM[stopLayer]!;
    const perMetre = 10 / stopSpeed;
    const walkDsPerMetre = 10 / leg.walkSpeed;
    for (let s = 0; s < edges.length; s++) {
      if (edges[s]! < 0) continue;
      const ds = final.costAlong(edges[s]!, along[s]!, stopLayer, perMetre, reverse) + offsets[s]! * walkDsPerMetre;
      if (ds <= limitDs) offer(s, Math.trunc(ds / 10) + extraSec);
    }
  }
}

interface AccessLeg {
  layer: Layer;
  speed: number;
  parkThenWalk: boolean;
  walkSpeed: number;
}

/** The legs of a mode at the centre's side: a car (not car_no_park, not a taxi) is parked, then the traveller walks. */
function accessLegs(mode: HeatMapMode, q: HeatMapQuery): AccessLeg[] {
  return MODE_LEGS[mode].map(({ layer, speedOf }) => ({ layer, speed: q.speeds[speedOf], parkThenWalk: mode === 'car', walkSpeed: q.speeds.walking }));
}
