/**
 * Heat maps on a pool of worker threads (piscina): the event loop keeps answering trips while the
 * heavy work runs elsewhere. A bounded queue refuses work past its length, and a time budget
 * cuts off a computation that runs too long: its worker thread is terminated (piscina stops the
 * thread of an aborted task that is running) and a fresh one takes its place, so a computation
 * that never ends cannot hold a thread past its budget.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { HeatMapRender, RenderedHeatMap } from '../api/heat-map-render.js';
import type { HeatMapQuery } from '../routing/heat-map.js';
import type { Generation } from './generation.js';
import { HeatMapUnavailable, type HeatMapLimits, type HeatMapRunner } from './heat-map-runner.js';
import type { HeatMapTask } from './heat-map-worker.js';

export interface PoolOptions extends HeatMapLimits {
  /** worker threads (default: one per core) */
  threads?: number;
  /** tasks waiting beyond the running ones; past it requests get 503 */
  maxQueue?: number;
  /** time budget of one heat map (waiting included), milliseconds */
  budgetMs?: number;
  /** the module the threads run (default: heat-map-worker.js; tests give their own) */
  workerModule?: URL;
}

export class HeatMapPool implements HeatMapRunner {
  private readonly pool: Piscina;
  private readonly budgetMs: number;
  private readonly limits: HeatMapLimits;
  /** tasks running or waiting, bounded by threads + maxQueue (counted here: piscina's own bound is loose while threads start) */
  private inFlight = 0;
  private readonly capacity: number;

  constructor(options: PoolOptions) {
    const threads = options.threads ?? Math.max(1, availableParallelism());
    const maxQueue = options.maxQueue ?? 4 * threads;
    this.capacity = threads + maxQueue;
    this.pool = new Piscina({
      filename: (options.workerModule ?? new URL('./heat-map-worker.js', import.meta.url)).href,
      minThreads: threads,
      maxThreads: threads,
      maxQueue,
      idleTimeout: 60_000,
    });
    this.budgetMs = options.budgetMs ?? 10_000;
    this.limits = { maxDurationSec: options.maxDurationSec, maxResolution: options.maxResolution };
  }

  /** Tasks running or waiting for a thread. */
  get pending(): number {
    return this.inFlight;
  }

  async run(coverageId: string, generation: Generation, query: HeatMapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    const task: HeatMapTask = { coverageId, dataId: streets.id, data: streets.data, limits: this.limits, query, render };
    if (this.inFlight >= this.capacity) throw new HeatMapUnavailable('queue_full', 1);
    const signal = AbortSignal.timeout(this.budgetMs);
    this.inFlight++;
    try {
      return (await this.pool.run(task, { signal })) as RenderedHeatMap;
    } catch (e) {
      if (signal.aborted) throw new HeatMapUnavailable('timeout', 5);
      if (/queue is at limit/i.test((e as Error).message)) throw new HeatMapUnavailable('queue_full', 1);
      throw e;
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
