/**
 * The HTTP application: a Fastify instance with compression, CORS, Navitia's error shapes and the
 * `/v1/coverage…` routes. `buildApp` returns it unstarted; `server.ts` listens, tests `inject`.
 */
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CoverageRegistry } from '../service/coverage-registry.js';
import { parseDatetimeParam } from '../util/datetime.js';
import { coverageJson, coverageLinks } from './coverage-endpoint.js';
import { coverageRef, resolveCoverage } from './coverage-resolution.js';
import { ApiError, httpError, notFoundRoute, plainBody, plainError } from './errors.js';
import { baseUrl, type RequestInfo } from './links.js';
import { parseParams } from './params.js';
import { hasKey, parseQueryString, type QueryPair } from './query-string.js';
import { engineErrorResponse } from './serialize.js';
import { answerTrips, parseTripsParams, type TripsRequest } from './trips-endpoint.js';
import { COVERAGE_PARAMS, DEFAULT_LIMITS, type ApiLimits } from './trips-params.js';

export interface AppOptions {
  registry: CoverageRegistry;
  limits?: ApiLimits;
  /** Fastify logger option: false in tests, a pino config in the server. */
  logger?: boolean | object;
  /** Allowed CORS origins; `*` by default. */
  corsOrigin?: string | string[];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 10_000 },
  });
  await app.register(cors, {
    origin: options.corsOrigin ?? '*',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Accept-Encoding', 'X-Scheme'],
    exposedHeaders: ['navitia-request-id'],
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('navitia-request-id', req.id);
  });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const registry = options.registry;

  app.setErrorHandler((error, req, reply) => {
    if (error instanceof ApiError && error.body.family !== 'engine') {
      const { status, json } = plainBody(error.body);
      return reply.code(status).type('application/json').send(JSON.stringify(json));
    }
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).type('application/json').send(JSON.stringify({ message: (error as Error).message }));
    }
    req.log.error({ err: error }, 'request failed');
    return reply.code(500).type('application/json').send(JSON.stringify({ message: 'Internal Server Error' }));
  });
  app.setNotFoundHandler((_req, reply) => {
    const { status, json } = plainBody(notFoundRoute().body as Exclude<ApiError['body'], { family: 'engine' }>);
    return reply.code(status).type('application/json').send(JSON.stringify(json));
  });

  const handler = (req: FastifyRequest, reply: FastifyReply) => handleCoverage(req, reply, registry, limits);
  app.get('/v1/coverage', handler);
  app.get('/v1/coverage/*', handler);
  return app;
}

function handleCoverage(req: FastifyRequest, reply: FastifyReply, registry: CoverageRegistry, limits: ApiLimits) {
  const url = req.raw.url ?? '';
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const pairs = parseQueryString(q < 0 ? '' : url.slice(q + 1));
  const segments: string[] = [];
  for (const s of rawPath.split('/').slice(3)) {
    if (s === '') continue;
    try {
      segments.push(decodeURIComponent(s));
    } catch {
      throw notFoundRoute();
    }
  }
  const info: RequestInfo = { base: baseUrl(req.headers, req.protocol === 'https'), path: rawPath.replace(/\/+$/, ''), pairs };
  reply.type('application/json');
  if (segments.length <= 1) return answerCoverage(reply, registry, segments[0], info);
  const rest = segments.slice(1);
  const ref = coverageRef(segments[0]!);
  let tripsReq: TripsRequest;
  if (rest[rest.length - 1] === 'trips') tripsReq = { req: info, coverageRef: ref, uri: rest.slice(0, -1) };
  else if (rest.length >= 2 && rest[rest.length - 2] === 'trips') tripsReq = { req: info, coverageRef: ref, uri: rest.slice(0, -2), id: rest[rest.length - 1]! };
  else throw notFoundRoute();
  return answerTripsRequest(reply, registry, limits, tripsReq);
}

function nowOf(pairs: QueryPair[], params: Record<string, unknown>): number {
  const text = params['_current_datetime'] as string | undefined;
  void pairs;
  return text !== undefined ? parseDatetimeParam(text, 'UTC') : Math.floor(Date.now() / 1000);
}

function answerCoverage(reply: FastifyReply, registry: CoverageRegistry, segment: string | undefined, info: RequestInfo) {
  const params = parseParams(COVERAGE_PARAMS, info.pairs);
  const now = nowOf(info.pairs, params);
  const disableGeojson = params['disable_geojson'] as boolean;
  if (segment === undefined) {
    return reply.send(coverageJson(registry.list(), coverageLinks(info.base, '{regions.id}'), now, disableGeojson));
  }
  const ref = coverageRef(segment);
  const coverage = resolveCoverage(registry, ref);
  return reply.send(coverageJson([coverage], coverageLinks(info.base, ref.text), now, disableGeojson));
}

function answerTripsRequest(reply: FastifyReply, registry: CoverageRegistry, limits: ApiLimits, r: TripsRequest) {
  const params = parseTripsParams(r, limits);
  const now = nowOf(r.req.pairs, params);
  const coverage = resolveCoverage(registry, r.coverageRef);
  const generation = coverage.generation;
  const hasFilterKey = hasKey(r.req.pairs, 'filter');
  if (!generation) {
    if (coverage.status === 'dead') throw httpError(503, 'dead_socket', `The region ${coverage.id} is dead`);
    const { status, body } = engineErrorResponse('service_unavailable', 'The service is loading data', hasFilterKey, undefined, now, coverage.config.timezone ?? 'UTC');
    return reply.code(status).send(body);
  }
  try {
    return reply.send(answerTrips(r, generation, params, now));
  } catch (e) {
    if (e instanceof ApiError && e.body.family === 'engine') {
      const { status, body } = engineErrorResponse(e.body.id, e.body.message, hasFilterKey, generation, now, generation.tt.timezone);
      return reply.code(status).send(body);
    }
    throw e;
  }
}

export { plainError };
