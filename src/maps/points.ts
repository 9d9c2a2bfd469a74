/**
 * The points task of the pool: a query's travel times to the points of the coverage's point sets
 * rather than to a grid's cells, answered as typed arrays for the front door to write (JSON, CSV…):
 * the travel times themselves (one origin's row of a matrix), or the accessibility measures reduced
 * from them where they are computed (analysis/travel-time-reducer.ts: a row holds a number per point
 * of a set, the measures a few numbers). Every set it reads is valued off one transit search (RAPTOR
 * once, or once per minute of a window).
 */
import type { DecaySettings } from '../analysis/decay.js';
import { TravelTimeReducer, type MeasureLayout } from '../analysis/travel-time-reducer.js';
import type { HeatMapData, PercentileMap, PointTimes, PreparedPart, PreparedTables } from '../routing/heat-map.js';
import type { JourneyParts } from '../routing/heat-map-types.js';
import { WINDOW_STEP_SEC } from '../routing/window-transit.js';
import type { EngineCache } from '../service/engine-cache.js';
import { departureLabels } from './departures.js';
import type { MapQuery } from './difference-map.js';

/** One opportunity column of one point set (indices in the coverage's point sets and in the set's columns). */
export interface OpportunityColumn {
  set: number;
  column: number;
}

/** What a points task answers. */
export type PointsRequest =
  | { kind: 'travel_times'; /** the point set reached */ set: number; /** each travel time's journey in parts (`PointsResult.parts`) */ breakdown?: boolean; prepared?: PreparedTables }
  | { kind: 'measures'; columns: OpportunityColumn[]; layout: MeasureLayout; decay: DecaySettings; maxDurationSec: number; prepared?: PreparedTables }
  /** one part of the tables a matrix's origins share (`PointsResult.prepared`), the others' requests then carry them (`prepared`) */
  | { kind: 'prepare'; part: PreparedPart; sets: number[] };

export interface PointsResult {
  /** travel_times: per percentile, the whole seconds to each point of the set (-1 unreached) */
  times: Int32Array[] | null;
  /** travel_times with a breakdown: per percentile, the journeys of `times` in parts */
  parts?: JourneyParts[] | null;
  /** measures: per column, the reducer's numbers (NaN: null) */
  measures: Float64Array | null;
  /** with a comparison (`query.comparison`), the measures at the other level */
  compared: Float64Array | null;
  /** the points reached at the query's own level, over the sets read */
  reachedPoints: number;
  /** prepare: the part made (on shared memory) */
  prepared?: PreparedTables;
}

/** The point sets a request reads, each once. */
export function setsOf(request: PointsRequest): number[] {
  if (request.kind === 'prepare') return request.sets;
  return request.kind === 'travel_times' ? [request.set] : [...new Set(request.columns.map((c) => c.set))];
}

export function computePoints(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, mapQuery: MapQuery, request: PointsRequest): PointsResult {
  const { comparison, ...query } = mapQuery;
  const sets = setsOf(request);
  let reachedPoints = 0;
  const engine = () => cache.get(coverageId, dataId, data);
  if (request.kind === 'prepare') return { times: null, measures: null, compared: null, reachedPoints, prepared: engine().prepare(query, sets.map((set) => data.pointSets![set]!), request.part) };
  if (request.prepared) engine().adopt(request.prepared);
  if (request.kind === 'travel_times' && request.breakdown) return journeysTo(cache, coverageId, dataId, data, query, request.set);
  const own = pointTimes(cache, coverageId, dataId, data, query, sets, (n) => (reachedPoints += n));
  if (request.kind === 'travel_times') return { times: own(request.set).map((map) => map.seconds), measures: null, compared: null, reachedPoints };
  const reducer = new TravelTimeReducer(request.layout, request.decay, request.maxDurationSec);
  const measuresOf = (timesOf: (set: number) => PercentileMap[]) => {
    const out = new Float64Array(request.columns.length * reducer.perColumn);
    request.columns.forEach(({ set, column }, k) => {
      reducer.reduce(
        timesOf(set).map((map) => map.seconds),
        data.pointSets![set]!.columns[column]!.values,
        out,
        k * reducer.perColumn,
      );
    });
    return out;
  };
  const compared = comparison ? measuresOf(pointTimes(cache, coverageId, dataId, data, { ...query, overlay: comparison.overlay }, sets, () => {})) : null;
  return { times: null, measures: measuresOf(own), compared, reachedPoints };
}

/**
 * The travel times of `query` to the points of `set` with their journeys in parts, off the window
 * engine (a single departure is a window of one minute there: the same travel times; copies, as
 * `pointTimes` gives).
 */
function journeysTo(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: Omit<MapQuery, 'comparison'>, set: number): PointsResult {
  const window = query.window && !query.window.isSingle ? query.window : { windowSec: WINDOW_STEP_SEC, percentiles: departureLabels(query.window), selected: 0 };
  let result: PointsResult | undefined;
  cache.window(coverageId, dataId, data).computePointSets({ ...query, window, breakdown: true }, window, [data.pointSets![set]!], (_, times) => {
    const maps = times.percentiles!;
    result = { times: maps.map((map) => map.seconds.slice()), parts: maps.map((map) => copyParts(map.parts!)), measures: null, compared: null, reachedPoints: times.reachedPoints };
  });
  return result!;
}

const copyParts = (parts: JourneyParts): JourneyParts => ({
  access: parts.access.slice(),
  wait: parts.wait.slice(),
  ride: parts.ride.slice(),
  transfer: parts.transfer.slice(),
  egress: parts.egress.slice(),
  rides: parts.rides.slice(),
  tripsFrom: parts.tripsFrom.slice(),
  trips: parts.trips.slice(),
});

/**
 * The travel times of `query` to the point sets `sets`, all off one transit search, then read by
 * set (copies: the engines' results view their scratch, which the next set reuses); `onReached`
 * counts the points reached.
 */
function pointTimes(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: Omit<MapQuery, 'comparison'>, sets: number[], onReached: (points: number) => void): (set: number) => PercentileMap[] {
  const times = new Map<number, PercentileMap[]>();
  const points = sets.map((set) => data.pointSets![set]!);
  const window = query.window;
  const keep = (k: number, result: PointTimes) => {
    onReached(result.reachedPoints);
    if (result.percentiles) times.set(sets[k]!, result.percentiles.map((map) => ({ percentile: map.percentile, seconds: map.seconds.slice() })));
    else {
      const seconds = result.seconds.slice();
      times.set(sets[k]!, departureLabels(window).map((percentile) => ({ percentile, seconds })));
    }
  };
  if (window && !window.isSingle) cache.window(coverageId, dataId, data).computePointSets(query, window, points, keep);
  else cache.get(coverageId, dataId, data).computePointSets(query, points, keep);
  return (set) => times.get(set)!;
}
