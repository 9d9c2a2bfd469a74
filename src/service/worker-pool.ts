/**
 * Heavy work on a pool of worker threads (piscina), whatever the work: the pool is given the module
 * its threads run (a default export taking one task). The event loop keeps answering while the work
 * runs elsewhere. A bounded queue refuses tasks past its length, and a time budget cuts off a task
 * that runs too long: its worker thread is terminated (piscina stops the thread of an aborted task
 * that is running) and a fresh one takes its place, so a task that never ends cannot hold a thread
 * past its budget.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/** Time budget of one task unless told otherwise, milliseconds. */
export const DEFAULT_BUDGET_MS = 10_000;

export interface WorkerPoolOptions {
  /** the module the threads run: its default export computes one task */
  module: URL;
  /** worker threads (default: one per core) */
  threads?: number;
  /** tasks waiting beyond the running ones; past it `run` refuses */
  maxQueue?: number;
  /** time budget of one task (waiting included), milliseconds */
  budgetMs?: number;
}

/** The pool could not take the task (queue full) or the task did not finish within its time budget. */
export class WorkUnavailable extends Error {
  constructor(
    readonly reason: 'queue_full' | 'timeout',
    readonly retryAfterSec: number,
  ) {
    super(reason === 'queue_full' ? 'Too many tasks are being computed, retry later' : 'The task took too long');
  }
}

export class WorkerPool {
  private readonly pool: Piscina;
  private readonly budgetMs: number;
  /** tasks running or waiting, bounded by threads + maxQueue (counted here: piscina's own bound is loose while threads start) */
  private inFlight = 0;
  private readonly capacity: number;
  /** the worker threads */
  readonly threads: number;

  constructor(options: WorkerPoolOptions) {
    const threads = options.threads ?? Math.max(1, availableParallelism());
    this.threads = threads;
    const maxQueue = options.maxQueue ?? 4 * threads;
    this.capacity = threads + maxQueue;
    this.pool = new Piscina({ filename: options.module.href, minThreads: threads, maxThreads: threads, maxQueue, idleTimeout: 60_000 });
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  }

  /** Tasks running or waiting for a thread. */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * The module's answer to `task`; WorkUnavailable when the queue is full or the budget (times
   * `budgetScale`, for a task known to be that many times larger) runs out. A budget of 0: none
   * (a batch command's pool, whose tasks take what they take).
   */
  async run<Result>(task: unknown, budgetScale = 1): Promise<Result> {
    if (this.inFlight >= this.capacity) throw new WorkUnavailable('queue_full', 1);
    const signal = this.budgetMs > 0 ? AbortSignal.timeout(Math.ceil(this.budgetMs * budgetScale)) : undefined;
    this.inFlight++;
    try {
      return (await this.pool.run(task, { signal })) as Result;
    } catch (e) {
      if (signal?.aborted) throw new WorkUnavailable('timeout', 5);
      if (/queue is at limit/i.test((e as Error).message)) throw new WorkUnavailable('queue_full', 1);
      throw e;
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
