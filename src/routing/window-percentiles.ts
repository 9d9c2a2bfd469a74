/**
 * A departure window's last step (R5's TravelTimeReducer): per target, its travel time at each
 * minute of the window, from its changes (window-changes.ts) and the direct path, summarised by
 * percentiles with R5's rule: sort the minutes' values, unreached as +∞, take index
 * ceil(p / 100 × n) − 1. docs/api.md, "Departure windows". The values are selected from the
 * target's runs of minutes without listing and sorting them (`selectPercentiles`).
 *
 * Per-engine scratch: one target's runs and their buckets, and one array of seconds per percentile,
 * sized for the most targets.
 */
import type { JourneyParts, PercentileMap } from './heat-map-types.js';
import { WINDOW_STEP_SEC } from './window-transit.js';
import type { WindowChanges } from './window-changes.js';
import type { WindowJourneys } from './window-journeys.js';
import { journeyRecord } from './journey-paths.js';
import { grownInt32 } from '../model/growable.js';

/** `minuteSource` of a minute valued by the direct path (the street alone), and of one unreached. */
const DIRECT = -1;
const UNREACHED_MINUTE = -2;
/** The parts of a journey, in `JourneyParts`' order. */
const PART_COUNT = 6;

/** The journey read last (one per thread: a target's parts are written one at a time). */
const JOURNEY = journeyRecord();

/** A window's improvements (their arrivals from the reference, seconds) and their journeys, for the parts. */
export interface ImprovedJourneys {
  improvedSec: Int32Array;
  journeys: WindowJourneys;
}

/** One percentile's parts (PART_COUNT arrays in `JourneyParts`' order) and trips, sized for the most targets. */
interface PercentileParts {
  parts: Int32Array[];
  tripsFrom: Int32Array;
  trips: Int32Array<ArrayBuffer>;
}

/** The parts of the first `cells` targets, as views. */
function partsView({ parts: [access, wait, ride, transfer, egress, rides], tripsFrom, trips }: PercentileParts, cells: number): JourneyParts {
  const view = (a: Int32Array | undefined) => a!.subarray(0, cells);
  return { access: view(access), wait: view(wait), ride: view(ride), transfer: view(transfer), egress: view(egress), rides: view(rides), tripsFrom: tripsFrom.subarray(0, cells + 1), trips: trips.subarray(0, tripsFrom[cells]!) };
}

/** A window's percentiles at its targets, and how many targets the lowest reaches. */
export interface WindowPercentileMaps {
  percentiles: PercentileMap[];
  reached: number;
}

/** A minute's value when no change improves its target: the direct path's seconds when below T, else -1 (unreached). */
function directOrNone(directSec: number, T: number): number {
  return directSec >= 0 && directSec < T ? directSec : -1;
}

export class WindowPercentiles {
  private percentileSeconds: Int32Array[] = [];
  /**
   * One target's runs of minutes (`listRuns`), minutes ascending: per run its values' highest
   * minute bucket (whole minutes of the value at its first minute), its first minute, its last
   * minute's bucket, the seconds past the minute of each value, and its change (index in `sorted`).
   */
  private runHigh = new Int32Array(0);
  private runFrom = new Int32Array(0);
  private runLow = new Int32Array(0);
  private runRem = new Int32Array(0);
  private runChange = new Int32Array(0);
  /** per minute bucket (from the lowest of a target's runs): how many of its values fall there, then how many at or below it */
  private bucketCount = new Int32Array(0);
  /** the seconds past the minute of the values in one bucket, sorted to take one */
  private remainders = new Int32Array(0);
  /** what `listRuns` found: the lowest and the highest bucket of the runs, and how many minutes they cover */
  private lowBucket = 0;
  private highBucket = 0;
  private below = 0;
  /** with a breakdown: per percentile its parts (PART_COUNT arrays sized for the most targets) and its trips */
  private percentileParts: PercentileParts[] = [];

