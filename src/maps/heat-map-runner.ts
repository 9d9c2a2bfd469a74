/**
 * Where heat maps are computed and their responses made. The server uses a pool of worker threads
 * (`heat-map-pool.ts`); tests and tools compute in-process (`in-process-runner.ts`, loaded lazily by
 * `lazy-runner.ts`), with the same engine code.
 */
import type { MapQuery } from './difference-map.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';

export interface HeatMapRunner {
  /** Compute the map of `query` and make its response as `render` says. */
  run(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap>;
  close(): Promise<void>;
}
