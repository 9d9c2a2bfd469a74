/**
 * The travel times from many origins to the points of a set, one computation per origin on the
 * runner (the worker pool: every core), a few in flight at once, handed back in the origins' order
 * as they complete: the rows of a travel-time matrix, for `travel_time_matrix` and `navette matrix`
 * / `navette accessibility` alike.
 */
import type { HeatMapRunner, Turn } from '../maps/heat-map-runner.js';
import { setsOf, type PointsRequest, type PointsResult } from '../maps/points.js';
import type { PreparedPart, PreparedTables } from '../routing/heat-map.js';
import type { JourneyParts } from '../routing/heat-map-types.js';
import type { MapQuery } from '../maps/difference-map.js';
import type { Generation } from '../service/generation.js';
import { buildQuery, streetLegs, type JourneyParams } from './journey-query.js';
import { ownOverlay } from './timetable-choice.js';
import type { RaptorOverlay } from '../routing/raptor-overlay.js';
import type { SearchTimetable } from './ridden-lines.js';
import { vertexBox, type StreetGraph } from '../model/street-graph.js';
import { departuresOf, requestDepartures } from './departure-window.js';
import { runPoints } from './run-computation.js';
import { QueryError, refuse } from './query-errors.js';
import type { Comparison } from '../maps/difference-map.js';
import { boardSlackOf, type CoverageConfig } from '../service/coverage-config.js';
import { MAX_ACCESSIBILITY_SEARCHES, MAX_MATRIX_ORIGINS, MAX_MATRIX_PAIRS } from '../service/limits.js';
import { MAP_FALLBACKS, type MapParams } from './journey-params.js';
import type { MeasuresRequest } from './measures.js';
import { departureLabels, searchesPerOrigin, type Departures } from '../maps/departures.js';

export interface OriginTimesJob {
  coverageId: string;
  generation: Generation;
  params: MapParams;
  t0: number;
  maxDurationSec: number;
  boardSlackSec: number;
  window: Departures | null;
  /** the point set reached (an index in the coverage's point sets) */
  destinations: number;
  /** the origins' positions */
  originLon: ArrayLike<number>;
  originLat: ArrayLike<number>;
  /** each origin computed again on another timetable (the command's --compare-scenario, --compare-data-freshness) */
  comparison: Comparison | null;
  /**
   * the overlay of the job's own timetable (null: the base schedule), chosen once: every origin is
   * computed on it, and the lines its journeys ride are named from it (ridden-lines.ts), even when a
   * scenario's file changes during the run
   */
  overlay: RaptorOverlay | null;
}

/** Per origin: per percentile, the whole seconds to each destination (-1 unreached), and with a breakdown their journeys in parts. */
export interface OriginRow {
  origin: number;
  seconds: Int32Array[];
  parts?: JourneyParts[];
}

/** What a job is made from: the coverage, the request's words, its instant and limit, the sets. */
export interface OriginJobParts {
  coverage: { id: string; config: CoverageConfig };
  generation: Generation;
  /** the map parameters (no centre: the origins are the centres) */
  params: JourneyParams;
  t0: number;
  timeZone: string;
  maxDurationSec: number;
  destinations: number;
  originLon: ArrayLike<number>;
  originLat: ArrayLike<number>;
  comparison?: Comparison | null;
}

/**
 * The job of many origins (the matrix, regional accessibility, the commands alike): departures from
 * each origin, the window's last minute in the production period (`t0`'s day is the caller's check,
 * made first), the coverage's board slack.
 */
export function originJob(parts: OriginJobParts): OriginTimesJob {
  const { coverage, generation, t0, timeZone } = parts;
  const params: MapParams = { ...parts.params, from: undefined, to: undefined, resolution: 1 };
  return {
    coverageId: coverage.id,
    generation,
    params,
    t0,
    maxDurationSec: parts.maxDurationSec,
    boardSlackSec: boardSlackOf(coverage.config),
    window: requestDepartures(generation, params, t0, 'departure', timeZone),
    destinations: parts.destinations,
    originLon: parts.originLon,
    originLat: parts.originLat,
    comparison: parts.comparison ?? null,
    overlay: ownOverlay(params, generation),
  };
}

/** The area a walk to transit reaches by default, as a radius: the fallbacks' speed × longest leg, metres. */
const WALK_REACH_M = MAP_FALLBACKS['walking_speed']! * MAP_FALLBACKS['max_duration_to_pt']!;

/**
 * The cost of a request of many origins, in searches of a walk's reach, and whether it is more than a
 * request computes (MAX_ACCESSIBILITY_SEARCHES): origins × departures of its window × how many times
 * a walk's area its street legs reach (the farthest of its first and last modes, speed × longest leg,
 * squared; no more than the coverage's streets span, `extentM`). Judged from its words and the
 * coverage's size, before anything is computed.
 */
