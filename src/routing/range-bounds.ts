/**
 * Range RAPTOR (the RAPTOR paper's rRAPTOR, R5's range search): the searches of a departure
 * window's minutes share, per round and stop, the best label of the minutes already searched, and
 * each minute keeps only what improves on them (window-heat-map.ts).
 */
import type { TwoBest } from './two-best.js';
import { UNREACHED } from './unreached.js';

/**
 * Range RAPTOR's memory across the minutes of a departure window (R5's, and the RAPTOR paper's
 * rRAPTOR): per round and stop, the best label any later minute reached, as seconds from the
 * window's reference instant. Minutes are searched latest first (an arrival map's: earliest deadline
 * first); a rider can always wait for a later minute's journey, so a label of a round no better
 * than what a later minute had at that stop in that round leads nowhere new and is dropped. Each
 * minute's search then costs what changes from the minute after, not a whole search. The bounds of
 * a round are folded in once the round's labels are complete, so a search never prunes against its
 * own labels (its answer is the single search's, restricted to what improves on the later minutes).
 */
export class RangeBounds {
  readonly walked: Int32Array[];
  readonly vehicle: Int32Array[];

  constructor(stopCount: number, rounds: number) {
    this.walked = Array.from({ length: rounds + 1 }, () => new Int32Array(stopCount));
    this.vehicle = Array.from({ length: rounds + 1 }, () => new Int32Array(stopCount));
    this.reset();
  }

  /** rounds 0 (the access) to `rounds` vehicles */
  get rounds(): number {
    return this.walked.length - 1;
  }

  /** Forget every minute (a new window). */
  reset(): void {
    for (const a of this.walked) a.fill(UNREACHED);
    for (const a of this.vehicle) a.fill(UNREACHED);
  }

  bytes(): number {
    return 2 * this.walked.length * this.walked[0]!.byteLength;
  }
}

/** Fold labels (their `touched` stops) into a round's bounds, shifted to the window's reference. */
export function foldBounds(labels: TwoBest, bound: Int32Array, shift: number): void {
  for (let j = 0; j < labels.count; j++) {
    const p = labels.touched[j]!;
    const key = labels.time1[p]! + shift;
    if (key < bound[p]!) bound[p] = key;
  }
}
