/**
 * Every error the API can answer, in one catalogue, and the one place that turns them into
 * Navitia's wire shapes (docs/api.md, The error catalogue):
 *
 *   A. parameter  400  {"message": "parameter \"<name>\" invalid: <reason>\n<name> description: <help>"}
 *   B. http       4xx/5xx {"error": {"id", "message"}, "message"}            (unknown region, dead…)
 *   C. engine     {"error": {"id", "message"}, pagination zeros, disruptions, feed_publishers, context}
 *   D. plain      {"message": "<text>"}                                      (unknown route, unknown type)
 */
import { FILTER_ERRORS, type FilterError } from '../ptref/filter-ast.js';
import { MAX_ACCESSIBILITY_SEARCHES, MAX_CUTOFFS, MAX_MATRIX_ORIGINS, MAX_MATRIX_PAIRS, MAX_NEAREST } from '../service/limits.js';

/** Engine error ids and their HTTP status (§8.2). */
export const ENGINE_ERROR_STATUS = {
  service_unavailable: 503,
  internal_error: 500,
  date_out_of_bounds: 404,
  no_origin: 404,
  no_destination: 404,
  no_origin_nor_destination: 404,
  unknown_object: 404,
  unable_to_parse: 400,
  bad_filter: 400,
  unknown_api: 400,
  bad_format: 400,
  no_solution: 200,
} as const;

export type EngineErrorId = keyof typeof ENGINE_ERROR_STATUS;

export type ApiErrorBody =
  | { family: 'parameter'; name: string; reason: string; help: string }
  | { family: 'http'; status: number; id: string; message: string }
  | { family: 'engine'; id: EngineErrorId; message: string }
  | { family: 'plain'; status: number; message: string };

/**
 * What an endpoint answers an engine error in: Navitia puts it inside the endpoint's own body (the
 * trips' zeroed pagination, the heat maps' empty `heat_maps`), next to the publishers and context.
 */
export interface EngineEnvelope {
  /** the whole body around `"error":{…}` (given as JSON text) */
  wrap(errorJson: string): string;
  /** the query string has a `filter` key (§8.3: no 400 → 404 rewrite then) */
  hasFilterKey: boolean;
}

export class ApiError extends Error {
  envelope: EngineEnvelope | undefined;
  headers: Record<string, string> = {};
  /** What is wrong in the request's terms (a wording of DETAILS), answered as `error.details` beside Navitia's id and message. */
  details: string | undefined;

  constructor(readonly body: ApiErrorBody) {
    super(body.family === 'parameter' ? `parameter "${body.name}" invalid: ${body.reason}` : body.message);
    this.name = 'ApiError';
  }

  /** The same error, answered inside an endpoint's envelope (engine errors only). */
  within(envelope: EngineEnvelope): this {
    this.envelope = envelope;
    return this;
  }

  /** The same error, saying what is wrong in the request's terms (`error.details`; errors with an id only). */
  withDetails(details: string | undefined): this {
    this.details = details;
    return this;
  }

  /** The same error, answered with these headers too. */
  withHeaders(headers: Record<string, string>): this {
    Object.assign(this.headers, headers);
    return this;
  }
}

export const parameterError = (name: string, reason: string, help: string) => new ApiError({ family: 'parameter', name, reason, help });
export const engineError = (id: EngineErrorId, message: string) => new ApiError({ family: 'engine', id, message });
export const plainError = (status: number, message: string) => new ApiError({ family: 'plain', status, message });

/** A request of many origins past MAX_ACCESSIBILITY_SEARCHES, sent to the command that computes it. */
const tooManySearches = (command: 'accessibility' | 'matrix') => (set: string, origins: string, departures: string) =>
  plainError(400, `the ${origins} origins of ${set} over ${departures} departures are more searches than a request computes (at most ${MAX_ACCESSIBILITY_SEARCHES} origins × departures): use navette ${command}`);
