/**
 * The feed being rewritten, held in memory: its tables, its trips (each with its stop_times rows, or
 * its new visits once a modification changed it), its stops, routes and services. Modifications change
 * it through these methods; `write` puts the new feed in a folder. Files this oracle does not rewrite
 * are copied byte for byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GtfsTable } from './gtfs-tables.js';
import { formatGtfsTime } from './gtfs-time.js';
import { productionPeriod, serviceDates, WEEKDAYS } from './service-calendar.js';
import { completeVisits, type StopPosition, type StopVisit } from './stop-visits.js';

export interface TripRecord {
  id: string;
  /** Its trips.txt row (route_id, service_id… are read from it). */
  row: string[];
  /** The trip's stop_times rows in stop_sequence order, as the feed has them. */
  stopTimeRows: string[][];
  /** The trip's stops and times once a modification set them; the rows above are then not written. */
  visits: StopVisit[] | null;
}

/** The tables this oracle parses and may rewrite; every other file is copied as it is. */
const REWRITTEN = ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt', 'calendar.txt', 'calendar_dates.txt', 'frequencies.txt'];

const CALENDAR_HEADER = ['service_id', ...WEEKDAYS, 'start_date', 'end_date'];

export class OracleFeed {
  readonly tables = new Map<string, GtfsTable>();
  readonly trips = new Map<string, TripRecord>();
  readonly stops = new Map<string, StopPosition>();
  readonly routeIds = new Set<string>();
  readonly datesOfService: Map<string, Set<string>>;
  readonly period: { start: string; end: string };
  /** The services this oracle wrote, in the order it wrote them. */
  readonly newServiceIds: string[] = [];
  /** stop_times rows whose trip is not in trips.txt: written back as they are. */
  private readonly orphanStopTimes: string[][] = [];
  private readonly completed = new Map<string, StopVisit[]>();

  constructor(private readonly files: Map<string, Buffer>) {
    for (const name of REWRITTEN) {
      const bytes = files.get(name);
      if (bytes) this.tables.set(name, GtfsTable.parse(bytes));
    }
    for (const name of ['stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt']) if (!this.tables.has(name)) throw new Error(`the feed has no ${name}`);

    const stops = this.table('stops.txt');
    for (const row of stops.rows) this.stops.set(stops.get(row, 'stop_id'), { lat: Number(stops.get(row, 'stop_lat')), lon: Number(stops.get(row, 'stop_lon')) });
    const routes = this.table('routes.txt');
    for (const row of routes.rows) this.routeIds.add(routes.get(row, 'route_id'));

    const trips = this.table('trips.txt');
    for (const row of trips.rows) this.trips.set(trips.get(row, 'trip_id'), { id: trips.get(row, 'trip_id'), row, stopTimeRows: [], visits: null });
    const stopTimes = this.table('stop_times.txt');
    const tripCol = stopTimes.col('trip_id');
    for (const row of stopTimes.rows) {
      const trip = this.trips.get(row[tripCol] ?? '');
      if (trip) trip.stopTimeRows.push(row);
      else this.orphanStopTimes.push(row);
    }
    const seqCol = stopTimes.col('stop_sequence');
    for (const trip of this.trips.values()) trip.stopTimeRows.sort((a, b) => Number(a[seqCol]) - Number(b[seqCol]));

    this.datesOfService = serviceDates(this.tables.get('calendar.txt'), this.tables.get('calendar_dates.txt'));
    this.period = productionPeriod(this.datesOfService);
  }

  table(name: string): GtfsTable {
    const t = this.tables.get(name);
    if (!t) throw new Error(`the feed has no ${name}`);
    return t;
  }

  tripField(trip: TripRecord, name: string): string {
    return this.table('trips.txt').get(trip.row, name);
  }

  /** The trip's stops with complete times (the new ones when a modification set them). */
  visitsOf(trip: TripRecord): StopVisit[] {
    if (trip.visits) return trip.visits;
    let visits = this.completed.get(trip.id);
    if (!visits) this.completed.set(trip.id, (visits = completeVisits(trip.id, trip.stopTimeRows, this.table('stop_times.txt'), this.stops)));
    return visits;
  }

  /**
   * Whether the trip's first and last stop times have a time. The loader leaves out a trip whose end
   * is untimed, so the modifications that retime trips pass over it (it stays as the feed has it).
   */
  hasTimedEnds(trip: TripRecord): boolean {
    if (trip.visits) return true;
    const stopTimes = this.table('stop_times.txt');
    const timed = (row: string[] | undefined) => row !== undefined && (stopTimes.get(row, 'arrival_time') !== '' || stopTimes.get(row, 'departure_time') !== '');
    return trip.stopTimeRows.length >= 2 && timed(trip.stopTimeRows[0]) && timed(trip.stopTimeRows[trip.stopTimeRows.length - 1]);
  }

  /** The stop ids of the trip in order (no times needed, so untimed trips can be matched too). */
  stopIdsOf(trip: TripRecord): string[] {
    if (trip.visits) return trip.visits.map((v) => v.stopId);
    const stopCol = this.table('stop_times.txt').col('stop_id');
    return trip.stopTimeRows.map((row) => row[stopCol] ?? '');
  }

