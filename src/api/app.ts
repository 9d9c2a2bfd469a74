/**
 * The HTTP application: a Fastify instance with compression, CORS, Navitia's error shapes and the
 * `/v1/coverage…` routes. `buildApp` returns it unstarted; `server.ts` listens, tests `inject`.
 */
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CoverageRegistry } from '../service/coverage-registry.js';
import { coverageJson, coverageLinks, regionJson } from './coverage/coverage-endpoint.js';
import { coverageRef, resolveCoverage, type CoverageRef } from './coverage/coverage-resolution.js';
import { streetNetworkBody } from './coverage/street-network-endpoint.js';
import { chooseEncoding } from './heat-maps/heat-map-render.js';
import { answerHeatMap, type MapAnswer } from './heat-maps/heat-maps-endpoint.js';
import { answerIsochrones } from './heat-maps/isochrones-endpoint.js';
import { lazyInProcessRunner } from './heat-maps/lazy-runner.js';
import { type HeatMapRunner } from './heat-maps/heat-map-runner.js';
import { ALLOWED_METHODS, ApiError, badRequest, bodyRefused, coverageUnavailable, engineError, errorReply, LOADING_DATA, methodNotAllowed, notFoundRoute } from './errors.js';
import type { RequestInfo } from './links.js';
import { parseParams, requestNow, swaggerParameters } from './params.js';
import { hasKey, type QueryPair } from './query-string.js';
import type { Generation } from '../service/generation.js';
import { answerCollection, parseCollectionParams } from './referential/referential-endpoint.js';
import { answerPlaces, parsePlacesParams } from './referential/places-endpoint.js';
import { answerPlacesNearby, parseNearbyParams } from './referential/places-nearby-endpoint.js';
import { ptEnvelope } from './serialize.js';
import { registerSchemaRoutes } from './schema-routes.js';
import { registerApiIndex } from './api-index.js';
import { registerExplorer, type ExplorerSettings } from './explorer/explorer-routes.js';
import { answerTrips, parseTripsParams } from './trips/trips-endpoint.js';
import { DEFAULT_LIMITS, type Limits } from '../service/limits.js';
import { COVERAGE_PARAMS } from './trips/trips-params.js';
import type { HttpCache } from './operations/http-cache.js';
import { cacheTargetOf, paramsOf, targetOf } from './targets.js';
import type { Metrics } from './operations/metrics.js';
import { operations } from './operations/operations.js';
import { answerClientError, answerNodeLevelRequests, clientErrorOf } from './operations/protocol-errors.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from './operations/settings.js';
import type { CoverageConfig } from '../service/coverage-config.js';
import { mergedCoverageTemplate } from './shards/merged-coverage.js';
import { NEXT_SHARD_HEADER, nextShardOf, REGIONS_HEADER, regionsModeOf } from './shards/shard-routing.js';

/** Time zone of a coverage whose data gives none (yet): Navitia's default (navitia-trips.md §3.6). */
const DEFAULT_TIMEZONE = 'Europe/Paris';

export interface AppOptions {
  registry: CoverageRegistry;
  limits?: Limits;
  /** Fastify logger option: false in tests, a pino config in the server. */
  logger?: boolean | object;
  /** Allowed CORS origins; `*` by default. */
  corsOrigin?: string | string[];
  /** Where heat maps are computed (a worker pool in the server); without one, heat maps compute in-process. */
  heatMaps?: HeatMapRunner;
  /** Rate limit, tokens, HTTP caching, trusted proxies (default: no limit, no token, no proxy; see operations/settings.ts). */
  operations?: OperationsSettings;
  /** The server's metrics registry (default: one of the app's own). */
  metrics?: Metrics;
  /** The explorer page's online background (default: the coverage's own streets only). */
  explorer?: ExplorerSettings;
  /** A replica serving a shard of the configuration's coverages behind nginx (shards/shard-routing.ts). */
  shard?: ShardOptions;
}

