/**
 * One piece of work in a worker thread: start `module` with `data` and take its one message. The
 * promise rejects when the thread throws or stops without answering (out of memory, killed), so
 * that a caller never waits for ever.
 */
import { Worker } from 'node:worker_threads';

export function workerAnswer<T>(module: URL, data: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(module, { workerData: data });
    worker.once('message', (answer: T) => {
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', reject);
    // after an answer or an error this changes nothing: a promise settles once
    worker.once('exit', (code) => reject(new Error(`the worker thread stopped (exit code ${code}) without an answer`)));
  });
}
