/** NTFS-style object_codes.txt: extra external codes for trips. */
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readObjectCodes(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, ids } = f;
  const onBytes = f.on('object_codes.txt');
  await readTable(
    source,
    { file: 'object_codes.txt', columns: ['object_type', 'object_id', 'object_code'] as const },
    (row, c) => {
      if (row.text(c.object_type) !== 'trip') return;
      const trip = ids.trips.get(row.text(c.object_id));
      const code = row.text(c.object_code);
      if (trip === undefined || !code) return;
      let codes = draft.tripExtraCodes.get(trip);
      if (!codes) draft.tripExtraCodes.set(trip, (codes = []));
      codes.push(code);
    },
    onBytes,
  );
}
