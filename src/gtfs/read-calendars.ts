/** calendar.txt and calendar_dates.txt: the services, staged as weekdays, a period and exceptions. */
import { parseGtfsDate } from '../util/gtfs-times.js';
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readCalendars(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids, file, on } = f;
  const serviceOf = (localId: string) => {
    let s = ids.services.get(localId);
    if (s === undefined) {
      s = draft.services.length;
      ids.services.set(localId, s);
      draft.services.push({ id: draft.uniqueId('service', localId, feed), weekdays: 0, startDay: -1, endDay: -1, added: [], removed: [] });
    }
    return draft.services[s]!;
  };
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
  await readTable(
    source,
    {
      file: 'calendar.txt',
      columns: ['service_id', 'start_date', 'end_date', ...days] as const,
      required: ['service_id', 'start_date', 'end_date', ...days] as const,
    },
    (row, c) => {
      const id = row.text(c.service_id);
      const start = parseGtfsDate(row.text(c.start_date));
      const end = parseGtfsDate(row.text(c.end_date));
      if (!id || start < 0 || end < 0) {
        draft.report.problem(file('calendar.txt'), row.line, 'empty service_id or malformed date, row skipped');
        return;
      }
      let weekdays = 0;
      for (let d = 0; d < 7; d++) {
        const v = row.int(c[days[d]!], 0);
        if (v !== 0 && v !== 1) {
          draft.report.problem(file('calendar.txt'), row.line, `invalid ${days[d]} value, read as 0`);
          continue;
        }
        weekdays |= v << d;
      }
      const s = serviceOf(id);
      if (s.startDay >= 0) {
        draft.report.problem(file('calendar.txt'), row.line, 'duplicate service_id in calendar.txt, row skipped', id);
        return;
      }
      s.weekdays = weekdays;
      s.startDay = start;
      s.endDay = end;
    },
    on('calendar.txt'),
  );
  await readTable(
    source,
    { file: 'calendar_dates.txt', columns: ['service_id', 'date', 'exception_type'] as const, required: ['service_id', 'date', 'exception_type'] as const },
    (row, c) => {
      const id = row.text(c.service_id);
      const day = parseGtfsDate(row.text(c.date));
      const type = row.int(c.exception_type, -1);
      if (!id || day < 0 || (type !== 1 && type !== 2)) {
        draft.report.problem(file('calendar_dates.txt'), row.line, 'empty service_id, malformed date or exception_type, row skipped');
        return;
      }
      const s = serviceOf(id);
      (type === 1 ? s.added : s.removed).push(day);
    },
    on('calendar_dates.txt'),
  );
}
