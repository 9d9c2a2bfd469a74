/**
 * Dates, times and time zones: query-parameter datetimes (Navitia `since`, `until`, `datetime`,
 * `_current_datetime`), UTC offsets of IANA zones through `Intl`, GTFS service days, GTFS dates and times.
 *
 * Every instant is an integer number of seconds since 1970-01-01T00:00:00Z (`epochSec`); every date is a
 * day number (days since 1970-01-01, proleptic Gregorian calendar).
 *
 * Wire rules (`navitia-trips.md` §7.2, `navitia-heat-maps.md` §4.3, `decisions.md` "Errors and formats"):
 *   - accepted: `YYYYMMDD[Thh[mm[ss[.f]]]]`, `YYYYMMDDhhmm[ss]`, `YYYY-MM-DD[(T| )hh[:mm[:ss[.f]]]]` (time
 *     in basic or extended form after either date form), then optionally `Z`, `±hh`, `±hhmm` or `±hh:mm`.
 *     Fractional seconds (`.` or `,`) are truncated. Surrounding white space is ignored.
 *   - naive values are wall-clock time in the coverage zone, read like pytz `localize(is_dst=False)`:
 *     an ambiguous time (clocks go back) is the later instant, i.e. standard time; a non-existent time
 *     (clocks go forward) is read with the offset in force before the gap (standard time).
 *   - field errors use Python `datetime` wording and order (year, month, day, hour, minute, second), then a
 *     wall-clock year <= 1970 gives "date is too early!".
 *   - a date is required. When the value does not start with a date but with a lone run of digits
 *     (optionally after `T`) followed by the end or by `T`, that run is read as a year, as python-dateutil
 *     does: `2005061` and `2012614T081025` give "year … is out of range", `T0800` (year 800) gives "date is
 *     too early!". Anything else is "unknown string format".
 *
 * Offsets come from `Intl.DateTimeFormat` and are cached per (zone, UTC day): each cached day stores its
 * offset at the start, the exact second of the offset change inside the day (if any) and the offset after
 * it, so lookups are one Map probe and one comparison, and transitions at any second (Lord Howe's 15:30Z,
 * LMT) are exact. Assumes at most one offset change per UTC day (and `zonedToEpoch` at most one within two
 * days): checked with zdump over all 418 ICU zones for 1970-2040, the closest changes are more than 2 days apart.
 */

const SEC_PER_DAY = 86400;
const SEC_PER_HOUR = 3600;
/** Half a day: the GTFS service day starts at "noon minus 12 h". */
const HALF_DAY_SEC = 43200;

/** Returned by `parseGtfsDate` for a malformed date (day numbers of real feeds are far from -1: 1969-12-31). */
export const INVALID_GTFS_DATE = -1;
/** Returned by `parseGtfsTime` for a malformed or empty time (valid times are >= 0). */
export const INVALID_GTFS_TIME = -1;

