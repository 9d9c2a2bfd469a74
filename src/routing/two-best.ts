/**
 * RAPTOR's labels at the stops (raptor.ts): per stop the best label and its run, and the best label
 * of any other run, so that a transfer never boards the run it came from ("two best of distinct
 * runs", as Navitia keeps them). Each round's walked and vehicle labels, and the best over the
 * rounds that count, are one `TwoBest` each.
 */
import { UNREACHED } from './unreached.js';

/** Run of an access label: no vehicle (run ids are >= 0). */
export const NO_RUN = -1;

/**
 * Per stop, the two best labels of distinct runs: (time1, run1) the best, (time2, run2) the best of
 * a run other than run1. The best label usable to board run R is time1 unless run1 = R, else time2.
 * Stops with a label are listed in `touched`, for a cheap reset.
 */
export class TwoBest {
  readonly time1: Int32Array;
  readonly run1: Int32Array;
  readonly time2: Int32Array;
  readonly run2: Int32Array;
  readonly touched: Uint32Array;
  count = 0;

  constructor(n: number) {
    this.time1 = new Int32Array(n).fill(UNREACHED);
    this.run1 = new Int32Array(n).fill(NO_RUN);
    this.time2 = new Int32Array(n).fill(UNREACHED);
    this.run2 = new Int32Array(n).fill(NO_RUN);
    this.touched = new Uint32Array(n);
  }

  /** Offer label x of run `run` at stop p; true when it changed the pair (it was not dominated). */
  offer(p: number, x: number, run: number): boolean {
    const t1 = this.time1[p]!;
    if (this.run1[p] === run && t1 !== UNREACHED) {
      if (x >= t1) return false;
      this.time1[p] = x;
      return true;
    }
    if (x < t1) {
      this.time2[p] = t1;
      this.run2[p] = this.run1[p]!;
      this.time1[p] = x;
      this.run1[p] = run;
      return true;
    }
    if (x < this.time2[p]!) {
      this.time2[p] = x;
      this.run2[p] = run;
      return true;
    }
    return false;
  }

  /** Forget every label (the caller keeps `touched` listing each stop with one). */
  clear(): void {
    for (let j = 0; j < this.count; j++) {
      const p = this.touched[j]!;
      this.time1[p] = UNREACHED;
      this.time2[p] = UNREACHED;
    }
    this.count = 0;
  }
}
