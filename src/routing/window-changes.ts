/**
 * A departure window's changes (window-heat-map.ts): minutes are taken latest first, so a target's
 * value only ever improves, and the propagation keeps, per target (a cell or a point), the list of
 * its improvements as (minute, arrival) changes instead of minutes × targets values, one a minute
 * (improved again at the same minute, by another stop or leg, its change is made better). Then, grouped
 * by target (a counting sort), each target's changes read in order for its percentiles
 * (window-percentiles.ts).
 *
 * Per-engine scratch, sized for the most targets; the change lists grow as a map needs them, up to
 * MAX_CHANGES, past which the map is refused (WindowBudgetError).
 */
import { grownInt32 } from '../model/growable.js';

/** The most (cell, minute, arrival) changes a windowed map may keep over all its cells (20 bytes each, grouped copy included). */
export const MAX_CHANGES = 16_000_000;

export class WindowBudgetError extends Error {}

/** A target's best arrival before any change (above every arrival in tenths). */
const NO_ARRIVAL = 0x7fffffff;

export class WindowChanges {
  /** per target: its best arrival so far, tenths from the reference */
  private best: Int32Array;
  /** per target: the index of its last change, when it has one this window (`changeAt`) */
  private lastChange: Int32Array;
  /** per target, once grouped: where its changes start in `sorted` (targets + 1 entries) */
  cellStart: Int32Array;
  /**
   * The changes as the minutes make them: per entry its target, its minute and its arrival (tenths
   * from the reference); then grouped by target in `sorted` (minute, arrival), each target's in the
   * order made (minutes descending): a target's changes read in order, not chased through memory.
   */
  private changes = new Int32Array(3 * 65536);
  sorted = new Int32Array(2 * 65536);
  private count = 0;
  /**
   * With a breakdown (`reset(…, true)`, `keepFrom`): per change, the improvement it came from
   * (window-transit.ts's index); grouped beside `sorted` in `sortedSource`.
   */
  private sources: Int32Array<ArrayBuffer> = new Int32Array(0);
  sortedSource: Int32Array<ArrayBuffer> = new Int32Array(0);
  private withSources = false;
  /** groupSources' scratch: each target's next slot */
  private nextSlot: Int32Array<ArrayBuffer> = new Int32Array(0);

  constructor(private capacity: number) {
    this.best = new Int32Array(capacity);
    this.lastChange = new Int32Array(capacity);
    this.cellStart = new Int32Array(capacity + 1);
  }

  /** Room for `targets` targets (a point set larger than the largest grid). */
  ensureCapacity(targets: number): void {
    if (targets <= this.capacity) return;
    this.capacity = targets;
    this.best = new Int32Array(targets);
    this.lastChange = new Int32Array(targets);
    this.cellStart = new Int32Array(targets + 1);
  }

  /** Per target, its best arrival so far (tenths from the reference): read-only, for a caller's test before `keep`. */
  get bestArrivals(): Int32Array {
    return this.best;
  }

  /** The changes kept since the last reset (a target's improvements at one minute are one change). */
  get kept(): number {
    return this.count;
  }

  /** The targets' improvements since the last reset. */
  improvements = 0;

  /** Forget the changes, for `targets` targets none reached; `withSources`: the changes are kept with `keepFrom`. */
  reset(targets: number, withSources = false): void {
    this.best.fill(NO_ARRIVAL, 0, targets);
    this.count = 0;
    this.improvements = 0;
    this.withSources = withSources;
  }

  /** Target c reached `whole` tenths after the reference at minute k: a change when it improves on its best. */
  keep(c: number, k: number, whole: number): void {
    if (whole >= this.best[c]!) return;
    this.changeAt(c, k, whole);
  }

  /** `keep`, remembering the improvement `source` the change came from. */
  keepFrom(c: number, k: number, whole: number, source: number): void {
    if (whole >= this.best[c]!) return;
    const x = this.changeAt(c, k, whole);
    if (this.sources.length <= x) this.sources = grownInt32(this.sources, Math.max(65536, 2 * this.sources.length));
    this.sources[x] = source;
  }

  /**
   * Target c's best is now `whole`, at minute k: a new change, or, when its last change is of the
   * same minute, that change made `whole` (a minute reads only the last of its changes: the
   * percentiles' runs); the change's index. Its last change is `lastChange[c]` when that entry,
   * among this window's, is c's (a target with no change this window cannot own one of them).
   */
  private changeAt(c: number, k: number, whole: number): number {
    this.best[c] = whole;
    this.improvements++;
    const last = this.lastChange[c]!;
    if (last < this.count && this.changes[3 * last] === c && this.changes[3 * last + 1] === k) {
      this.changes[3 * last + 2] = whole;
      return last;
    }
    if (this.count * 3 + 3 > this.changes.length) this.grow();
    const x = this.count++;
    this.changes[3 * x] = c;
    this.changes[3 * x + 1] = k;
    this.changes[3 * x + 2] = whole;
    this.lastChange[c] = x;
    return x;
  }

  /** `sorted` and `cellStart` from the changes: a counting sort by target, each target's in the order made. */
  groupChanges(cells: number): void {
    const { changes, cellStart } = this;
    const count = this.count;
    if (this.sorted.length < 2 * count) this.sorted = new Int32Array(Math.max(2 * count, this.sorted.length * 2));
    const sorted = this.sorted;
    cellStart.fill(0, 0, cells + 1);
    for (let x = 0; x < count; x++) cellStart[changes[3 * x]! + 1]!++;
    for (let c = 0; c < cells; c++) cellStart[c + 1]! += cellStart[c]!;
    // place each change at its target's next slot (cellStart[c] moves on, and is put back after)
    for (let x = 0; x < count; x++) {
      const at = cellStart[changes[3 * x]!]!++;
      sorted[2 * at] = changes[3 * x + 1]!;
      sorted[2 * at + 1] = changes[3 * x + 2]!;
    }
    for (let c = cells; c > 0; c--) cellStart[c] = cellStart[c - 1]!;
    cellStart[0] = 0;
    if (this.withSources) this.groupSources(cells);
  }

  /** `sortedSource` beside `sorted`: the same counting sort, for the changes' sources. */
  private groupSources(cells: number): void {
    const { changes, cellStart, sources } = this;
    const count = this.count;
    if (this.sortedSource.length < count) this.sortedSource = new Int32Array(Math.max(count, 2 * this.sortedSource.length));
    // each target's next slot, from its start: scratch grown to the most targets (points: breakdowns are theirs)
    if (this.nextSlot.length < cells) this.nextSlot = new Int32Array(Math.max(cells, 2 * this.nextSlot.length));
    const next = this.nextSlot;
    next.set(cellStart.subarray(0, cells));
    for (let x = 0; x < count; x++) this.sortedSource[next[changes[3 * x]!]!++] = sources[x]!;
  }

  private grow(): void {
    if (this.changes.length / 3 >= MAX_CHANGES) throw new WindowBudgetError(`a windowed map keeps more than ${MAX_CHANGES} changes`);
    const next = new Int32Array(Math.min(this.changes.length * 2, 3 * MAX_CHANGES));
    next.set(this.changes);
    this.changes = next;
  }

  scratchBytes(): number {
    return this.best.byteLength + this.lastChange.byteLength + this.cellStart.byteLength + this.changes.byteLength + this.sorted.byteLength + this.sources.byteLength + this.sortedSource.byteLength + this.nextSlot.byteLength;
  }
}
