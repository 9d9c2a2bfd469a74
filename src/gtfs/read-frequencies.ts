/** frequencies.txt: trips run at a headway over a time window. */
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readFrequencies(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, ids } = f;
  const file = f.file('frequencies.txt');
  const onBytes = f.on('frequencies.txt');
  await readTable(
    source,
    {
      file: 'frequencies.txt',
      columns: ['trip_id', 'start_time', 'end_time', 'headway_secs', 'exact_times'] as const,
      required: ['trip_id', 'start_time', 'end_time', 'headway_secs'] as const,
    },
    (row, c) => {
      const trip = ids.trips.get(row.text(c.trip_id));
      if (trip === undefined) {
        draft.report.problem(file, row.line, 'unknown trip_id, row skipped', row.text(c.trip_id));
        return;
      }
      const start = row.time(c.start_time);
      const end = row.time(c.end_time);
      const headway = row.int(c.headway_secs, -1);
      const exact = row.int(c.exact_times, 0);
      if (start < 0 || end < 0 || end < start || !(headway > 0)) {
        draft.report.problem(file, row.line, 'malformed start_time, end_time or headway_secs, row skipped');
        return;
      }
      draft.frequencies.trip.push(trip);
      draft.frequencies.start.push(start);
      draft.frequencies.end.push(end);
      draft.frequencies.headway.push(headway);
      draft.frequencies.exact.push(exact === 1 ? 1 : 0);
    },
    onBytes,
  );
}