/** Thrown for a value that is not an accepted datetime; `reason` is the text after "Unable to parse datetime, ". */
export class DatetimeParseError extends Error {
  constructor(readonly reason: string) {
    super(`Unable to parse datetime, ${reason}`);
    this.name = 'DatetimeParseError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Query-parameter datetimes

/**
 * Parse a query-parameter datetime. Naive values are local time in `timeZone` (IANA name); a non-existent
 * or ambiguous local time (DST) resolves as standard time like pytz is_dst=False. Throws DatetimeParseError:
 * for a year <= 1970 the reason is "date is too early!"; for out-of-range fields a reason like
 * "hour must be in 0..23" / "month must be in 1..12" / "day is out of range for month"; otherwise
 * "unknown string format". Fractional seconds are truncated.
 */
export function parseDatetimeParam(value: string, timeZone: string): number {
  const f = scanDatetime(value.trim());
  checkFieldRanges(f);
  if (f.y <= 1970) throw new DatetimeParseError('date is too early!');
  if (f.offsetSec === NAIVE) return zonedToEpoch(timeZone, f.y, f.m, f.d, f.h, f.mi, f.s);
  return dayNumber(f.y, f.m, f.d) * SEC_PER_DAY + f.h * SEC_PER_HOUR + f.mi * 60 + f.s - f.offsetSec;
}

/** `offsetSec` of a datetime written without `Z` or offset. */
const NAIVE = null;

interface DatetimeFields {
  y: number; m: number; d: number; h: number; mi: number; s: number;
  /** Seconds east of UTC as written, or NAIVE. */
  offsetSec: number | typeof NAIVE;
}

const unknownFormat = () => new DatetimeParseError('unknown string format');

/** Split a trimmed datetime into fields, without range checks (see the header for the grammar). */
function scanDatetime(text: string): DatetimeFields {
  const n = text.length;
  const f: DatetimeFields = { y: 0, m: 0, d: 0, h: 0, mi: 0, s: 0, offsetSec: NAIVE };
  const startsWithT = n > 0 && isTimeDesignator(text.charCodeAt(0));
  let i = startsWithT ? 1 : 0;
  const runEnd = digitRunEnd(text, i);
  const runLen = runEnd - i;
  let hasSeconds = false;
  let timeDone = false;

  // Date: extended, basic, or compact date+time.
  if (!startsWithT && runLen === 4 && text.charCodeAt(runEnd) === DASH) {
    f.y = digitsValue(text, i, runEnd);
    i = runEnd + 1;
    const mEnd = digitRunEnd(text, i);
    if (mEnd - i < 1 || mEnd - i > 2 || text.charCodeAt(mEnd) !== DASH) throw unknownFormat();
    f.m = digitsValue(text, i, mEnd);
    i = mEnd + 1;
    const dEnd = digitRunEnd(text, i);
    if (dEnd - i < 1 || dEnd - i > 2) throw unknownFormat();
    f.d = digitsValue(text, i, dEnd);
    i = dEnd;
  } else if (!startsWithT && (runLen === 8 || runLen === 12 || runLen === 14)) {
    f.y = digitsValue(text, i, i + 4);
    f.m = digitsValue(text, i + 4, i + 6);
    f.d = digitsValue(text, i + 6, i + 8);
    if (runLen >= 12) {
      f.h = digitsValue(text, i + 8, i + 10);
      f.mi = digitsValue(text, i + 10, i + 12);
      timeDone = true;
    }
    if (runLen === 14) {
      f.s = digitsValue(text, i + 12, i + 14);
      hasSeconds = true;
    }
    i = runEnd;
  } else if (runLen > 0 && (runEnd === n || isTimeDesignator(text.charCodeAt(runEnd)))) {
    throw loneYearError(text, i, runEnd);
  } else {
    throw unknownFormat();
  }

  // Time: `T`, `t` or a space, then basic (hh, hhmm, hhmmss) or extended (h[h]:mm[:ss]) form.
  if (!timeDone && i < n && (isTimeDesignator(text.charCodeAt(i)) || text.charCodeAt(i) === SPACE) && isDigit(text.charCodeAt(i + 1))) {
    i++;
    const end = digitRunEnd(text, i);
    const len = end - i;
    if (text.charCodeAt(end) === COLON) {
      if (len > 2) throw unknownFormat();
      f.h = digitsValue(text, i, end);
      i = end + 1;
      if (digitRunEnd(text, i) - i !== 2) throw unknownFormat();
      f.mi = digitsValue(text, i, i + 2);
      i += 2;
      if (text.charCodeAt(i) === COLON) {
        i++;
        if (digitRunEnd(text, i) - i !== 2) throw unknownFormat();
        f.s = digitsValue(text, i, i + 2);
        i += 2;
        hasSeconds = true;
      }
    } else if (len === 2 || len === 4 || len === 6) {
      f.h = digitsValue(text, i, i + 2);
      if (len >= 4) f.mi = digitsValue(text, i + 2, i + 4);
      if (len === 6) { f.s = digitsValue(text, i + 4, i + 6); hasSeconds = true; }
      i = end;
    } else {
      throw unknownFormat();
    }
  }

  // Fractional seconds, truncated.
  if (hasSeconds && (text.charCodeAt(i) === DOT || text.charCodeAt(i) === COMMA) && isDigit(text.charCodeAt(i + 1))) {
    i = digitRunEnd(text, i + 1);
  }

  // Offset: optional spaces, then `Z`/`z`, `±hh`, `±hhmm` or `±hh:mm`.
  while (text.charCodeAt(i) === SPACE) i++;
  if (i < n) {
    const c = text.charCodeAt(i);
    if (c === UPPER_Z || c === LOWER_Z) {
      f.offsetSec = 0;
      i++;
    } else if (c === PLUS || c === DASH) {
      i++;
      const end = digitRunEnd(text, i);
      let oh: number;
      let om = 0;
      if (end - i === 4) {
        oh = digitsValue(text, i, i + 2);
        om = digitsValue(text, i + 2, i + 4);
        i = end;
      } else if (end - i === 2) {
        oh = digitsValue(text, i, end);
        i = end;
        if (text.charCodeAt(i) === COLON) {
          if (digitRunEnd(text, i + 1) - (i + 1) !== 2) throw unknownFormat();
          om = digitsValue(text, i + 1, i + 3);
          i += 3;
        }
      } else {
        throw unknownFormat();
      }
      if (oh > 23 || om > 59) throw unknownFormat();
      const east = oh * SEC_PER_HOUR + om * 60;
      f.offsetSec = c === PLUS ? east : -east;
    }
  }
  if (i !== n) throw unknownFormat();
  return f;
}

/** A lone digit run read as a year (python-dateutil behaviour); never returns a valid date. */
function loneYearError(text: string, start: number, end: number): DatetimeParseError {
  let k = start;
  while (k < end - 1 && text.charCodeAt(k) === ZERO) k++; // Python prints the year without leading zeros
  const year = text.slice(k, end);
  if (year.length > 4 || year === '0') return new DatetimeParseError(`year ${year} is out of range`);
  if (Number(year) <= 1970) return new DatetimeParseError('date is too early!');
  return unknownFormat(); // a plausible year alone is not a date: we do not fill month and day from today
}

/** Range checks in the order and wording of Python's `datetime(...)` constructor. */
function checkFieldRanges(f: DatetimeFields): void {
  if (f.y < 1 || f.y > 9999) throw new DatetimeParseError(`year ${f.y} is out of range`);
  if (f.m < 1 || f.m > 12) throw new DatetimeParseError('month must be in 1..12');
  if (f.d < 1 || f.d > daysInMonth(f.y, f.m)) throw new DatetimeParseError('day is out of range for month');
  if (f.h > 23) throw new DatetimeParseError('hour must be in 0..23');
  if (f.mi > 59) throw new DatetimeParseError('minute must be in 0..59');
  if (f.s > 59) throw new DatetimeParseError('second must be in 0..59');
}

// ---------------------------------------------------------------------------------------------------------
// Time zones

/**
 * UTC offset in seconds of `timeZone` at the instant `epochSec` (e.g. 3600 for Europe/Paris in winter).
 * Cached per (zone, UTC day) with the exact change second; throws RangeError for an unknown zone.
 */
export function utcOffsetSec(timeZone: string, epochSec: number): number {
  const zone = zoneCache(timeZone);
  const day = Math.floor(epochSec / SEC_PER_DAY);
  let offsets = zone.lastDay === day ? zone.lastOffsets : zone.days.get(day);
  if (offsets === undefined) {
    offsets = scanDayOffsets(zone.format, day);
    zone.days.set(day, offsets);
  }
  zone.lastDay = day;
  zone.lastOffsets = offsets;
  return epochSec < offsets.changeSec ? offsets.startOffsetSec : offsets.endOffsetSec;
}

/**
 * The epoch seconds of the local wall-clock time y-m-d h:mi:s in timeZone (m is 1..12), standard time for
 * ambiguous/non-existent times: an ambiguous time gives the later of its two instants, a non-existent
 * time is read with the offset in force before the gap (as pytz `localize(is_dst=False)`).
 */
export function zonedToEpoch(timeZone: string, y: number, m: number, d: number, h = 0, mi = 0, s = 0): number {
  const wallSec = dayNumber(y, m, d) * SEC_PER_DAY + h * SEC_PER_HOUR + mi * 60 + s;
  // Offsets are within ±15 h, so the instant lies strictly between these two probes; at most one
  // offset change happens between them.
  const offsetBefore = utcOffsetSec(timeZone, wallSec - SEC_PER_DAY);
  const offsetAfter = utcOffsetSec(timeZone, wallSec + SEC_PER_DAY);
  const withBefore = wallSec - offsetBefore;
  if (offsetBefore === offsetAfter) return withBefore;
  const withAfter = wallSec - offsetAfter;
  const beforeFits = utcOffsetSec(timeZone, withBefore) === offsetBefore;
  const afterFits = utcOffsetSec(timeZone, withAfter) === offsetAfter;
  if (beforeFits && afterFits) return Math.max(withBefore, withAfter); // ambiguous: the later instant
  if (afterFits) return withAfter;
  return withBefore; // fits, or non-existent: the offset in force before the gap
}

/**
 * The GTFS service-day origin: the instant of "noon minus 12 h" local time on local date y-m-d (differs
 * from midnight on DST-change days). GTFS stop times are seconds after this instant.
 */
export function serviceDayOrigin(timeZone: string, y: number, m: number, d: number): number {
  return zonedToEpoch(timeZone, y, m, d, 12, 0, 0) - HALF_DAY_SEC;
}

/** Whether an IANA time zone name is known to this runtime (legacy aliases such as "US/Pacific" included). */
export function isValidTimeZone(name: string): boolean {
  if (zones.has(name)) return true;
  if (invalidZones.has(name)) return false;
  try {
    zoneCache(name);
    return true;
  } catch {
    invalidZones.add(name);
    return false;
  }
}

/** Offsets of one UTC day [day·86400, day·86400 + 86400). */
interface DayOffsets {
  /** Offset at the first second of the day. */
  readonly startOffsetSec: number;
  /** First second whose offset is `endOffsetSec`, or NO_CHANGE. */
  readonly changeSec: number;
  /** Offset from `changeSec` to the end of the day. */
  readonly endOffsetSec: number;
}

/** `changeSec` of a day without offset change: every instant compares below it. */
const NO_CHANGE = Number.POSITIVE_INFINITY;

interface ZoneCache {
  readonly format: Intl.DateTimeFormat;
  /** Day number → offsets of that UTC day. */
  readonly days: Map<number, DayOffsets>;
  /** One-entry memo in front of `days` (consecutive lookups mostly hit the same day). */
  lastDay: number;
  lastOffsets: DayOffsets | undefined;
}

const zones = new Map<string, ZoneCache>();
const invalidZones = new Set<string>();
let lastZoneName: string | undefined;
let lastZone: ZoneCache | undefined;

function zoneCache(timeZone: string): ZoneCache {
  if (timeZone === lastZoneName) return lastZone!;
  let zone = zones.get(timeZone);
  if (zone === undefined) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    zone = { format, days: new Map(), lastDay: Number.NaN, lastOffsets: undefined };
    zones.set(timeZone, zone);
  }
  lastZoneName = timeZone;
  lastZone = zone;
  return zone;
}

/** Offsets at both ends of a UTC day and, when they differ, the change second found by bisection. */
function scanDayOffsets(format: Intl.DateTimeFormat, day: number): DayOffsets {
  const first = day * SEC_PER_DAY;
  const last = first + SEC_PER_DAY - 1;
  const startOffsetSec = intlOffsetSec(format, first);
  const endOffsetSec = intlOffsetSec(format, last);
  if (startOffsetSec === endOffsetSec) return { startOffsetSec, changeSec: NO_CHANGE, endOffsetSec };
  let lo = first; // offset(lo) === startOffsetSec
  let hi = last; // offset(hi) !== startOffsetSec
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (intlOffsetSec(format, mid) === startOffsetSec) lo = mid;
    else hi = mid;
  }
  return { startOffsetSec, changeSec: hi, endOffsetSec };
}