export function searchCost(origins: number, params: JourneyParams, extentM: number): { departures: number; weight: number; refused: boolean } {
  const departures = searchesPerOrigin(departuresOf(params));
  const { first, last, speeds, maxToPtSec } = streetLegs(params);
  const reachM = Math.max(...[...first, ...last].map((mode) => speeds[mode] * maxToPtSec[mode]));
  const area = (radiusM: number) => (radiusM / WALK_REACH_M) ** 2;
  const weight = Math.round(10 * Math.max(1, Math.min(area(reachM), area(extentM)))) / 10;
  return { departures, weight, refused: origins * departures * weight > MAX_ACCESSIBILITY_SEARCHES };
}

/**
 * A request of many origins through the API, admitted from its size before anything is computed: a
 * matrix within MAX_MATRIX_ORIGINS and MAX_MATRIX_PAIRS, any of them within its search cost (the
 * commands, which take any size, are not asked).
 */
export function admitManyOrigins(generation: Generation, request: { kind: 'accessibility' | 'matrix'; set: string; origins: number; destinations?: number; params: JourneyParams }): void {
  const { origins, destinations } = request;
  if (destinations !== undefined && (origins > MAX_MATRIX_ORIGINS || origins * destinations > MAX_MATRIX_PAIRS)) throw refuse('matrixTooLarge', { origins: String(origins), destinations: String(destinations) });
  const cost = searchCost(origins, request.params, streetExtentM(generation));
  const data = { set: request.set, origins: String(origins), departures: String(cost.departures), weight: String(cost.weight) };
  if (cost.refused) throw refuse(request.kind === 'matrix' ? 'matrixTooManySearches' : 'accessibilityTooManySearches', data);
}

/** How far the coverage's streets span, metres: the diagonal of their box. */
export function streetExtentM(generation: Generation): number {
  const graph = generation.streets?.data.graph;
  if (!graph) return 0;
  // a pass over every vertex: once per street graph, not on the event loop at every request
  let extent = EXTENTS.get(graph);
  if (extent === undefined) {
    const box = vertexBox(graph);
    extent = box ? Math.hypot(box.maxX - box.minX, box.maxY - box.minY) : 0;
    EXTENTS.set(graph, extent);
  }
  return extent;
}

const EXTENTS = new WeakMap<StreetGraph, number>();

/** The timetable a job's origins are searched on, which names the lines their journeys ride. */
export function searchedTimetable(job: Pick<OriginTimesJob, 'generation' | 'overlay'>): SearchTimetable {
  return { tt: job.generation.tt, overlay: job.overlay };
}

/** The percentiles a job's rows hold: the window's, or the single departure's label. */
export function jobPercentiles(job: Pick<OriginTimesJob, 'window'>): number[] {
  return departureLabels(job.window);
}

/** The query of one origin: a departure from its position, by the request's rules. */
function originQuery(job: OriginTimesJob, origin: number): MapQuery {
  const centre = { kind: 'coord' as const, lon: job.originLon[origin]!, lat: job.originLat[origin]! };
  return { ...buildQuery(job.params, job.generation, 'departure', centre, job.t0, job.maxDurationSec, job.boardSlackSec), overlay: job.overlay, window: job.window, comparison: job.comparison };
}

/**
 * The client went away before its answer: the work stopped, nobody reads an answer (the API answers
 * 499 for its logs and metrics only).
 */
export class RequestAbandoned extends Error {
  constructor() {
    super('The client closed the connection before the answer');
  }
}

/**
 * The rows of `job`'s origins `from` to `to` (exclusive), in order; at most `inFlight` computations
 * wait on the runner at once. `onRow` may be async (a stream's back-pressure): the next rows wait.
 * Once `signal` aborts (the client went away), no origin starts and RequestAbandoned is thrown.
 */
export function originTimes(runner: HeatMapRunner, job: OriginTimesJob, from: number, to: number, inFlight: number, onRow: (row: OriginRow) => void | Promise<void>, stop?: Stop, breakdown = false): Promise<void> {
  const request: PointsRequest = { kind: 'travel_times', set: job.destinations, breakdown };
  return inOrder(runner, job, from, to, inFlight, request, (result) => result, (origin, result) => onRow({ origin, seconds: result.times!, ...(result.parts ? { parts: result.parts } : {}) }), stop);
}


/**
 * The regional measures of `job`'s origins `from` to `to`, reduced in the workers from each origin's
 * travel times to the points of the columns' sets (`measures`: which columns, how; not
 * `job.destinations`): per origin its numbers, column after column (the reducer's layout), and the
 * compared timetable's when the job has a comparison, in order as `originTimes` gives rows (and
 * stopped by `signal` as they are).
 */
