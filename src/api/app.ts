/**
 * The HTTP application, assembled: Fastify with its refusals (refusals.ts), CORS, compression, the
 * operations (tokens, rate limit, caching, probes, metrics), the `/v1/coverage…` routes
 * (coverage-routes.ts), the documents and the explorer. `buildApp` returns it unstarted; the
 * `serve` command (cli/main.ts) listens, tests `inject`.
 */
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import corsPlugin from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CoverageRegistry } from '../service/coverage-registry.js';
import { DEFAULT_LIMITS, type Limits } from '../service/limits.js';
import { lazyInProcessRunner } from '../maps/lazy-runner.js';
import type { HeatMapRunner } from '../maps/heat-map-runner.js';
import { registerApiIndex } from './api-index.js';
import { registerCoverageRoutes } from './coverage-routes.js';
import { ALLOWED_METHODS } from './errors.js';
import { registerExplorer, type ExplorerSettings } from './explorer/explorer-routes.js';
import { WARNINGS_HEADER } from './heat-maps/map-flow.js';
import type { Metrics } from './operations/metrics.js';
import { operations } from './operations/operations.js';
import { answerClientError, answerNodeLevelRequests } from './operations/protocol-errors.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from './operations/settings.js';
import { answerError, isPreflight, registerNotFound, registerRequestChecks, registerShardReadiness } from './refusals.js';
import { registerSchemaRoutes } from './schema-routes.js';
import type { ShardOptions } from './shards/shard-answer.js';

export type { ShardOptions };

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
    // Node's own refusal of a request without Host has an empty body: refusals.ts refuses it instead
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
  registerNotFound(app);
  registerRequestChecks(app);
  // Only a real preflight (Origin and Access-Control-Request-Method, as browsers send it) is answered
  // by the CORS plugin, in its hook, before the access check: a browser never sends a token with one,
  // and the answer tells nothing but the CORS settings. Any other OPTIONS is an ordinary request: the
  // access check, then `OPTIONS <endpoint>?schema=true` reaches the schema route (docs/api.md, Answers and the schema).
  const cors = { ...CORS, origin: options.corsOrigin ?? '*' };
  await app.register(corsPlugin, { delegator: (req, cb) => cb(null, { ...cors, preflight: isPreflight(req) }) });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const registry = options.registry;
  await app.register(operations, { registry, settings: options.operations, metrics: options.metrics });
  if (options.shard) registerShardReadiness(app, registry);
  const runner = options.heatMaps ?? lazyInProcessRunner(limits);
  if (!options.heatMaps) app.addHook('onClose', async () => runner.close());
  registerCoverageRoutes(app, { registry, limits, heatMaps: app.operations.instrument(runner), cache: app.operations.cache, shard: options.shard, clientOf: app.operations.clientOf });
  registerSchemaRoutes(app, limits);
  registerApiIndex(app);
  registerExplorer(app, registry, options.explorer);
  return app;
}

const CORS = {
  methods: [...ALLOWED_METHODS],
  allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Accept-Encoding', 'X-Scheme'],
  // a map's warning ids (heat-maps/map-flow.ts) are read by pages of other origins too
  exposedHeaders: ['navitia-request-id', WARNINGS_HEADER],
};
