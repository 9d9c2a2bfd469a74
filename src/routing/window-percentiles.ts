/**
 * A departure window's last step (R5's TravelTimeReducer): per target, its travel time at each
 * minute of the window, listed from its changes (window-changes.ts) and the direct path, then
 * summarised by percentiles with R5's rule: sort the minutes' values, unreached as +∞, take index
 * ceil(p / 100 × n) − 1. docs/api.md, "Departure windows".
 *
 * Per-engine scratch: one target's minutes, and one array of seconds per percentile, sized for the
 * most targets.
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

export class WindowPercentiles {
  private percentileSeconds: Int32Array[] = [];
  /** one target's value at each minute, whole seconds (sorted in place to select its percentiles) */
  private minuteSec = new Int32Array(0);
  /** with a breakdown: one target's values unsorted, and where each came from (a change's source, DIRECT, UNREACHED_MINUTE) */
  private minuteValue = new Int32Array(0);
  private minuteSource = new Int32Array(0);
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
    for (let c = 0; c < cells; c++) this.selectPercentiles(c, n, T, ranks, seconds, changes, directSec, parts, journeys);
    // the lowest percentile has the most cells with a value: nothing is reached when it has none
    let reached = 0;
    for (let c = 0; c < cells; c++) if (seconds[0]![c]! >= 0) reached++;
    return { percentiles: of.map((percentile, p) => ({ percentile, seconds: seconds[p]!, ...(parts ? { parts: partsView(parts[p]!, cells) } : {}) })), reached };
  }

  /**
   * The percentiles of cell c over the n minutes: its minutes' values (`listMinutes`) sorted, and the
   * p-th percentile the value of rank ceil(p / 100 × n), null from T on. At most 180 values a cell:
   * listing and a native sort cost less than counting the runs of minutes at each step of a halving
   * search. With `parts`, each percentile's journey in parts: the journey of the earliest minute
   * whose value is the percentile's, from the window's improvements (`journeys`) or the direct path.
   */
  private selectPercentiles(c: number, n: number, T: number, ranks: number[], out: Int32Array[], changes: WindowChanges, directSecs: Int32Array, parts: PercentileParts[] | null, journeys: ImprovedJourneys | null): void {
    if (changes.cellStart[c] === changes.cellStart[c + 1]) {
      // no change: the direct path at every minute, or nothing
      const directSec = directSecs[c]!;
      const sec = directSec >= 0 && directSec < T ? directSec : -1;
      for (let p = 0; p < ranks.length; p++) {
        out[p]![c] = sec;
        if (parts) writeParts(parts[p]!, c, sec, sec < 0 ? UNREACHED_MINUTE : DIRECT, 0, journeys!);
      }
      return;
    }
    const { minuteSec, minuteValue, minuteSource } = this;
    // with parts, the minutes' values kept in their order beside the sorted copy
    this.listMinutes(c, n, T, changes, directSecs, parts ? minuteValue : minuteSec);
    if (parts) minuteSec.set(minuteValue.subarray(0, n));
    const values = minuteSec.subarray(0, n).sort();
    for (let p = 0; p < ranks.length; p++) {
      const sec = values[ranks[p]! - 1]!;
      out[p]![c] = sec < T ? sec : -1;
      if (!parts) continue;
      const k = sec < T ? minuteValue.subarray(0, n).indexOf(sec) : -1;
      writeParts(parts[p]!, c, sec < T ? sec : -1, k < 0 ? UNREACHED_MINUTE : minuteSource[k]!, k, journeys!);
    }
  }

  /**
   * Cell c's value at each of the n minutes into `minuteSec`, and where it came from into
   * `minuteSource`: the smaller of the direct path and its arrival at k (the change of the smallest
   * minute at or after k) less k minutes, in whole seconds (T when unreached), listed from the
   * cell's changes read backwards (minutes ascending).
   */
  private listMinutes(c: number, n: number, T: number, changes: WindowChanges, directSecs: Int32Array, minuteSec: Int32Array): void {
    const { minuteSource } = this;
    const directSec = directSecs[c]!;
    // in tenths, a whole second's: every comparison below is with a whole second
    const direct = directSec < 0 ? Infinity : directSec * 10;
    const first = changes.cellStart[c]!;
    const end = changes.cellStart[c + 1]!;
    const limit = T * 10;
    const directWhole = direct < limit ? directSec : T;
    const directSource = direct < limit ? DIRECT : UNREACHED_MINUTE;
    const { sorted, sortedSource } = changes;
    const stepDs = WINDOW_STEP_SEC * 10;
    let k = 0;
    // the cell's changes were made minutes descending: read backwards, minutes ascend
    for (let x = end - 1; x >= first; x--) {
      const to = sorted[2 * x]!;
      // a cell improved twice in one minute: the later change, read first, covers it already
      if (to < k) continue;
      const arrival = sorted[2 * x + 1]!;
      for (; k <= to; k++) {
        const v = arrival - stepDs * k;
        if (v < direct) {
          minuteSec[k] = v < limit ? Math.floor(v / 10) : T;
          minuteSource[k] = v < limit ? (sortedSource[x] ?? 0) : UNREACHED_MINUTE;
        } else {
          minuteSec[k] = directWhole;
          minuteSource[k] = directSource;
        }
      }
    }
    // minutes after the last change: the direct path or nothing
    for (; k < n; k++) {
      minuteSec[k] = directWhole;
      minuteSource[k] = directSource;
    }
  }

  private ensureMinutes(n: number): void {
    if (this.minuteSec.length >= n) return;
    this.minuteSec = new Int32Array(n);
    this.minuteValue = new Int32Array(n);
    this.minuteSource = new Int32Array(n);
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
    let total = 0;
    for (const seconds of this.percentileSeconds) total += seconds.byteLength;
    for (const { parts, tripsFrom, trips } of this.percentileParts) total += parts.reduce((sum, a) => sum + a.byteLength, 0) + tripsFrom.byteLength + trips.byteLength;
    return total;
  }
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
