/**
 * stops.txt: stations become stop areas, platforms and stops become stop points (a stop without a
 * station gets a stop area of its own, as Navitia does); entrances and nodes are left out.
 */
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

export async function readStops(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids } = f;
  const file = f.file('stops.txt');
  const onBytes = f.on('stops.txt');
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
  const rows: StopRow[] = [];
  let others = 0;
  await readTable(
    source,
    {
      file: 'stops.txt',
      columns: ['stop_id', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station', 'wheelchair_boarding', 'platform_code'] as const,
      required: ['stop_id'] as const,
    },
    (row, c) => {
      const id = row.text(c.stop_id);
      if (!id) {
        draft.report.problem(file, row.line, 'empty stop_id, row skipped');
        return;
      }
      const type = row.int(c.location_type, 0);
      if (!(type >= 0 && type <= 4)) {
        draft.report.problem(file, row.line, 'invalid location_type, row skipped', row.text(c.location_type));
        return;
      }
      if (type >= 2) {
        others++;
        return; // entrances, generic nodes and boarding areas are not stop points
      }
      rows.push({
        id,
        name: row.text(c.stop_name),
        lat: row.float(c.stop_lat, NaN),
        lon: row.float(c.stop_lon, NaN),
        type,
        parent: row.text(c.parent_station),
        wheelchair: row.int(c.wheelchair_boarding, 0),
        platform: row.text(c.platform_code),
        line: row.line,
      });
    },
    onBytes,
  );
  if (others > 0) draft.report.note(`${file}: ${others} entrances, generic nodes or boarding areas ignored`);
  const validCoord = (r: StopRow) =>
    Number.isFinite(r.lat) && Number.isFinite(r.lon) && Math.abs(r.lat) <= 90 && Math.abs(r.lon) <= 180 && !(r.lat === 0 && r.lon === 0);
  // Stations first: they become stop areas.
  const childCoords = new Map<string, { lon: number; lat: number; n: number }>();
  for (const r of rows) {
    if (r.type === 0 && r.parent && validCoord(r)) {
      const acc = childCoords.get(r.parent) ?? { lon: 0, lat: 0, n: 0 };
      acc.lon += r.lon;
      acc.lat += r.lat;
      acc.n++;
      childCoords.set(r.parent, acc);
    }
  }
  for (const r of rows) {
    if (r.type !== 1) continue;
    if (ids.stations.has(r.id)) {
      draft.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
      continue;
    }
    let { lon, lat } = r;
    if (!validCoord(r)) {
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
  // A platform with no wheelchair_boarding of its own takes its station's (GTFS: 0 under a parent inherits).
  const stationWheelchair = new Map<string, number>();
  for (const r of rows) if (r.type === 1 && !stationWheelchair.has(r.id)) stationWheelchair.set(r.id, r.wheelchair);
  for (const r of rows) {
    if (r.type !== 0) continue;
    if (ids.stops.has(r.id)) {
      draft.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
      continue;
    }
    if (!validCoord(r)) {
      draft.report.problem(file, r.line, 'stop without valid stop_lat/stop_lon, row skipped', r.id);
      continue;
    }
    let area = r.parent ? ids.stations.get(r.parent) : undefined;
    if (r.parent && area === undefined) {
      draft.report.problem(file, r.line, 'parent_station is not a known station, the stop gets its own stop area', r.parent);
    }
    if (area === undefined) {
      // A stop without a parent gets a stop area of its own, as Navitia does.
      area = draft.stopAreas.length;
      draft.stopAreas.push({ id: draft.uniqueId('stop_area', `stop_area:${r.id}`, feed), name: r.name, lon: r.lon, lat: r.lat, fromStation: false });
    }
    const wheelchair = r.wheelchair === 0 && r.parent ? (stationWheelchair.get(r.parent) ?? 0) : r.wheelchair;
    ids.stops.set(r.id, draft.addStopPoint(draft.uniqueId('stop_point', r.id, feed), r.name, r.lon, r.lat, area, wheelchair, 0, r.platform));
  }
}
