/**
 * Probes and status:
 *
 *   GET /healthz    200 {"status": "ok"} while the process serves (liveness)
 *   GET /readyz     200 once no coverage is still loading and one at least answers, 503 before
 *                   (readiness); the body lists each coverage's state either way
 *   GET /v1/status  Navitia-like {"status": {…}}: version, start time, each coverage (region) with its
 *                   status, dates, generation and realtime sources, the heat-map queue
 */
import fp from 'fastify-plugin';
import { regionJson } from '../coverage/coverage-endpoint.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { formatUtc } from '../../util/calendar.js';
import { VERSION } from '../../util/version.js';

export interface HealthOptions {
  registry: CoverageRegistry;
  /** heat maps running or waiting */
  heatMapQueueDepth: () => number;
}

export const health = fp<HealthOptions>(
  async (app, options) => {
    const { registry } = options;
    const startedAtSec = Math.floor(Date.now() / 1000);
    const noStore = { 'cache-control': 'no-store' };
    // probes come every few seconds: their answers are not worth a log line each
    app.get('/healthz', { logLevel: 'warn' }, async (_req, reply) => reply.headers(noStore).type('application/json').send('{"status":"ok"}'));
    app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
      const coverages = registry.list().map((c) => ({ id: c.id, status: c.status }));
      const status = registry.readiness();
      return reply.code(status === 'ready' ? 200 : 503).headers(noStore).type('application/json').send(JSON.stringify({ status, coverages }));
    });
    app.get('/v1/status', async (_req, reply) => {
      const regions = registry.list().map((c) => {
        const { id, shape, ...region } = regionJson(c, true);
        void shape;
        return {
          region_id: id,
          ...region,
          generation: c.generation?.number ?? null,
          loaded_from: c.generation?.loadedFrom ?? null,
          is_realtime_loaded: c.generation?.realtime !== undefined,
        };
      });
      const status = {
        navette_version: VERSION,
        started_at: formatUtc(startedAtSec),
        uptime_sec: Math.floor(Date.now() / 1000) - startedAtSec,
        regions,
        heat_maps: { queue_depth: options.heatMapQueueDepth() },
      };
      return reply.headers(noStore).type('application/json').send(JSON.stringify({ status }));
    });
  },
  { name: 'navette-health', fastify: '5.x' },
);
