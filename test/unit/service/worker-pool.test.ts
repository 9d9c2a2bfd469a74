/**
 * The worker pool's fair sharing (src/service/worker-pool.ts), counted in the order tasks start, not
 * timed: one coverage's many tasks delay another's by one task, not all of them; one coverage's heavy
 * tasks leave a thread to another's waiting ones; one coverage holds at most three quarters of the queue; the
 * budget counts a task's running time, not its wait in the fair queue.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerPool, WorkUnavailable } from '../../../src/service/worker-pool.js';

const MODULE = new URL('./sleeping-worker.js', import.meta.url);

/** A pool whose tasks' starts are recorded as `key:id`. */
function pool(threads: number, maxQueue: number, budgetMs = 0) {
  const p = new WorkerPool({ module: MODULE, threads, maxQueue, budgetMs });
  const starts: string[] = [];
  p.onStart = (key) => starts.push(key);
  return { p, starts };
}

test('round robin: a coverage that arrives behind six tasks of another starts at the next free thread', async () => {
  const { p, starts } = pool(2, 16);
  const a = Array.from({ length: 6 }, (_, k) => p.run({ id: `a${k}`, ms: 30 }, 1, 'poa'));
  const b = p.run({ id: 'b0', ms: 30 }, 1, 'bart');
  assert.deepEqual(await Promise.all([...a, b]), ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'b0']);
  // two of poa's run at once; the first thread freed goes to bart, before poa's third task
  assert.deepEqual(starts.slice(0, 3), ['poa', 'poa', 'bart']);
  await p.close();
});

test('heavy tasks of one coverage hold at most all threads but one while another coverage waits', async () => {
  const { p, starts } = pool(2, 16);
  // a window's origins (more than one task's budget each), then a light map of another coverage
  const heavy = Array.from({ length: 4 }, (_, k) => p.run({ id: `h${k}`, ms: 40 }, 3, 'poa'));
  await new Promise((resolve) => setTimeout(resolve, 5));
  const light = p.run({ id: 'm', ms: 10 }, 1, 'bart');
  await Promise.all([...heavy, light]);
  // alone, poa's heavy tasks took both threads; once bart waits, the next thread freed is bart's
  assert.deepEqual(starts.slice(0, 3), ['poa', 'poa', 'bart']);
  await p.close();
});

test('one coverage holds at most three quarters of the queue: another coverage is still taken', async () => {
  const { p } = pool(1, 4);
  const a = [0, 1, 2, 3].map((k) => p.run({ id: `a${k}`, ms: k === 0 ? 50 : 1 }, 1, 'poa'));
  // one running, three waiting: poa's three quarters of the queue of 4
  await assert.rejects(p.run({ id: 'a4', ms: 1 }, 1, 'poa'), (e) => e instanceof WorkUnavailable && e.reason === 'queue_full');
  const b = p.run({ id: 'b0', ms: 1 }, 1, 'bart');
  assert.deepEqual(await Promise.all([...a, b]), ['a0', 'a1', 'a2', 'a3', 'b0']);
  await p.close();
});

test('the budget counts a task\'s running time, not its wait in the queue', async () => {
  const { p } = pool(1, 4, 3000);
  // the first task holds the only thread until its budget cuts it off; the second waits that long, a
  // whole budget of its own, and is computed once it runs
  const stuck = p.run({ id: 'stuck', ms: 60_000 }, 1, 'poa');
  const next = p.run({ id: 'next', ms: 1 }, 1, 'poa');
  await assert.rejects(stuck, (e) => e instanceof WorkUnavailable && e.reason === 'timeout');
  assert.equal(await next, 'next');
  await p.close();
});
