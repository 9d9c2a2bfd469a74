/** Days and times as `error.details` and `warnings` write them for a person: 2019-03-01, 2019-03-01 08:00. */
import { formatDayNumber } from './calendar.js';
import { formatLocal } from './time-zones.js';

/** A day number as YYYY-MM-DD. */
export function isoDay(day: number): string {
  const t = formatDayNumber(day);
  return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}`;
}

/** An instant as YYYY-MM-DD hh:mm in `timeZone` (seconds when it has some). */
export function localTimeWords(sec: number, timeZone: string): string {
  const t = formatLocal(sec, timeZone);
  const seconds = t.slice(13, 15);
  return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)} ${t.slice(9, 11)}:${t.slice(11, 13)}${seconds === '00' ? '' : `:${seconds}`}`;
}
