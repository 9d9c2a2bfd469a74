/**
 * The one week every tile runs in. The feeds run in different years (rnv 2016, Milan 2014, NYC
 * 2026…); each feed is shifted by a whole number of weeks so that its busiest Tuesday (the most trips
 * running, as Navette counts them; the earliest of equals) falls on REFERENCE_DATE, and its other days
 * move with it, weekday onto the same weekday: calendar.txt's weekday columns stay as they are,
 * its start_date and end_date and calendar_dates.txt's dates (and feed_info's) move by the shift.
 * A query on the reference date sees every tile's busiest Tuesday; times of day are not changed.
 *
 * A Tuesday, because a busiest day of the whole week may be a Saturday (WMATA's) or fall on a
 * holiday, and the week of it would then put weekend service on working days.
 */
import { weekdayOf } from '../../src/model/representative-day.js';
import { formatDayNumber } from '../../src/util/calendar.js';
import { INVALID_GTFS_DATE, parseGtfsDate } from '../../src/util/gtfs-times.js';

/** The common week's Tuesday (no public holiday in Germany that week). */
export const REFERENCE_DATE = '20260310';
export const REFERENCE_DAY = parseGtfsDate(REFERENCE_DATE);
/** weekdayOf's Tuesday (Monday = 0) */
const TUESDAY = 1;

/** The common week: Monday to Sunday around the reference date (the intercity trains run every day of it). */
export const COMMON_WEEK = { firstDay: REFERENCE_DAY - TUESDAY, lastDay: REFERENCE_DAY - TUESDAY + 6 };

/** The busiest Tuesday of `tripsOnDay` (trips running on day firstDay + i), the earliest of equals; null when no Tuesday has a trip. */
export function busiestTuesday(tripsOnDay: ArrayLike<number>, firstDay: number): { day: number; trips: number } | null {
  let best: { day: number; trips: number } | null = null;
  for (let i = 0; i < tripsOnDay.length; i++) {
    if (weekdayOf(firstDay + i) !== TUESDAY) continue;
    const trips = tripsOnDay[i]!;
    if (trips > 0 && (!best || trips > best.trips)) best = { day: firstDay + i, trips };
  }
  return best;
}

/** `YYYYMMDD` moved by `days`; text that is not a date is kept as it is (Navette reports and skips it). */
export function shiftedDate(text: string, days: number): string {
  const day = parseGtfsDate(text);
  return day === INVALID_GTFS_DATE ? text : formatDayNumber(day + days);
}
