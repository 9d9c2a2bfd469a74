/**
 * RAPTOR's labels with the journeys behind them (raptor-journeys.ts): two-best.ts's labels, each
 * with the entry of the journey record (journey-paths.ts) it came from. The search sets `path`
 * before offering a label; the pair's paths follow its labels as `offer` moves them.
 */
import { TwoBest } from './two-best.js';
import { UNREACHED } from './unreached.js';

/** Journey of a label not recorded. */
export const NO_PATH = -1;

export class TwoBestPaths extends TwoBest {
  readonly path1: Int32Array;
  readonly path2: Int32Array;
  /** the journey of the label offered next */
  path = NO_PATH;

  constructor(n: number) {
    super(n);
    this.path1 = new Int32Array(n).fill(NO_PATH);
    this.path2 = new Int32Array(n).fill(NO_PATH);
  }

  override offer(p: number, x: number, run: number): boolean {
    const sameRun = this.run1[p] === run && this.time1[p] !== UNREACHED;
    if (!super.offer(p, x, run)) return false;
    if (this.time1[p] === x && this.run1[p] === run) {
      // the best now: the former best, of another run, became the second
      if (!sameRun) this.path2[p] = this.path1[p]!;
      this.path1[p] = this.path;
    } else {
      this.path2[p] = this.path;
    }
    return true;
  }
}
