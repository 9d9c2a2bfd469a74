/**
 * Where maps and point answers are computed. The server uses a pool of worker threads
 * (`heat-map-pool.ts`); tests and tools compute in-process (`in-process-runner.ts`, loaded lazily by
 * `lazy-runner.ts`), with the same engine code.
 */
import type { MapQuery } from './difference-map.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { PointsRequest, PointsResult } from './points.js';

export interface HeatMapRunner {
  /** Compute the map of `query` on a grid and make its response as `render` says. */
  grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap>;
  /** Compute the travel times of `query` to point sets, answered as `request` says. */
  points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult>;
  close(): Promise<void>;
}
