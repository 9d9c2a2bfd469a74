/** trips.txt (and booking_rules.txt, whose ids the stop times refer to). */
import { OdtLevel } from '../model/timetable.js';
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readTrips(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids } = f;
  const file = f.file('trips.txt');
  const onBytes = f.on('trips.txt');
  await readTable(
    source,
    {
      file: 'trips.txt',
      columns: ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'trip_short_name', 'direction_id', 'block_id', 'wheelchair_accessible', 'bikes_allowed'] as const,
      required: ['route_id', 'service_id', 'trip_id'] as const,
    },
    (row, c) => {
      const localId = row.text(c.trip_id);
      if (!localId || ids.trips.has(localId)) {
        draft.report.problem(file, row.line, localId ? 'duplicate trip_id, row skipped' : 'empty trip_id, row skipped', localId);
        return;
      }
      const line = ids.lines.get(row.text(c.route_id));
      if (line === undefined) {
        draft.report.problem(file, row.line, 'unknown route_id, trip skipped', row.text(c.route_id));
        return;
      }
      const service = ids.services.get(row.text(c.service_id));
      if (service === undefined) {
        draft.report.problem(file, row.line, 'unknown service_id, trip skipped', row.text(c.service_id));
        return;
      }
      const direction = row.int(c.direction_id, -1);
      ids.trips.set(localId, draft.tripIds.length);
      draft.tripIds.push(draft.uniqueId('trip', localId, feed));
      draft.tripHeadsigns.push(row.text(c.trip_headsign));
      draft.tripShortNames.push(row.text(c.trip_short_name));
      draft.tripLine.push(line);
      draft.tripDirection.push(direction === 0 || direction === 1 ? direction : -1);
      draft.tripService.push(service);
      draft.tripWheelchair.push(clampFlag(row.int(c.wheelchair_accessible, 0)));
      draft.tripBikes.push(clampFlag(row.int(c.bikes_allowed, 0)));
      draft.tripBlock.push(row.text(c.block_id));
      draft.tripRowLine.push(row.line);
      draft.tripFeed.push(feed);
      draft.tripOdt.push(OdtLevel.Scheduled);
    },
    onBytes,
  );
}

export async function readBookingRules(f: FeedReading): Promise<void> {
  await readTable(f.source, { file: 'booking_rules.txt', columns: ['booking_rule_id'] as const }, (row, c) => {
    if (!row.isEmpty(c.booking_rule_id)) f.ids.bookingRules.add(row.text(c.booking_rule_id));
  }, f.on('booking_rules.txt'));
}

function clampFlag(v: number): number {
  return v === 1 || v === 2 ? v : 0;
}
