/**
 * Work written as a generator that yields between its steps, run either in one piece or a few
 * milliseconds at a time with the event loop served in between: the same code for a test or a
 * command line, and for a server that must keep answering while it works.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Run `work` to its end in one piece. */
export function inOnePiece<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** How long work runs before the event loop gets a turn, by default. */
export const SLICE_MS = 4;

/** Run `work` to its end, handing the event loop back whenever a slice of `sliceMs` has passed at a yield. */
export async function inSlices<T>(work: Generator<void, T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
