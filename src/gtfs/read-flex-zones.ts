/** GTFS-Flex zones: locations.geojson, location_groups.txt and location_group_stops.txt. */
import path from 'node:path';
import { readTable } from './read-table.js';
import type { FeedReading } from './feed-reading.js';
import type { TimetableDraft } from './timetable-draft.js';

/**
 * GTFS-Flex zones (locations.geojson features) and location groups become zone stop points, each
 * in a stop area of its own, located at the centre of its bounding box (or of its member stops).
 */
export async function readFlexZones(draft: TimetableDraft, f: FeedReading): Promise<void> {
  const { source, feed, ids, on } = f;
  const addZone = (localId: string, name: string, lon: number, lat: number) => {
    if (ids.zones.has(localId) || ids.stops.has(localId)) return;
    const area = draft.stopAreas.length;
    draft.stopAreas.push({ id: draft.uniqueId('stop_area', `stop_area:${localId}`, feed), name, lon, lat, fromStation: false });
    ids.zones.set(localId, draft.addStopPoint(draft.uniqueId('stop_point', localId, feed), name, lon, lat, area, 0, 1, ''));
  };
  if (source.files.has('locations.geojson')) {
    const chunks: Buffer[] = [];
    await source.read('locations.geojson', (c) => {
      chunks.push(c);
      on('locations.geojson')(c.length);
    });
    try {
      const geo = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { features?: { id?: unknown; properties?: Record<string, unknown>; geometry?: { coordinates?: unknown } }[] };
      for (const f of geo.features ?? []) {
        const id = String(f.id ?? f.properties?.['id'] ?? '');
        if (!id) continue;
        const box = boundingBox(f.geometry?.coordinates);
        if (!box) {
          draft.report.problem(`${path.basename(source.location)}/locations.geojson`, 0, 'location without coordinates, skipped', id);
          continue;
        }
        const name = String(f.properties?.['stop_name'] ?? f.properties?.['name'] ?? id);
        addZone(id, name, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
      }
    } catch (e) {
      draft.report.problem(`${path.basename(source.location)}/locations.geojson`, 0, 'unreadable GeoJSON, zones ignored', (e as Error).message);
    }
  }
  const groupNames = new Map<string, string>();
  await readTable(source, { file: 'location_groups.txt', columns: ['location_group_id', 'location_group_name'] as const }, (row, c) => {
    const id = row.text(c.location_group_id);
    if (id) groupNames.set(id, row.text(c.location_group_name) || id);
  }, on('location_groups.txt'));
  const members = new Map<string, { lon: number; lat: number; n: number }>();
  await readTable(source, { file: 'location_group_stops.txt', columns: ['location_group_id', 'stop_id'] as const }, (row, c) => {
    const stop = ids.stops.get(row.text(c.stop_id));
    if (stop === undefined) return;
    const g = row.text(c.location_group_id);
    const acc = members.get(g) ?? { lon: 0, lat: 0, n: 0 };
    acc.lon += draft.stopLon[stop]!;
    acc.lat += draft.stopLat[stop]!;
    acc.n++;
    members.set(g, acc);
  }, on('location_group_stops.txt'));
  for (const [id, name] of groupNames) {
    const acc = members.get(id);
    if (acc) addZone(id, name, acc.lon / acc.n, acc.lat / acc.n);
    else draft.report.note(`${path.basename(source.location)}/location_groups.txt: group ${id} has no located stop, ignored`);
  }
}

/** [minLon, minLat, maxLon, maxLat] of nested GeoJSON coordinates, or null when there are none. */
function boundingBox(coords: unknown): [number, number, number, number] | null {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown) => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      box[0] = Math.min(box[0], c[0]);
      box[1] = Math.min(box[1], c[1]);
      box[2] = Math.max(box[2], c[0]);
      box[3] = Math.max(box[3], c[1]);
      return;
    }
    for (const x of c) visit(x);
  };
  visit(coords);
  return Number.isFinite(box[0]) ? box : null;
}
