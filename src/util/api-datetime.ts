/**
 * The API's datetimes: query parameters `since`, `until`, `datetime`, `_current_datetime`.
 *
 * Wire rules (Navitia's, docs/api.md, Trips and Heat maps):
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
 */
import { COLON, COMMA, DASH, digitRunEnd, digitsValue, DOT, isDigit, isTimeDesignator, LOWER_Z, PLUS, SPACE, UPPER_Z, ZERO } from './char-codes.js';
import { dayNumber, daysInMonth, SEC_PER_DAY, SEC_PER_HOUR } from './calendar.js';
import { zonedToEpoch } from './time-zones.js';

/** Thrown for a value that is not an accepted datetime; `reason` is the text after "Unable to parse datetime, ". */
export class DatetimeParseError extends Error {
  constructor(readonly reason: string) {
    super(`Unable to parse datetime, ${reason}`);
    this.name = 'DatetimeParseError';
  }
}

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

/**
 * Whether a datetime (one `parseDatetimeParam` accepts) names a time of day: `20190513` and
 * `2019-05-13` name a day alone, which the API reads as its midnight.
 */
export function datetimeHasTime(value: string): boolean {
  const text = value.trim();
  const f: DatetimeScan = { y: 0, m: 0, d: 0, h: 0, mi: 0, s: 0, offsetSec: NAIVE, hasSeconds: false, timeDone: false };
  const i = scanDate(text, f);
  return f.timeDone || scanTime(text, i, f) > i;
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
  // Each step reads from index i and answers the index after what it read. (V8 does not inline all
  // the steps: about 20 ns more a parse than one long function, for values parsed a few times a request.)
  const f: DatetimeScan = { y: 0, m: 0, d: 0, h: 0, mi: 0, s: 0, offsetSec: NAIVE, hasSeconds: false, timeDone: false };
  let i = scanDate(text, f);
  i = scanTime(text, i, f);
  i = skipFractionalSeconds(text, i, f);
  i = scanOffset(text, i, f);
  if (i !== text.length) throw unknownFormat();
  return f;
}

/** The fields as they are read, with what the next steps must know. */
interface DatetimeScan extends DatetimeFields {
  /** seconds were read: a fraction may follow */
  hasSeconds: boolean;
  /** the time came with the date (`YYYYMMDDhhmm[ss]`) */
  timeDone: boolean;
}

/** Date: extended, basic, or compact date+time; a lone digit run is an error about its year. */
function scanDate(text: string, f: DatetimeScan): number {
  const startsWithT = text.length > 0 && isTimeDesignator(text.charCodeAt(0));
  const start = startsWithT ? 1 : 0;
  const runEnd = digitRunEnd(text, start);
  const runLen = runEnd - start;
  if (!startsWithT && runLen === 4 && text.charCodeAt(runEnd) === DASH) return scanExtendedDate(text, runEnd, f);
  if (!startsWithT && (runLen === 8 || runLen === 12 || runLen === 14)) return scanBasicDate(text, runLen, f);
  if (runLen > 0 && (runEnd === text.length || isTimeDesignator(text.charCodeAt(runEnd)))) throw loneYearError(text, start, runEnd);
  throw unknownFormat();
}

/** `YYYY-M[M]-D[D]`, the year's four digits ending at `yearEnd`. */
function scanExtendedDate(text: string, yearEnd: number, f: DatetimeScan): number {
  f.y = digitsValue(text, 0, yearEnd);
  let i = yearEnd + 1;
  const mEnd = digitRunEnd(text, i);
  if (mEnd - i < 1 || mEnd - i > 2 || text.charCodeAt(mEnd) !== DASH) throw unknownFormat();
  f.m = digitsValue(text, i, mEnd);
  i = mEnd + 1;
  const dEnd = digitRunEnd(text, i);
  if (dEnd - i < 1 || dEnd - i > 2) throw unknownFormat();
  f.d = digitsValue(text, i, dEnd);
  return dEnd;
}

