/**
 * Load one or more GTFS feeds (zip or folder) into a compiled Timetable.
 *
 * Files are read in dependency order (agencies, stops, routes, calendars, trips, stop times,
 * frequencies, transfers). A malformed row is reported with its file, line and reason, and skipped;
 * a feed that cannot be used (a required file missing, no trips at all) fails with a FeedError.
 *
 * When a coverage has several feeds, an id that an earlier feed already used is prefixed with the
 * feed's key (`<key>:<id>`), so every object keeps a unique id.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { growUint32 } from '../model/growable.js';
import {
  BOOKING_BIT,
  DROP_OFF_SHIFT,
  NO_TIME,
  OdtLevel,
  WINDOW_BIT,
  type Agency,
  type FeedMeta,
  type Line,
  type NamedObject,
  type Route,
  type StopArea,
  type Timetable,
} from '../model/timetable.js';
import { dayNumber } from '../util/calendar.js';
import { isValidTimeZone } from '../util/time-zones.js';
import { parseGtfsDate } from '../util/gtfs-times.js';
import type { CsvRow } from './csv-reader.js';
import { openFeedSource, type FeedSource } from './feed-source.js';
import { readLimitsOf, type ReadLimits } from './read-limits.js';
import { FeedError, LoadReport } from './load-report.js';
import { readTable } from './read-table.js';
import { modeOfRouteType } from './route-types.js';
import { StopTimeStage } from './stop-time-stage.js';

export interface LoadProgress {
  /** Bytes of all feed files read so far, and in all (uncompressed). */
  bytesRead: number;
  bytesTotal: number;
  /** What is being read, e.g. "subway-gtfs.zip/stop_times.txt". */
  current: string;
}

export interface LoadOptions {
  /** Coverage time zone; defaults to the first agency's. */
  timezone?: string;
  report?: LoadReport;
  onProgress?: (progress: LoadProgress) => void;
  /** What reading the feeds may cost; the defaults where it says nothing. */
  readLimits?: Partial<ReadLimits>;
}

const READ_ORDER = [
  'agency.txt',
  'feed_info.txt',
  'stops.txt',
  'locations.geojson',
  'location_groups.txt',
  'location_group_stops.txt',
  'routes.txt',
  'calendar.txt',
  'calendar_dates.txt',
  'trips.txt',
  'booking_rules.txt',
  'stop_times.txt',
  'frequencies.txt',
  'transfers.txt',
  'object_codes.txt',
];

/** A service while loading: calendar rows and exceptions, resolved into a bitset at the end. */
interface StagedService {
  id: string;
  weekdays: number; // bit 0 = Monday
  startDay: number; // -1 when no calendar row
  endDay: number;
  added: number[];
  removed: number[];
}

/** Per-feed id maps: feed-local id -> global index. */
interface FeedIds {
  agencies: Map<string, number>;
  stops: Map<string, number>;
  stations: Map<string, number>;
  zones: Map<string, number>;
  lines: Map<string, number>;
  services: Map<string, number>;
  trips: Map<string, number>;
  bookingRules: Set<string>;
}

export async function loadTimetable(locations: string[], options: LoadOptions = {}): Promise<Timetable> {
  if (locations.length === 0) throw new FeedError('no GTFS feed given');
  const builder = new TimetableBuilder(options.report ?? new LoadReport());
  const sources: FeedSource[] = [];
  try {
    const limits = readLimitsOf(options.readLimits);
    for (const location of locations) sources.push(await openFeedSource(location, limits));
    let bytesTotal = 0;
    for (const s of sources) for (const f of READ_ORDER) if (s.files.has(f)) bytesTotal += s.sizeOf(f);
    let bytesRead = 0;
    const progress = (current: string) => (n: number) => {
      bytesRead += n;
      options.onProgress?.({ bytesRead, bytesTotal, current });
    };
    for (const source of sources) await builder.addFeed(source, progress);
  } finally {
    for (const s of sources) s.close();
  }
  return builder.finish(options.timezone);
}

