/**
 * Service days as instants: for each time zone of a timetable and each day of its calendar range,
 * the epoch second of the GTFS service-day origin ("noon minus 12 h", local). A stop time of
 * `t` seconds on day `d` happens at `origin(d) + t`, whatever DST does that day.
 *
 *   originSec[tz][d - firstDay]   (Float64Array per time zone)
 */
import { dateOfDayNumber } from '../util/calendar.js';
import { serviceDayOrigin } from '../util/time-zones.js';
import type { Timetable } from './timetable.js';

export class ServiceDays {
  /** One array per time zone of `tt.timezones`. */
  readonly originSec: Float64Array[];
  readonly firstDay: number;
  readonly dayCount: number;

  constructor(readonly tt: Timetable) {
    this.firstDay = tt.services.firstDay;
    this.dayCount = tt.services.dayCount;
    this.originSec = tt.timezones.map((zone) => {
      const origins = new Float64Array(this.dayCount);
      for (let i = 0; i < this.dayCount; i++) {
        const { y, m, d } = dateOfDayNumber(this.firstDay + i);
        origins[i] = serviceDayOrigin(zone, y, m, d);
      }
      return origins;
    });
  }

  /** Origin of day number `day` in time zone index `tz` (days outside the range are extrapolated). */
  origin(tz: number, day: number): number {
    const i = day - this.firstDay;
    const origins = this.originSec[tz]!;
    if (i >= 0 && i < this.dayCount) return origins[i]!;
    // Outside the calendar no service runs; a plain 86400 s step is close enough for window maths.
    return i < 0 ? origins[0]! + i * 86400 : origins[this.dayCount - 1]! + (i - this.dayCount + 1) * 86400;
  }

  /** The next day >= `fromDay` on which service `s` runs, or -1 past the calendar's end. */
  nextActiveDay(s: number, fromDay: number): number {
    const { words, bits } = this.tt.services;
    let d = Math.max(0, fromDay - this.firstDay);
    const base = s * words;
    while (d < this.dayCount) {
      const w = bits[base + (d >>> 5)]! >>> (d & 31);
      if (w === 0) {
        d = (d | 31) + 1; // nothing left in this word
        continue;
      }
      d += ctz(w);
      return d < this.dayCount ? this.firstDay + d : -1;
    }
    return -1;
  }

  /** The last day on which service `s` runs, or -1 when it never does. */
  lastActiveDay(s: number): number {
    const { words, bits } = this.tt.services;
    const base = s * words;
    for (let w = words - 1; w >= 0; w--) {
      const word = bits[base + w]!;
      if (word === 0) continue;
      const d = w * 32 + 31 - Math.clz32(word);
      if (d < this.dayCount) return this.firstDay + d;
      // bits past the calendar's end in the last word: look below them
      for (let e = Math.min(this.dayCount - 1, w * 32 + 31); e >= w * 32; e--) if ((word >>> (e - w * 32)) & 1) return this.firstDay + e;
    }
    return -1;
  }
}

/** Count of trailing zero bits of a non-zero 32-bit value. */
function ctz(v: number): number {
  return 31 - Math.clz32(v & -v);
}
