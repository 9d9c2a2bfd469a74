/**
 * What a query refuses, as a code and the values its wording quotes: the query layer raises them,
 * each front door prints them. Their wording lives here once, and names the request's parameters
 * through the front door's `Namer` (the API writes `'opportunities[]'`, the command line
 * `--opportunities`). The API's wire shape of each code (Navitia's error families, statuses and
 * ids) is api/errors.ts's.
 */
import { MAX_ACCESSIBILITY_SEARCHES, MAX_BOUNDARIES, MAX_CUTOFFS, MAX_MATRIX_ORIGINS, MAX_MATRIX_PAIRS, MAX_NEAREST, MAX_PERCENTILES } from '../service/limits.js';

/** How a front door names one of its parameters, from its table name (`opportunities[]` for an array's). */
export type Namer = (param: string) => string;

/** The API's way: the name quoted as the query string writes it. */
export const quotedName: Namer = (param) => `'${param}'`;

type Data = Record<string, string>;

/** A request of many origins past MAX_ACCESSIBILITY_SEARCHES, sent to the command that computes it. */
const tooManySearches =
  (command: 'accessibility' | 'matrix') =>
  ({ set, origins, departures, weight }: { set: string; origins: string; departures: string; weight: string }) =>
  `the ${origins} origins of ${set} over ${departures} departures, street legs reaching ${weight} times a walk's area, are more searches than a request computes (at most ${MAX_ACCESSIBILITY_SEARCHES} origins × departures × that factor): use navette ${command}`;

/**
 * Every refusal of the query layer, its wording from its data. The messages are Navitia's where it
 * has the error (the heat maps', the production period's), ours elsewhere.
 */
export const QUERY_ERRORS = {
  /** a value its parameter's table refuses (`reason`), with the parameter's description (`help`) */
  invalidParameter: (d: { name: string; reason: string; help: string }, name: Namer) => `${name(d.name)} invalid: ${d.reason}`,
  // maps (Navitia's words; the centre checks are shared)
  heatMapNoCentre: (_: Data, name: Namer) => `you should provide a ${name('from')} or a ${name('to')} argument`,
  heatMapTwoCentres: (_: Data, name: Namer) => `you cannot provide a ${name('from')} and a ${name('to')} argument`,
  heatMapNoMaxDuration: (_: Data, name: Namer) => `you should provide a ${name('max_duration')} argument`,
  heatMapRidesharing: () => "ridesharing isn't available on heatmaps",
  isochroneNoDuration: (_: Data, name: Namer) => `you should provide a ${name('boundary_duration[]')} or a ${name('max_duration')} argument`,
  isochroneTooManyBoundaries: (_: Data, name: Namer) => `you cannot provide more than ${MAX_BOUNDARIES} ${name('boundary_duration[]')}`,
  isochroneRidesharing: () => "ridesharing isn't available on isochrone",
  invalidEntryPoint: (d: { place: string }) => `The entry point: ${d.place} is not valid`,
  outOfProduction: () => 'date is not in data production period',
  noStreetNetwork: () => 'no street network data, impossible to compute a heat_map',
  // departure windows (ours; Navitia has none)
  tooManyPercentiles: (_: Data, name: Namer) => `you cannot provide more than ${MAX_PERCENTILES} ${name('percentiles[]')}`,
  percentilesNotAscending: (_: Data, name: Namer) => `${name('percentiles[]')} must be in ascending order, each value once`,
  percentileNotAsked: (d: { percentile: string }, name: Namer) => `${name('percentile')} ${d.percentile} is not one of the ${name('percentiles[]')}`,
  windowOutOfProduction: () => 'the departure window is not in data production period',
  // accessibility and travel-time matrices (ours)
  accessibilityNoOpportunities: (_: Data, name: Namer) => `you should provide an ${name('opportunities[]')} argument: POINT_SET:COLUMN`,
  tooManyCutoffs: (_: Data, name: Namer) => `you cannot provide more than ${MAX_CUTOFFS} ${name('cutoffs[]')}`,
  tooManyNearest: (_: Data, name: Namer) => `you cannot provide more than ${MAX_NEAREST} ${name('nearest[]')}`,
  unknownOpportunities: (d: { given: string; known: string }, name: Namer) => `${name('opportunities[]')} ${d.given} names no point set column; the coverage has ${d.known}`,
  unknownPointSet: (d: { param: string; given: string; known: string }, name: Namer) => `${name(d.param)} ${d.given} names no point set; the coverage has ${d.known}`,
  unknownPointIds: (d: { param: string; set: string; given: string }, name: Namer) => `${name(d.param)} names no point of ${d.set}: ${d.given}`,
  repeatedPointId: (d: { param: string; id: string }, name: Namer) => `${name(d.param)} gives ${d.id} twice: name each point once`,
  routesWithoutBreakdown: (_: Data, name: Namer) => `${name('routes')} names the lines of the journeys ${name('breakdown')} gives: ask for ${name('breakdown')} too`,
  badDecay: (d: { why: string }, name: Namer) => `${name('decay_function')}: ${d.why}`,
  accessibilityNoPlace: (_: Data, name: Namer) => `you should provide a ${name('from')}, a ${name('to')} or an ${name('origins')} argument`,
  accessibilityOriginsAndPlace: (_: Data, name: Namer) => `you cannot provide an ${name('origins')} argument with a ${name('from')} or a ${name('to')}`,
  accessibilityTooManySearches: tooManySearches('accessibility'),
  regionalComparison: (d: { param: string }, name: Namer) => `${name(d.param)} is available for one place (from or to), not with ${name('origins')}`,
  matrixNoOrigins: (_: Data, name: Namer) => `you should provide an ${name('origins')} argument: a point set`,
  matrixTooManySearches: tooManySearches('matrix'),
  matrixTooLarge: (d: { origins: string; destinations: string }) =>
    `a matrix of ${d.origins} origins × ${d.destinations} destinations is larger than a request computes (at most ${MAX_MATRIX_ORIGINS} origins and ${MAX_MATRIX_PAIRS} pairs): use navette matrix`,
  // difference maps (ours; Navitia has none)
  compareSameFreshness: (d: { level: string; help: string }) => `it is ${d.level}, the map's own data_freshness: compare with another level`,
  compareOnIsochrones: (d: { param: string }, name: Namer) => `${name(d.param)} is not available on isochrones: the bands of a difference have no meaning; ask heat_maps`,
  differenceAsGeojson: (d: { param: string }, name: Namer) => `${name(d.param)} is not available with format=geojson: the bands of a difference have no meaning; ask json, tiff or png`,
  // scenarios (ours; Navitia has none)
  unknownScenario: (d: { param: string; scenario: string; known: string; help: string }) => `${d.scenario} names no scenario of the coverage; it has ${d.known}`,
  refusedScenario: (d: { param: string; scenario: string; reason: string; faults: string; help: string }) =>
    `the scenario ${d.scenario} was refused (${d.faults} faults; the first: ${d.reason}): the coverage's scenarios list them`,
  scenarioWithFreshness: (d: { level: string; help: string }) => `a scenario changes the base schedule: it is not available with data_freshness=${d.level}`,
  scenarioWithFreshnessComparison: (_: Data, name: Namer) => `${name('compare_data_freshness')} is not available with ${name('scenario')}: compare scenarios with ${name('compare_scenario')}`,
  compareTwoWays: (_: Data, name: Namer) => `you cannot provide ${name('compare_data_freshness')} and ${name('compare_scenario')}: compare one way at a time`,
  compareSameScenario: (d: { scenario: string; help: string }) => `it is ${d.scenario}, the request's own scenario: compare with another scenario or with base`,
  /** a scenario being applied to a newly loaded timetable */
  scenarioPreparing: (d: { scenario: string; retryAfterSec: string }) => `The scenario ${d.scenario} is being applied to the coverage's new data, retry in a few seconds`,
  // the worker pool
  /** more computations waiting than the pool's queue holds */
  computationsQueueFull: (_: { retryAfterSec: string }) => 'Too many heat maps are being computed, retry later',
  /** a request of many origins past its deadline: no further origin started */
  requestDeadline: (d: { seconds: string; done: string; origins: string; retryAfterSec: string }) =>
    `The request ran past its deadline of ${d.seconds} s with ${d.done} of its ${d.origins} origins computed, and was stopped: ask for fewer origins or a shorter window, or use the navette command`,
  /** a computation not done by its request's deadline (its wait for a thread and its run): withdrawn from the queue, or stopped */
  computationDeadline: (d: { coverage: string; seconds: string; retryAfterSec: string }) =>
    `The computation on ${d.coverage} was not done within its request's deadline of ${d.seconds} s (its wait for a thread and its run) and was stopped: retry later, or ask for less (a shorter window or max_duration, slower modes)`,
  /** a computation past its time budget (its thread was stopped): the coverage is alive, the request asked too much of it */
  computationTimedOut: (d: { coverage: string; retryAfterSec: string }) =>
    `The computation on ${d.coverage} took longer than its time budget and was stopped: ask for less (a shorter window or max_duration, fewer origins, slower modes) or retry later`,
} as const satisfies Record<string, (data: never, name: Namer) => string>;

