/**
 * What running the server in production needs, as one registration on the app: access checks
 * (tokens, rate limit), request metrics and `/metrics`, probes and `/v1/status`, and the HTTP cache
 * validators the coverage routes use. `app.ts` calls `registerOperations` after CORS and compression.
 */
import type { FastifyInstance } from 'fastify';
import { coverageRef } from '../coverage/coverage-resolution.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import type { HeatMapRunner } from '../heat-maps/heat-map-runner.js';
import { pathOf, registerAccess } from './access.js';
import { addressMatcher } from './address-list.js';
import { registerHealth } from './health.js';
import { HttpCache } from './http-cache.js';
import { Metrics, type RouteKind } from './metrics.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from './settings.js';

export interface OperationsOptions {
  registry: CoverageRegistry;
  /** default: APP_DEFAULT_OPERATIONS (no rate limit, no token) */
  settings?: OperationsSettings;
  /** the server's metrics (it also times loads and realtime updates); default: a registry of the app's own */
  metrics?: Metrics;
}

export interface Operations {
  cache: HttpCache;
  metrics: Metrics;
  /** The heat-map runner, timed and counted. */
  instrument(runner: HeatMapRunner): HeatMapRunner;
}

export const METRICS_REFUSED_MESSAGE = 'the metrics are served only to the addresses of the metricsAllow setting';

/** Paths that need no token and do not count against the rate limit (/metrics checks the client's address). */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

export function registerOperations(app: FastifyInstance, options: OperationsOptions): Operations {
  const { registry } = options;
  const settings = options.settings ?? APP_DEFAULT_OPERATIONS;
  const metrics = options.metrics ?? new Metrics();
  metrics.watchCoverages(registry);

  registerAccess(app, { rateLimit: settings.rateLimit, tokens: settings.tokens, exempt: (path) => EXEMPT.has(path.replace(/\/+$/, '')) });
  app.addHook('onResponse', async (req, reply) => {
    const { kind, coverage } = routeOf(registry, pathOf(req.url));
    metrics.observeRequest(kind, coverage, reply.statusCode, reply.elapsedTime / 1000);
  });
  // validators belong to full answers only (an error answer gets none)
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode !== 200 && reply.statusCode !== 304 && reply.hasHeader('etag')) {
      reply.removeHeader('etag');
      reply.removeHeader('cache-control');
    }
    return payload;
  });
  registerHealth(app, { registry, heatMapQueueDepth: () => metrics.heatMapQueueDepth });
  // the metrics are for the operator's scraper, not for the world (they are also the largest answer
  // a client could ask for as often as it likes)
  const mayReadMetrics = addressMatcher(settings.metricsAllow);
  app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
    // in the endpoint's own type: a scraper shows the text as it comes
    if (!mayReadMetrics(req.ip)) return reply.code(403).type('text/plain; charset=utf-8').send(`${METRICS_REFUSED_MESSAGE}\n`);
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return { cache: new HttpCache(registry, settings.cache), metrics, instrument: (runner) => metrics.instrument(runner) };
}

/** The endpoint kind of a path and its coverage label (a known coverage id, else ""). */
export function routeOf(registry: CoverageRegistry, path: string): { kind: RouteKind; coverage: string } {
  const segments = path.split('/').filter((s) => s !== '');
  if (segments[0] !== 'v1' || segments[1] !== 'coverage') return { kind: 'other', coverage: '' };
  const rest = segments.slice(2);
  if (rest.length === 0) return { kind: 'coverage', coverage: '' };
  let coverage = '';
  try {
    const ref = coverageRef(decodeURIComponent(rest[0]!));
    coverage = (ref.kind === 'region' ? registry.get(ref.text) : registry.resolve(ref.lon, ref.lat))?.id ?? '';
  } catch {
    // a malformed escape: no coverage
  }
  const kind: RouteKind = rest.length === 1 ? 'coverage' : rest.length === 2 && rest[1] === 'heat_maps' ? 'heat_maps' : rest.slice(1).includes('trips') ? 'trips' : 'other';
  return { kind, coverage };
}
