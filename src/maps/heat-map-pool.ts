/** Heat maps on the worker pool: each map is a task (`heat-map-task.ts`) computed and rendered on a worker thread. */
import { DIFFERENCE_BUDGET_SCALE, type MapQuery } from './difference-map.js';
import type { EngineLimits } from '../service/limits.js';
import type { Generation } from '../service/generation.js';
import { WorkerPool, type WorkerPoolOptions } from '../service/worker-pool.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import type { HeatMapRunner } from './heat-map-runner.js';
import type { HeatMapTask } from './heat-map-task.js';
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

  run(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    const task: HeatMapTask = { coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, render };
    return this.pool.run<RenderedHeatMap>(task, budgetScale(query, render));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * How many single maps' time budget a task gets: a window's grows with its minutes; a difference
 * map computes two maps; an accessibility request (or a regional origin's measures) values each
 * point set it reads after the one transit search (counted whole, to be safe); an origin of a
 * matrix or a regional accessibility waits behind the others in flight (the budget runs from the
 * task's arrival at the pool, its wait included).
 */
export function budgetScale(query: MapQuery, render?: HeatMapRender): number {
  const format = render?.format;
  const setsOf = format?.kind === 'accessibility' ? format.opportunities : format?.kind === 'travel_times' ? format.measures?.columns : undefined;
  const sets = setsOf ? new Set(setsOf.map((ref) => ref.set)).size : 1;
  // one origin of many: its wait behind the other origins of its request counts in its budget
  const siblings = render?.format.kind === 'travel_times' ? ORIGINS_IN_FLIGHT : 1;
  return (query.window?.budgetScale ?? 1) * (query.comparison ? DIFFERENCE_BUDGET_SCALE : 1) * Math.max(1, sets) * siblings;
}