/** Offset at one instant, straight from ICU: local wall clock read back as if UTC, minus the instant. */
function intlOffsetSec(format: Intl.DateTimeFormat, epochSec: number): number {
  let y = 0, m = 0, d = 0, h = 0, mi = 0, s = 0;
  for (const part of format.formatToParts(epochSec * 1000)) {
    switch (part.type) {
      case 'year': y = Number(part.value); break;
      case 'month': m = Number(part.value); break;
      case 'day': d = Number(part.value); break;
      case 'hour': h = Number(part.value); break;
      case 'minute': mi = Number(part.value); break;
      case 'second': s = Number(part.value); break;
      default: break;
    }
  }
  return dayNumber(y, m, d) * SEC_PER_DAY + h * SEC_PER_HOUR + mi * 60 + s - epochSec;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

/** Format an instant as local `YYYYMMDDTHHMMSS` in timeZone. */
export function formatLocal(epochSec: number, timeZone: string): string {
  return formatUtc(epochSec + utcOffsetSec(timeZone, epochSec));
}

/** Format an instant as UTC `YYYYMMDDTHHMMSS`. */
export function formatUtc(epochSec: number): string {
  const t = Math.floor(epochSec);
  const day = Math.floor(t / SEC_PER_DAY);
  const secOfDay = t - day * SEC_PER_DAY;
  const h = Math.floor(secOfDay / SEC_PER_HOUR);
  const mi = Math.floor((secOfDay % SEC_PER_HOUR) / 60);
  const s = secOfDay % 60;
  return `${formatDayNumber(day)}T${pad2(h)}${pad2(mi)}${pad2(s)}`;
}

// ---------------------------------------------------------------------------------------------------------
// Day numbers (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms": days_from_civil, civil_from_days)

/**
 * Day number (days since 1970-01-01) of y-m-d, m in 1..12. A month outside 1..12 carries into the year and
 * a day outside the month carries into the neighbouring months (d = 0 is the last day of the previous month).
 */
export function dayNumber(y: number, m: number, d: number): number {
  if (m < 1 || m > 12) {
    y += Math.floor((m - 1) / 12);
    m = ((((m - 1) % 12) + 12) % 12) + 1;
  }
  const yy = m <= 2 ? y - 1 : y; // years start on March 1st, so the leap day ends the year
  const era = Math.floor(yy / 400);
  const yearOfEra = yy - era * 400; // 0..399
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1; // 0..365 from March 1st
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468; // 719468 = days from 0000-03-01 to 1970-01-01
}

/** Inverse of `dayNumber`. */
export function dateOfDayNumber(day: number): { y: number; m: number; d: number } {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097; // 0..146096
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March … 11 = February
  const d = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yearOfEra + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

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

/** Format a day number as `YYYYMMDD`. */
export function formatDayNumber(day: number): string {
  const { y, m, d } = dateOfDayNumber(day);
  return `${String(y).padStart(4, '0')}${pad2(m)}${pad2(d)}`;
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

// ---------------------------------------------------------------------------------------------------------
// Character helpers (char codes; charCodeAt past the end gives NaN, which matches nothing: the datetime
// scanner relies on that, the GTFS parsers stay in bounds because they run per row)

const ZERO = 48;
const NINE = 57;
const SPACE = 32;
const TAB = 9;
const COLON = 58;
const DASH = 45;
const PLUS = 43;
const DOT = 46;
const COMMA = 44;
const UPPER_T = 84;
const LOWER_T = 116;
const UPPER_Z = 90;
const LOWER_Z = 122;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isTimeDesignator(c: number): boolean {
  return c === UPPER_T || c === LOWER_T;
}

/** Index just past the run of ASCII digits starting at `i`. */
function digitRunEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** Index of the first non-blank character of text[i, end), or `end`. */
function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** Value of the two ASCII digits at text[i] and text[i + 1], or -1 if either is not a digit. */
function twoDigits(text: string, i: number): number {
  const tens = text.charCodeAt(i) - ZERO;
  const units = text.charCodeAt(i + 1) - ZERO;
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1;
}

/** Decimal value of text[start, end), all digits. */
function digitsValue(text: string, start: number, end: number): number {
  let v = 0;
  for (let k = start; k < end; k++) v = v * 10 + (text.charCodeAt(k) - ZERO);
  return v;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function pad2(v: number): string {
  return v < 10 ? `0${v}` : String(v);
}
