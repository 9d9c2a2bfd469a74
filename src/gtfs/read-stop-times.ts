/**
 * stop_times.txt, the largest file: each row staged (StopTimeStage) with its trip, stop or flex zone,
 * times or pickup/drop-off window, and the trip's on-demand level.
 */
import { BOOKING_BIT, DROP_OFF_SHIFT, NO_TIME, OdtLevel, WINDOW_BIT } from '../model/timetable.js';
import type { CsvRow } from './csv-reader.js';
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readStopTimes(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, ids } = f;
  const file = f.file('stop_times.txt');
  const onBytes = f.on('stop_times.txt');
  // stop_times rows usually come grouped by trip: remember the last trip_id's bytes to skip the
  // string decoding and map lookup on the next rows of the same trip.
  let lastTripBytes: Buffer = Buffer.alloc(64);
  let lastTripLength = -1;
  let lastTrip = -1;
  let lastStopBytes: Buffer = Buffer.alloc(64);
  let lastStopLength = -1;
  let lastStop = -1;
  let lastStopZone = false;
  const stage = draft.stage;
  await readTable(
    source,
    {
      file: 'stop_times.txt',
      columns: [
        'trip_id',
        'arrival_time',
        'departure_time',
        'stop_id',
        'location_id',
        'location_group_id',
        'stop_sequence',
        'stop_headsign',
        'pickup_type',
        'drop_off_type',
        'shape_dist_traveled',
        'start_pickup_drop_off_window',
        'end_pickup_drop_off_window',
        'min_arrival_time',
        'max_departure_time',
        'pickup_booking_rule_id',
        'drop_off_booking_rule_id',
        'dropoff_booking_rule_id',
      ] as const,
      required: ['trip_id', 'stop_sequence'] as const,
    },
    (row: CsvRow, c) => {
      let trip: number;
      if (lastTripLength >= 0 && row.sameBytes(c.trip_id, lastTripBytes, lastTripLength)) trip = lastTrip;
      else {
        const id = row.text(c.trip_id);
        const t = ids.trips.get(id);
        if (t === undefined) {
          draft.report.problem(file, row.line, 'unknown trip_id, row skipped', id);
          return;
        }
        trip = t;
        [lastTripBytes, lastTripLength] = row.copyBytes(c.trip_id, lastTripBytes);
        lastTrip = t;
      }
      // The stop: a stop point, or a flex zone given as stop_id, location_id or location_group_id.
      const stopCol = !row.isEmpty(c.stop_id) ? c.stop_id : !row.isEmpty(c.location_id) ? c.location_id : c.location_group_id;
      let stop: number;
      let zone: boolean;
      if (lastStopLength >= 0 && row.sameBytes(stopCol, lastStopBytes, lastStopLength)) {
        stop = lastStop;
        zone = lastStopZone;
      } else {
        const id = row.text(stopCol);
        const s = ids.stops.get(id);
        const z = s === undefined ? ids.zones.get(id) : undefined;
        if (s === undefined && z === undefined) {
          draft.report.problem(file, row.line, 'unknown stop_id, row skipped', id);
          return;
        }
        stop = s ?? z!;
        zone = s === undefined;
        [lastStopBytes, lastStopLength] = row.copyBytes(stopCol, lastStopBytes);
        lastStop = stop;
        lastStopZone = zone;
      }
      const sequence = row.int(c.stop_sequence, NaN);
      if (!Number.isInteger(sequence) || sequence < 0) {
        draft.report.problem(file, row.line, 'missing or invalid stop_sequence, row skipped', row.text(c.stop_sequence));
        return;
      }
      let arr = row.time(c.arrival_time);
      let dep = row.time(c.departure_time);
      if (arr === -2 || dep === -2) {
        draft.report.problem(file, row.line, 'malformed arrival_time or departure_time, row skipped');
        return;
      }
      let window = false;
      if (arr === NO_TIME && dep === NO_TIME) {
        // Flex: a pickup/drop-off window stands for the times (min_arrival_time and
        // max_departure_time in feeds made to the older draft of GTFS-Flex).
        const start = row.time(c.start_pickup_drop_off_window >= 0 ? c.start_pickup_drop_off_window : c.min_arrival_time);
        const end = row.time(c.end_pickup_drop_off_window >= 0 ? c.end_pickup_drop_off_window : c.max_departure_time);
        if (start >= 0 && end >= 0) {
          arr = start;
          dep = end;
          window = true;
        }
      }
      const pickup = row.int(c.pickup_type, 0);
      const dropOff = row.int(c.drop_off_type, 0);
      let pickDrop = (pickup >= 0 && pickup <= 3 ? pickup : 0) | ((dropOff >= 0 && dropOff <= 3 ? dropOff : 0) << DROP_OFF_SHIFT);
      if (window) pickDrop |= WINDOW_BIT;
      if (!row.isEmpty(c.pickup_booking_rule_id) || !row.isEmpty(c.drop_off_booking_rule_id) || !row.isEmpty(c.dropoff_booking_rule_id)) {
        pickDrop |= BOOKING_BIT;
      }
      // ODT level of the trip: zonal beats on-demand-with-stops beats scheduled.
      const odt = zone ? OdtLevel.Zonal : pickup === 2 || pickup === 3 || dropOff === 2 || dropOff === 3 || pickDrop & BOOKING_BIT ? OdtLevel.WithStops : OdtLevel.Scheduled;
      if (odt > draft.tripOdt[trip]!) draft.tripOdt[trip] = odt;
      if (!row.isEmpty(c.stop_headsign)) {
        const h = row.text(c.stop_headsign);
        let set = draft.tripStopHeadsigns.get(trip);
        if (!set) draft.tripStopHeadsigns.set(trip, (set = new Set()));
        set.add(h);
      }
      stage.add(trip, sequence, arr, dep, stop, pickDrop, row.float(c.shape_dist_traveled, NaN), row.line);
    },
    onBytes,
  );
}
