/** Heat maps on the worker pool: each map is a task (`heat-map-task.ts`) computed and rendered on a worker thread. */
import { DIFFERENCE_BUDGET_SCALE, type MapQuery } from './difference-map.js';
import type { EngineLimits } from '../service/limits.js';
import type { Generation } from '../service/generation.js';
import { WorkerPool, type WorkerPoolOptions } from '../service/worker-pool.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { CacheBytes, HeatMapRunner, Turn } from './heat-map-runner.js';
import type { HeatMapTask, TaskAnswer } from './heat-map-task.js';
import { setsOf, type PointsRequest, type PointsResult } from './points.js';

export interface HeatMapPoolOptions extends EngineLimits, Omit<WorkerPoolOptions, 'module'> {
  /** the module the threads run (default: heat-map-task.js; tests give their own) */
  workerModule?: URL;
}

export class HeatMapPool implements HeatMapRunner {
  private readonly pool: WorkerPool;
  private readonly limits: EngineLimits;
  /** what each worker thread said its caches held, at its last answer */
  private readonly threadCaches = new Map<number, CacheBytes>();

  constructor(options: HeatMapPoolOptions) {
    const { workerModule, maxDurationSec, maxResolution, engineCacheBytes, ...poolOptions } = options;
    this.pool = new WorkerPool({ ...poolOptions, module: workerModule ?? new URL('./heat-map-task.js', import.meta.url) });
    this.limits = { maxDurationSec, maxResolution, engineCacheBytes };
  }

  /** The worker threads. */
  get threads(): number {
    return this.pool.threads;
  }

  /** Maps being computed or waiting for a thread. */
  get pending(): number {
    return this.pool.pending;
  }

  grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender, turn: Turn = {}): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    const task: HeatMapTask = { kind: 'grid', coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, render };
    return this.run<RenderedHeatMap>(task, budgetScale(query), coverageId, turn);
  }

  points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest, turn: Turn = {}): Promise<PointsResult> {
    const streets = generation.streets!;
    const task: HeatMapTask = { kind: 'points', coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, request };
    return this.run<PointsResult>(task, budgetScale(query, setsOf(request).length), coverageId, turn);
  }

  /** The caches of the live threads, as each last reported them (a thread stopped past its budget took its caches with it). */
  cacheBytes(): CacheBytes {
    const live = this.pool.liveThreadIds();
    const sum: CacheBytes = { engines: 0, egress_tables: 0, time_zones: 0 };
    for (const [thread, bytes] of this.threadCaches) {
      if (!live.has(thread)) {
        this.threadCaches.delete(thread);
        continue;
      }
      for (const cache of Object.keys(sum) as (keyof CacheBytes)[]) sum[cache] += bytes[cache];
    }
    return sum;
  }

  private async run<T>(task: HeatMapTask, scale: number, key: string, turn: Turn): Promise<T> {
    const answer = await this.pool.run<TaskAnswer<T>>(task, { budgetScale: scale, key, client: turn.client, deadlineMs: turn.deadlineMs });
    this.threadCaches.set(answer.threadId, answer.cacheBytes);
    return answer.value;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * How many single maps' time budget a task gets once it runs: a window's grows with its minutes (the
 * departures' `budgetScale`); a difference map computes two maps; a points task values each point
 * set it reads after the one transit search (counted whole, to be safe). A task given more than one
 * map's budget is heavy: the pool keeps a thread from one coverage's heavy tasks while another's wait.
 */
export function budgetScale(query: MapQuery, pointSets = 1): number {
  return (query.window?.budgetScale ?? 1) * (query.comparison ? DIFFERENCE_BUDGET_SCALE : 1) * Math.max(1, pointSets);
}