  setVisits(trip: TripRecord, visits: StopVisit[]): void {
    trip.visits = visits;
  }

  removeTrip(trip: TripRecord): void {
    this.trips.delete(trip.id);
  }

  addTrip(values: Record<string, string>, visits: StopVisit[]): TripRecord {
    const id = values['trip_id']!;
    if (this.trips.has(id)) throw new Error(`trip id ${id} is already in the feed`);
    const trip: TripRecord = { id, row: this.table('trips.txt').newRow(values), stopTimeRows: [], visits };
    this.trips.set(id, trip);
    return trip;
  }

  addStop(id: string, name: string, lat: number, lon: number): void {
    if (this.stops.has(id)) throw new Error(`stop id ${id} is already in the feed`);
    const stops = this.table('stops.txt');
    stops.rows.push(stops.newRow({ stop_id: id, stop_name: name, stop_lat: String(lat), stop_lon: String(lon), location_type: '0' }));
    this.stops.set(id, { lat, lon });
  }

  addRoute(values: Record<string, string>): void {
    const id = values['route_id']!;
    if (this.routeIds.has(id)) throw new Error(`route id ${id} is already in the feed`);
    const routes = this.table('routes.txt');
    routes.rows.push(routes.newRow(values));
    this.routeIds.add(id);
  }

  /** The agency of new routes: the feed's first agency ('' when agency.txt has no agency_id). */
  firstAgencyId(): string {
    const agency = this.tables.get('agency.txt');
    return agency && agency.rows.length > 0 ? agency.get(agency.rows[0]!, 'agency_id') : '';
  }

  /** A service running on the given weekdays over the production period (one per set of weekdays). */
  weekdayService(weekdays: boolean[]): string {
    const id = `scenario-oracle-weekdays-${weekdays.map((d) => (d ? '1' : '0')).join('')}`;
    if (this.datesOfService.has(id)) return id;
    if (!this.tables.has('calendar.txt')) this.tables.set('calendar.txt', GtfsTable.empty(CALENDAR_HEADER));
    const calendar = this.table('calendar.txt');
    const values: Record<string, string> = { service_id: id, start_date: this.period.start, end_date: this.period.end };
    WEEKDAYS.forEach((day, i) => (values[day] = weekdays[i] ? '1' : '0'));
    calendar.rows.push(calendar.newRow(values));
    this.datesOfService.set(id, new Set());
    this.newServiceIds.push(id);
    return id;
  }

  /** A service running on exactly these dates, written as calendar_dates.txt additions. */
  explicitDatesService(id: string, dates: string[]): string {
    if (this.datesOfService.has(id)) return id;
    if (!this.tables.has('calendar_dates.txt')) this.tables.set('calendar_dates.txt', GtfsTable.empty(['service_id', 'date', 'exception_type']));
    const calendarDates = this.table('calendar_dates.txt');
    for (const date of [...dates].sort()) calendarDates.rows.push(calendarDates.newRow({ service_id: id, date, exception_type: '1' }));
    this.datesOfService.set(id, new Set(dates));
    this.newServiceIds.push(id);
    return id;
  }

  write(outDir: string): { stopTimesWritten: number } {
    mkdirSync(outDir, { recursive: true });
    for (const [name, bytes] of this.files) if (!REWRITTEN.includes(name)) writeFileSync(path.join(outDir, name), bytes);

    const tripsTable = this.table('trips.txt');
    tripsTable.rows.splice(0, tripsTable.rows.length, ...[...this.trips.values()].map((t) => t.row));

    const frequencies = this.tables.get('frequencies.txt');
    if (frequencies) {
      const kept = frequencies.rows.filter((row) => this.trips.has(frequencies.get(row, 'trip_id')));
      frequencies.rows.splice(0, frequencies.rows.length, ...kept);
    }

    const stopTimes = this.table('stop_times.txt');
    const written: string[][] = [];
    for (const trip of this.trips.values()) {
      if (!trip.visits) {
        for (const row of trip.stopTimeRows) written.push(row);
        continue;
      }
      trip.visits.forEach((visit, i) => {
        const row = visit.source ? [...visit.source] : stopTimes.header.map(() => '');
        stopTimes.set(row, 'trip_id', trip.id);
        stopTimes.set(row, 'stop_id', visit.stopId);
        stopTimes.set(row, 'stop_sequence', String(i + 1));
        stopTimes.set(row, 'arrival_time', formatGtfsTime(visit.arrival));
        stopTimes.set(row, 'departure_time', formatGtfsTime(visit.departure));
        // every time of a rewritten trip is exact, including the ones the feed left to interpolation
        if (stopTimes.col('timepoint') >= 0) stopTimes.set(row, 'timepoint', '1');
        if (!visit.source && stopTimes.col('shape_dist_traveled') >= 0) stopTimes.set(row, 'shape_dist_traveled', '');
        written.push(row);
      });
    }
    written.push(...this.orphanStopTimes);

    for (const [name, table] of this.tables) {
      const rows = name === 'stop_times.txt' ? written : table.rows;
      writeFileSync(path.join(outDir, name), table.toCsv(rows));
    }
    return { stopTimesWritten: written.length };
  }
}