class TimetableBuilder {
  private readonly feeds: FeedMeta[] = [];
  private readonly agencies: Agency[] = [];
  private readonly physicalModes: NamedObject[] = [];
  private readonly commercialModes: NamedObject[] = [];
  private readonly modeIndex = new Map<string, number>();
  private readonly lines: Line[] = [];
  private readonly stopAreas: StopArea[] = [];
  // Stop points, as plain arrays while loading.
  private readonly stopIds: string[] = [];
  private readonly stopNames: string[] = [];
  private readonly stopLon: number[] = [];
  private readonly stopLat: number[] = [];
  private readonly stopArea: number[] = [];
  private readonly stopWheelchair: number[] = [];
  private readonly stopIsZone: number[] = [];
  private readonly stopPlatform: string[] = [];
  private readonly services: StagedService[] = [];
  // Trips, as plain arrays while loading.
  private readonly tripIds: string[] = [];
  private readonly tripHeadsigns: string[] = [];
  private readonly tripShortNames: string[] = [];
  private readonly tripLine: number[] = [];
  private readonly tripDirection: number[] = [];
  private readonly tripService: number[] = [];
  private readonly tripWheelchair: number[] = [];
  private readonly tripBikes: number[] = [];
  private readonly tripBlock: string[] = [];
  /** Line of each trip in its trips.txt, for messages. */
  private readonly tripRowLine: number[] = [];
  private readonly tripFeed: number[] = [];
  private readonly tripOdt: number[] = [];
  private readonly tripStopHeadsigns = new Map<number, Set<string>>();
  private readonly tripExtraCodes = new Map<number, string[]>();
  private readonly stage = new StopTimeStage();
  /** First staging row of each feed, to name the file of a row in messages. */
  private readonly feedFirstRow: number[] = [];
  private readonly frequencies = { trip: growUint32(), start: [] as number[], end: [] as number[], headway: [] as number[], exact: [] as number[] };
  private readonly transfers = { from: [] as number[], to: [] as number[], type: [] as number[], minTime: [] as number[] };
  /** Global id registries per kind, to detect ids that collide between feeds. */
  private readonly usedIds = new Map<string, Set<string>>();

  constructor(private readonly report: LoadReport) {}

  /** A unique id of `kind` for a feed-local id: the id itself, or `<feedKey>:<id>` when taken. */
  private uniqueId(kind: string, id: string, feed: number): string {
    let used = this.usedIds.get(kind);
    if (!used) this.usedIds.set(kind, (used = new Set()));
    let unique = id;
    if (used.has(unique)) unique = `${this.feeds[feed]!.key}:${id}`;
    for (let n = 2; used.has(unique); n++) unique = `${this.feeds[feed]!.key}:${id}#${n}`;
    used.add(unique);
    return unique;
  }

  async addFeed(source: FeedSource, progress: (current: string) => (n: number) => void): Promise<void> {
    const base = path.basename(source.location);
    for (const required of ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt']) {
      if (!source.files.has(required)) throw new FeedError(`${source.location}: required file ${required} is missing`);
    }
    if (!source.files.has('calendar.txt') && !source.files.has('calendar_dates.txt')) {
      throw new FeedError(`${source.location}: neither calendar.txt nor calendar_dates.txt is present`);
    }
    const feed = this.feeds.length;
    let key = base.replace(/\.zip$/i, '') || `feed${feed}`;
    while (this.feeds.some((f) => f.key === key)) key = `${key}_${feed}`;
    let createdAtSec = 0;
    try {
      createdAtSec = Math.floor((await fs.stat(source.location)).mtimeMs / 1000);
    } catch {
      /* the source was readable a moment ago; keep 0 */
    }
    this.feeds.push({ key, location: source.location, publisherName: '', publisherUrl: '', lang: '', version: '', createdAtSec });
    const ids: FeedIds = {
      agencies: new Map(),
      stops: new Map(),
      stations: new Map(),
      zones: new Map(),
      lines: new Map(),
      services: new Map(),
      trips: new Map(),
      bookingRules: new Set(),
    };
    const file = (name: string) => `${base}/${name}`;
    const on = (name: string) => progress(file(name));

    await this.readAgencies(source, feed, ids, file('agency.txt'), on('agency.txt'));
    await this.readFeedInfo(source, feed, on('feed_info.txt'));
    await this.readStops(source, feed, ids, file('stops.txt'), on('stops.txt'));
    await this.readFlexZones(source, feed, ids, on);
    await this.readRoutes(source, feed, ids, file('routes.txt'), on('routes.txt'));
    await this.readCalendars(source, feed, ids, file, on);
    await this.readTrips(source, feed, ids, file('trips.txt'), on('trips.txt'));
    if (ids.trips.size === 0) throw new FeedError(`${source.location}: no usable trip in trips.txt`);
    await readTable(source, { file: 'booking_rules.txt', columns: ['booking_rule_id'] as const }, (row, c) => {
      if (!row.isEmpty(c.booking_rule_id)) ids.bookingRules.add(row.text(c.booking_rule_id));
    }, on('booking_rules.txt'));
    this.feedFirstRow.push(this.stage.rowCount);
    await this.readStopTimes(source, ids, file('stop_times.txt'), on('stop_times.txt'));
    await this.readFrequencies(source, ids, file('frequencies.txt'), on('frequencies.txt'));
    await this.readTransfers(source, ids, file('transfers.txt'), on('transfers.txt'));
    await this.readObjectCodes(source, ids, on('object_codes.txt'));
  }