  constructor(private capacity: number) {}

  /** Room for `targets` targets (a point set larger than the largest grid). */
  ensureCapacity(targets: number): void {
    if (targets <= this.capacity) return;
    this.capacity = targets;
    this.percentileSeconds = [];
    this.percentileParts = [];
  }

  /**
   * The percentiles `of` the first `cells` targets over the `n` minutes of a map of `T` seconds,
   * from the grouped `changes` and the direct path's whole seconds (`directSec`, -1: none): views on
   * scratch memory valid until the next window.
   */
  select(of: number[], n: number, T: number, changes: WindowChanges, directSec: Int32Array, cells: number, journeys: ImprovedJourneys | null = null): WindowPercentileMaps {
    this.ensureMinutes(n);
    const seconds = of.map((_, p) => this.secondsFor(p).subarray(0, cells));
    const ranks = of.map((p) => Math.max(1, Math.ceil((p / 100) * n)));
    const parts = journeys ? of.map((_, p) => this.partsFor(p)) : null;
    const { cellStart } = changes;
    for (let c = 0; c < cells; c++) {
      if (parts === null && cellStart[c] === cellStart[c + 1]) {
        // no change improves the cell (most of a map's): each minute is the direct path's, or unreached
        const value = directOrNone(directSec[c]!, T);
        for (let p = 0; p < seconds.length; p++) seconds[p]![c] = value;
        continue;
      }
      this.selectPercentiles(c, n, T, ranks, seconds, changes, directSec, parts, journeys);
    }
    // the lowest percentile has the most cells with a value: nothing is reached when it has none
    let reached = 0;
    for (let c = 0; c < cells; c++) if (seconds[0]![c]! >= 0) reached++;
    return { percentiles: of.map((percentile, p) => ({ percentile, seconds: seconds[p]!, ...(parts ? { parts: partsView(parts[p]!, cells) } : {}) })), reached };
  }

