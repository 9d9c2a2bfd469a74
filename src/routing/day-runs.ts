/**
 * The trips of a timetable route running on a service day (raptor.ts and best-only-search.ts read
 * them): for route r and a day, `next[base + k]`, the first virtual trip at or after k running
 * that day (K when none), and `last[base + k]`, the last at or before k (-1 when none). Kept per
 * route for its last few (day, direction) pairs, across searches: a window's minutes, a server's
 * requests of a day, ask the same days again, and a route's trips of other days (a feed's weekdays,
 * Saturdays and Sundays on one route) are then stepped over without a look at their calendars.
 * Beside them, the binary search both RAPTOR scans start a trip's look-up with (`firstLeaving`).
 */
import type { RaptorData } from './raptor-data.js';

/** (Day, direction) pairs whose running trips are kept per route (a day, the day before, the next, and one more). */
const RUN_DAYS_KEPT = 4;

export class DayRuns {
  readonly next: Int32Array;
  readonly last: Int32Array;
  /** per route, the (day, direction) key of each of its RUN_DAYS_KEPT ways, and the way filled next */
  private readonly keys: Int32Array;
  private readonly wayNext: Uint8Array;

  constructor(private readonly data: RaptorData) {
    this.next = new Int32Array(RUN_DAYS_KEPT * data.routeTripCount);
    this.last = new Int32Array(RUN_DAYS_KEPT * data.routeTripCount);
    this.keys = new Int32Array(RUN_DAYS_KEPT * data.routeCount).fill(-1);
    this.wayNext = new Uint8Array(data.routeCount);
  }

  /**
   * The base of route r's running trips on `day` (its index in the calendars' bitsets: `word`,
   * `bit`), its K trips read in direction `dir` from route-trip rtBase.
   */
  of(r: number, day: number, word: number, bit: number, dir: number, K: number, rtBase: number): number {
    const d = this.data;
    const key = (day << 1) | (dir === 1 ? 0 : 1);
    const first = r * RUN_DAYS_KEPT;
    for (let w = 0; w < RUN_DAYS_KEPT; w++) {
      if (this.keys[first + w] === key) return w * d.routeTripCount + d.routeTripOffset[r]!;
    }
    const w = this.wayNext[r]!;
    this.wayNext[r] = (w + 1) % RUN_DAYS_KEPT;
    this.keys[first + w] = key;
    const base = w * d.routeTripCount + d.routeTripOffset[r]!;
    const { routeTripService, serviceBits, serviceWords } = d;
    const { next, last } = this;
    let n = K;
    for (let k = K - 1; k >= 0; k--) {
      if ((serviceBits[routeTripService[rtBase + dir * k]! * serviceWords + word]! >>> bit) & 1) n = k;
      next[base + k] = n;
    }
    let l = -1;
    for (let k = 0; k < K; k++) {
      if (next[base + k] === k) l = k;
      last[base + k] = l;
    }
    return base;
  }
}

/**
 * The first virtual trip in [from, below) of a route (its stop times in `times` from stBase, S stops,
 * read in direction `dir`) leaving virtual position i at a virtual stop time >= `target`: a binary
 * search, a position's times never decreasing with the trip (routes are FIFO); `below` when none.
 */
export function firstLeaving(times: Int32Array, dir: number, stBase: number, S: number, i: number, from: number, below: number, target: number): number {
  let a = from;
  let b = below;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (dir * times[stBase + dir * (mid * S + i)]! < target) a = mid + 1;
    else b = mid;
  }
  return a;
}
