/** Heat maps on the worker pool: each map is a task (`heat-map-task.ts`) computed and rendered on a worker thread. */
import { DIFFERENCE_BUDGET_SCALE, type MapQuery } from './difference-map.js';
import type { EngineLimits } from '../service/limits.js';
import type { Generation } from '../service/generation.js';
import { WorkerPool, type WorkerPoolOptions } from '../service/worker-pool.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { HeatMapRunner } from './heat-map-runner.js';
import type { HeatMapTask } from './heat-map-task.js';
import { setsOf, type PointsRequest, type PointsResult } from './points.js';

export interface HeatMapPoolOptions extends EngineLimits, Omit<WorkerPoolOptions, 'module'> {
  /** the module the threads run (default: heat-map-task.js; tests give their own) */
  workerModule?: URL;
}

export class HeatMapPool implements HeatMapRunner {
  private readonly pool: WorkerPool;
  private readonly limits: EngineLimits;

  constructor(options: HeatMapPoolOptions) {
    const { workerModule, maxDurationSec, maxResolution, ...poolOptions } = options;
    this.pool = new WorkerPool({ ...poolOptions, module: workerModule ?? new URL('./heat-map-task.js', import.meta.url) });
    this.limits = { maxDurationSec, maxResolution };
  }

  /** The worker threads. */
  get threads(): number {
    return this.pool.threads;
  }

  /** Maps being computed or waiting for a thread. */
  get pending(): number {
    return this.pool.pending;
  }

  grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    const task: HeatMapTask = { kind: 'grid', coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, render };
    return this.pool.run<RenderedHeatMap>(task, budgetScale(query), coverageId);
  }

  points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult> {
    const streets = generation.streets!;
    const task: HeatMapTask = { kind: 'points', coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, request };
    return this.pool.run<PointsResult>(task, budgetScale(query, setsOf(request).length), coverageId);
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
