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
  /** the days the lists are of: each zone's first slot, then the slots' days */
  key: Int32Array;
}

export class DayStopRoutes {
  private readonly kept: KeptLists[] = [];
  /** the kept lists replaced next when a new set comes */
  private next = 0;
  private readonly key: Int32Array;

  constructor(private readonly data: RaptorData, slotCapacity: number) {
    this.key = new Int32Array(Math.max(1, data.timezoneCount) + 1 + slotCapacity);
  }

  /** The lists for the service days of `days`: kept ones, or made now (a search's call allocates nothing then). */
  of(days: SearchDays): StopRouteLists {
    const zones = Math.max(1, this.data.timezoneCount);
    const slots = days.zoneSlotStart[zones]!;
    const length = zones + 1 + slots;
    const key = this.key;
    for (let z = 0; z <= zones; z++) key[z] = days.zoneSlotStart[z]!;
    for (let s = 0; s < slots; s++) key[zones + 1 + s] = days.slotDay[s]!;
    for (const lists of this.kept) if (sameKey(lists.key, key, length)) return lists;
    const lists = this.make(days, key.slice(0, length));
    if (this.kept.length < SETS_KEPT) this.kept.push(lists);
    else {
      this.kept[this.next] = lists;
      this.next = (this.next + 1) % SETS_KEPT;
    }
    return lists;
  }

  private make(days: SearchDays, key: Int32Array): KeptLists {
    const d = this.data;
    const { stopRouteOffset, stopRoutes, stopRoutePos, routeStopOffset, routeDayBits, routeTimezone, serviceWords } = d;
    const { zoneSlotStart, slotWord, slotBit } = days;
    const runs = new Uint8Array(d.routeCount);
    for (let r = 0; r < d.routeCount; r++) {
      const tz = routeTimezone[r]!;
      for (let s = zoneSlotStart[tz]!; s < zoneSlotStart[tz + 1]! && runs[r] === 0; s++) {
        runs[r] = (routeDayBits[r * serviceWords + slotWord[s]!]! >>> slotBit[s]!) & 1;
      }
    }
    const offset = new Int32Array(d.stopCount + 1);
    let n = 0;
    for (let e = 0; e < stopRoutes.length; e++) {
      const r = stopRoutes[e]!;
      if (runs[r] === 1 && stopRoutePos[e]! < routeStopOffset[r + 1]! - routeStopOffset[r]! - 1) n++;
    }
    const routes = new Int32Array(n);
    const positions = new Int32Array(n);
    n = 0;
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
    return { key, offset, routes, positions };
  }
}

/** Whether `kept` is the first `length` values of `key`. */
function sameKey(kept: Int32Array, key: Int32Array, length: number): boolean {
  if (kept.length !== length) return false;
  for (let i = 0; i < length; i++) if (kept[i] !== key[i]) return false;
  return true;
}
