/** transfers.txt: stop-to-stop transfers (a station stands for its stop points); trip- and route-specific ones are left out. */
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readTransfers(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, ids } = f;
  const file = f.file('transfers.txt');
  const onBytes = f.on('transfers.txt');
  // A station id in transfers.txt stands for all of its stop points.
  const stopsOf = (id: string): number[] => {
    const s = ids.stops.get(id);
    if (s !== undefined) return [s];
    const area = ids.stations.get(id);
    if (area === undefined) return [];
    const out: number[] = [];
    for (let i = 0; i < draft.stopArea.length; i++) if (draft.stopArea[i] === area) out.push(i);
    return out;
  };
  let tripSpecific = 0;
  await readTable(
    source,
    {
      file: 'transfers.txt',
      columns: ['from_stop_id', 'to_stop_id', 'transfer_type', 'min_transfer_time', 'from_trip_id', 'to_trip_id', 'from_route_id', 'to_route_id'] as const,
      required: ['from_stop_id', 'to_stop_id'] as const,
    },
    (row, c) => {
      if (!row.isEmpty(c.from_trip_id) || !row.isEmpty(c.to_trip_id) || !row.isEmpty(c.from_route_id) || !row.isEmpty(c.to_route_id)) {
        tripSpecific++;
        return;
      }
      const from = stopsOf(row.text(c.from_stop_id));
      const to = stopsOf(row.text(c.to_stop_id));
      if (from.length === 0 || to.length === 0) {
        draft.report.problem(file, row.line, 'unknown from_stop_id or to_stop_id, row skipped');
        return;
      }
      const type = row.int(c.transfer_type, 0);
      const minTime = row.int(c.min_transfer_time, -1);
      for (const f of from) {
        for (const t of to) {
          draft.transfers.from.push(f);
          draft.transfers.to.push(t);
          draft.transfers.type.push(type >= 0 && type <= 5 ? type : 0);
          draft.transfers.minTime.push(Number.isInteger(minTime) && minTime >= 0 ? minTime : -1);
        }
      }
    },
    onBytes,
  );
  if (tripSpecific > 0) draft.report.note(`${file}: ${tripSpecific} trip- or route-specific transfers ignored`);
}
