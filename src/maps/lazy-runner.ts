/**
 * An in-process runner loaded on the first heat map: an application that never computes one (a
 * test of trips, a coverage without streets) does not load the routing engine.
 */
import type { EngineLimits } from '../service/limits.js';
import type { HeatMapRunner } from './heat-map-runner.js';

export function lazyInProcessRunner(limits: EngineLimits): HeatMapRunner {
  let runner: Promise<HeatMapRunner> | undefined;
  let loaded: HeatMapRunner | undefined;
  const get = () => (runner ??= import('./in-process-runner.js').then((m) => (loaded = new m.InProcessRunner(limits))));
  return {
    grid: async (coverageId, generation, query, render) => (await get()).grid(coverageId, generation, query, render),
    points: async (coverageId, generation, query, request) => (await get()).points(coverageId, generation, query, request),
    cacheBytes: () => loaded?.cacheBytes?.() ?? { engines: 0, egress_tables: 0, time_zones: 0 },
    close: async () => {
      if (runner) await (await runner).close();
    },
  };
}
