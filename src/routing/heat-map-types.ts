/**
 * The heat-map engine's words, which its steps (access.ts, transit-pass.ts, street-legs.ts,
 * map-grid.ts, grid-propagation.ts, point-propagation.ts, the window's) and its callers share: the
 * query, the coverage data it reads, a departure window, and the results.
 */
import type { LinkedPoints } from '../model/linked-points.js';
import type { StopSnaps } from '../model/stop-snaps.js';
import type { StreetGraph } from '../model/street-graph.js';
import type { RaptorData } from './raptor-data.js';
import type { RaptorOverlay } from './raptor-overlay.js';
import type { PrunedTransfers } from './transfer-pruning.js';
import type { Grid } from './grid.js';

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
  /** at points, each travel time's journey in parts (`PercentileMap.parts`; departure windows only: a single departure is a window of one minute) */
  breakdown?: boolean;
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
  /** with the query's breakdown, at points: the journey of each travel time in parts */
  parts?: JourneyParts;
}

/**
 * Per target, the journey whose travel time a percentile is, in parts that add up to it exactly
 * (docs/analysis.md, "Skims"): whole seconds of walking (or the first mode) to the first boarding,
 * waiting (the first wait, transfer waits and board slack), riding, walking between stops, and
 * after the last vehicle; the vehicles boarded; -1 everywhere a target is unreached. A target
 * reached by the street alone is all access, with 0 rides.
 */
export interface JourneyParts {
  access: Int32Array;
  wait: Int32Array;
  ride: Int32Array;
  transfer: Int32Array;
  egress: Int32Array;
  rides: Int32Array;
  /** the trips ridden by target c, in order: trips[tripsFrom[c] .. tripsFrom[c + 1]) (timetable trip indices; an overlay's added trips past them) */
  tripsFrom: Int32Array;
  trips: Int32Array;
}

export interface HeatMapData {
  graph: StreetGraph;
  /** the coverage's point sets (accessibility, matrices), linked to the streets at load */
  pointSets?: LinkedPoints[];
  snaps: StopSnaps;
  raptor: RaptorData;
  /** the connections RAPTOR needs at the default walking speed (transfer-pruning.ts), pruned with the data */
  prunedTransfers: PrunedTransfers;
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
