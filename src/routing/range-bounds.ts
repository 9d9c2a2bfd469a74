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
 * first); a rider can always wait for a later minute's journey, so a label no better than what a
 * later minute had at that stop, in that round or in a round before it that counts, leads nowhere
 * new and is dropped. Each minute's search then costs what changes from the minute after, not a
 * whole search. The bounds of a round are folded in once the round's labels are complete, so a
 * search never prunes against its own labels (its answer is the single search's, restricted to
 * what improves on the later minutes).
 *
 * Rounds below a fewest-transfers limit are not bounded (raptor.ts, `bounded`): there a label off
 * another run may board the run a later minute's label came off, and count where staying aboard
 * would not. A search keeping its journeys bounds each round by its own round only: its ties
 * between journeys arriving as early go to the fewest vehicles, then the least walking, which the
 * labels of more vehicles decide.
 */
/** Windows started in this thread, over every `RangeBounds`. */
let windowsStarted = 0;

export class RangeBounds {
  readonly walked: Int32Array[];
  readonly vehicle: Int32Array[];
  /** the window these bounds are of: a new number at each `reset`, never another bounds' (what a search keeps of a window is known by it) */
  window = 0;

  constructor(
    stopCount: number,
    rounds: number,
    /** seconds between two minutes searched: minute k's labels are shifted by k × stepSec to the reference */
    readonly stepSec: number,
  ) {
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
    this.window = ++windowsStarted;
    for (const a of this.walked) a.fill(UNREACHED);
    for (const a of this.vehicle) a.fill(UNREACHED);
  }

  bytes(): number {
    return 2 * this.walked.length * this.walked[0]!.byteLength;
  }
}

/**
 * Fold a round's labels (their `touched` stops), shifted to the window's reference, into the bounds
 * of rounds `first` to `last`: a later minute's label of round j also bounds the rounds after j
 * that it dominates within a search (raptor.ts: those pruned against the best of the rounds that
 * count), since a rider can wait for that later journey and ride no more vehicles.
 */
export function foldBounds(labels: TwoBest, bounds: Int32Array[], first: number, last: number, shift: number): void {
  for (let r = first; r <= last; r++) {
    const bound = bounds[r]!;
    for (let j = 0; j < labels.count; j++) {
      const p = labels.touched[j]!;
      const key = labels.time1[p]! + shift;
      if (key < bound[p]!) bound[p] = key;
    }
  }
}
