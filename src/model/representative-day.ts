/**
 * The day a first look at a coverage should show: today when today is inside the production
 * period, else the busiest day of the busiest weekday. A timetable's first day is often a day of
 * almost no service (one feed starts months before the others), so "the first day of the period"
 * shows an empty city; the weekday with the most trips running over the period is what a planner
 * means by "a typical day".
 *
 *   tripsOnDay[d - firstDay]   trips whose service runs on day d (Uint32Array, one entry a calendar day)
 *
 * The count is per service (its trips × its days), so the work is services × days, not trips × days.
 *
 * The hour the page opens at is chosen the same way: the hour of that day with the most departures
 * (a feed may run only part of the day: Porto Alegre's buses, in the extract r5r ships, run from
 * 12:30 to 16:00, so "08:00" would show trains alone).
 */
import { SEC_PER_HOUR } from '../util/calendar.js';
import { serviceRunsOn, type Timetable } from './timetable.js';

/** Why a day was chosen: the page says it in words. */
export type RepresentativeReason = 'today' | 'busiest_weekday' | 'no_service';

export interface RepresentativeDay {
  /** day number (days since 1970-01-01); -1 when the timetable runs no trip at all */
  day: number;
  reason: RepresentativeReason;
  /** trips running that day */
  trips: number;
}

/** The busiest day of the busiest weekday, computed once per timetable (see `representativeDay`). */
export interface BusiestWeekday {
  day: number;
  trips: number;
  /** 0 = Monday … 6 = Sunday, -1 when no trip runs */
  weekday: number;
}

/** ISO weekday (0 = Monday … 6 = Sunday) of a day number: 1970-01-01 was a Thursday. */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Trips running on each day of the timetable's calendar. */
export function tripsPerDay(tt: Timetable): Uint32Array {
  const { ids, words, bits, dayCount } = tt.services;
  const tripsOfService = new Uint32Array(ids.length);
  for (let t = 0; t < tt.trips.service.length; t++) tripsOfService[tt.trips.service[t]!]!++;
  const perDay = new Uint32Array(dayCount);
  for (let s = 0; s < ids.length; s++) {
    const n = tripsOfService[s]!;
    if (n === 0) continue;
    const base = s * words;
    for (let w = 0; w < words; w++) {
      let word = bits[base + w]!;
      // each set bit is a day of the service: visit them lowest first, clearing each
      while (word !== 0) {
        const d = (w << 5) + (31 - Math.clz32(word & -word));
        word &= word - 1;
        if (d < dayCount) perDay[d]! += n;
      }
    }
  }
  return perDay;
}

/**
 * From `perDay` (`tripsPerDay`, its first entry day `firstDay`): the weekday whose days carry the
 * most trips on average, counting only the days between the first and the last with a trip (a
 * weekday is not penalised for the empty weeks before a feed starts), and its busiest day (the
 * earliest of equals). Ties between weekdays go to the earlier weekday.
 */
export function busiestWeekday(perDay: Uint32Array, firstDay: number): BusiestWeekday {
  let first = 0;
  while (first < perDay.length && perDay[first] === 0) first++;
  let last = perDay.length - 1;
  while (last >= first && perDay[last] === 0) last--;
  if (first > last) return { day: -1, trips: 0, weekday: -1 };
  const total = new Float64Array(7);
  const days = new Uint32Array(7);
  for (let d = first; d <= last; d++) {
    const w = weekdayOf(firstDay + d);
    total[w]! += perDay[d]!;
    days[w]!++;
  }
  let best = -1;
  for (let w = 0; w < 7; w++) if (days[w]! > 0 && (best < 0 || total[w]! / days[w]! > total[best]! / days[best]!)) best = w;
  let day = -1;
  for (let d = first; d <= last; d++) if (weekdayOf(firstDay + d) === best && (day < 0 || perDay[d]! > perDay[day]!)) day = d;
  return { day: firstDay + day, trips: perDay[day]!, weekday: best };
}

/**
 * Today when today is inside the production period [startDay, endDay] (and some trip runs today:
 * a holiday inside the period is still today), else the busiest weekday's busiest day.
 */
export function representativeDay(today: number, startDay: number, endDay: number, busiest: BusiestWeekday, tripsToday: number): RepresentativeDay {
  if (busiest.day < 0) return { day: -1, reason: 'no_service', trips: 0 };
  if (startDay >= 0 && today >= startDay && today <= endDay) return { day: today, reason: 'today', trips: tripsToday };
  return { day: busiest.day, reason: 'busiest_weekday', trips: busiest.trips };
}

/** The busiest hour of a day: its start (0 … 23) and the trips that leave in it; hour -1 when none leaves that day. */
export interface BusiestHour {
  hour: number;
  departures: number;
}

/**
 * The hour of day number `day` in which the most trips leave their first stop (a frequency-based trip
 * counts each of its departures); ties go to the earlier hour. Departures after midnight of the
 * service day (GTFS times past 24:00) belong to the next date and are left out. One pass over the
 * trips, run when the day is chosen.
 */
export function busiestHour(tt: Timetable, day: number): BusiestHour {
  const perHour = new Float64Array(24);
  const { service, stopTimeOffset, frequencyOffset } = tt.trips;
  const { departureSec } = tt.stopTimes;
  const { startSec, endSec, headwaySec } = tt.frequencies;
  for (let t = 0; t < service.length; t++) {
    if (!serviceRunsOn(tt, service[t]!, day)) continue;
    const first = stopTimeOffset[t]!;
    if (stopTimeOffset[t + 1]! <= first) continue;
    if (frequencyOffset[t + 1]! === frequencyOffset[t]!) {
      const hour = Math.floor(departureSec[first]! / SEC_PER_HOUR);
      if (hour >= 0 && hour < 24) perHour[hour]!++;
      continue;
    }
    for (let f = frequencyOffset[t]!; f < frequencyOffset[t + 1]!; f++) addWindow(perHour, startSec[f]!, endSec[f]!, Math.max(1, headwaySec[f]!));
  }
  let hour = -1;
  for (let h = 0; h < 24; h++) if (perHour[h]! > 0 && (hour < 0 || perHour[h]! > perHour[hour]!)) hour = h;
  return { hour, departures: hour < 0 ? 0 : perHour[hour]! };
}

/** The departures start, start + headway, … before end, counted by hour (arithmetically: a window may hold thousands). */
function addWindow(perHour: Float64Array, start: number, end: number, headway: number): void {
  for (let h = Math.max(0, Math.floor(start / SEC_PER_HOUR)); h < 24 && h * SEC_PER_HOUR < end; h++) {
    const from = Math.max(start, h * SEC_PER_HOUR);
    const to = Math.min(end, (h + 1) * SEC_PER_HOUR);
    // departures k with from <= start + k·headway < to
    const firstK = Math.ceil((from - start) / headway);
    const endK = Math.ceil((to - start) / headway);
    if (endK > firstK) perHour[h]! += endK - firstK;
  }
}
