/**
 * stops.txt: stations become stop areas, platforms and stops become stop points (a stop without a
 * station gets a stop area of its own, as Navitia does); entrances and nodes are left out.
 */
import type { CsvRow } from './csv-reader.js';
import { readTable, type Columns } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

const STOP_COLUMNS = ['stop_id', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station', 'wheelchair_boarding', 'platform_code'] as const;
type StopColumns = Columns<(typeof STOP_COLUMNS)[number]>;

/** location_type of a stop or platform, and of a station. */
const STOP = 0;
const STATION = 1;

interface StopRow {
  id: string;
  name: string;
  lat: number;
  lon: number;
  type: number;
  parent: string;
  wheelchair: number;
  platform: string;
  line: number;
}

export async function readStops(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const rows = await readStopRows(draft, f);
  addStations(draft, f, rows);
  addStopPoints(draft, f, rows);
}

/** The stations, stops and platforms of the file (the other location types counted in a note). */
async function readStopRows(draft: TimetableDraft, f: FeedReading): Promise<StopRow[]> {
  const file = f.file('stops.txt');
  const rows: StopRow[] = [];
  let others = 0;
  await readTable(
    f.source,
    { file: 'stops.txt', columns: STOP_COLUMNS, required: ['stop_id'] as const },
    (row, c) => {
      const r = stopRowOf(draft, file, row, c);
      if (r === 'other') others++;
      else if (r) rows.push(r);
    },
    f.on('stops.txt'),
  );
  if (others > 0) draft.report.note(`${file}: ${others} entrances, generic nodes or boarding areas ignored`);
  return rows;
}

/** A row as a station, stop or platform; 'other' for the location types that are not stop points, null (reported) for an invalid row. */
function stopRowOf(draft: TimetableDraft, file: string, row: CsvRow, c: StopColumns): StopRow | 'other' | null {
  const id = row.text(c.stop_id);
  if (!id) {
    draft.report.problem(file, row.line, 'empty stop_id, row skipped');
    return null;
  }
  const type = row.int(c.location_type, 0);
  if (!(type >= 0 && type <= 4)) {
    draft.report.problem(file, row.line, 'invalid location_type, row skipped', row.text(c.location_type));
    return null;
  }
  if (type >= 2) return 'other'; // entrances, generic nodes and boarding areas are not stop points
  return {
    id,
    name: row.text(c.stop_name),
    lat: row.float(c.stop_lat, NaN),
    lon: row.float(c.stop_lon, NaN),
    type,
    parent: row.text(c.parent_station),
    wheelchair: row.int(c.wheelchair_boarding, 0),
    platform: row.text(c.platform_code),
    line: row.line,
  };
}

function hasValidCoord(r: StopRow): boolean {
  return Number.isFinite(r.lat) && Number.isFinite(r.lon) && Math.abs(r.lat) <= 90 && Math.abs(r.lon) <= 180 && !(r.lat === 0 && r.lon === 0);
}

/** Every station a stop area, placed at its own coordinates or else at the mean of its located stops. */
function addStations(draft: TimetableDraft, f: FeedReading, rows: StopRow[]): void {
  const { feed, ids } = f;
  const file = f.file('stops.txt');
  const childCoords = childCoordSums(rows);
  for (const r of rows) {
    if (r.type !== STATION) continue;
    if (ids.stations.has(r.id)) {
      draft.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
      continue;
    }
    let { lon, lat } = r;
    if (!hasValidCoord(r)) {
      const acc = childCoords.get(r.id);
      if (!acc) {
        draft.report.problem(file, r.line, 'station without coordinates nor located stops, row skipped', r.id);
        continue;
      }
      lon = acc.lon / acc.n;
      lat = acc.lat / acc.n;
    }
    ids.stations.set(r.id, draft.stopAreas.length);
    draft.stopAreas.push({ id: draft.uniqueId('stop_area', r.id, feed), name: r.name, lon, lat, fromStation: true });
  }
}

/** Sums and count of the valid coordinates of the stops under each parent station id. */
function childCoordSums(rows: StopRow[]): Map<string, { lon: number; lat: number; n: number }> {
  const childCoords = new Map<string, { lon: number; lat: number; n: number }>();
  for (const r of rows) {
    if (r.type === STOP && r.parent && hasValidCoord(r)) {
      const acc = childCoords.get(r.parent) ?? { lon: 0, lat: 0, n: 0 };
      acc.lon += r.lon;
      acc.lat += r.lat;
      acc.n++;
      childCoords.set(r.parent, acc);
    }
  }
  return childCoords;
}

/** Every stop and platform a stop point, in its station's stop area or in one of its own. */
function addStopPoints(draft: TimetableDraft, f: FeedReading, rows: StopRow[]): void {
  const { feed, ids } = f;
  const file = f.file('stops.txt');
  const stationWheelchair = stationWheelchairs(rows);
  for (const r of rows) {
    if (r.type !== STOP) continue;
    if (ids.stops.has(r.id)) {
      draft.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
      continue;
    }
    if (!hasValidCoord(r)) {
      draft.report.problem(file, r.line, 'stop without valid stop_lat/stop_lon, row skipped', r.id);
      continue;
    }
    const area = stopAreaOf(draft, f, r);
    // A platform with no wheelchair_boarding of its own takes its station's (GTFS: 0 under a parent inherits).
    const wheelchair = r.wheelchair === 0 && r.parent ? (stationWheelchair.get(r.parent) ?? 0) : r.wheelchair;
    ids.stops.set(r.id, draft.addStopPoint(draft.uniqueId('stop_point', r.id, feed), r.name, r.lon, r.lat, area, wheelchair, 0, r.platform));
  }
}

/** wheelchair_boarding of each station (the first row of an id). */
function stationWheelchairs(rows: StopRow[]): Map<string, number> {
  const stationWheelchair = new Map<string, number>();
  for (const r of rows) if (r.type === STATION && !stationWheelchair.has(r.id)) stationWheelchair.set(r.id, r.wheelchair);
  return stationWheelchair;
}

/** The stop area of a stop: its parent station's, or a new one of its own, as Navitia does, when it has none (or an unknown one, reported). */
function stopAreaOf(draft: TimetableDraft, f: FeedReading, r: StopRow): number {
  const area = r.parent ? f.ids.stations.get(r.parent) : undefined;
  if (area !== undefined) return area;
  if (r.parent) {
    draft.report.problem(f.file('stops.txt'), r.line, 'parent_station is not a known station, the stop gets its own stop area', r.parent);
  }
  draft.stopAreas.push({ id: draft.uniqueId('stop_area', `stop_area:${r.id}`, f.feed), name: r.name, lon: r.lon, lat: r.lat, fromStation: false });
  return draft.stopAreas.length - 1;
}
