/**
 * A departure window's transit (range RAPTOR, R5's range search over the minutes of a window): the
 * access once (the walk to the stops does not depend on the minute), then RAPTOR for each minute,
 * latest first (an arrival map's: the earliest deadline first), each pruning against the later
 * minutes' labels (range-bounds.ts). A stop's arrival, counted from the window's reference instant
 * (its first departure, or an arrival map's last deadline), is kept only where it improves on the
 * later minutes': the improvements of each minute are what the propagation seeds (window-heat-map.ts).
 *
 * Per-engine scratch: the stops' labels sized once, the improvements grown as a window needs them.
 */
import { RangeBounds } from './range-bounds.js';
import type { TransitSearch } from './transit-pass.js';
import type { HeatMapQuery } from './heat-map-types.js';
import { WindowJourneys } from './window-journeys.js';

/** One departure per this many seconds of the window. */
export const WINDOW_STEP_SEC = 60;

/** Rounds the range bounds are made for at most: RAPTOR searches no more (a transfer limit past it searches this many). */
const MAX_RANGE_ROUNDS = 32;

/** Best arrival of a stop no minute reached (above every arrival from the reference). */
const NOT_IMPROVED = 0x7fffffff;

export class WindowTransit {
  private readonly stopCount: number;
  /** per stop: its best arrival so far (seconds from the reference), and the most time left at it for the box (-1: not reached) */
  private readonly stopBest: Int32Array;
  readonly stopRemaining: Int32Array;
  /** the stops whose arrival improved, minute by minute, and their arrival from the reference, seconds */
  improvedStop = new Int32Array(1024);
  improvedSec = new Int32Array(1024);
  /** the improvements in all (improvedStop/improvedSec[0 .. improved)) */
  improved = 0;
  /** minute k's improvements: improvedStop/improvedSec[minuteFrom[k] .. minuteTo[k]) */
  readonly minuteFrom: Int32Array;
  readonly minuteTo: Int32Array;
  /** the stops reached at some minute, ascending (their first `reachedCount`) */
  readonly reachedStops: Uint32Array;
  reachedCount = 0;
  private bounds: RangeBounds | null = null;
  /** with a query's breakdown: the journey of each improvement (improvedStop/improvedSec's index) */
  readonly journeys: WindowJourneys;
  private keepJourneys = false;

  constructor(
    private readonly transit: TransitSearch,
    stopCount: number,
    maxMinutes: number,
  ) {
    this.stopCount = stopCount;
    this.stopBest = new Int32Array(stopCount);
    this.stopRemaining = new Int32Array(stopCount);
    this.reachedStops = new Uint32Array(stopCount);
    this.minuteFrom = new Int32Array(maxMinutes);
    this.minuteTo = new Int32Array(maxMinutes);
    this.journeys = new WindowJourneys((path, arrival, out) => transit.readJourney(path, arrival, out));
  }

  /** The access once, then RAPTOR at each of the `n` minutes of the window of `q`, latest first, keeping the improvements. */
  run(q: HeatMapQuery, n: number): void {
    const reverse = q.direction === 'arrival';
    const T = q.maxDurationSec;
    this.stopBest.fill(NOT_IMPROVED);
    this.stopRemaining.fill(-1);
    this.improved = 0;
    this.keepJourneys = q.breakdown === true;
    if (this.keepJourneys) this.transit.forgetJourneys();
    const accessCount = q.transit ? this.transit.accessFrom(q) : 0;
    const rounds = Math.max(0, Math.floor(q.maxTransfers)) + 1;
    // (past MAX_RANGE_ROUNDS, each minute a whole search)
    const bounds = rounds <= MAX_RANGE_ROUNDS ? this.rangeBounds(rounds) : null;
    for (let k = n - 1; k >= 0; k--) {
      this.minuteFrom[k] = this.minuteTo[k] = this.improved;
      if (accessCount === 0) continue;
      // range RAPTOR: each minute prunes against the later minutes' labels, k minutes after the reference
      const result = this.transit.from(q, q.t0 + (reverse ? -1 : 1) * k * WINDOW_STEP_SEC, accessCount, bounds && { bounds, shiftSec: k * WINDOW_STEP_SEC });
      this.keepImprovements(k, T, result.vehicleSec, result.reached, result.reachedCount);
      this.minuteTo[k] = this.improved;
    }
    let count = 0;
    for (let s = 0; s < this.stopCount; s++) if (this.stopRemaining[s]! >= 0) this.reachedStops[count++] = s;
    this.reachedCount = count;
  }

  /** Minute k's arrivals that improve on the later minutes', kept; and each stop's most time left. */
  private keepImprovements(k: number, T: number, vehicleSec: Int32Array, reached: Uint32Array, reachedCount: number): void {
    const { stopBest, stopRemaining } = this;
    for (let r = 0; r < reachedCount; r++) {
      const s = reached[r]!;
      const sec = vehicleSec[s]!;
      if (T - sec > stopRemaining[s]!) stopRemaining[s] = T - sec;
      const fromReference = k * WINDOW_STEP_SEC + sec;
      if (fromReference >= stopBest[s]!) continue;
      stopBest[s] = fromReference;
      if (this.improved === this.improvedStop.length) this.growImproved();
      if (this.keepJourneys) {
        this.journeys.keep(this.improved, this.transit.journeyPath(s), sec);
      }
      this.improvedStop[this.improved] = s;
      this.improvedSec[this.improved++] = fromReference;
    }
  }

  /** The range bounds for searches of `rounds` vehicles, forgotten (a new window). */
  private rangeBounds(rounds: number): RangeBounds {
    if (!this.bounds || this.bounds.rounds < rounds) this.bounds = new RangeBounds(this.stopCount, rounds, WINDOW_STEP_SEC);
    else this.bounds.reset();
    return this.bounds;
  }

  private growImproved(): void {
    const stop = new Int32Array(this.improvedStop.length * 2);
    stop.set(this.improvedStop);
    this.improvedStop = stop;
    const sec = new Int32Array(this.improvedSec.length * 2);
    sec.set(this.improvedSec);
    this.improvedSec = sec;
  }

  /** Bytes of this step's scratch (the window's minutes and reached stops included). */
  scratchBytes(): number {
    let total = this.stopBest.byteLength + this.stopRemaining.byteLength + this.improvedStop.byteLength + this.improvedSec.byteLength;
    total += this.minuteFrom.byteLength + this.minuteTo.byteLength + this.reachedStops.byteLength + this.journeys.scratchBytes();
    return total + (this.bounds?.bytes() ?? 0) + this.transit.raptor.windowScratchBytes();
  }
}
