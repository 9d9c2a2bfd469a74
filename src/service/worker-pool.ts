/**
 * Heavy work on a pool of worker threads (piscina), whatever the work: the pool is given the module
 * its threads run (a default export taking one task). The event loop keeps answering while the work
 * runs elsewhere.
 *
 * - Fair: each task has a key (a coverage). Waiting tasks are queued per key and a freed thread takes
 *   the next key's, in turn, so that one coverage's many tasks (a matrix's origins) delay another
 *   coverage's map by one task, not by all of them; and the heavy tasks of one key (those given more
 *   than one task's budget) hold at most all threads but one while another key waits.
 * - Bounded: a queue refuses tasks past its length, and one key holds at most three quarters of it.
 * - A time budget cuts off a task that runs too long, counted from when it starts running (its wait
 *   in a fair queue is no fault of its own): its worker thread is terminated (piscina stops the
 *   thread of an aborted task that is running) and a fresh one takes its place, so a task that never
 *   ends cannot hold a thread past its budget.
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
  /** time budget of one task once it runs, milliseconds */
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

interface Waiting {
  task: unknown;
  key: string;
  budgetScale: number;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class WorkerPool {
  private readonly pool: Piscina;
  private readonly budgetMs: number;
  /** the tasks given to piscina (at most one per thread), per key, and how many of them are heavy */
  private running = 0;
  private readonly runningHeavy = new Map<string, number>();
  /** the waiting tasks, per key, and the keys in turn */
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingCount = 0;
  /** when each key was last given a thread (a count of the tasks started): the turn goes to the one served longest ago */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private readonly maxQueue: number;
  private readonly maxQueuedPerKey: number;
  /** the worker threads */
  readonly threads: number;
  /** each task as it starts, its key (for tests and metrics) */
  onStart: ((key: string) => void) | undefined;

  constructor(options: WorkerPoolOptions) {
    const threads = options.threads ?? Math.max(1, availableParallelism());
    this.threads = threads;
    this.maxQueue = options.maxQueue ?? 4 * threads;
    // a quarter of the queue (one place at least) stays open to the other keys
    this.maxQueuedPerKey = Math.max(1, this.maxQueue - Math.max(1, Math.floor(this.maxQueue / 4)));
    this.pool = new Piscina({ filename: options.module.href, minThreads: threads, maxThreads: threads, maxQueue: threads, idleTimeout: 60_000 });
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  }

  /** Tasks running or waiting for a thread. */
  get pending(): number {
    return this.running + this.waitingCount;
  }

  /**
   * The module's answer to `task`; WorkUnavailable when the queue (or `key`'s share of it) is full, or
   * when the budget (times `budgetScale`, for a task known to be that many times larger) runs out
   * once it runs. A budget of 0: none (a batch command's pool, whose tasks take what they take).
   */
  run<Result>(task: unknown, budgetScale = 1, key = ''): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const queued = this.waiting.get(key)?.length ?? 0;
      const nowRunnable = this.running < this.threads && this.waitingCount === 0 && this.mayStart(key, budgetScale);
      if (!nowRunnable && (this.waitingCount >= this.maxQueue || queued >= this.maxQueuedPerKey)) {
        reject(new WorkUnavailable('queue_full', 1));
        return;
      }
      const entry: Waiting = { task, key, budgetScale, resolve: resolve as (r: unknown) => void, reject };
      if (nowRunnable) this.start(entry);
      else {
        if (queued === 0) this.waiting.set(key, []);
        this.waiting.get(key)!.push(entry);
        this.waitingCount++;
      }
    });
  }

  /** A heavy task of `key` may start unless it would leave another key's waiting task no thread. */
  private mayStart(key: string, budgetScale: number): boolean {
    if (budgetScale <= 1 || this.threads === 1) return true;
    const othersWait = [...this.waiting.keys()].some((k) => k !== key);
    return !othersWait || (this.runningHeavy.get(key) ?? 0) < this.threads - 1;
  }

  private start(entry: Waiting): void {
    const heavy = entry.budgetScale > 1;
    this.lastServed.set(entry.key, ++this.served);
    this.running++;
    if (heavy) this.runningHeavy.set(entry.key, (this.runningHeavy.get(entry.key) ?? 0) + 1);
    this.onStart?.(entry.key);
    const signal = this.budgetMs > 0 ? AbortSignal.timeout(Math.ceil(this.budgetMs * entry.budgetScale)) : undefined;
    this.pool.run(entry.task, { signal }).then(
      (result) => entry.resolve(result),
      (e: unknown) => {
        if (signal?.aborted) entry.reject(new WorkUnavailable('timeout', 5));
        else if (/queue is at limit/i.test((e as Error).message)) entry.reject(new WorkUnavailable('queue_full', 1));
        else entry.reject(e);
      },
    ).finally(() => {
      this.running--;
      if (heavy) this.runningHeavy.set(entry.key, this.runningHeavy.get(entry.key)! - 1);
      this.startNext();
    });
  }

  /** Give the free threads to the waiting tasks, the key served longest ago first. */
  private startNext(): void {
    while (this.running < this.threads && this.waitingCount > 0) {
      const turn = [...this.waiting.keys()].sort((x, y) => (this.lastServed.get(x) ?? 0) - (this.lastServed.get(y) ?? 0));
      const key = turn.find((k) => this.mayStart(k, this.waiting.get(k)![0]!.budgetScale));
      if (key === undefined) return;
      const queue = this.waiting.get(key)!;
      const entry = queue.shift()!;
      this.waitingCount--;
      if (queue.length === 0) this.waiting.delete(key);
      this.start(entry);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