export function originMeasureValues(
  runner: HeatMapRunner,
  job: OriginTimesJob,
  measures: MeasuresRequest,
  from: number,
  to: number,
  inFlight: number,
  onValues: (origin: number, values: Float64Array, compared: Float64Array | null) => void | Promise<void>,
  stop?: Stop,
): Promise<void> {
  const request: PointsRequest = { kind: 'measures', ...measures };
  return inOrder(runner, job, from, to, inFlight, request, (result) => result, (origin, result) => onValues(origin, result.measures!, result.compared ?? null), stop);
}

/**
 * What stops a request of many origins before its end: its client going away (`signal`), its
 * deadline (`deadlineSec` after `startedMs` on `now`'s clock, `Date.now` unless a test gives its own).
 */
export interface Stop {
  signal?: AbortSignal;
  deadline?: { seconds: number; startedMs: number; now?: () => number };
  /** whose request it is: the pool's turns rotate between the clients of a coverage */
  client?: string;
}

/** The deadline of a request of many origins starting now. */
export const deadlineFrom = (seconds: number): NonNullable<Stop['deadline']> => ({ seconds, startedMs: Date.now() });

/**
 * From this many origins, the tables every origin reads are made first, once, and shared: the
 * connections pruned at the request's walking speed on one thread while another makes the egress
 * tables (a quarter and half a second of a thread's time on Porto Alegre's hexagons, which every
 * thread would otherwise spend on its own). Below it, each thread makes its own on its first origin.
 */
export const PREPARED_FROM_ORIGINS = 16;

/** The tables `request`'s origins share (PREPARED_FROM_ORIGINS), their two parts made at once on two threads. */
async function prepared(runner: HeatMapRunner, job: OriginTimesJob, query: MapQuery, request: Exclude<PointsRequest, { kind: 'prepare' }>, turn: () => Turn): Promise<PreparedTables> {
  const sets = setsOf(request);
  const part = (p: PreparedPart) => runPoints(runner, job.coverageId, job.generation, query, { kind: 'prepare', part: p, sets }, turn()).then((r) => r.prepared!);
  // a breakdown's search keeps its journeys on a RAPTOR of its own, which prunes its connections itself
  const breakdown = request.kind === 'travel_times' && request.breakdown === true;
  const [transfers, egress] = await Promise.all([breakdown ? null : part('transfers'), part('egress')]);
  return { transfers: transfers?.transfers ?? null, egress: egress.egress };
}

/**
 * Each origin's computation on the runner, `read`, handed to `onResult` in the origins' order,
 * `inFlight` at most waiting at once. When `signal` aborts, no origin starts any more (those on the
 * runner finish, unread: stopping a running one would cost its thread) and RequestAbandoned is thrown;
 * past the deadline likewise, with the refusal `requestDeadline`.
 */
async function inOrder<T>(
  runner: HeatMapRunner,
  job: OriginTimesJob,
  from: number,
  to: number,
  inFlight: number,
  request: Exclude<PointsRequest, { kind: 'prepare' }>,
  read: (result: PointsResult) => T,
  onResult: (origin: number, result: T) => void | Promise<void>,
  stop: Stop | undefined,
): Promise<void> {
  const signal = stop?.signal;
  const deadline = stop?.deadline;
  // past its deadline, no origin starts: the request answers what stopped it
  const leftMs = () => (deadline ? deadline.seconds * 1000 - ((deadline.now ?? Date.now)() - deadline.startedMs) : Infinity);
  const pastDeadline = (done: number) =>
    refuse('requestDeadline', { seconds: String(deadline!.seconds), done: String(done), origins: String(to - from), retryAfterSec: '5' });
  const checkDeadline = (done: number) => {
    if (leftMs() <= 0) throw pastDeadline(done);
  };
  const pending = new Map<number, Promise<T>>();
  const start = (origin: number) => {
    // an origin still waiting for a thread when the request's deadline passes is withdrawn
    const result = runPoints(runner, job.coverageId, job.generation, originQuery(job, origin), request, turn()).then(read);
    // a failure is read when its turn comes; until then it must not count as unhandled
    result.catch(() => {});
    pending.set(origin, result);
  };
  if (signal?.aborted) throw new RequestAbandoned();
  checkDeadline(0);
  const deadlineRefusal = (done: number) => (e: unknown) => {
    throw e instanceof QueryError && e.code === 'computationDeadline' ? pastDeadline(done) : e;
  };
  const turn = () => ({ client: stop?.client, deadlineMs: deadline ? leftMs() : undefined });
  if (to - from >= PREPARED_FROM_ORIGINS) request = { ...request, prepared: await prepared(runner, job, originQuery(job, from), request, turn).catch(deadlineRefusal(0)) };
  let next = from;
  while (next < to && pending.size < inFlight) start(next++);
  for (let origin = from; origin < to; origin++) {
    const result = await pending.get(origin)!.catch(deadlineRefusal(origin - from));
    pending.delete(origin);
    if (signal?.aborted) throw new RequestAbandoned();
    if (next < to) {
      checkDeadline(origin - from + 1);
      start(next++);
    }
    await onResult(origin, result);
  }
}