  private async readAgencies(source: FeedSource, feed: number, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
    await readTable(
      source,
      {
        file: 'agency.txt',
        columns: ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone'] as const,
        required: ['agency_name'] as const,
      },
      (row, c) => {
        const localId = row.text(c.agency_id) || row.text(c.agency_name);
        if (ids.agencies.has(localId)) {
          this.report.problem(file, row.line, 'duplicate agency_id, row skipped', localId);
          return;
        }
        let timezone = row.text(c.agency_timezone).trim();
        if (!isValidTimeZone(timezone)) {
          this.report.problem(file, row.line, 'missing or unknown agency_timezone, the coverage time zone is used', timezone);
          timezone = '';
        }
        ids.agencies.set(localId, this.agencies.length);
        if (!row.text(c.agency_id) && ids.agencies.size === 1) ids.agencies.set('', this.agencies.length);
        this.agencies.push({
          id: this.uniqueId('agency', localId, feed),
          name: row.text(c.agency_name),
          url: row.text(c.agency_url),
          timezone,
          lang: row.text(c.agency_lang),
          phone: row.text(c.agency_phone),
          feed,
        });
      },
      onBytes,
    );
    if (ids.agencies.size === 0) throw new FeedError(`${source.location}: agency.txt has no agency`);
  }

