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
import { QUERY_DETAILS, QUERY_ERRORS, QueryError, quotedName, type QueryErrorCode } from '../queries/query-errors.js';

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

export const httpError = (status: number, id: string, message: string) => new ApiError({ family: 'http', status, id, message });

/** A coverage whose data failed to load. */
export const deadRegionMessage = (region: string) => `The region ${region} is dead`;
export const DEAD_REGION_ID = 'dead_socket';
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
  /** `odt_level` other than `all` on a collection that has no ODT level (Navitia's words) */
  odtLevelOnLinesOnly: () => plainError(404, 'bad request: odt_level filter can only be applied to lines'),
  /** places (Navitia's words): `q` absent, or given empty */
  missingParameter: (name: string, help: string) => parameterError(name, 'Missing required parameter in the post body or the query string', help),
  searchWordAbsent: () => plainError(400, 'Search word absent'),
} as const;

/** How the API answers a refusal of the query layer: Navitia's family, status and id for it. */
type Wire = { family: 'plain'; status: number } | { family: 'engine'; id: EngineErrorId } | { family: 'parameter' };

const PLAIN_400: Wire = { family: 'plain', status: 400 };
const QUERY_ERROR_WIRES: Record<QueryErrorCode, Wire> = {
  invalidParameter: { family: 'parameter' },
  heatMapNoCentre: PLAIN_400,
  heatMapTwoCentres: PLAIN_400,
  heatMapNoMaxDuration: PLAIN_400,
  heatMapRidesharing: PLAIN_400,
  isochroneNoDuration: PLAIN_400,
  isochroneTooManyBoundaries: PLAIN_400,
  isochroneRidesharing: PLAIN_400,
  invalidEntryPoint: { family: 'engine', id: 'unknown_object' },
  outOfProduction: { family: 'engine', id: 'date_out_of_bounds' },
  noStreetNetwork: { family: 'engine', id: 'no_solution' },
  tooManyPercentiles: PLAIN_400,
  percentilesNotAscending: PLAIN_400,
  percentileNotAsked: PLAIN_400,
  windowOutOfProduction: { family: 'engine', id: 'date_out_of_bounds' },
  accessibilityNoOpportunities: PLAIN_400,
  tooManyCutoffs: PLAIN_400,
  tooManyNearest: PLAIN_400,
  unknownOpportunities: PLAIN_400,
  unknownPointSet: PLAIN_400,
  unknownPointIds: PLAIN_400,
  repeatedPointId: PLAIN_400,
  routesWithoutBreakdown: PLAIN_400,
  badDecay: PLAIN_400,
  accessibilityNoPlace: PLAIN_400,
  accessibilityOriginsAndPlace: PLAIN_400,
  accessibilityTooManySearches: PLAIN_400,
  regionalComparison: PLAIN_400,
  matrixNoOrigins: PLAIN_400,
  matrixTooManySearches: PLAIN_400,
  matrixTooLarge: PLAIN_400,
  compareSameFreshness: { family: 'parameter' },
  compareOnIsochrones: PLAIN_400,
  differenceAsGeojson: PLAIN_400,
  unknownScenario: { family: 'parameter' },
  refusedScenario: { family: 'parameter' },
  scenarioWithFreshness: { family: 'parameter' },
  scenarioWithFreshnessComparison: PLAIN_400,
  compareTwoWays: PLAIN_400,
  compareSameScenario: { family: 'parameter' },
  scenarioPreparing: { family: 'engine', id: 'service_unavailable' },
  computationsQueueFull: { family: 'engine', id: 'service_unavailable' },
  // a busy coverage is no dead one: `dead_socket` is for a coverage whose data failed to load
  computationTimedOut: { family: 'engine', id: 'service_unavailable' },
  computationDeadline: { family: 'engine', id: 'service_unavailable' },
  requestDeadline: { family: 'engine', id: 'service_unavailable' },
};

/** The parameter a refusal of the parameter family names, where its data does not say. */
const PARAMETER_OF: Partial<Record<QueryErrorCode, string>> = {
  compareSameFreshness: 'compare_data_freshness',
  compareSameScenario: 'compare_scenario',
  scenarioWithFreshness: 'scenario',
};

/** A refusal of the query layer as the API answers it (its wording the catalogue's, parameters quoted). */
export function apiErrorOf(e: QueryError): ApiError {
  const wire = QUERY_ERROR_WIRES[e.code];
  const data = e.data as Record<string, string>;
  const text = e.text(quotedName);
  let error: ApiError;
  switch (wire.family) {
    case 'plain':
      error = plainError(wire.status, text);
      break;
    case 'engine':
      error = engineError(wire.id, text);
      break;
    case 'parameter':
      error = e.code === 'invalidParameter' ? parameterError(data['name']!, data['reason']!, data['help']!) : parameterError(PARAMETER_OF[e.code] ?? data['param']!, text, data['help']!);
      break;
  }
  if (data['retryAfterSec'] !== undefined) error.withHeaders({ 'retry-after': data['retryAfterSec'] });
  return error.withDetails(e.details);
}

/** An error of either catalogue as the API answers it. */
export const asApiError = (e: ApiError | QueryError): ApiError => (e instanceof QueryError ? apiErrorOf(e) : e);

/** An object type as a person reads it: `stop_area` → "stop area". */
const typeWords = (type: string) => type.replace(/_/g, ' ');

/**
 * What `error.details` says, each wording once: what is wrong in the request's terms, beside
 * Navitia's `id` and `message`, which stay as Navitia words them (docs/api.md, "Error details").
 * Days are written YYYY-MM-DD, times YYYY-MM-DD hh:mm, in the coverage's local time.
 */
export const DETAILS = {
  ...QUERY_DETAILS,
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
 * Every error of the catalogue (X, Y, Z, W for the values a message quotes), as docs/api.md's "The
 * error catalogue" table lists them; a test holds the two together.
 */
export function errorCatalogue(): { status: number; id: string; message: string }[] {
  const placeholders = ['X', 'Y', 'Z', 'W'];
  const errors = [
    ...Object.values(ERRORS).map((make) => (make as (...values: string[]) => ApiError)(...placeholders.slice(0, make.length))),
    // the query layer's, each value named in the order its wording reads them (a bad parameter value
    // is the parameter family's)
    ...(Object.keys(QUERY_ERRORS) as QueryErrorCode[]).filter((code) => code !== 'invalidParameter').map((code) => apiErrorOf(new QueryError(code, placeholderData(placeholders) as never))),
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

/** Data whose values are the placeholders, given in the order they are first read. */
function placeholderData(placeholders: string[]): Record<string, string> {
  const given = new Map<string, string>();
  return new Proxy({}, { get: (_, key) => (typeof key !== 'string' ? undefined : (given.get(key) ?? (given.set(key, placeholders[given.size] ?? '?'), given.get(key)))) });
}