  /**
   * The percentiles of cell c over the n minutes, without listing and sorting them: the p-th
   * percentile is the value of rank r = ceil(p / 100 × n), null from T on. A minute's value is the
   * smaller of `rest` (the direct path, or T when unreached) and the arrival of the cell's change
   * at or after it less 60 s a minute: the minutes form runs (`listRuns`) whose values fall by 60 s
   * a minute, so that each run puts one value in each whole-minute bucket it spans. Counting the
   * runs' values per bucket finds the bucket of rank r; in it each run spanning it has one value,
   * its bucket's minute plus the run's seconds past the minute, and the rank is taken among those
   * few. Ranks past the runs' minutes are `rest`. With `parts`, each percentile's journey in parts:
   * the journey of the earliest minute whose value is the percentile's (the first run, minutes
   * ascending, with that value), from the window's improvements (`journeys`) or the direct path.
   */
  private selectPercentiles(c: number, n: number, T: number, ranks: number[], out: Int32Array[], changes: WindowChanges, directSecs: Int32Array, parts: PercentileParts[] | null, journeys: ImprovedJourneys | null): void {
    // a minute no change improves: the direct path, or nothing (T)
    const direct = directOrNone(directSecs[c]!, T);
    const rest = direct >= 0 ? direct : T;
    const runs = changes.cellStart[c] === changes.cellStart[c + 1] ? 0 : this.listRuns(c, n, rest, changes);
    const below = runs === 0 ? 0 : this.below;
    if (below > 0) this.countBuckets(runs);
    const { bucketCount, runHigh, runLow, runRem } = this;
    const low = this.lowBucket;
    for (let p = 0; p < ranks.length; p++) {
      const rank = ranks[p]!;
      if (rank > below) {
        out[p]![c] = direct;
        if (parts) writeParts(parts[p]!, c, direct, direct >= 0 ? DIRECT : UNREACHED_MINUTE, 0, journeys!);
        continue;
      }
      // the first bucket with `rank` values at or below it
      let a = 0;
      let b = this.highBucket - low;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (bucketCount[mid]! < rank) a = mid + 1;
        else b = mid;
      }
      const bucket = low + a;
      const inBucket = rank - (a === 0 ? 0 : bucketCount[a - 1]!);
      // the runs spanning the bucket: one value each, in seconds past its minute
      const remainders = this.remainders;
      let m = 0;
      for (let j = 0; j < runs; j++) {
        if (runLow[j]! > bucket || runHigh[j]! < bucket) continue;
        const rem = runRem[j]!;
        let i = m++;
        for (; i > 0 && remainders[i - 1]! > rem; i--) remainders[i] = remainders[i - 1]!;
        remainders[i] = rem;
      }
      const rem = remainders[inBucket - 1]!;
      const sec = bucket * WINDOW_STEP_SEC + rem;
      out[p]![c] = sec;
      if (!parts) continue;
      // the earliest minute with this value: the first run spanning the bucket with these seconds
      let j = 0;
      while (runLow[j]! > bucket || runHigh[j]! < bucket || runRem[j] !== rem) j++;
      const k = this.runFrom[j]! + runHigh[j]! - bucket;
      writeParts(parts[p]!, c, sec, changes.sortedSource[this.runChange[j]!] ?? 0, k, journeys!);
    }
  }

  /**
   * Cell c's runs of minutes below `rest`, minutes ascending, into the run arrays, and how many
   * (`below`: the minutes they cover; `lowBucket`, `highBucket`: their buckets). The cell's
   * changes were made minutes descending, one a minute: read backwards, each is the cell's best
   * arrival from the minute after the previous one's up to its own minute. At minute k a change arriving `a` whole seconds
   * after the reference is worth a − 60 k, below `rest` from the minute after (a − rest) / 60.
   * Whole seconds compare as the tenths they come from: a tenth value v is below 10 w exactly when
   * floor(v / 10) is below w, and 60 k seconds are whole.
   */
  private listRuns(c: number, n: number, rest: number, changes: WindowChanges): number {
    const { sorted } = changes;
    const { runHigh, runFrom, runLow, runRem, runChange } = this;
    const first = changes.cellStart[c]!;
    let k = 0;
    let runs = 0;
    let below = 0;
    let low = 0x7fffffff;
    let high = -0x7fffffff;
    for (let x = changes.cellStart[c + 1]! - 1; x >= first && k < n; x--) {
      const to = sorted[2 * x]!;
      if (to < k) continue;
      const arrival = floorDiv(sorted[2 * x + 1]!, 10);
      const from = Math.max(k, floorDiv(arrival - rest, WINDOW_STEP_SEC) + 1);
      const last = Math.min(to, n - 1);
      k = to + 1;
      if (from > last) continue;
      const minutes = floorDiv(arrival, WINDOW_STEP_SEC);
      runHigh[runs] = minutes - from;
      runLow[runs] = minutes - last;
      runFrom[runs] = from;
      runRem[runs] = arrival - minutes * WINDOW_STEP_SEC;
      runChange[runs] = x;
      if (minutes - last < low) low = minutes - last;
      if (minutes - from > high) high = minutes - from;
      below += last - from + 1;
      runs++;
    }
    this.below = below;
    this.lowBucket = low;
    this.highBucket = high;
    return runs;
  }

  /** `bucketCount` from the runs: per bucket from `lowBucket` to `highBucket`, how many values fall at or below it. */
  private countBuckets(runs: number): void {
    const size = this.highBucket - this.lowBucket + 2;
    if (this.bucketCount.length < size) this.bucketCount = new Int32Array(Math.max(size, 2 * this.bucketCount.length));
    const { bucketCount, runHigh, runLow } = this;
    const low = this.lowBucket;
    bucketCount.fill(0, 0, size);
    // each run puts one value in each bucket from its low one to its high one
    for (let j = 0; j < runs; j++) {
      bucketCount[runLow[j]! - low]!++;
      bucketCount[runHigh[j]! - low + 1]!--;
    }
    let inBucket = 0;
    let atOrBelow = 0;
    for (let i = 0; i < size - 1; i++) {
      inBucket += bucketCount[i]!;
      atOrBelow += inBucket;
      bucketCount[i] = atOrBelow;
    }
  }

  /** Room for the runs of n minutes. */
  private ensureMinutes(n: number): void {
    if (this.runHigh.length >= n) return;
    this.runHigh = new Int32Array(n);
    this.runFrom = new Int32Array(n);
    this.runLow = new Int32Array(n);
    this.runRem = new Int32Array(n);
    this.runChange = new Int32Array(n);
    this.remainders = new Int32Array(n);
  }

  private partsFor(p: number): PercentileParts {
    while (this.percentileParts.length <= p) {
      this.percentileParts.push({ parts: Array.from({ length: PART_COUNT }, () => new Int32Array(this.capacity)), tripsFrom: new Int32Array(this.capacity + 1), trips: new Int32Array(1024) });
    }
    return this.percentileParts[p]!;
  }

  private secondsFor(p: number): Int32Array {
    while (this.percentileSeconds.length <= p) this.percentileSeconds.push(new Int32Array(this.capacity));
    return this.percentileSeconds[p]!;
  }

  scratchBytes(): number {
    let total = this.bucketCount.byteLength + 6 * this.runHigh.byteLength;
    for (const seconds of this.percentileSeconds) total += seconds.byteLength;
    for (const { parts, tripsFrom, trips } of this.percentileParts) total += parts.reduce((sum, a) => sum + a.byteLength, 0) + tripsFrom.byteLength + trips.byteLength;
    return total;
  }
}

