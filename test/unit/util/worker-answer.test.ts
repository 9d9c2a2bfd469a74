/** One piece of work in a worker thread: its answer, or a rejection when it stops without one (never a wait for ever). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workerAnswer } from '../../../src/util/worker-answer.js';

const worker = new URL('./silent-worker.js', import.meta.url);

test('the answer of a worker that answers', async () => {
  assert.equal(await workerAnswer<number>(worker, { value: 21, exitSilently: false }), 42);
});

test('a worker that stops without answering rejects, with its exit code', async () => {
  await assert.rejects(workerAnswer(worker, { value: 21, exitSilently: true }), /stopped \(exit code 3\) without an answer/);
});
