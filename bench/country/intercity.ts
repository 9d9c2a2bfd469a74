/**
 * The intercity rail that joins the tiles, a GTFS feed of its own (`intercity.zip`): every tile has
 * a station (feed-placement.ts), and a line runs along each row of the grid (west to east and back)
 * and up each column (south to north and back), so that a tile's station reaches its four grid
 * neighbours in one ride, and any tile another with at most one change (at the corner of a row and a
 * column, where both lines stop).
 *
 *   t6 ── t7            row lines  ──   column lines  │
 *   │     │
 *   t3 ── t4 ── t5
 *   │     │     │
 *   t0 ── t1 ── t2
 *
 * Trains leave each end of a line every hour from 05:00 to 23:00 and run at 120 km/h over the
 * great-circle distance between stations (src/util/geodesy.ts), each ride rounded up to the whole
 * minute, and wait 2 minutes at every station between the ends. They run every day of the common
 * week (service-week.ts).
 */
import { formatDayNumber, pad2 } from '../../src/util/calendar.js';
import { crowFlyMetres } from '../../src/util/geodesy.js';
import { ZipWriter } from '../../test/helpers/zip-writer.js';
import { formatGtfsTime } from '../../test/oracles/scenario-gtfs/gtfs-time.js';
import { CsvOut } from './csv-out.js';
import { e7Text, type Grid } from './grid.js';
import { COUNTRY_TIMEZONE } from './gtfs-tables.js';
import { COMMON_WEEK } from './service-week.js';

export const INTERCITY = {
  speedKmH: 120,
  dwellSec: 120,
  firstDepartureSec: 5 * 3600,
  lastDepartureSec: 23 * 3600,
  headwaySec: 3600,
  /** GTFS route_type: rail */
  routeType: 2,
} as const;

/** The feed's agency and service ids (its own namespace, `ic:`, as the tiles have `t12:`). */
const AGENCY_ID = 'ic';
const SERVICE_ID = 'ic:week';

export interface Station {
  tile: number;
  row: number;
  col: number;
  /** position, 1e-7° */
  lonE7: number;
  latE7: number;
}

/** The intercity stop id of tile `tile`'s station. */
export const stationId = (tile: number): string => `ic:t${tile}`;

export interface IntercityLine {
  id: string;
  /** `R0`, `C3` */
  code: string;
  name: string;
  /** stations from the west (row lines) or the south (column lines) */
  stations: Station[];
  /** the two directions' names, first along `stations`, then back */
  directions: [string, string];
}

/** The lines of a grid whose stations are `stations` (one per tile, by tile): a row or a column needs two stations. */
export function intercityLines(grid: Grid, stations: Station[]): IntercityLine[] {
  const lines: IntercityLine[] = [];
  for (let row = 0; row < grid.rows; row++) {
    const on = stations.filter((s) => s.row === row).sort((a, b) => a.col - b.col);
    if (on.length >= 2) lines.push({ id: `ic:r${row}`, code: `R${row}`, name: `IC row ${row}`, stations: on, directions: ['east', 'west'] });
  }
  for (let col = 0; col < grid.cols; col++) {
    const on = stations.filter((s) => s.col === col).sort((a, b) => a.row - b.row);
    if (on.length >= 2) lines.push({ id: `ic:c${col}`, code: `C${col}`, name: `IC column ${col}`, stations: on, directions: ['north', 'south'] });
  }
  return lines;
}

/** The ride between two stations, seconds: the great-circle distance at INTERCITY.speedKmH, rounded up to the minute. */
export function rideSec(a: Station, b: Station): number {
  const metres = crowFlyMetres(a.lonE7 / 1e7, a.latE7 / 1e7, b.lonE7 / 1e7, b.latE7 / 1e7);
  return Math.ceil(metres / ((INTERCITY.speedKmH * 1000) / 3600) / 60) * 60;
}

/** A trip's times at its stations, seconds after its departure from the first: [arrival, departure] each. */
export function tripTimes(stations: Station[]): Array<[number, number]> {
  const times: Array<[number, number]> = [[0, 0]];
  for (let i = 1; i < stations.length; i++) {
    const arrival = times[i - 1]![1] + rideSec(stations[i - 1]!, stations[i]!);
    times.push([arrival, i < stations.length - 1 ? arrival + INTERCITY.dwellSec : arrival]);
  }
  return times;
}

export interface IntercityCounts {
  stops: number;
  routes: number;
  trips: number;
  stopTimes: number;
}

/** Write the intercity feed of `lines` (and the stations `stations`) to `file`. */
export async function writeIntercity(file: string, stations: Station[], lines: IntercityLine[], level: number): Promise<IntercityCounts> {
  const zip = new ZipWriter(file, level);
  const counts: IntercityCounts = { stops: stations.length, routes: lines.length, trips: 0, stopTimes: 0 };
  const table = (name: string, header: string[], rows: () => Iterable<string[]>) =>
    zip.entry(name, async (write) => {
      const out = new CsvOut(write);
      out.row(header);
      for (const r of rows()) out.row(r);
      await out.end();
    });
  await table('agency.txt', ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'], () => [[AGENCY_ID, 'Intercity', 'https://example.org/intercity', COUNTRY_TIMEZONE]]);
  await table('stops.txt', ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'], () =>
    stations.map((s) => [stationId(s.tile), `Intercity t${s.tile}`, e7Text(s.latE7), e7Text(s.lonE7)]),
  );
  await table('routes.txt', ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'], () =>
    lines.map((l) => [l.id, AGENCY_ID, l.code, l.name, String(INTERCITY.routeType)]),
  );
  await table('calendar.txt', ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'], () => [
    [SERVICE_ID, '1', '1', '1', '1', '1', '1', '1', formatDayNumber(COMMON_WEEK.firstDay), formatDayNumber(COMMON_WEEK.lastDay)],
  ]);
  const trips = [...intercityTrips(lines)];
  counts.trips = trips.length;
  await table('trips.txt', ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'direction_id'], () =>
    trips.map((t) => [t.line.id, SERVICE_ID, t.id, `Intercity t${t.stations[t.stations.length - 1]!.tile}`, String(t.direction)]),
  );
  await table('stop_times.txt', ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'], function* () {
    for (const t of trips) {
      const times = tripTimes(t.stations);
      for (let i = 0; i < t.stations.length; i++) {
        counts.stopTimes++;
        yield [t.id, formatGtfsTime(t.departureSec + times[i]![0]), formatGtfsTime(t.departureSec + times[i]![1]), stationId(t.stations[i]!.tile), String(i + 1)];
      }
    }
  });
  await zip.close();
  return counts;
}

interface IntercityTrip {
  id: string;
  line: IntercityLine;
  /** 0 along the line's stations, 1 back */
  direction: 0 | 1;
  stations: Station[];
  departureSec: number;
}

/** Every line's trips: each direction, every headway from the first departure to the last. */
function* intercityTrips(lines: IntercityLine[]): Generator<IntercityTrip> {
  for (const line of lines) {
    for (const direction of [0, 1] as const) {
      const stations = direction === 0 ? line.stations : [...line.stations].reverse();
      for (let dep = INTERCITY.firstDepartureSec; dep <= INTERCITY.lastDepartureSec; dep += INTERCITY.headwaySec) {
        const hhmm = `${pad2(Math.floor(dep / 3600))}${pad2(Math.floor(dep / 60) % 60)}`;
        yield { id: `${line.id}:${line.directions[direction]}:${hhmm}`, line, direction, stations, departureSec: dep };
      }
    }
  }
}
