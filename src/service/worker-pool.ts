/**
 * Heavy work on a pool of worker threads (piscina), whatever the work: the pool is given the module
 * its threads run (a default export taking one task). The event loop keeps answering while the work
 * runs elsewhere.
 *
 * - Fair, on two levels: each task has a key (a coverage) and a client (whoever asked: a token or an
 *   address). Waiting tasks are queued per key, and within a key per client; a freed thread goes to
 *   the key served longest ago and, within it, to the client served longest ago. So one coverage's
 *   many tasks (a matrix's origins) delay another coverage's map by one task, not by all of them,
 *   and one client's many tasks on a coverage delay another client's on the same coverage likewise.
 *   The heavy tasks of one key (those given more than one task's budget) hold at most all threads
 *   but one while another key waits, and those of one client likewise while another client of the
 *   key waits.
 * - Bounded: a queue refuses tasks past its length; one key holds at most three quarters of it, and
 *   one client at most three quarters of its key's share.
 * - A time budget cuts off a task that runs too long, counted from when it starts running (its wait
 *   in a fair queue is no fault of its own): its worker thread is terminated (piscina stops the
 *   thread of an aborted task that is running) and a fresh one takes its place, so a task that never
 *   ends cannot hold a thread past its budget.
 * - A deadline, counted from when the task is handed to the pool (its wait and its run), bounds what
 *   a request waits in all: past it, a waiting task is withdrawn from its queue and a running one is
 *   stopped as past its budget.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/** Time budget of one task unless told otherwise, milliseconds. */
export const DEFAULT_BUDGET_MS = 10_000;

/** The share of a queue one key holds at most, and of a key's share one client: the rest stays open to the others. */
const SHARE = 3 / 4;

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

/** How a task is run: its share of the pool and its limits. */
export interface RunOptions {
  /** the task is known to be that many times larger than one: its budget is that many budgets, and it is heavy above 1 */
  budgetScale?: number;
  /** the first level of the fair queue (a coverage) */
  key?: string;
  /** the second level (a client of the key) */
  client?: string;
  /** from now, milliseconds: past it the task is withdrawn from the queue or stopped */
  deadlineMs?: number;
}

/** The pool could not take the task (queue full), or the task did not finish within its time budget or its deadline. */
export class WorkUnavailable extends Error {
  constructor(
    readonly reason: 'queue_full' | 'timeout' | 'deadline',
    readonly retryAfterSec: number,
  ) {
    super(reason === 'queue_full' ? 'Too many tasks are being computed, retry later' : reason === 'timeout' ? 'The task took too long' : 'The task was not done by its deadline');
  }
}

interface Task {
  task: unknown;
  key: string;
  client: string;
  budgetScale: number;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** stops the task once it runs (its budget or its deadline) */
  abort: AbortController;
  state: 'waiting' | 'running' | 'done';
  /** the deadline's timer, if any */
  deadline?: NodeJS.Timeout;
  expired: boolean;
}

/** Per key (and per client of a key): its waiting tasks, its heavy tasks running, when it was last given a thread. */
interface Turns<Inner> {
  waiting: number;
  runningHeavy: number;
  running: number;
  lastServed: number;
  inner: Inner;
}

export class WorkerPool {
  private readonly pool: Piscina;
  private readonly budgetMs: number;
  /** the tasks given to piscina (at most one per thread) */
  private running = 0;
  /** the keys, then their clients, then each client's waiting tasks in order */
  private readonly keys = new Map<string, Turns<Map<string, Turns<Task[]>>>>();
  private waitingCount = 0;
  /** a count of the tasks started: a key or client last served at a smaller count waited longer */
  private served = 0;
  private readonly maxQueue: number;
  private readonly maxQueuedPerKey: number;
  private readonly maxQueuedPerClient: number;
  /** the worker threads */
  readonly threads: number;
  /** close() was called: what the threads still send is no one's */
  private closing = false;
  /** each task as it starts, its key and client (for tests and metrics) */
  onStart: ((key: string, client: string) => void) | undefined;