export type QueryErrorCode = keyof typeof QUERY_ERRORS;
export type QueryErrorData<C extends QueryErrorCode> = Parameters<(typeof QUERY_ERRORS)[C]>[0];

/** The wording of `error.details` that the query layer gives (api/errors.ts DETAILS holds them beside the API's own). */
export const QUERY_DETAILS = {
  /** a map's centre that is neither a known stop nor a coordinate */
  unknownPlace: (param: string, id: string) => `${param}=${id} is neither a stop point id, a stop area id nor a coordinate lon;lat`,
  coordinateOutOfRange: (param: string, id: string) => `${param}=${id}: a coordinate is lon;lat, lon from -180 to 180 and lat from -90 to 90`,
  /** a date outside the days of the data */
  outsideProduction: (day: string, firstDay: string, lastDay: string) => `${day} is outside the production period, ${firstDay} to ${lastDay}`,
  noProductionPeriod: () => 'the coverage has no trip on any day: it has no production period',
} as const;

export class QueryError<C extends QueryErrorCode = QueryErrorCode> extends Error {
  /** what is wrong in the request's terms, beside the message (QUERY_DETAILS) */
  details: string | undefined;

  constructor(
    readonly code: C,
    readonly data: QueryErrorData<C>,
  ) {
    super(queryErrorText(code, data, quotedName));
    this.name = 'QueryError';
  }

  /** The same error, saying what is wrong in the request's terms. */
  withDetails(details: string | undefined): this {
    this.details = details;
    return this;
  }

  /** Its wording, the parameters named as a front door names them. */
  text(name: Namer): string {
    return queryErrorText(this.code, this.data, name);
  }
}

function queryErrorText<C extends QueryErrorCode>(code: C, data: QueryErrorData<C>, name: Namer): string {
  return (QUERY_ERRORS[code] as (d: QueryErrorData<C>, name: Namer) => string)(data, name);
}

/** A refusal of the query layer; `data` holds the values its wording quotes (none for most). */
export function refuse<C extends QueryErrorCode>(code: C, ...data: [QueryErrorData<C>] extends [undefined] ? [] : {} extends QueryErrorData<C> ? [] : [QueryErrorData<C>]): QueryError<C> {
  return new QueryError(code, (data[0] ?? {}) as QueryErrorData<C>);
}