/** `YYYYMMDD`, `YYYYMMDDhhmm` or `YYYYMMDDhhmmss`: a run of `runLen` digits. */
function scanBasicDate(text: string, runLen: number, f: DatetimeScan): number {
  f.y = digitsValue(text, 0, 4);
  f.m = digitsValue(text, 4, 6);
  f.d = digitsValue(text, 6, 8);
  if (runLen >= 12) {
    f.h = digitsValue(text, 8, 10);
    f.mi = digitsValue(text, 10, 12);
    f.timeDone = true;
  }
  if (runLen === 14) {
    f.s = digitsValue(text, 12, 14);
    f.hasSeconds = true;
  }
  return runLen;
}

/** Time: `T`, `t` or a space, then basic (hh, hhmm, hhmmss) or extended (h[h]:mm[:ss]) form. */
function scanTime(text: string, i: number, f: DatetimeScan): number {
  if (f.timeDone || i >= text.length) return i;
  if (!(isTimeDesignator(text.charCodeAt(i)) || text.charCodeAt(i) === SPACE) || !isDigit(text.charCodeAt(i + 1))) return i;
  const end = digitRunEnd(text, i + 1);
  const len = end - (i + 1);
  if (text.charCodeAt(end) === COLON) return scanExtendedTime(text, i + 1, end, f);
  if (len === 2 || len === 4 || len === 6) return scanBasicTime(text, i + 1, len, f);
  throw unknownFormat();
}

/** `h[h]:mm[:ss]`, the hour at `start..hourEnd`. */
function scanExtendedTime(text: string, start: number, hourEnd: number, f: DatetimeScan): number {
  if (hourEnd - start > 2) throw unknownFormat();
  f.h = digitsValue(text, start, hourEnd);
  let i = hourEnd + 1;
  if (digitRunEnd(text, i) - i !== 2) throw unknownFormat();
  f.mi = digitsValue(text, i, i + 2);
  i += 2;
  if (text.charCodeAt(i) === COLON) {
    i++;
    if (digitRunEnd(text, i) - i !== 2) throw unknownFormat();
    f.s = digitsValue(text, i, i + 2);
    i += 2;
    f.hasSeconds = true;
  }
  return i;
}

/** `hh`, `hhmm` or `hhmmss` from `start`, `len` digits. */
function scanBasicTime(text: string, start: number, len: number, f: DatetimeScan): number {
  f.h = digitsValue(text, start, start + 2);
  if (len >= 4) f.mi = digitsValue(text, start + 2, start + 4);
  if (len === 6) {
    f.s = digitsValue(text, start + 4, start + 6);
    f.hasSeconds = true;
  }
  return start + len;
}

/** Fractional seconds (`.` or `,`), skipped: they are truncated. */
function skipFractionalSeconds(text: string, i: number, f: DatetimeScan): number {
  if (f.hasSeconds && (text.charCodeAt(i) === DOT || text.charCodeAt(i) === COMMA) && isDigit(text.charCodeAt(i + 1))) {
    return digitRunEnd(text, i + 1);
  }
  return i;
}

/** Offset: optional spaces, then `Z`/`z`, `±hh`, `±hhmm` or `±hh:mm`. */
function scanOffset(text: string, i: number, f: DatetimeScan): number {
  while (text.charCodeAt(i) === SPACE) i++;
  if (i >= text.length) return i;
  const c = text.charCodeAt(i);
  if (c === UPPER_Z || c === LOWER_Z) {
    f.offsetSec = 0;
    return i + 1;
  }
  if (c !== PLUS && c !== DASH) return i;
  return scanNumericOffset(text, i + 1, c === PLUS ? 1 : -1, f);
}

/** The `hh`, `hhmm` or `hh:mm` of an offset from `i`, east of UTC for `sign` 1. */
function scanNumericOffset(text: string, i: number, sign: number, f: DatetimeScan): number {
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
  f.offsetSec = sign > 0 ? east : -east;
  return i;
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