  constructor(options: WorkerPoolOptions) {
    const threads = options.threads ?? Math.max(1, availableParallelism());
    this.threads = threads;
    this.maxQueue = options.maxQueue ?? 4 * threads;
    this.maxQueuedPerKey = shareOf(this.maxQueue);
    this.maxQueuedPerClient = shareOf(this.maxQueuedPerKey);
    this.pool = new Piscina({ filename: options.module.href, minThreads: threads, maxThreads: threads, maxQueue: threads, idleTimeout: 60_000 });
    this.pool.on('error', (e: unknown) => {
      // Closed with tasks running (a command failing mid-run: its output folder gone, a full disk),
      // piscina forgets their tasks as it terminates the threads, but an answer already sent is
      // still delivered, and piscina reports it as an 'error' event ("Unexpected message from
      // Worker", from WorkerInfo._handleResponse): an answer nobody waits for any more, not a
      // failure. Unhandled, the event would end the process with a stack trace in place of the
      // command's own message. Before the pool closes, an error stays the failure it was.
      if (!this.closing) throw e;
    });
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  }

  /** Tasks running or waiting for a thread. */
  get pending(): number {
    return this.running + this.waitingCount;
  }

  /** The thread ids of the pool's live worker threads (a thread stopped past its budget is gone, with what it held). */
  liveThreadIds(): Set<number> {
    return new Set(this.pool.threads.map((worker) => worker.threadId));
  }

  /**
   * The module's answer to `task`; WorkUnavailable when the queue (or the key's or the client's share
   * of it) is full, when the budget (times `budgetScale`) runs out once it runs, or when the deadline
   * passes. A budget of 0: none (a batch command's pool, whose tasks take what they take).
   */
  run<Result>(task: unknown, options: RunOptions = {}): Promise<Result> {
    const { budgetScale = 1, key = '', client = '', deadlineMs } = options;
    return new Promise<Result>((resolve, reject) => {
      const keyTurns = this.keys.get(key);
      const clientTurns = keyTurns?.inner.get(client);
      const nowRunnable = this.running < this.threads && this.waitingCount === 0 && this.mayStart(key, client, budgetScale);
      if (!nowRunnable && (this.waitingCount >= this.maxQueue || (keyTurns?.waiting ?? 0) >= this.maxQueuedPerKey || (clientTurns?.waiting ?? 0) >= this.maxQueuedPerClient)) {
        reject(new WorkUnavailable('queue_full', 1));
        return;
      }
      const entry: Task = { task, key, client, budgetScale, resolve: resolve as (r: unknown) => void, reject, abort: new AbortController(), state: 'waiting', expired: false };
      if (deadlineMs !== undefined) entry.deadline = setTimeout(() => this.expire(entry), Math.max(0, deadlineMs));
      if (nowRunnable) this.start(entry);
      else this.enqueue(entry);
    });
  }

  /** The turns of `key` and of its `client`, made when first asked. */
  private turnsOf(key: string, client: string): [Turns<Map<string, Turns<Task[]>>>, Turns<Task[]>] {
    let k = this.keys.get(key);
    if (!k) this.keys.set(key, (k = { waiting: 0, runningHeavy: 0, running: 0, lastServed: 0, inner: new Map() }));
    let c = k.inner.get(client);
    if (!c) k.inner.set(client, (c = { waiting: 0, runningHeavy: 0, running: 0, lastServed: 0, inner: [] }));
    return [k, c];
  }

  /** A client with nothing waiting nor running is forgotten (clients are many), and so is a key then. */
  private forgetIdle(key: string, client: string): void {
    const k = this.keys.get(key);
    const c = k?.inner.get(client);
    if (!k || !c || c.waiting > 0 || c.running > 0) return;
    k.inner.delete(client);
    if (k.inner.size === 0 && k.running === 0) this.keys.delete(key);
  }

  private enqueue(entry: Task): void {
    const [k, c] = this.turnsOf(entry.key, entry.client);
    c.inner.push(entry);
    c.waiting++;
    k.waiting++;
    this.waitingCount++;
  }