/** floor(a / b) of int32 a and a positive b, in integer arithmetic (the quotient truncated, one less below zero when inexact). */
function floorDiv(a: number, b: number): number {
  const q = (a / b) | 0;
  return q * b > a ? q - 1 : q;
}

/**
 * Cell c's journey in parts for a percentile whose value is `value` (-1: unreached), found at
 * minute k from `source` (an improvement, DIRECT, UNREACHED_MINUTE): the improvement's journey
 * reached its stop `improvedSec[source]` after the reference, k minutes before which the rider
 * leaves; what follows the stop is the egress, what the journey does not ride or walk is waiting.
 */
function writeParts(out: PercentileParts, c: number, value: number, source: number, k: number, { improvedSec, journeys }: ImprovedJourneys): void {
  const [access, wait, ride, transfer, egress, rides] = out.parts as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const from = c === 0 ? 0 : out.tripsFrom[c]!;
  if (c === 0) out.tripsFrom[0] = 0;
  out.tripsFrom[c + 1] = from;
  if (source === UNREACHED_MINUTE) {
    access[c] = wait[c] = ride[c] = transfer[c] = egress[c] = rides[c] = -1;
    return;
  }
  if (source === DIRECT) {
    access[c] = value;
    wait[c] = ride[c] = transfer[c] = egress[c] = rides[c] = 0;
    return;
  }
  const atStop = improvedSec[source]! - k * WINDOW_STEP_SEC;
  const journey = JOURNEY;
  journeys.read(source, journey);
  access[c] = journey.accessSec;
  ride[c] = journey.rideSec;
  transfer[c] = journey.transferSec;
  egress[c] = value - atStop;
  wait[c] = atStop - journey.accessSec - journey.rideSec - journey.transferSec;
  const count = journey.rides;
  rides[c] = count;
  if (from + count > out.trips.length) out.trips = grownInt32(out.trips, Math.max(2 * out.trips.length, from + count));
  out.trips.set(journey.trips.subarray(0, count), from);
  out.tripsFrom[c + 1] = from + count;
}
