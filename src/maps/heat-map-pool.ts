/** Heat maps on the worker pool: each map is a task (`heat-map-task.ts`) computed and rendered on a worker thread. */
import { DIFFERENCE_BUDGET_SCALE, type MapQuery } from './difference-map.js';
import type { EngineLimits } from '../service/limits.js';
import type { Generation } from '../service/generation.js';
import { WorkerPool, type WorkerPoolOptions } from '../service/worker-pool.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { HeatMapRunner } from './heat-map-runner.js';
import type { HeatMapTask } from './heat-map-task.js';
import { setsOf, type PointsRequest, type PointsResult } from './points.js';
import { ORIGINS_IN_FLIGHT } from '../service/limits.js';

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
    return this.pool.run<RenderedHeatMap>(task, budgetScale(query));
  }

  points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult> {
    const streets = generation.streets!;
    const task: HeatMapTask = { kind: 'points', coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, request };
    return this.pool.run<PointsResult>(task, budgetScale(query, { sets: setsOf(request).length, oneOfMany: request.oneOfMany }));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * How many single maps' time budget a task gets: a window's grows with its minutes (the departures'
 * `budgetScale`); a difference map computes two maps; a points task values each point set it reads
 * after the one transit search (counted whole, to be safe); an origin of a request of many waits
 * behind the others in flight (the budget runs from the task's arrival at the pool, its wait included).
 */
export function budgetScale(query: MapQuery, points?: { sets: number; oneOfMany: boolean }): number {
  const sets = Math.max(1, points?.sets ?? 1);
  const siblings = points?.oneOfMany ? ORIGINS_IN_FLIGHT : 1;
  return (query.window?.budgetScale ?? 1) * (query.comparison ? DIFFERENCE_BUDGET_SCALE : 1) * sets * siblings;
}