  /** The first waiting task of `client` of `key`, taken off its queue. */
  private dequeue(entry: Task): void {
    const k = this.keys.get(entry.key)!;
    const c = k.inner.get(entry.client)!;
    c.inner.splice(c.inner.indexOf(entry), 1);
    c.waiting--;
    k.waiting--;
    this.waitingCount--;
  }

  /**
   * A heavy task of `client` of `key` may start unless it would leave another key's waiting task no
   * thread, or another client's of the same key.
   */
  private mayStart(key: string, client: string, budgetScale: number): boolean {
    if (budgetScale <= 1 || this.threads === 1) return true;
    const k = this.keys.get(key);
    const othersWait = (k?.waiting ?? 0) < this.waitingCount;
    if (othersWait && (k?.runningHeavy ?? 0) >= this.threads - 1) return false;
    const c = k?.inner.get(client);
    const otherClientsWait = (c?.waiting ?? 0) < (k?.waiting ?? 0);
    return !otherClientsWait || (c?.runningHeavy ?? 0) < this.threads - 1;
  }

  private start(entry: Task): void {
    const heavy = entry.budgetScale > 1 ? 1 : 0;
    const [k, c] = this.turnsOf(entry.key, entry.client);
    k.lastServed = c.lastServed = ++this.served;
    k.running++;
    c.running++;
    k.runningHeavy += heavy;
    c.runningHeavy += heavy;
    this.running++;
    entry.state = 'running';
    this.onStart?.(entry.key, entry.client);
    const budget = this.budgetMs > 0 ? setTimeout(() => entry.abort.abort(), Math.ceil(this.budgetMs * entry.budgetScale)) : undefined;
    this.pool.run(entry.task, { signal: entry.abort.signal }).then(
      (result) => entry.resolve(result),
      (e: unknown) => {
        if (entry.expired) entry.reject(new WorkUnavailable('deadline', 5));
        else if (entry.abort.signal.aborted) entry.reject(new WorkUnavailable('timeout', 5));
        else if (/queue is at limit/i.test((e as Error).message)) entry.reject(new WorkUnavailable('queue_full', 1));
        else entry.reject(e);
      },
    ).finally(() => {
      clearTimeout(budget);
      clearTimeout(entry.deadline);
      entry.state = 'done';
      this.running--;
      k.running--;
      c.running--;
      k.runningHeavy -= heavy;
      c.runningHeavy -= heavy;
      this.forgetIdle(entry.key, entry.client);
      this.startNext();
    });
  }

  /** Past its deadline: a waiting task leaves its queue, a running one is stopped. */
  private expire(entry: Task): void {
    entry.expired = true;
    if (entry.state === 'running') entry.abort.abort();
    if (entry.state !== 'waiting') return;
    entry.state = 'done';
    this.dequeue(entry);
    this.forgetIdle(entry.key, entry.client);
    entry.reject(new WorkUnavailable('deadline', 5));
  }

  /** Give the free threads to the waiting tasks: the key served longest ago, then its client served longest ago. */
  private startNext(): void {
    while (this.running < this.threads && this.waitingCount > 0) {
      const next = this.nextTask();
      if (!next) return;
      this.dequeue(next);
      this.start(next);
    }
  }

  private nextTask(): Task | undefined {
    for (const [key, k] of longestAgoFirst(this.keys)) {
      if (k.waiting === 0) continue;
      for (const [client, c] of longestAgoFirst(k.inner)) {
        const first = c.inner[0];
        if (first && this.mayStart(key, client, first.budgetScale)) return first;
      }
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.pool.destroy();
  }
}

/** Three quarters of `places` (one place at least stays open to the others, and one is taken). */
function shareOf(places: number): number {
  return Math.max(1, places - Math.max(1, Math.floor(places * (1 - SHARE))));
}

function longestAgoFirst<T extends { lastServed: number }>(turns: Map<string, T>): [string, T][] {
  return [...turns].sort((x, y) => x[1].lastServed - y[1].lastServed);
}