export const httpError = (status: number, id: string, message: string) => new ApiError({ family: 'http', status, id, message });

/** A coverage whose data failed to load (or a heat map past its time budget, as Navitia answers a dead kraken). */
export const deadRegionMessage = (region: string) => `The region ${region} is dead`;
export const DEAD_REGION_ID = 'dead_socket';
/** At most this many isochrone boundaries (Navitia's limit). */
export const MAX_BOUNDARIES = 10;
/** At most this many percentiles of a departure window. */
export const MAX_PERCENTILES = 5;
/** The methods every path answers; a path asked with another one gets 405 with them as `Allow`. */
export const ALLOWED_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];
const BASIC_REALM = { 'www-authenticate': 'Basic realm="navette"' };

/**
 * The catalogue: every error the endpoints give, each once, as a factory of its error (the values
 * a message quotes are its arguments). docs/api.md's "The error catalogue" lists them with the
 * filter's own (ptref/filter-ast.ts FILTER_ERRORS), and a test holds the two together through
 * `errorCatalogue`. Parameter errors (params.ts) are a family of their own.
 */
export const ERRORS = {
  unknownRegion: (region: string) => httpError(404, 'unknown_object', `The region ${region} doesn't exists`),
  noRegionForCoordinates: (lon: string, lat: string) => httpError(404, 'unknown_object', `No region available for the coordinates:${lon}, ${lat}`),
  deadRegion: (region: string) => httpError(503, DEAD_REGION_ID, deadRegionMessage(region)),
  /** a coverage still loading its data */
  loadingData: () => engineError('service_unavailable', 'The service is loading data'),
  notFoundRoute: () => plainError(404, 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.'),
  methodNotAllowed: () => plainError(405, 'The method is not allowed for the requested URL.').withHeaders({ allow: ALLOWED_METHODS.join(', ') }),
  /** every endpoint reads its query string only: a request with a body is answered before the body is read */
  bodyRefused: () => plainError(413, 'This service takes no request body: give the parameters in the query string.'),
  // Requests refused before any route reads them (operations/protocol-errors.ts): bytes Node's
  // parser cannot read, a URL that does not decode, a request too slow, too large, or with an
  // `Expect` the server cannot meet. Werkzeug's words, as Navitia (a Flask application) answers them.
  badRequest: () => plainError(400, 'The browser (or proxy) sent a request that this server could not understand.'),
  requestTimeout: () => plainError(408, "The server closed the network connection because the browser didn't finish the request within the specified time."),
  urlTooLong: () => plainError(414, 'The length of the requested URL exceeds the capacity limit for this server. The request cannot be processed.'),
  unsupportedMediaType: () => plainError(415, 'The server does not support the media type transmitted in the request.'),
  expectationFailed: () => plainError(417, 'The server could not meet the requirements of the Expect header'),
  headersTooLarge: () => plainError(431, 'One or more header fields exceeds the maximum size.'),
  // Access (operations/access.ts): no or an unknown token when tokens are configured; past the rate limit.
  noToken: () =>
    plainError(401, 'no token. Send your token as the Authorization header, alone or as the user name of Basic authentication (an empty password)').withHeaders(BASIC_REALM),
  unknownToken: () => plainError(401, 'authentication refused: unknown token').withHeaders(BASIC_REALM),
  tooManyRequests: (perSecond: number | string, burst: number | string, retryAfterSec: number | string) =>
    plainError(429, `too many requests: at most ${perSecond} per second (bursts of ${burst}) for one client; retry in ${retryAfterSec} s`).withHeaders({
      'retry-after': String(retryAfterSec),
    }),
  unknownExternalCode: (code: string) => engineError('unknown_object', `Unable to find an object for the external_code ${code}`),
  // Heat maps and isochrones (Navitia's words; the centre checks are shared)
  heatMapNoCentre: () => plainError(400, "you should provide a 'from' or a 'to' argument"),
  heatMapTwoCentres: () => plainError(400, "you cannot provide a 'from' and a 'to' argument"),
  heatMapNoMaxDuration: () => plainError(400, "you should provide a 'max_duration' argument"),
  heatMapRidesharing: () => plainError(400, "ridesharing isn't available on heatmaps"),
  isochroneNoDuration: () => plainError(400, "you should provide a 'boundary_duration[]' or a 'max_duration' argument"),
  isochroneTooManyBoundaries: () => plainError(400, `you cannot provide more than ${MAX_BOUNDARIES} 'boundary_duration[]'`),
  isochroneRidesharing: () => plainError(400, "ridesharing isn't available on isochrone"),
  // Departure windows (ours; Navitia has none)
  tooManyPercentiles: () => plainError(400, `you cannot provide more than ${MAX_PERCENTILES} 'percentiles[]'`),
  percentilesNotAscending: () => plainError(400, "'percentiles[]' must be in ascending order, each value once"),
  percentileNotAsked: (percentile: string) => plainError(400, `'percentile' ${percentile} is not one of the 'percentiles[]'`),
  windowOutOfProduction: () => engineError('date_out_of_bounds', 'the departure window is not in data production period'),
  // Accessibility and travel-time matrices (ours)
  accessibilityNoOpportunities: () => plainError(400, "you should provide an 'opportunities[]' argument: POINT_SET:COLUMN"),
  tooManyCutoffs: () => plainError(400, `you cannot provide more than ${MAX_CUTOFFS} 'cutoffs[]'`),
  tooManyNearest: () => plainError(400, `you cannot provide more than ${MAX_NEAREST} 'nearest[]'`),
  unknownOpportunities: (given: string, known: string) => plainError(400, `'opportunities[]' ${given} names no point set column; the coverage has ${known}`),
  unknownPointSet: (param: string, given: string, known: string) => plainError(400, `'${param}' ${given} names no point set; the coverage has ${known}`),
  badDecay: (why: string) => plainError(400, `'decay_function': ${why}`),
  // regional accessibility: every point of a set as an origin, instead of one place
  accessibilityNoPlace: () => plainError(400, "you should provide a 'from', a 'to' or an 'origins' argument"),
  accessibilityOriginsAndPlace: () => plainError(400, "you cannot provide an 'origins' argument with a 'from' or a 'to'"),
  accessibilityTooManySearches: tooManySearches('accessibility'),
  regionalComparison: () => plainError(400, "'compare_data_freshness' is available for one place (from or to), not with 'origins'"),
  matrixNoOrigins: () => plainError(400, "you should provide an 'origins' argument: a point set"),
  matrixTooManySearches: tooManySearches('matrix'),
  matrixTooLarge: (origins: string, destinations: string) =>
    plainError(400, `a matrix of ${origins} origins × ${destinations} destinations is larger than a request computes (at most ${MAX_MATRIX_ORIGINS} origins and ${MAX_MATRIX_PAIRS} pairs): use navette matrix`),
  // Difference maps (ours; Navitia has none)
  compareSameFreshness: (level: string, help: string) =>
    parameterError('compare_data_freshness', `it is ${level}, the map's own data_freshness: compare with another level`, help),
  compareOnIsochrones: () => plainError(400, "'compare_data_freshness' is not available on isochrones: the bands of a difference have no meaning; ask heat_maps"),
  differenceAsGeojson: () => plainError(400, "'compare_data_freshness' is not available with format=geojson: the bands of a difference have no meaning; ask json, tiff or png"),
  invalidEntryPoint: (place: string) => engineError('unknown_object', `The entry point: ${place} is not valid`),
  outOfProduction: () => engineError('date_out_of_bounds', 'date is not in data production period'),
  noStreetNetwork: () => engineError('no_solution', 'no street network data, impossible to compute a heat_map'),
  /** more heat maps waiting than the pool's queue holds */
  heatMapsQueueFull: () => engineError('service_unavailable', 'Too many heat maps are being computed, retry later'),
  /** `odt_level` other than `all` on a collection that has no ODT level (Navitia's words) */
  odtLevelOnLinesOnly: () => plainError(404, 'bad request: odt_level filter can only be applied to lines'),
  /** places (Navitia's words): `q` absent, or given empty */
  missingParameter: (name: string, help: string) => parameterError(name, 'Missing required parameter in the post body or the query string', help),
  searchWordAbsent: () => plainError(400, 'Search word absent'),
} as const;

/** An object type as a person reads it: `stop_area` → "stop area". */
const typeWords = (type: string) => type.replace(/_/g, ' ');

/**
 * What `error.details` says, each wording once: what is wrong in the request's terms, beside
 * Navitia's `id` and `message`, which stay as Navitia words them (docs/api.md, "Error details").
 * Days are written YYYY-MM-DD, times YYYY-MM-DD hh:mm, in the coverage's local time.
 */
export const DETAILS = {
  /** the path names no coverage, by id or by a point */
  unknownCoverage: (region: string) => `no coverage with id ${region}: /v1/coverage lists them`,
  pointInNoCoverage: (lonLat: string) => `no coverage contains the point ${lonLat} (longitude first, then latitude)`,
  pointSwapped: (lonLat: string, swapped: string, region: string) => `no coverage contains the point ${lonLat}; ${swapped} lies in coverage ${region}: longitude comes first, then latitude`,
  /** `{uri}` or `{id}` names no object */
  unknownObject: (type: string, id: string) => `no ${typeWords(type)} with id ${id}`,
  /** the trips exist but none runs in the asked window: when they do run */
  noTripInWindow: (subject: string, window: string, firstDay: string, lastDay: string) => `${subject} has no trip ${window}; it runs from ${firstDay} to ${lastDay}`,
  /** the subject of noTripInWindow: the last object `{uri}` names, else the coverage */
  objectSubject: (type: string, id: string) => `${typeWords(type)} ${id}`,
  coverageSubject: () => 'the coverage',
  /** the window of since/until: one whole day, two times, or one bound */
  onDay: (day: string) => `on ${day}`,
  between: (since: string, until: string) => `between ${since} and ${until}`,
  fromOn: (since: string) => `from ${since} on`,
  upTo: (until: string) => `up to ${until}`,
  /** criteria that match nothing, listed as the request gives them */
  nothingMatches: (type: string, criteria: string) => `no ${typeWords(type)} matches ${criteria}`,
  noneInCoverage: (type: string) => `the coverage has no ${typeWords(type)}`,
  /** a map's centre that is neither a known stop nor a coordinate */
  unknownPlace: (param: string, id: string) => `${param}=${id} is neither a stop point id, a stop area id nor a coordinate lon;lat`,
  coordinateOutOfRange: (param: string, id: string) => `${param}=${id}: a coordinate is lon;lat, lon from -180 to 180 and lat from -90 to 90`,
  /** a map's date outside the days of the data */
  outsideProduction: (day: string, firstDay: string, lastDay: string) => `${day} is outside the production period, ${firstDay} to ${lastDay}`,
  noProductionPeriod: () => 'the coverage has no trip on any day: it has no production period',
} as const;

export const {
  unknownRegion,
  noRegionForCoordinates,
  deadRegion,
  loadingData,
  notFoundRoute,
  methodNotAllowed,
  bodyRefused,
  badRequest,
  requestTimeout,
  urlTooLong,
  unsupportedMediaType,
  expectationFailed,
  headersTooLarge,
  noToken,
  unknownToken,
  tooManyRequests,
  unknownExternalCode,
  heatMapNoCentre,
  heatMapTwoCentres,
  heatMapNoMaxDuration,
  heatMapRidesharing,
  isochroneNoDuration,
  isochroneTooManyBoundaries,
  isochroneRidesharing,
  tooManyPercentiles,
  percentilesNotAscending,
  percentileNotAsked,
  windowOutOfProduction,
  accessibilityNoOpportunities,
  tooManyCutoffs,
  tooManyNearest,
  unknownOpportunities,
  unknownPointSet,
  badDecay,
  accessibilityNoPlace,
  accessibilityOriginsAndPlace,
  accessibilityTooManySearches,
  regionalComparison,
  matrixNoOrigins,
  matrixTooLarge,
  matrixTooManySearches,
  compareSameFreshness,
  compareOnIsochrones,
  differenceAsGeojson,
  invalidEntryPoint,
  outOfProduction,
  noStreetNetwork,
  heatMapsQueueFull,
  odtLevelOnLinesOnly,
  missingParameter,
  searchWordAbsent,
} = ERRORS;

/**
 * A coverage with no data to answer from: dead when its load failed, else still loading (an engine
 * error, answered in the endpoint's envelope when the caller gives one).
 */
export const coverageUnavailable = (coverage: { id: string; status: string }) => (coverage.status === 'dead' ? deadRegion(coverage.id) : loadingData());

/** Status and error id after Navitia's rewrite: a 400 becomes 404 `unknown_object` unless the query string has a `filter` key (§8.3). */
export function engineStatus(id: EngineErrorId, hasFilterKey: boolean): { status: number; id: EngineErrorId } {
  const status = ENGINE_ERROR_STATUS[id];
  if (status === 400 && !hasFilterKey) return { status: 404, id: 'unknown_object' };
  return { status, id };
}

export interface ErrorReply {
  status: number;
  /** JSON text */
  body: string;
  headers: Record<string, string>;
}

/** The one place an error becomes an answer: its status, Navitia's body for its family, its headers. */
export function errorReply(error: ApiError): ErrorReply {
  const body = error.body;
  const reply = (status: number, json: unknown): ErrorReply => ({ status, body: JSON.stringify(json), headers: error.headers });
  switch (body.family) {
    case 'parameter':
      return reply(400, { message: `parameter "${body.name}" invalid: ${body.reason}\n${body.name} description: ${body.help}` });
    case 'http':
      return reply(body.status, { error: errorObject(body.id, body.message, error.details), message: body.message });
    case 'plain':
      return reply(body.status, { message: body.message });
    case 'engine': {
      const { status, id } = engineStatus(body.id, error.envelope?.hasFilterKey ?? false);
      const errorJson = JSON.stringify(errorObject(id, body.message, error.details));
      return { status, body: error.envelope ? error.envelope.wrap(errorJson) : `{"error":${errorJson}}`, headers: error.headers };
    }
  }
}

/** Navitia's `error` object, and our `details` after its two keys when there are any. */
function errorObject(id: string, message: string, details: string | undefined): { id: string; message: string; details?: string } {
  return details === undefined ? { id, message } : { id, message, details };
}

/**
 * Every error of the catalogue (X, Y, Z for the values a message quotes), as docs/api.md's "The
 * error catalogue" table lists them; a test holds the two together.
 */
export function errorCatalogue(): { status: number; id: string; message: string }[] {
  const placeholders = ['X', 'Y', 'Z'];
  const errors = [
    ...Object.values(ERRORS).map((make) => (make as (...values: string[]) => ApiError)(...placeholders.slice(0, make.length))),
    // the filter's own, answered as engine errors (api/pt-collection.ts)
    ...Object.values(FILTER_ERRORS).map((make) => {
      const e = (make as (...values: string[]) => FilterError)(...placeholders.slice(0, make.length));
      return engineError(e.id, e.message);
    }),
  ];
  return errors.map(({ body }) => {
    switch (body.family) {
      case 'engine':
        return { status: ENGINE_ERROR_STATUS[body.id], id: body.id, message: body.message };
      case 'http':
        return { status: body.status, id: body.id, message: body.message };
      case 'plain':
        return { status: body.status, id: '', message: body.message };
      case 'parameter':
        return { status: 400, id: '', message: body.reason };
    }
  });
}
