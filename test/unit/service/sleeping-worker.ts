/** A worker module for the pool's tests: each task holds its thread `ms` milliseconds, then answers its id. */
export default function sleep(task: { id: string; ms: number }): string {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, task.ms);
  return task.id;
}
