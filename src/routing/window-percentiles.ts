/**
 * A departure window's last step (R5's TravelTimeReducer): per target, its travel time at each
 * minute of the window, listed from its changes (window-changes.ts) and the direct path, then
 * summarised by percentiles with R5's rule: sort the minutes' values, unreached as +∞, take index
 * ceil(p / 100 × n) − 1. docs/api.md, "Departure windows".
 *
 * Per-engine scratch: one target's minutes, and one array of seconds per percentile, sized for the
 * most targets.
 */
import type { PercentileMap } from './heat-map-types.js';
import { WINDOW_STEP_SEC } from './window-transit.js';
import type { WindowChanges } from './window-changes.js';

/** A window's percentiles at its targets, and how many targets the lowest reaches. */
export interface WindowPercentileMaps {
  percentiles: PercentileMap[];
  reached: number;
}

export class WindowPercentiles {
  private percentileSeconds: Int32Array[] = [];
  /** one target's value at each minute, whole seconds (sorted in place to select its percentiles) */
  private minuteSec = new Int32Array(0);

  constructor(private capacity: number) {}

  /** Room for `targets` targets (a point set larger than the largest grid). */
  ensureCapacity(targets: number): void {
    if (targets <= this.capacity) return;
    this.capacity = targets;
    this.percentileSeconds = [];
  }

  /**
   * The percentiles `of` the first `cells` targets over the `n` minutes of a map of `T` seconds,
   * from the grouped `changes` and the direct path's whole seconds (`directSec`, -1: none): views on
   * scratch memory valid until the next window.
   */
  select(of: number[], n: number, T: number, changes: WindowChanges, directSec: Int32Array, cells: number): WindowPercentileMaps {
    if (this.minuteSec.length < n) this.minuteSec = new Int32Array(n);
    const seconds = of.map((_, p) => this.secondsFor(p).subarray(0, cells));
    const ranks = of.map((p) => Math.max(1, Math.ceil((p / 100) * n)));
    for (let c = 0; c < cells; c++) this.selectPercentiles(c, n, T, ranks, seconds, changes, directSec);
    // the lowest percentile has the most cells with a value: nothing is reached when it has none
    let reached = 0;
    for (let c = 0; c < cells; c++) if (seconds[0]![c]! >= 0) reached++;
    return { percentiles: of.map((percentile, p) => ({ percentile, seconds: seconds[p]! })), reached };
  }

  /**
   * The percentiles of cell c over the n minutes: its value at minute k is the smaller of the direct
   * path and its arrival at k (the change of the smallest minute at or after k) less k minutes, in
   * whole seconds (T when unreached). The minutes' values are listed from the cell's changes (read
   * backwards, minutes ascending), sorted, and the p-th percentile is the value of rank
   * ceil(p / 100 × n), null from T on. At most 180 values a cell: listing and a native sort cost
   * less than counting the runs of minutes at each step of a halving search.
   */
  private selectPercentiles(c: number, n: number, T: number, ranks: number[], out: Int32Array[], changes: WindowChanges, directSecs: Int32Array): void {
    const directSec = directSecs[c]!;
    // in tenths, a whole second's: every comparison below is with a whole second
    const direct = directSec < 0 ? Infinity : directSec * 10;
    const first = changes.cellStart[c]!;
    const end = changes.cellStart[c + 1]!;
    const limit = T * 10;
    if (first === end) {
      const sec = direct < limit ? Math.floor(direct / 10) : -1;
      for (let p = 0; p < ranks.length; p++) out[p]![c] = sec;
      return;
    }
    const { sorted } = changes;
    const { minuteSec } = this;
    const stepDs = WINDOW_STEP_SEC * 10;
    const directWhole = direct < limit ? directSec : T;
    let k = 0;
    // the cell's changes were made minutes descending: read backwards, minutes ascend
    for (let x = end - 1; x >= first; x--) {
      const to = sorted[2 * x]!;
      // a cell improved twice in one minute: the later change, read first, covers it already
      if (to < k) continue;
      const arrival = sorted[2 * x + 1]!;
      for (; k <= to; k++) {
        const v = arrival - stepDs * k;
        const value = v < direct ? v : direct;
        minuteSec[k] = value < limit ? Math.floor(value / 10) : T;
      }
    }
    // minutes after the last change: the direct path or nothing
    for (; k < n; k++) minuteSec[k] = directWhole;
    const values = minuteSec.subarray(0, n).sort();
    for (let p = 0; p < ranks.length; p++) {
      const sec = values[ranks[p]! - 1]!;
      out[p]![c] = sec < T ? sec : -1;
    }
  }

  private secondsFor(p: number): Int32Array {
    while (this.percentileSeconds.length <= p) this.percentileSeconds.push(new Int32Array(this.capacity));
    return this.percentileSeconds[p]!;
  }

  scratchBytes(): number {
    let total = 0;
    for (const seconds of this.percentileSeconds) total += seconds.byteLength;
    return total;
  }
}
