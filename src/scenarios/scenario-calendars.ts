/**
 * The calendars a scenario makes, laid out as the timetable's services (one bitset of days each,
 * `words` 32-bit words, bit d = day firstDay + d) and numbered after them:
 *
 * - a timetable entry's weekdays on every date of the production period, the days from the first
 *   to the last on which any service of the timetable runs (docs/scenarios.md, "Days");
 * - a base service less some weekdays (adjust-frequency's retained trips).
 *
 * Equal calendars are made once.
 */
import type { Timetable } from '../model/timetable.js';

/** Weekday of day number `day` (days since 1970-01-01, a Thursday), Monday = 0. */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

export interface ProductionPeriod {
  firstDay: number;
  lastDay: number;
}

export class ScenarioCalendars {
  private readonly made: Uint32Array[] = [];
  private readonly known = new Map<string, number>();
  constructor(
    private readonly services: Timetable['services'],
    /** the production period's first and last days (day numbers) */
    private readonly period: ProductionPeriod,
  ) {}

  /** The calendar of an entry's weekdays over the production period (Monday first). */
  weekdays(days: readonly boolean[]): number {
    const { first, last } = this.productionPeriod();
    const bits = new Uint32Array(this.services.words);
    for (let d = first; d <= last; d++) if (days[weekdayOf(this.services.firstDay + d)]) bits[d >>> 5]! |= 1 << (d & 31);
    return this.add(bits);
  }

  /** Service s (a timetable's or a made one) without the weekdays flagged. */
  without(s: number, weekdays: readonly boolean[]): number | null {
    const bits = this.bitsOf(s).slice();
    let any = false;
    for (let d = 0; d < this.services.dayCount; d++) {
      if (!(bits[d >>> 5]! & (1 << (d & 31)))) continue;
      if (weekdays[weekdayOf(this.services.firstDay + d)]) bits[d >>> 5]! &= ~(1 << (d & 31));
      else any = true;
    }
    return any ? this.add(bits) : null;
  }

  /** The made calendars' bits, one after the other. */
  bits(): Uint32Array {
    const out = new Uint32Array(this.made.length * this.services.words);
    this.made.forEach((b, k) => out.set(b, k * this.services.words));
    return out;
  }

  private bitsOf(s: number): Uint32Array {
    const { words, bits, ids } = this.services;
    if (s < ids.length) return bits.subarray(s * words, (s + 1) * words);
    return this.made[s - ids.length]!;
  }

  private add(bits: Uint32Array): number {
    const key = bits.join(',');
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const s = this.services.ids.length + this.made.length;
    this.made.push(bits);
    this.known.set(key, s);
    return s;
  }

  /** Day indexes (from `firstDay`) of the production period's first and last days. */
  private productionPeriod(): { first: number; last: number } {
    return { first: Math.max(0, this.period.firstDay - this.services.firstDay), last: Math.min(this.services.dayCount - 1, this.period.lastDay - this.services.firstDay) };
  }
}
