/** GTFS dates (`YYYYMMDD`) and times (`H:MM:SS`, hours past 24 allowed), read in one pass over char codes. */
import { COLON, skipBlanks, twoDigits, ZERO } from './char-codes.js';
import { dayNumber, daysInMonth, SEC_PER_HOUR } from './calendar.js';

/** Returned by `parseGtfsDate` for a malformed date (day numbers of real feeds are far from -1: 1969-12-31). */
export const INVALID_GTFS_DATE = -1;
/** Returned by `parseGtfsTime` for a malformed or empty time (valid times are >= 0). */
export const INVALID_GTFS_TIME = -1;

/**
 * Parse a GTFS date `YYYYMMDD` (surrounding spaces allowed) into a day number, or INVALID_GTFS_DATE when
 * malformed or not a calendar date. One pass over char codes, no allocation.
 */
export function parseGtfsDate(text: string): number {
  const n = text.length;
  const i = skipBlanks(text, 0, n);
  if (i + 8 > n || skipBlanks(text, i + 8, n) !== n) return INVALID_GTFS_DATE;
  const century = twoDigits(text, i);
  const yearOfCentury = twoDigits(text, i + 2);
  const m = twoDigits(text, i + 4);
  const d = twoDigits(text, i + 6);
  if (century < 0 || yearOfCentury < 0 || m < 1 || m > 12 || d < 1) return INVALID_GTFS_DATE;
  const y = century * 100 + yearOfCentury;
  if (y < 1 || d > daysInMonth(y, m)) return INVALID_GTFS_DATE;
  return dayNumber(y, m, d);
}

/**
 * Parse a GTFS time `H:MM:SS` or `HH:MM:SS` (1 to 3 hour digits, hours may exceed 24 such as "32:41:00";
 * surrounding spaces allowed) into seconds, or INVALID_GTFS_TIME if malformed or empty. One pass over char
 * codes, no allocation (it runs once per stop_times.txt field).
 */
export function parseGtfsTime(text: string): number {
  const n = text.length;
  let i = skipBlanks(text, 0, n);
  const hoursStart = i;
  let h = 0;
  for (; i < n; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) break;
    h = h * 10 + digit;
  }
  const hoursLength = i - hoursStart;
  // hours, then ':MM:SS' (6 chars), then only blanks
  if (hoursLength < 1 || hoursLength > 3 || i + 6 > n || skipBlanks(text, i + 6, n) !== n) return INVALID_GTFS_TIME;
  if (text.charCodeAt(i) !== COLON || text.charCodeAt(i + 3) !== COLON) return INVALID_GTFS_TIME;
  const mi = twoDigits(text, i + 1);
  const s = twoDigits(text, i + 4);
  if (mi < 0 || mi > 59 || s < 0 || s > 59) return INVALID_GTFS_TIME;
  return h * SEC_PER_HOUR + mi * 60 + s;
}