export interface ShardOptions {
  /** The configuration's coverages this replica does not hold. */
  elsewhere: CoverageConfig[];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const requestTimeoutMs = (options.operations ?? APP_DEFAULT_OPERATIONS).requestTimeoutMs;
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    // the client's address (req.ip, which the rate limit keys by) and scheme as trusted proxies forward them
    trustProxy: options.operations?.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 10_000 },
    // a client has this long to send its whole request (headers included), then its socket is closed
    requestTimeout: requestTimeoutMs,
    // Node's own refusal of a request without Host has an empty body: the first hook below refuses it instead
    http: { headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs), requireHostHeader: false },
    // Requests refused before any route, in Navitia's shape (operations/protocol-errors.ts): bytes
    // Node's parser cannot read, a URL Fastify's router cannot decode.
    clientErrorHandler: (error, socket) => answerClientError(error, socket, app.log),
    frameworkErrors: (error, req, reply) => answerError(error, req, reply.header('navitia-request-id', req.id)),
  });
  answerNodeLevelRequests(app.server, app.log);
  // Set before any route, the CORS plugin's `OPTIONS *` included: a route keeps the error handler of
  // the moment it is added, and one with Fastify's default answered the access hook's 401 as a 500.
  app.setErrorHandler(answerError);
  // The paths GET routes serve, but the coverage's wildcard (isKnownPath): another method on one is 405, not 404.
  const getPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().includes('GET') && !/[*:]/.test(route.url)) getPaths.add(route.url);
  });
  // Before CORS, whose hook ends preflight requests: every answer carries the request id.
  app.addHook('onRequest', async (req, reply) => {
    reply.header('navitia-request-id', req.id);
    // HTTP/1.1 requires the Host header (RFC 9112 §3.2); Node's check is turned off above
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      return sendError(reply.header('connection', 'close'), badRequest());
    }
    // no endpoint takes a body: refuse one at once, rather than wait for a client that may trickle it
    if (hasBody(req)) {
      return sendError(reply.header('connection', 'close'), bodyRefused());
    }
  });
  const corsOptions = {
    origin: options.corsOrigin ?? '*',
    methods: [...ALLOWED_METHODS],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Accept-Encoding', 'X-Scheme'],
    exposedHeaders: ['navitia-request-id'],
  };
  // Only a real preflight (Origin and Access-Control-Request-Method, as browsers send it) is answered
  // by the CORS plugin, in its hook, before the access check: a browser never sends a token with one,
  // and the answer tells nothing but the CORS settings. Any other OPTIONS is an ordinary request: the
  // access check, then `OPTIONS <endpoint>?schema=true` reaches the schema route below (decisions.md).
  await app.register(cors, {
    delegator: (req, cb) => cb(null, { ...corsOptions, preflight: isPreflight(req) }),
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const registry = options.registry;
  await app.register(operations, { registry, settings: options.operations, metrics: options.metrics });
  const ops = app.operations;
  const shard = options.shard;
  if (shard) {
    // A replica that is not ready refuses the API with 503, which nginx takes as "try the next
    // server" (proxy_next_upstream http_503): it takes no client request before /readyz says ready.
    app.addHook('onRequest', async (req, reply) => {
      if (!(req.raw.url ?? '').startsWith('/v1/') || registry.readiness() === 'ready') return;
      return sendError(reply.header('retry-after', '1'), engineError('service_unavailable', LOADING_DATA));
    });
  }

  app.setNotFoundHandler((req, reply) => {
    // A known path asked with another method: 405, like Navitia (navitia-trips.md §8.1, family D).
    const known = !ALLOWED_METHODS.includes(req.method) && isKnownPath(req, getPaths);
    return sendError(reply, known ? methodNotAllowed() : notFoundRoute());
  });

  const runner = options.heatMaps ?? lazyInProcessRunner(limits);
  if (!options.heatMaps) app.addHook('onClose', async () => runner.close());
  const heatMaps = ops.instrument(runner);
  const handler = (req: FastifyRequest, reply: FastifyReply) => handleCoverage(req, reply, registry, limits, heatMaps, ops.cache, shard);
  app.get('/v1/coverage', handler);
  app.get('/v1/coverage/*', handler);
  // `OPTIONS <endpoint>?schema=true`: the endpoint's query parameters as Swagger 2.0 objects.
  const schema = (req: FastifyRequest, reply: FastifyReply) => {
    const target = targetOf(req);
    const specs = paramsOf(target, limits);
    return reply.header('allow', 'GET, HEAD, OPTIONS').type('application/json').send(JSON.stringify({ get: { parameters: swaggerParameters(specs) } }));
  };
  app.options('/v1/coverage', schema);
  app.options('/v1/coverage/*', schema);
  registerSchemaRoutes(app, limits);
  registerApiIndex(app);
  registerExplorer(app, options.explorer);
  return app;
}

/** Whether a request comes with a body: a length above 0, or a chunked one. */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** A CORS preflight: what a browser sends before a request it may not send without asking. */
function isPreflight(req: FastifyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** Whether a GET route serves the request's path: one of `getPaths`, or a path of a coverage's endpoint. */
function isKnownPath(req: FastifyRequest, getPaths: Set<string>): boolean {
  const path = (req.raw.url ?? '').split('?')[0]!;
  // as the router reads it (ignoreDuplicateSlashes, ignoreTrailingSlash)
  if (getPaths.has(path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1'))) return true;
  if (!/^\/v1\/coverage(\/|$)/.test(path)) return false;
  try {
    targetOf(req);
    return true;
  } catch {
    return false;
  }
}

function handleCoverage(req: FastifyRequest, reply: FastifyReply, registry: CoverageRegistry, limits: Limits, heatMaps: HeatMapRunner, cache: HttpCache, shard: ShardOptions | undefined) {
  const target = targetOf(req);
  const cacheTarget = cacheTargetOf(target);
  reply.type('application/json');
  if (shard) {
    // a point none of this shard's coverages contains: nginx asks the next shard the same request
    const ref = cacheTarget.ref;
    const next = nextShardOf(req.headers[NEXT_SHARD_HEADER]);
    if (next && ref?.kind === 'coord' && !registry.resolve(ref.lon, ref.lat)) return reply.header('x-accel-redirect', next).send('');
    if (target.kind === 'coverage') {
      const mode = regionsModeOf(req.headers[REGIONS_HEADER]);
      const url = req.raw.url ?? '';
      const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
      if (mode) return answerShardCoverage(reply, registry, shard, target.segment, target.info, mode, query);
    }
  }
  // ETag and Cache-Control; a matching If-None-Match is answered 304 before any work
  if (cache.answerIfFresh(req, reply, cacheTarget)) return reply;
  if (target.kind === 'coverage') return answerCoverage(reply, registry, target.segment, target.info);
  if (target.kind === 'heat_maps' || target.kind === 'isochrones') {
    const answer = target.kind === 'heat_maps' ? answerHeatMap : answerIsochrones;
    return answerMapRequest(reply, answer(registry, limits, heatMaps, target.info, target.coverageRef, req.headers['accept-encoding']));
  }
  if (target.kind === 'street_network') return answerStreetNetwork(req, reply, registry, target.coverageRef);
  if (target.kind === 'trips') {
    const r = target.trips;
    const params = parseTripsParams(r, limits);
    return answerPt(reply, registry, r.coverageRef, r.req.pairs, params, (g, now) => answerTrips(r, g, params, now));
  }
  if (target.kind === 'collection') {
    const r = target.collection;
    const params = parseCollectionParams(r, limits);
    return answerPt(reply, registry, r.coverageRef, r.req.pairs, params, (g, now) => answerCollection(r, g, params, now));
  }
  if (target.kind === 'places') {
    const params = parsePlacesParams(target.info, limits);
    return answerPt(reply, registry, target.coverageRef, target.info.pairs, params, (g, now) => answerPlaces(target.info, target.coverageRef, g, params, now));
  }
  const r = target.nearby;
  const params = parseNearbyParams(r.info, limits);
  return answerPt(reply, registry, r.coverageRef, r.info.pairs, params, (g, now) => answerPlacesNearby(r, g, params, now));
}

async function answerStreetNetwork(req: FastifyRequest, reply: FastifyReply, registry: CoverageRegistry, ref: CoverageRef) {
  const coverage = resolveCoverage(registry, ref);
  const generation = coverage.generation;
  if (!generation) throw coverageUnavailable(coverage);
  const body = await streetNetworkBody(generation);
  reply.header('vary', 'Accept-Encoding').type('application/geo+json');
  // compressed once per network (see street-network-endpoint.ts): the compression plugin leaves it
  if (chooseEncoding(req.headers['accept-encoding']) === 'gzip') return reply.header('content-encoding', 'gzip').send(body.gzipped);
  return reply.send(body.json);
}

function answerCoverage(reply: FastifyReply, registry: CoverageRegistry, segment: string | undefined, info: RequestInfo) {
  const params = parseParams(COVERAGE_PARAMS, info.pairs);
  const now = requestNow(params);
  const disableGeojson = params.disable_geojson;
  if (segment === undefined) {
    return reply.send(coverageJson(registry.list(), coverageLinks(info.base, '{regions.id}'), now, disableGeojson));
  }
  const ref = coverageRef(segment);
  const coverage = resolveCoverage(registry, ref);
  return reply.send(coverageJson([coverage], coverageLinks(info.base, ref.text), now, disableGeojson));
}

/** `/v1/coverage` as nginx merges it across shards: the SSI template, or one region object. */
function answerShardCoverage(reply: FastifyReply, registry: CoverageRegistry, shard: ShardOptions, segment: string | undefined, info: RequestInfo, mode: 'ssi' | 'fragment', query: string) {
  const params = parseParams(COVERAGE_PARAMS, info.pairs);
  const disableGeojson = params.disable_geojson;
  if (mode === 'fragment' && segment !== undefined) {
    return reply.send(JSON.stringify(regionJson(resolveCoverage(registry, coverageRef(segment)), disableGeojson)));
  }
  const links = coverageLinks(info.base, '{regions.id}');
  return reply.send(mergedCoverageTemplate(registry.list(), shard.elsewhere, links, requestNow(params), disableGeojson, query));
}

/**
 * A PT-referential answer (trips, a collection, places): parameters already valid, then the
 * coverage, then `answer` over its generation; engine errors inside the PT envelope.
 */
function answerPt(
  reply: FastifyReply,
  registry: CoverageRegistry,
  ref: CoverageRef,
  pairs: QueryPair[],
  params: { _current_datetime?: string | undefined },
  answer: (generation: Generation, nowSec: number) => string,
) {
  const now = requestNow(params);
  const coverage = resolveCoverage(registry, ref);
  const generation = coverage.generation;
  const envelope = ptEnvelope(generation, now, generation?.tt.timezone ?? coverage.config.timezone ?? DEFAULT_TIMEZONE, hasKey(pairs, 'filter'));
  if (!generation) throw coverageUnavailable(coverage).within(envelope);
  try {
    return reply.send(answer(generation, now));
  } catch (e) {
    if (e instanceof ApiError && e.body.family === 'engine') throw e.within(envelope);
    throw e;
  }
}

async function answerMapRequest(reply: FastifyReply, answering: Promise<MapAnswer>) {
  // the map's body comes compressed already (see heat-map-render.ts): the compression plugin leaves it
  reply.header('vary', 'Accept-Encoding');
  const answer = await answering;
  return reply.headers(answer.headers).send(answer.body);
}

/**
 * The error handler of every route, and Fastify's framework errors: an error of the catalogue as it
 * is, a client error as the catalogue words it (operations/protocol-errors.ts); anything else is a
 * fault of the server, logged and answered 500.
 */
function answerError(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const refusal = error instanceof ApiError ? error : clientErrorOf(error);
  if (refusal) return sendError(reply, refusal);
  req.log.error({ err: error }, 'request failed');
  return reply.code(500).type('application/json').send(JSON.stringify({ message: 'Internal Server Error' }));
}

function sendError(reply: FastifyReply, error: ApiError) {
  const { status, body, headers } = errorReply(error);
  return reply.code(status).headers(headers).type('application/json').send(body);
}
