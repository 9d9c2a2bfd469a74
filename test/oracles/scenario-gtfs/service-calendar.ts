/**
 * The dates each service runs (calendar.txt weekdays between its start and end dates, plus the
 * calendar_dates.txt additions, minus its removals), and the feed's production period: the first and
 * last date any service runs. Dates are GTFS's YYYYMMDD strings.
 */
import type { GtfsTable } from './gtfs-tables.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** 0 for Monday … 6 for Sunday. */
export function weekdayOf(date: string): number {
  return (dateToUtc(date).getUTCDay() + 6) % 7;
}

function dateToUtc(date: string): Date {
  return new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8))));
}

function utcToDate(d: Date): string {
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Every date from `start` to `end`, both included. */
export function datesBetween(start: string, end: string): string[] {
  const dates: string[] = [];
  for (const d = dateToUtc(start); utcToDate(d) <= end; d.setUTCDate(d.getUTCDate() + 1)) dates.push(utcToDate(d));
  return dates;
}

/** Calendar rows are read before calendar_dates rows, so that a removal wins over the weekday. */
export function serviceDates(calendar: GtfsTable | undefined, calendarDates: GtfsTable | undefined): Map<string, Set<string>> {
  const byService = new Map<string, Set<string>>();
  const datesOf = (service: string) => {
    let set = byService.get(service);
    if (!set) byService.set(service, (set = new Set()));
    return set;
  };
  for (const row of calendar?.rows ?? []) {
    const dates = datesOf(calendar!.get(row, 'service_id'));
    const runs = WEEKDAYS.map((day) => calendar!.get(row, day) === '1');
    for (const date of datesBetween(calendar!.get(row, 'start_date'), calendar!.get(row, 'end_date'))) if (runs[weekdayOf(date)]) dates.add(date);
  }
  for (const row of calendarDates?.rows ?? []) {
    const dates = datesOf(calendarDates!.get(row, 'service_id'));
    const date = calendarDates!.get(row, 'date');
    const exception = calendarDates!.get(row, 'exception_type');
    if (exception === '1') dates.add(date);
    else if (exception === '2') dates.delete(date);
  }
  return byService;
}

export function productionPeriod(dates: Map<string, Set<string>>): { start: string; end: string } {
  let start = '';
  let end = '';
  for (const set of dates.values())
    for (const date of set) {
      if (start === '' || date < start) start = date;
      if (end === '' || date > end) end = date;
    }
  if (start === '') throw new Error('no service of the feed runs on any date');
  return { start, end };
}