  private async readFeedInfo(source: FeedSource, feed: number, onBytes: (n: number) => void): Promise<void> {
    const meta = this.feeds[feed]!;
    await readTable(
      source,
      { file: 'feed_info.txt', columns: ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_version'] as const },
      (row, c) => {
        if (meta.publisherName) return; // first row wins
        meta.publisherName = row.text(c.feed_publisher_name);
        meta.publisherUrl = row.text(c.feed_publisher_url);
        meta.lang = row.text(c.feed_lang);
        meta.version = row.text(c.feed_version);
      },
      onBytes,
    );
  }

  private async readStops(source: FeedSource, feed: number, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
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
          this.report.problem(file, row.line, 'empty stop_id, row skipped');
          return;
        }
        const type = row.int(c.location_type, 0);
        if (!(type >= 0 && type <= 4)) {
          this.report.problem(file, row.line, 'invalid location_type, row skipped', row.text(c.location_type));
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
    if (others > 0) this.report.note(`${file}: ${others} entrances, generic nodes or boarding areas ignored`);
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
        this.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
        continue;
      }
      let { lon, lat } = r;
      if (!validCoord(r)) {
        const acc = childCoords.get(r.id);
        if (!acc) {
          this.report.problem(file, r.line, 'station without coordinates nor located stops, row skipped', r.id);
          continue;
        }
        lon = acc.lon / acc.n;
        lat = acc.lat / acc.n;
      }
      ids.stations.set(r.id, this.stopAreas.length);
      this.stopAreas.push({ id: this.uniqueId('stop_area', r.id, feed), name: r.name, lon, lat, fromStation: true });
    }
    // A platform with no wheelchair_boarding of its own takes its station's (GTFS: 0 under a parent inherits).
    const stationWheelchair = new Map<string, number>();
    for (const r of rows) if (r.type === 1 && !stationWheelchair.has(r.id)) stationWheelchair.set(r.id, r.wheelchair);
    for (const r of rows) {
      if (r.type !== 0) continue;
      if (ids.stops.has(r.id)) {
        this.report.problem(file, r.line, 'duplicate stop_id, row skipped', r.id);
        continue;
      }
      if (!validCoord(r)) {
        this.report.problem(file, r.line, 'stop without valid stop_lat/stop_lon, row skipped', r.id);
        continue;
      }
      let area = r.parent ? ids.stations.get(r.parent) : undefined;
      if (r.parent && area === undefined) {
        this.report.problem(file, r.line, 'parent_station is not a known station, the stop gets its own stop area', r.parent);
      }
      if (area === undefined) {
        // A stop without a parent gets a stop area of its own, as Navitia does.
        area = this.stopAreas.length;
        this.stopAreas.push({ id: this.uniqueId('stop_area', `stop_area:${r.id}`, feed), name: r.name, lon: r.lon, lat: r.lat, fromStation: false });
      }
      const wheelchair = r.wheelchair === 0 && r.parent ? (stationWheelchair.get(r.parent) ?? 0) : r.wheelchair;
      ids.stops.set(r.id, this.addStopPoint(this.uniqueId('stop_point', r.id, feed), r.name, r.lon, r.lat, area, wheelchair, 0, r.platform));
    }
  }

  private addStopPoint(id: string, name: string, lon: number, lat: number, area: number, wheelchair: number, isZone: number, platform: string): number {
    const idx = this.stopIds.length;
    this.stopIds.push(id);
    this.stopNames.push(name);
    this.stopLon.push(lon);
    this.stopLat.push(lat);
    this.stopArea.push(area);
    this.stopWheelchair.push(wheelchair >= 0 && wheelchair <= 2 ? wheelchair : 0);
    this.stopIsZone.push(isZone);
    this.stopPlatform.push(platform);
    return idx;
  }

  /**
   * GTFS-Flex zones (locations.geojson features) and location groups become zone stop points, each
   * in a stop area of its own, located at the centre of its bounding box (or of its member stops).
   */
  private async readFlexZones(source: FeedSource, feed: number, ids: FeedIds, on: (name: string) => (n: number) => void): Promise<void> {
    const addZone = (localId: string, name: string, lon: number, lat: number) => {
      if (ids.zones.has(localId) || ids.stops.has(localId)) return;
      const area = this.stopAreas.length;
      this.stopAreas.push({ id: this.uniqueId('stop_area', `stop_area:${localId}`, feed), name, lon, lat, fromStation: false });
      ids.zones.set(localId, this.addStopPoint(this.uniqueId('stop_point', localId, feed), name, lon, lat, area, 0, 1, ''));
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
            this.report.problem(`${path.basename(source.location)}/locations.geojson`, 0, 'location without coordinates, skipped', id);
            continue;
          }
          const name = String(f.properties?.['stop_name'] ?? f.properties?.['name'] ?? id);
          addZone(id, name, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
        }
      } catch (e) {
        this.report.problem(`${path.basename(source.location)}/locations.geojson`, 0, 'unreadable GeoJSON, zones ignored', (e as Error).message);
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
      acc.lon += this.stopLon[stop]!;
      acc.lat += this.stopLat[stop]!;
      acc.n++;
      members.set(g, acc);
    }, on('location_group_stops.txt'));
    for (const [id, name] of groupNames) {
      const acc = members.get(id);
      if (acc) addZone(id, name, acc.lon / acc.n, acc.lat / acc.n);
      else this.report.note(`${path.basename(source.location)}/location_groups.txt: group ${id} has no located stop, ignored`);
    }
  }

  private async readRoutes(source: FeedSource, feed: number, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
    await readTable(
      source,
      {
        file: 'routes.txt',
        columns: ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type', 'route_color', 'route_text_color'] as const,
        required: ['route_id', 'route_type'] as const,
      },
      (row, c) => {
        const localId = row.text(c.route_id);
        if (!localId || ids.lines.has(localId)) {
          this.report.problem(file, row.line, localId ? 'duplicate route_id, row skipped' : 'empty route_id, row skipped', localId);
          return;
        }
        const agencyKey = row.text(c.agency_id);
        let agency = ids.agencies.get(agencyKey);
        if (agency === undefined && ids.agencies.size === 1 + (ids.agencies.has('') ? 1 : 0)) agency = ids.agencies.values().next().value;
        if (agency === undefined) {
          this.report.problem(file, row.line, 'unknown agency_id, row skipped', agencyKey);
          return;
        }
        const routeType = row.int(c.route_type, -1);
        const mode = modeOfRouteType(routeType);
        if (!mode) {
          this.report.problem(file, row.line, 'unknown route_type, row skipped', row.text(c.route_type));
          return;
        }
        const code = row.text(c.route_short_name);
        ids.lines.set(localId, this.lines.length);
        this.lines.push({
          id: this.uniqueId('line', localId, feed),
          code,
          name: row.text(c.route_long_name) || code,
          color: row.text(c.route_color),
          textColor: row.text(c.route_text_color),
          routeType,
          agency,
          physicalMode: this.mode(this.physicalModes, 'physical_mode', mode.key, mode.name),
          commercialMode: this.mode(this.commercialModes, 'commercial_mode', mode.key, mode.name),
          feed,
        });
      },
      onBytes,
    );
  }

  private mode(list: NamedObject[], prefix: string, key: string, name: string): number {
    const id = `${prefix}:${key}`;
    let idx = this.modeIndex.get(id);
    if (idx === undefined) {
      idx = list.length;
      list.push({ id, name });
      this.modeIndex.set(id, idx);
    }
    return idx;
  }

  private async readCalendars(source: FeedSource, feed: number, ids: FeedIds, file: (n: string) => string, on: (name: string) => (n: number) => void): Promise<void> {
    const serviceOf = (localId: string) => {
      let s = ids.services.get(localId);
      if (s === undefined) {
        s = this.services.length;
        ids.services.set(localId, s);
        this.services.push({ id: this.uniqueId('service', localId, feed), weekdays: 0, startDay: -1, endDay: -1, added: [], removed: [] });
      }
      return this.services[s]!;
    };
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
    await readTable(
      source,
      {
        file: 'calendar.txt',
        columns: ['service_id', 'start_date', 'end_date', ...days] as const,
        required: ['service_id', 'start_date', 'end_date', ...days] as const,
      },
      (row, c) => {
        const id = row.text(c.service_id);
        const start = parseGtfsDate(row.text(c.start_date));
        const end = parseGtfsDate(row.text(c.end_date));
        if (!id || start < 0 || end < 0) {
          this.report.problem(file('calendar.txt'), row.line, 'empty service_id or malformed date, row skipped');
          return;
        }
        let weekdays = 0;
        for (let d = 0; d < 7; d++) {
          const v = row.int(c[days[d]!], 0);
          if (v !== 0 && v !== 1) {
            this.report.problem(file('calendar.txt'), row.line, `invalid ${days[d]} value, read as 0`);
            continue;
          }
          weekdays |= v << d;
        }
        const s = serviceOf(id);
        if (s.startDay >= 0) {
          this.report.problem(file('calendar.txt'), row.line, 'duplicate service_id in calendar.txt, row skipped', id);
          return;
        }
        s.weekdays = weekdays;
        s.startDay = start;
        s.endDay = end;
      },
      on('calendar.txt'),
    );
    await readTable(
      source,
      { file: 'calendar_dates.txt', columns: ['service_id', 'date', 'exception_type'] as const, required: ['service_id', 'date', 'exception_type'] as const },
      (row, c) => {
        const id = row.text(c.service_id);
        const day = parseGtfsDate(row.text(c.date));
        const type = row.int(c.exception_type, -1);
        if (!id || day < 0 || (type !== 1 && type !== 2)) {
          this.report.problem(file('calendar_dates.txt'), row.line, 'empty service_id, malformed date or exception_type, row skipped');
          return;
        }
        const s = serviceOf(id);
        (type === 1 ? s.added : s.removed).push(day);
      },
      on('calendar_dates.txt'),
    );
  }

  private async readTrips(source: FeedSource, feed: number, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
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
          this.report.problem(file, row.line, localId ? 'duplicate trip_id, row skipped' : 'empty trip_id, row skipped', localId);
          return;
        }
        const line = ids.lines.get(row.text(c.route_id));
        if (line === undefined) {
          this.report.problem(file, row.line, 'unknown route_id, trip skipped', row.text(c.route_id));
          return;
        }
        const service = ids.services.get(row.text(c.service_id));
        if (service === undefined) {
          this.report.problem(file, row.line, 'unknown service_id, trip skipped', row.text(c.service_id));
          return;
        }
        const direction = row.int(c.direction_id, -1);
        ids.trips.set(localId, this.tripIds.length);
        this.tripIds.push(this.uniqueId('trip', localId, feed));
        this.tripHeadsigns.push(row.text(c.trip_headsign));
        this.tripShortNames.push(row.text(c.trip_short_name));
        this.tripLine.push(line);
        this.tripDirection.push(direction === 0 || direction === 1 ? direction : -1);
        this.tripService.push(service);
        this.tripWheelchair.push(clampFlag(row.int(c.wheelchair_accessible, 0)));
        this.tripBikes.push(clampFlag(row.int(c.bikes_allowed, 0)));
        this.tripBlock.push(row.text(c.block_id));
        this.tripRowLine.push(row.line);
        this.tripFeed.push(feed);
        this.tripOdt.push(OdtLevel.Scheduled);
      },
      onBytes,
    );
  }

  private async readStopTimes(source: FeedSource, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
    // stop_times rows usually come grouped by trip: remember the last trip_id's bytes to skip the
    // string decoding and map lookup on the next rows of the same trip.
    let lastTripBytes: Buffer = Buffer.alloc(64);
    let lastTripLength = -1;
    let lastTrip = -1;
    let lastStopBytes: Buffer = Buffer.alloc(64);
    let lastStopLength = -1;
    let lastStop = -1;
    let lastStopZone = false;
    const stage = this.stage;
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
            this.report.problem(file, row.line, 'unknown trip_id, row skipped', id);
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
            this.report.problem(file, row.line, 'unknown stop_id, row skipped', id);
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
          this.report.problem(file, row.line, 'missing or invalid stop_sequence, row skipped', row.text(c.stop_sequence));
          return;
        }
        let arr = row.time(c.arrival_time);
        let dep = row.time(c.departure_time);
        if (arr === -2 || dep === -2) {
          this.report.problem(file, row.line, 'malformed arrival_time or departure_time, row skipped');
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
        if (odt > this.tripOdt[trip]!) this.tripOdt[trip] = odt;
        if (!row.isEmpty(c.stop_headsign)) {
          const h = row.text(c.stop_headsign);
          let set = this.tripStopHeadsigns.get(trip);
          if (!set) this.tripStopHeadsigns.set(trip, (set = new Set()));
          set.add(h);
        }
        stage.add(trip, sequence, arr, dep, stop, pickDrop, row.float(c.shape_dist_traveled, NaN), row.line);
      },
      onBytes,
    );
  }

  private async readFrequencies(source: FeedSource, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
    await readTable(
      source,
      {
        file: 'frequencies.txt',
        columns: ['trip_id', 'start_time', 'end_time', 'headway_secs', 'exact_times'] as const,
        required: ['trip_id', 'start_time', 'end_time', 'headway_secs'] as const,
      },
      (row, c) => {
        const trip = ids.trips.get(row.text(c.trip_id));
        if (trip === undefined) {
          this.report.problem(file, row.line, 'unknown trip_id, row skipped', row.text(c.trip_id));
          return;
        }
        const start = row.time(c.start_time);
        const end = row.time(c.end_time);
        const headway = row.int(c.headway_secs, -1);
        const exact = row.int(c.exact_times, 0);
        if (start < 0 || end < 0 || end < start || !(headway > 0)) {
          this.report.problem(file, row.line, 'malformed start_time, end_time or headway_secs, row skipped');
          return;
        }
        this.frequencies.trip.push(trip);
        this.frequencies.start.push(start);
        this.frequencies.end.push(end);
        this.frequencies.headway.push(headway);
        this.frequencies.exact.push(exact === 1 ? 1 : 0);
      },
      onBytes,
    );
  }

  private async readTransfers(source: FeedSource, ids: FeedIds, file: string, onBytes: (n: number) => void): Promise<void> {
    // A station id in transfers.txt stands for all of its stop points.
    const stopsOf = (id: string): number[] => {
      const s = ids.stops.get(id);
      if (s !== undefined) return [s];
      const area = ids.stations.get(id);
      if (area === undefined) return [];
      const out: number[] = [];
      for (let i = 0; i < this.stopArea.length; i++) if (this.stopArea[i] === area) out.push(i);
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
          this.report.problem(file, row.line, 'unknown from_stop_id or to_stop_id, row skipped');
          return;
        }
        const type = row.int(c.transfer_type, 0);
        const minTime = row.int(c.min_transfer_time, -1);
        for (const f of from) {
          for (const t of to) {
            this.transfers.from.push(f);
            this.transfers.to.push(t);
            this.transfers.type.push(type >= 0 && type <= 5 ? type : 0);
            this.transfers.minTime.push(Number.isInteger(minTime) && minTime >= 0 ? minTime : -1);
          }
        }
      },
      onBytes,
    );
    if (tripSpecific > 0) this.report.note(`${file}: ${tripSpecific} trip- or route-specific transfers ignored`);
  }

  /** NTFS-style object_codes.txt: extra external codes for trips. */
  private async readObjectCodes(source: FeedSource, ids: FeedIds, onBytes: (n: number) => void): Promise<void> {
    await readTable(
      source,
      { file: 'object_codes.txt', columns: ['object_type', 'object_id', 'object_code'] as const },
      (row, c) => {
        if (row.text(c.object_type) !== 'trip') return;
        const trip = ids.trips.get(row.text(c.object_id));
        const code = row.text(c.object_code);
        if (trip === undefined || !code) return;
        let codes = this.tripExtraCodes.get(trip);
        if (!codes) this.tripExtraCodes.set(trip, (codes = []));
        codes.push(code);
      },
      onBytes,
    );
  }

  /** Resolve services, order and complete stop times, build patterns, compact everything. */
  finish(timezoneOption: string | undefined): Timetable {
    const report = this.report;
    const timezone = timezoneOption || this.agencies.find((a) => a.timezone)?.timezone || 'Europe/Paris';
    if (!isValidTimeZone(timezone)) throw new FeedError(`unknown time zone: ${timezone}`);
    const timezones = [timezone];
    const agencyTimezone = new Uint16Array(this.agencies.length);
    this.agencies.forEach((a, i) => {
      if (!a.timezone) a.timezone = timezone;
      let tz = timezones.indexOf(a.timezone);
      if (tz < 0) tz = timezones.push(a.timezone) - 1;
      agencyTimezone[i] = tz;
    });

    const stopLon = Float64Array.from(this.stopLon);
    const stopLat = Float64Array.from(this.stopLat);
    const tripCount = this.tripIds.length;
    const stage = this.stage;
    const fileOfRow = (row: number) => {
      let f = 0;
      while (f + 1 < this.feedFirstRow.length && this.feedFirstRow[f + 1]! <= row) f++;
      return `${path.basename(this.feeds[f]!.location)}/stop_times.txt`;
    };
    const { offsets, rows } = stage.rowsByTrip(tripCount, report, fileOfRow);

    // Keep the trips whose stop times are usable.
    const keep: number[] = [];
    const rowCount = new Uint32Array(tripCount); // usable rows of each trip, from offsets[t]
    let stopTimeCount = 0;
    for (let t = 0; t < tripCount; t++) {
      const tripRows = compactRows(rows.subarray(offsets[t]!, offsets[t + 1]!));
      const tripLabel = `${path.basename(this.feeds[this.tripFeed[t]!]!.location)}/trips.txt`;
      // A single stop time is a trip only when it is a flex zone's window: any trip inside the zone.
      const zoneOnly = tripRows.length === 1 && (stage.pickDrop.data[tripRows[0]!]! & WINDOW_BIT) !== 0 && this.stopIsZone[stage.stop.data[tripRows[0]!]!] === 1;
      if (tripRows.length < 2 && !zoneOnly) {
        report.problem(tripLabel, this.tripRowLine[t]!, tripRows.length === 0 ? 'trip without stop times, skipped' : 'trip with a single stop time, skipped', this.tripIds[t]!);
        continue;
      }
      const why = stage.completeTimes(tripRows, stopLon, stopLat);
      if (why) {
        report.problem(fileOfRow(tripRows[0]!), stage.line.data[tripRows[0]!]!, `${why}, trip skipped`, this.tripIds[t]!);
        continue;
      }
      rows.set(tripRows, offsets[t]!);
      rowCount[t] = tripRows.length;
      keep.push(t);
      stopTimeCount += tripRows.length;
    }
    if (keep.length === 0) throw new FeedError('no trip has usable stop times');

    // Final stop times and patterns, in trip order.
    const n = keep.length;
    const stopTimeOffset = new Uint32Array(n + 1);
    const arrivalSec = new Int32Array(stopTimeCount);
    const departureSec = new Int32Array(stopTimeCount);
    const pickDrop = new Uint8Array(stopTimeCount);
    const sequence = new Uint32Array(stopTimeCount);
    const tripPattern = new Uint32Array(n);
    const patterns = new PatternTable();
    const stArr = stage.arrivalSec.data;
    const stDep = stage.departureSec.data;
    const stPd = stage.pickDrop.data;
    const stSeq = stage.sequence.data;
    const stStop = stage.stop.data;
    const stopSeq = new Uint32Array(256);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const t = keep[i]!;
      const s = rows.subarray(offsets[t]!, offsets[t]! + rowCount[t]!);
      const k = s.length;
      stopTimeOffset[i] = pos;
      const seqBuf = k <= stopSeq.length ? stopSeq : new Uint32Array(k);
      for (let j = 0; j < k; j++) {
        const r = s[j]!;
        arrivalSec[pos + j] = stArr[r]!;
        departureSec[pos + j] = stDep[r]!;
        pickDrop[pos + j] = stPd[r]!;
        sequence[pos + j] = stSeq[r]!;
        seqBuf[j] = stStop[r]!;
      }
      tripPattern[i] = patterns.intern(seqBuf.subarray(0, k));
      pos += k;
    }
    stopTimeOffset[n] = pos;

    // Routes: a line in one direction.
    const routes: Route[] = [];
    const routeKey = new Map<number, number>();
    const tripRoute = new Uint32Array(n);
    const headsignCounts: Map<string, number>[] = [];
    for (let i = 0; i < n; i++) {
      const t = keep[i]!;
      const line = this.tripLine[t]!;
      const dir = this.tripDirection[t]!;
      const k = line * 3 + dir + 1;
      let r = routeKey.get(k);
      if (r === undefined) {
        r = routes.length;
        routeKey.set(k, r);
        const l = this.lines[line]!;
        routes.push({ id: `route:${l.id}:${dir < 0 ? 0 : dir}`, name: '', line, direction: dir });
        headsignCounts.push(new Map());
      }
      tripRoute[i] = r;
      const h = this.tripHeadsigns[t]!;
      if (h) headsignCounts[r]!.set(h, (headsignCounts[r]!.get(h) ?? 0) + 1);
    }
    routes.forEach((route, r) => {
      let best = '';
      let bestCount = 0;
      for (const [h, c] of headsignCounts[r]!) if (c > bestCount) [best, bestCount] = [h, c];
      route.name = best || this.lines[route.line]!.name;
    });

    const services = this.resolveServices();
    const frequencies = this.resolveFrequencies(keep);
    const trips = {
      ids: keep.map((t) => this.tripIds[t]!),
      names: keep.map((t) => this.tripShortNames[t] || this.tripHeadsigns[t] || this.lines[this.tripLine[t]!]!.code || this.tripIds[t]!),
      headsigns: keep.map((t) => this.tripHeadsigns[t]!),
      shortNames: keep.map((t) => this.tripShortNames[t]!),
      route: tripRoute,
      line: Uint32Array.from(keep, (t) => this.tripLine[t]!),
      agency: Uint16Array.from(keep, (t) => this.lines[this.tripLine[t]!]!.agency),
      service: Uint32Array.from(keep, (t) => this.tripService[t]!),
      pattern: tripPattern,
      feed: Uint16Array.from(keep, (t) => this.tripFeed[t]!),
      odtLevel: Uint8Array.from(keep, (t) => this.tripOdt[t]!),
      wheelchair: Uint8Array.from(keep, (t) => this.tripWheelchair[t]!),
      bikes: Uint8Array.from(keep, (t) => this.tripBikes[t]!),
      blockIds: keep.map((t) => this.tripBlock[t]!),
      stopTimeOffset,
      frequencyOffset: frequencies.offset,
    };

    // Headsigns and external codes, by final trip index.
    const headsignLists = new Map<string, number[]>();
    const codeLists = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, i: number) => {
      if (!key) return;
      const list = map.get(key);
      if (!list) map.set(key, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    };
    keep.forEach((t, i) => {
      add(headsignLists, this.tripHeadsigns[t]!, i);
      for (const h of this.tripStopHeadsigns.get(t) ?? []) add(headsignLists, h, i);
      add(codeLists, this.tripIds[t]!, i);
      add(codeLists, this.tripShortNames[t]!, i);
      for (const code of this.tripExtraCodes.get(t) ?? []) add(codeLists, code, i);
    });
    stage.dispose();
    const toTyped = (m: Map<string, number[]>) => new Map([...m].map(([k, v]) => [k, Uint32Array.from(v).sort()]));

    return {
      feeds: this.feeds,
      timezone,
      agencies: this.agencies,
      timezones,
      agencyTimezone,
      physicalModes: this.physicalModes,
      commercialModes: this.commercialModes,
      lines: this.lines,
      routes,
      stopAreas: this.stopAreas,
      stopPoints: {
        ids: this.stopIds,
        names: this.stopNames,
        lon: stopLon,
        lat: stopLat,
        area: Uint32Array.from(this.stopArea),
        wheelchair: Uint8Array.from(this.stopWheelchair),
        isZone: Uint8Array.from(this.stopIsZone),
        platformCodes: this.stopPlatform,
      },
      trips,
      stopTimes: { arrivalSec, departureSec, pickDrop, sequence },
      frequencies: frequencies.rows,
      patterns: patterns.finish(),
      services,
      transfers: {
        fromStop: Uint32Array.from(this.transfers.from),
        toStop: Uint32Array.from(this.transfers.to),
        type: Uint8Array.from(this.transfers.type),
        minTimeSec: Int32Array.from(this.transfers.minTime),
      },
      headsignTrips: toTyped(headsignLists),
      tripCodes: toTyped(codeLists),
    };
  }

  private resolveServices(): Timetable['services'] {
    let first = Infinity;
    let last = -Infinity;
    for (const s of this.services) {
      if (s.startDay >= 0) {
        first = Math.min(first, s.startDay);
        last = Math.max(last, s.endDay);
      }
      for (const d of s.added) {
        first = Math.min(first, d);
        last = Math.max(last, d);
      }
    }
    if (first > last) {
      first = dayNumber(2000, 1, 1);
      last = first;
    }
    const dayCount = last - first + 1;
    const words = Math.ceil(dayCount / 32);
    const bits = new Uint32Array(Math.max(1, this.services.length * words));
    this.services.forEach((s, i) => {
      const set = (day: number, on: boolean) => {
        const d = day - first;
        if (d < 0 || d >= dayCount) return;
        const w = i * words + (d >>> 5);
        if (on) bits[w]! |= 1 << (d & 31);
        else bits[w]! &= ~(1 << (d & 31));
      };
      if (s.startDay >= 0) {
        for (let day = s.startDay; day <= s.endDay; day++) {
          const weekday = (day + 3) % 7; // day 0 (1970-01-01) was a Thursday; 0 = Monday
          if ((s.weekdays >>> weekday) & 1) set(day, true);
        }
      }
      for (const d of s.added) set(d, true);
      for (const d of s.removed) set(d, false);
    });
    return { ids: this.services.map((s) => s.id), firstDay: first, dayCount, words, bits };
  }

  private resolveFrequencies(keep: number[]): { offset: Uint32Array; rows: Timetable['frequencies'] } {
    const f = this.frequencies;
    const newIndex = new Int32Array(this.tripIds.length).fill(-1);
    keep.forEach((t, i) => (newIndex[t] = i));
    const count = f.trip.length;
    const offset = new Uint32Array(keep.length + 1);
    for (let r = 0; r < count; r++) {
      const i = newIndex[f.trip.data[r]!]!;
      if (i >= 0) offset[i + 1]!++;
    }
    for (let i = 0; i < keep.length; i++) offset[i + 1]! += offset[i]!;
    const total = offset[keep.length]!;
    const rows = { startSec: new Int32Array(total), endSec: new Int32Array(total), headwaySec: new Int32Array(total), exactTimes: new Uint8Array(total) };
    const fill = offset.slice(0, keep.length);
    for (let r = 0; r < count; r++) {
      const i = newIndex[f.trip.data[r]!]!;
      if (i < 0) continue;
      const p = fill[i]!++;
      rows.startSec[p] = f.start[r]!;
      rows.endSec[p] = f.end[r]!;
      rows.headwaySec[p] = f.headway[r]!;
      rows.exactTimes[p] = f.exact[r]!;
    }
    return { offset, rows };
  }
}

