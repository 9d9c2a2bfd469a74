/**
 * Day numbers and instants: every instant is an integer number of seconds since 1970-01-01T00:00:00Z
 * (`epochSec`); every date is a day number (days since 1970-01-01, proleptic Gregorian calendar).
 */

export const SEC_PER_DAY = 86400;
export const SEC_PER_HOUR = 3600;

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

/** Format a day number as `YYYYMMDD`. */
export function formatDayNumber(day: number): string {
  const { y, m, d } = dateOfDayNumber(day);
  return `${String(y).padStart(4, '0')}${pad2(m)}${pad2(d)}`;
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

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

export function pad2(v: number): string {
  return v < 10 ? `0${v}` : String(v);
}
