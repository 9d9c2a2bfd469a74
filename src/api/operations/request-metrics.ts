/**
 * Every answer timed and counted by endpoint kind and coverage, and `/metrics` for the operator's
 * scraper. The metrics are not for the world: only the addresses of the `metricsAllow` setting may
 * read them (they are also the largest answer a client could ask for as often as it likes).
 */
import fp from 'fastify-plugin';
import { coverageRef } from '../coverage/coverage-resolution.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { pathOf } from './access.js';
import { addressMatcher } from './address-list.js';
import type { Metrics, RouteKind } from './metrics.js';

export interface RequestMetricsOptions {
  registry: CoverageRegistry;
  metrics: Metrics;
  /** addresses and ranges that may read /metrics */
  allow: string[];
}

export const METRICS_REFUSED_MESSAGE = 'the metrics are served only to the addresses of the metricsAllow setting';

export const requestMetrics = fp<RequestMetricsOptions>(
  async (app, { registry, metrics, allow }) => {
    app.addHook('onResponse', async (req, reply) => {
      const { kind, coverage } = routeOf(registry, pathOf(req.url));
      metrics.observeRequest(kind, coverage, reply.statusCode, reply.elapsedTime / 1000);
    });
    const mayRead = addressMatcher(allow);
    app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
      // in the endpoint's own type: a scraper shows the text as it comes
      if (!mayRead(req.ip)) return reply.code(403).type('text/plain; charset=utf-8').send(`${METRICS_REFUSED_MESSAGE}\n`);
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'navette-request-metrics', fastify: '5.x' },
);

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
  const map = rest.length === 2 && (rest[1] === 'heat_maps' || rest[1] === 'isochrones') ? rest[1] : undefined;
  const kind: RouteKind = rest.length === 1 ? 'coverage' : (map ?? (rest.slice(1).includes('trips') ? 'trips' : 'other'));
  return { kind, coverage };
}
