/**
 * Where heat maps are computed. The server uses a pool of worker threads (`heat-map-pool.ts`);
 * tests and tools compute in-process (`in-process-runner.ts`), with the same engine code.
 */
import type { HeatMapRender, RenderedHeatMap } from '../api/heat-map-render.js';
import type { HeatMapQuery } from '../routing/heat-map.js';
import type { Generation } from './generation.js';

export interface HeatMapRunner {
  /** Compute the map of `query` and make its response as `render` says. */
  run(coverageId: string, generation: Generation, query: HeatMapQuery, render: HeatMapRender): Promise<RenderedHeatMap>;
  close(): Promise<void>;
}

/** The runner could not take the request (queue full) or did not finish within its time budget. */
export class HeatMapUnavailable extends Error {
  constructor(
    readonly reason: 'queue_full' | 'timeout',
    readonly retryAfterSec: number,
  ) {
    super(reason === 'queue_full' ? 'Too many heat maps are being computed, retry later' : 'The heat map took too long');
  }
}

export interface HeatMapLimits {
  maxDurationSec: number;
  maxResolution: number;
}

/**
 * An in-process runner loaded on the first heat map: an application that never computes one (a
 * test of trips, a coverage without streets) does not load the routing engine.
 */
export function lazyInProcessRunner(limits: HeatMapLimits): HeatMapRunner {
  let runner: Promise<HeatMapRunner> | undefined;
  const get = () => (runner ??= import('./in-process-runner.js').then((m) => new m.InProcessRunner(limits)));
  return {
    run: async (coverageId, generation, query, render) => (await get()).run(coverageId, generation, query, render),
    close: async () => {
      if (runner) await (await runner).close();
    },
  };
}