/** Distinct stop sequences, interned by content. */
class PatternTable {
  private readonly byHash = new Map<number, number[]>();
  private readonly offsets = growUint32();
  private readonly stops = growUint32(1 << 14);

  constructor() {
    this.offsets.push(0);
  }

  intern(seq: Uint32Array): number {
    let h = seq.length | 0;
    for (let i = 0; i < seq.length; i++) h = (Math.imul(h, 31) + seq[i]!) | 0;
    const candidates = this.byHash.get(h);
    if (candidates) {
      for (const p of candidates) if (this.equals(p, seq)) return p;
    }
    const p = this.offsets.length - 1;
    for (let i = 0; i < seq.length; i++) this.stops.push(seq[i]!);
    this.offsets.push(this.stops.length);
    if (candidates) candidates.push(p);
    else this.byHash.set(h, [p]);
    return p;
  }

  private equals(p: number, seq: Uint32Array): boolean {
    const s = this.offsets.data[p]!;
    const e = this.offsets.data[p + 1]!;
    if (e - s !== seq.length) return false;
    const stops = this.stops.data;
    for (let i = 0; i < seq.length; i++) if (stops[s + i] !== seq[i]) return false;
    return true;
  }

  finish(): Timetable['patterns'] {
    return { stopOffset: this.offsets.finish(), stops: this.stops.finish() };
  }
}

/** Rows of a trip without the ones marked -1 (skipped duplicates). */
function compactRows(rows: Int32Array): Int32Array {
  let ok = true;
  for (let i = 0; i < rows.length; i++) if (rows[i]! < 0) ok = false;
  return ok ? rows : rows.filter((r) => r >= 0);
}

function clampFlag(v: number): number {
  return v === 1 || v === 2 ? v : 0;
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
