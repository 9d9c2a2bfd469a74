/**
 * What running the server in production needs, as one Fastify plugin made of four: access checks
 * (tokens, rate limit), request metrics and `/metrics`, probes and `/v1/status`, and the HTTP cache
 * validators the coverage routes use. `app.ts` registers it after CORS and compression and reads
 * `app.operations`.
 */
import fp from 'fastify-plugin';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import type { HeatMapRunner } from '../../maps/heat-map-runner.js';
import type { FastifyRequest } from 'fastify';
import { access, clientOf } from './access.js';
import { health } from './health.js';
import { cacheValidators, HttpCache } from './http-cache.js';
import { Metrics } from './metrics.js';
import { requestMetrics } from './request-metrics.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from './settings.js';

export interface OperationsOptions {
  registry: CoverageRegistry;
  /** default: APP_DEFAULT_OPERATIONS (no rate limit, no token) */
  settings?: OperationsSettings | undefined;
  /** the server's metrics (it also times loads and realtime updates); default: a registry of the app's own */
  metrics?: Metrics | undefined;
}

export interface Operations {
  cache: HttpCache;
  metrics: Metrics;
  /** The heat-map runner, timed and counted. */
  instrument(runner: HeatMapRunner): HeatMapRunner;
  /** Who asked (the rate limit's client: a configured token, else the address), for the worker pool's turns. */
  clientOf(req: FastifyRequest): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    operations: Operations;
  }
}

/** Paths that need no token and do not count against the rate limit (/metrics checks the client's address). */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

export const operations = fp<OperationsOptions>(
  async (app, options) => {
    const { registry } = options;
    const settings = options.settings ?? APP_DEFAULT_OPERATIONS;
    const metrics = options.metrics ?? new Metrics();
    metrics.watchCoverages(registry);
    await app.register(access, { rateLimit: settings.rateLimit, tokens: settings.tokens, exempt: (path: string) => EXEMPT.has(path.replace(/\/+$/, '')) });
    await app.register(requestMetrics, { registry, metrics, allow: settings.metricsAllow });
    await app.register(cacheValidators);
    await app.register(health, { registry, heatMapQueueDepth: () => metrics.heatMapQueueDepth });
    const tokens = new Set(settings.tokens);
    app.decorate('operations', {
      cache: new HttpCache(registry, settings.cache),
      metrics,
      instrument: (runner: HeatMapRunner) => metrics.instrument(runner),
      clientOf: (req: FastifyRequest) => clientOf(req, tokens),
    });
  },
  { name: 'navette-operations', fastify: '5.x' },
);
