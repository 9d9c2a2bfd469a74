/**
 * The routes through each stop that run on one of a search's service days and can be boarded there
 * going forward (any stop but their last): what the lean search marks from (best-only-search.ts).
 * A feed's routes of other days (its weekend timetable on a weekday) and the routes ending at a stop
 * are left out of the stop's list, so that marking does not step over them round after round. Made
 * again only when the days change: a server's requests of a day, a matrix's origins, share them.
 */
import type { RaptorData } from './raptor-data.js';
import type { SearchDays } from './raptor-types.js';

export class DayStopRoutes {
  /** stop p's routes and their positions there: [offset[p], offset[p + 1]) */
  readonly offset: Int32Array;
  readonly routes: Int32Array;
  readonly positions: Int32Array;
  /** the days the lists are of: each zone's first slot, then the slots' days (length -1: none yet) */
  private readonly key: Int32Array;
  private keyLength = -1;

  constructor(private readonly data: RaptorData, slotCapacity: number) {
    this.offset = new Int32Array(data.stopCount + 1);
    this.routes = new Int32Array(data.stopRoutes.length);
    this.positions = new Int32Array(data.stopRoutes.length);
    this.key = new Int32Array(data.timezoneCount + 1 + slotCapacity);
  }

  /** The lists for the service days of `days`, made again when they are not the last call's. */
  update(days: SearchDays): void {
    const d = this.data;
    const zones = Math.max(1, d.timezoneCount);
    const slots = days.zoneSlotStart[zones]!;
    const length = zones + 1 + slots;
    const key = this.key;
    let same = this.keyLength === length;
    for (let z = 0; z <= zones; z++) {
      same &&= key[z] === days.zoneSlotStart[z];
      key[z] = days.zoneSlotStart[z]!;
    }
    for (let s = 0; s < slots; s++) {
      same &&= key[zones + 1 + s] === days.slotDay[s];
      key[zones + 1 + s] = days.slotDay[s]!;
    }
    this.keyLength = length;
    if (!same) this.make(days);
  }

  private make(days: SearchDays): void {
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
    let n = 0;
    for (let p = 0; p < d.stopCount; p++) {
      this.offset[p] = n;
      for (let e = stopRouteOffset[p]!; e < stopRouteOffset[p + 1]!; e++) {
        const r = stopRoutes[e]!;
        const pos = stopRoutePos[e]!;
        if (runs[r] === 0 || pos === routeStopOffset[r + 1]! - routeStopOffset[r]! - 1) continue;
        this.routes[n] = r;
        this.positions[n] = pos;
        n++;
      }
    }
    this.offset[d.stopCount] = n;
  }
}
