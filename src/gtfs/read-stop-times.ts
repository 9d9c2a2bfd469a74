/**
 * stop_times.txt, the largest file: each row staged (StopTimeStage) with its trip, stop or flex zone,
 * times or pickup/drop-off window, and the trip's on-demand level.
 */
import { BOOKING_BIT, DROP_OFF_SHIFT, NO_TIME, OdtLevel, WINDOW_BIT } from '../model/timetable.js';
import type { CsvRow } from './csv-reader.js';
import { readTable, type Columns } from './read-table.js';
import type { FeedIds, FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

const STOP_TIME_COLUMNS = [
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
] as const;
type StopTimeColumns = Columns<(typeof STOP_TIME_COLUMNS)[number]>;

/** `CsvRow.time`'s answer for a value that is not a time. */
const MALFORMED_TIME = -2;

export async function readStopTimes(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const rows = new StopTimeRows(draft, f.ids, f.file('stop_times.txt'));
  await readTable(
    f.source,
    { file: 'stop_times.txt', columns: STOP_TIME_COLUMNS, required: ['trip_id', 'stop_sequence'] as const },
    (row: CsvRow, c: StopTimeColumns) => rows.read(row, c),
    f.on('stop_times.txt'),
  );
}

/** The reading of the rows, with what a row leaves for the next. */
class StopTimeRows {
  // stop_times rows usually come grouped by trip: remember the last trip_id's bytes to skip the
  // string decoding and map lookup on the next rows of the same trip (and so for the stop).
  // `read` is the common path of a row and stays in one piece, with the times read in it: cut into
  // more calls, it no longer fits V8's inlining budget and reads the file a few per cent slower. The
  // lookups, which run once for a run of rows, are apart.
  private lastTripBytes: Buffer = Buffer.alloc(64);
  private lastTripLength = -1;
  private lastTrip = -1;
  private lastStopBytes: Buffer = Buffer.alloc(64);
  private lastStopLength = -1;
  private lastStop = -1;
  private lastStopZone = false;
  /** the pickup/drop-off window of the row being read (one object for all rows: no allocation per row) */
  private readonly window = { start: 0, end: 0 };

  constructor(
    private readonly draft: TimetableDraft,
    private readonly ids: FeedIds,
    private readonly file: string,
  ) {}

  /** One row staged, or reported and skipped. */
  read(row: CsvRow, c: StopTimeColumns): void {
    const trip = this.isLastTrip(row, c.trip_id) ? this.lastTrip : this.lookUpTrip(row, c.trip_id);
    if (trip < 0) return;
    const stopCol = stopColumnOf(row, c);
    const stop = this.isLastStop(row, stopCol) ? this.lastStop : this.lookUpStop(row, stopCol);
    if (stop < 0) return;
    const sequence = row.int(c.stop_sequence, NaN);
    if (!Number.isInteger(sequence) || sequence < 0) {
      this.draft.report.problem(this.file, row.line, 'missing or invalid stop_sequence, row skipped', row.text(c.stop_sequence));
      return;
    }
    let arrival = row.time(c.arrival_time);
    let departure = row.time(c.departure_time);
    if (arrival === MALFORMED_TIME || departure === MALFORMED_TIME) {
      this.draft.report.problem(this.file, row.line, 'malformed arrival_time or departure_time, row skipped');
      return;
    }
    const window = arrival === NO_TIME && departure === NO_TIME && this.readWindow(row, c);
    if (window) {
      arrival = this.window.start;
      departure = this.window.end;
    }
    const pickup = row.int(c.pickup_type, 0);
    const dropOff = row.int(c.drop_off_type, 0);
    const pickDrop = pickDropBits(row, c, pickup, dropOff, window);
    const odt = odtLevelOf(this.lastStopZone, pickup, dropOff, pickDrop); // the row's stop is the last one read
    if (odt > this.draft.tripOdt[trip]!) this.draft.tripOdt[trip] = odt;
    if (!row.isEmpty(c.stop_headsign)) this.addStopHeadsign(trip, row.text(c.stop_headsign));
    this.draft.stage.add(trip, sequence, arrival, departure, stop, pickDrop, row.float(c.shape_dist_traveled, NaN), row.line);
  }

  private isLastTrip(row: CsvRow, tripCol: number): boolean {
    return this.lastTripLength >= 0 && row.sameBytes(tripCol, this.lastTripBytes, this.lastTripLength);
  }

  /** The trip index of a trip_id other than the last one; -1 (reported) for an unknown one. */
  private lookUpTrip(row: CsvRow, tripCol: number): number {
    const id = row.text(tripCol);
    const trip = this.ids.trips.get(id);
    if (trip === undefined) {
      this.draft.report.problem(this.file, row.line, 'unknown trip_id, row skipped', id);
      return -1;
    }
    [this.lastTripBytes, this.lastTripLength] = row.copyBytes(tripCol, this.lastTripBytes);
    this.lastTrip = trip;
    return trip;
  }

  private isLastStop(row: CsvRow, stopCol: number): boolean {
    return this.lastStopLength >= 0 && row.sameBytes(stopCol, this.lastStopBytes, this.lastStopLength);
  }

  /**
   * The stop point, or flex zone (then `lastStopZone` is true), of an id other than the last one; -1
   * (reported) for an unknown one.
   */
  private lookUpStop(row: CsvRow, stopCol: number): number {
    const id = row.text(stopCol);
    const s = this.ids.stops.get(id);
    const z = s === undefined ? this.ids.zones.get(id) : undefined;
    if (s === undefined && z === undefined) {
      this.draft.report.problem(this.file, row.line, 'unknown stop_id, row skipped', id);
      return -1;
    }
    [this.lastStopBytes, this.lastStopLength] = row.copyBytes(stopCol, this.lastStopBytes);
    this.lastStop = s ?? z!;
    this.lastStopZone = s === undefined;
    return this.lastStop;
  }

  /**
   * Flex: a pickup/drop-off window, into `window`, stands for the missing times (min_arrival_time
   * and max_departure_time in feeds made to the older draft of GTFS-Flex); false when there is none.
   */
  private readWindow(row: CsvRow, c: StopTimeColumns): boolean {
    const start = row.time(c.start_pickup_drop_off_window >= 0 ? c.start_pickup_drop_off_window : c.min_arrival_time);
    const end = row.time(c.end_pickup_drop_off_window >= 0 ? c.end_pickup_drop_off_window : c.max_departure_time);
    if (start < 0 || end < 0) return false;
    this.window.start = start;
    this.window.end = end;
    return true;
  }

  private addStopHeadsign(trip: number, headsign: string): void {
    let set = this.draft.tripStopHeadsigns.get(trip);
    if (!set) this.draft.tripStopHeadsigns.set(trip, (set = new Set()));
    set.add(headsign);
  }
}

/** The column that gives the row's stop: stop_id, else location_id, else location_group_id (flex zones). */
function stopColumnOf(row: CsvRow, c: StopTimeColumns): number {
  return !row.isEmpty(c.stop_id) ? c.stop_id : !row.isEmpty(c.location_id) ? c.location_id : c.location_group_id;
}

/** The stop time's pickup and drop-off types (0 for values out of 0..3), window and booking bits. */
function pickDropBits(row: CsvRow, c: StopTimeColumns, pickup: number, dropOff: number, window: boolean): number {
  let pickDrop = (pickup >= 0 && pickup <= 3 ? pickup : 0) | ((dropOff >= 0 && dropOff <= 3 ? dropOff : 0) << DROP_OFF_SHIFT);
  if (window) pickDrop |= WINDOW_BIT;
  if (!row.isEmpty(c.pickup_booking_rule_id) || !row.isEmpty(c.drop_off_booking_rule_id) || !row.isEmpty(c.dropoff_booking_rule_id)) {
    pickDrop |= BOOKING_BIT;
  }
  return pickDrop;
}

/** The on-demand level a stop time gives its trip: zonal beats on-demand-with-stops beats scheduled. */
function odtLevelOf(zone: boolean, pickup: number, dropOff: number, pickDrop: number): OdtLevel {
  if (zone) return OdtLevel.Zonal;
  return pickup === 2 || pickup === 3 || dropOff === 2 || dropOff === 3 || pickDrop & BOOKING_BIT ? OdtLevel.WithStops : OdtLevel.Scheduled;
}
