/**
 * Where maps and point answers are computed. The server uses a pool of worker threads
 * (`heat-map-pool.ts`); tests and tools compute in-process (`in-process-runner.ts`, loaded lazily by
 * `lazy-runner.ts`), with the same engine code.
 */
import type { MapQuery } from './difference-map.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { PointsRequest, PointsResult } from './points.js';

/** Whose request a computation serves, and how long it may take in all (its wait for a thread included). */
export interface Turn {
  /** the client (its token, else its address): turns rotate between the clients of a coverage */
  client?: string;
  /** from when it is handed to the runner, milliseconds; past it the computation is withdrawn or stopped */
  deadlineMs?: number;
}

/** What the runner's caches hold, bytes, per cache (the `cache` label of /metrics' navette_cache_bytes). */
export interface CacheBytes {
  /** the engines' scratch, per coverage and thread */
  engines: number;
  /** the egress tables the engines keep */
  egress_tables: number;
  /** the time-zone offsets of the runner's threads (the main thread's are counted by the metrics) */
  time_zones: number;
}

export interface HeatMapRunner {
  /** Compute the map of `query` on a grid and make its response as `render` says. */
  grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender, turn?: Turn): Promise<RenderedHeatMap>;
  /** Compute the travel times of `query` to point sets, answered as `request` says. */
  points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest, turn?: Turn): Promise<PointsResult>;
  /** What the runner's caches hold now (a runner that keeps none, a test's, need not say). */
  cacheBytes?(): CacheBytes;
  close(): Promise<void>;
}
