/**
 * The routes through each stop that run on one of a search's service days and can be boarded there
 * going forward (any stop but their last): what the lean search marks from (best-only-search.ts).
 * A feed's routes of other days (its weekend timetable on a weekday) and the routes ending at a stop
 * are left out of the stop's list, so that marking does not step over them round after round.
 *
 * Made for a set of days and kept for the last few sets: a server's requests of a day, a matrix's
 * origins, share one; searches of different lengths (a search reaching into the next day's runs, and
 * one that does not) alternate between two or three.
 */
import type { RaptorData } from './raptor-data.js';
import type { SearchDays } from './raptor-types.js';

/** Day sets whose lists are kept (a day alone, with the next, with the one before). */
const SETS_KEPT = 3;

/** One set of days' lists: stop p's routes and their positions there, [offset[p], offset[p + 1]). */
export interface StopRouteLists {
  readonly offset: Int32Array;
  readonly routes: Int32Array;
  readonly positions: Int32Array;
}

interface KeptLists extends StopRouteLists {
  /** the days the lists are of (its first `keyLength` values): each zone's first slot, then the slots' days */
  readonly key: Int32Array;
  keyLength: number;
}

export class DayStopRoutes {
  private readonly kept: KeptLists[] = [];
  /** the kept lists made again next when a new set comes */
  private next = 0;
  private readonly key: Int32Array;
  /** per route, 1 when it runs on one of the days being listed (scratch of `fill`) */
  private readonly runs: Uint8Array;

  constructor(private readonly data: RaptorData, slotCapacity: number) {
    this.key = new Int32Array(Math.max(1, data.timezoneCount) + 1 + slotCapacity);
    this.runs = new Uint8Array(data.routeCount);
  }

  /**
   * The lists for the service days of `days`: kept ones, or made now, in arrays of their own while
   * fewer than SETS_KEPT sets are kept, then over the oldest set's (nothing allocated past that).
   */
  of(days: SearchDays): StopRouteLists {
    const zones = Math.max(1, this.data.timezoneCount);
    const slots = days.zoneSlotStart[zones]!;
    const length = zones + 1 + slots;
    const key = this.key;
    for (let z = 0; z <= zones; z++) key[z] = days.zoneSlotStart[z]!;
    for (let s = 0; s < slots; s++) key[zones + 1 + s] = days.slotDay[s]!;
    for (const lists of this.kept) if (sameKey(lists, key, length)) return lists;
    let lists: KeptLists;
    if (this.kept.length < SETS_KEPT) {
      const d = this.data;
      lists = { key: new Int32Array(key.length), keyLength: 0, offset: new Int32Array(d.stopCount + 1), routes: new Int32Array(d.stopRoutes.length), positions: new Int32Array(d.stopRoutes.length) };
      this.kept.push(lists);
    } else {
      lists = this.kept[this.next]!;
      this.next = (this.next + 1) % SETS_KEPT;
    }
    lists.key.set(key.subarray(0, length));
    lists.keyLength = length;
    this.fill(days, lists);
    return lists;
  }

  /** The lists of `days` into `lists`' arrays. */
  private fill(days: SearchDays, lists: KeptLists): void {
    const d = this.data;
    const { stopRouteOffset, stopRoutes, stopRoutePos, routeStopOffset, routeDayBits, routeTimezone, serviceWords } = d;
    const { zoneSlotStart, slotWord, slotBit } = days;
    const { runs } = this;
    for (let r = 0; r < d.routeCount; r++) {
      const tz = routeTimezone[r]!;
      let runsThen = 0;
      for (let s = zoneSlotStart[tz]!; s < zoneSlotStart[tz + 1]! && runsThen === 0; s++) {
        runsThen = (routeDayBits[r * serviceWords + slotWord[s]!]! >>> slotBit[s]!) & 1;
      }
      runs[r] = runsThen;
    }
    const { offset, routes, positions } = lists;
    let n = 0;
    for (let p = 0; p < d.stopCount; p++) {
      offset[p] = n;
      for (let e = stopRouteOffset[p]!; e < stopRouteOffset[p + 1]!; e++) {
        const r = stopRoutes[e]!;
        const pos = stopRoutePos[e]!;
        if (runs[r] === 0 || pos === routeStopOffset[r + 1]! - routeStopOffset[r]! - 1) continue;
        routes[n] = r;
        positions[n] = pos;
        n++;
      }
    }
    offset[d.stopCount] = n;
  }
}

/** Whether `lists` are of the days of the first `length` values of `key`. */
function sameKey(lists: KeptLists, key: Int32Array, length: number): boolean {
  if (lists.keyLength !== length) return false;
  for (let i = 0; i < length; i++) if (lists.key[i] !== key[i]) return false;
  return true;
}
