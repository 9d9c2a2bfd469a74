/**
 * The tasks of the worker pool (`heat-map-pool.ts`), run on a worker thread, which keeps one engine
 * (scratch arrays) per coverage: a grid task computes a map and makes its response there
 * (map-computation.ts); a points task computes travel times to point sets and answers typed arrays
 * (points.ts). The coverage data arrives on shared memory with each task and is only read.
 *
 * Each answer carries what the thread's caches hold once the task is done (the engine cache brought
 * back within its bound first), so that the main thread's metrics see the workers' caches.
 */
import { threadId } from 'node:worker_threads';
import type { HeatMapData } from '../routing/heat-map.js';
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import { timeZoneCacheBytes } from '../util/time-zones.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import { computeGrid } from './map-computation.js';
import { computePoints, type PointsRequest, type PointsResult } from './points.js';
import type { CacheBytes } from './heat-map-runner.js';

interface TaskBase {
  coverageId: string;
  /** `StreetData.id` of `data` */
  dataId: number;
  data: HeatMapData;
  limits: EngineLimits;
  query: MapQuery;
}

export type HeatMapTask = (TaskBase & { kind: 'grid'; render: HeatMapRender }) | (TaskBase & { kind: 'points'; request: PointsRequest });

/** A task's answer, and what the thread that computed it holds in its caches. */
export interface TaskAnswer<T> {
  value: T;
  threadId: number;
  cacheBytes: CacheBytes;
}

let cache: EngineCache | undefined;

export default function computeHeatMap(task: HeatMapTask): TaskAnswer<RenderedHeatMap | PointsResult> {
  cache ??= new EngineCache(task.limits);
  const value =
    task.kind === 'grid'
      ? computeGrid(cache, task.coverageId, task.dataId, task.data, task.query, task.render)
      : computePoints(cache, task.coverageId, task.dataId, task.data, task.query, task.request);
  return { value, threadId, cacheBytes: threadCacheBytes(cache) };
}

/** A thread's caches, its engine cache brought back within its bound. */
export function threadCacheBytes(engines: EngineCache): CacheBytes {
  const { engines: engineBytes, egressTables } = engines.settle();
  return { engines: engineBytes, egress_tables: egressTables, time_zones: timeZoneCacheBytes() };
}
