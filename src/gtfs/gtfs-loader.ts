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
import type { Timetable } from '../model/timetable.js';
import { openFeedSource, type FeedSource } from './feed-source.js';
import { readLimitsOf, type ReadLimits } from './read-limits.js';
import { FeedError, LoadReport } from './load-report.js';
import type { FeedIds, FeedReading } from './feed-reading.js';
import { TimetableDraft } from './timetable-draft.js';
import { compileTimetable } from './compile-timetable.js';
import { readAgencies, readFeedInfo } from './read-agencies.js';
import { readStops } from './read-stops.js';
import { readFlexZones } from './read-flex-zones.js';
import { readRoutes } from './read-routes.js';
import { readCalendars } from './read-calendars.js';
import { readBookingRules, readTrips } from './read-trips.js';
import { readStopTimes } from './read-stop-times.js';
import { readFrequencies } from './read-frequencies.js';
import { readTransfers } from './read-transfers.js';
import { readObjectCodes } from './read-object-codes.js';

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

export async function loadTimetable(locations: string[], options: LoadOptions = {}): Promise<Timetable> {
  if (locations.length === 0) throw new FeedError('no GTFS feed given');
  const draft = new TimetableDraft(options.report ?? new LoadReport());
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
    for (const source of sources) await addFeed(draft, source, progress);
  } finally {
    for (const s of sources) s.close();
  }
  return await compileTimetable(draft, options.timezone);
}

async function addFeed(draft: TimetableDraft, source: FeedSource, progress: (current: string) => (n: number) => void): Promise<void> {
  const base = path.basename(source.location);
  for (const required of ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt']) {
    if (!source.files.has(required)) throw new FeedError(`${source.location}: required file ${required} is missing`);
  }
  if (!source.files.has('calendar.txt') && !source.files.has('calendar_dates.txt')) {
    throw new FeedError(`${source.location}: neither calendar.txt nor calendar_dates.txt is present`);
  }
  const feed = draft.feeds.length;
  let key = base.replace(/\.zip$/i, '') || `feed${feed}`;
  while (draft.feeds.some((f) => f.key === key)) key = `${key}_${feed}`;
  let createdAtSec = 0;
  try {
    createdAtSec = Math.floor((await fs.stat(source.location)).mtimeMs / 1000);
  } catch {
    /* the source was readable a moment ago; keep 0 */
  }
  draft.feeds.push({ key, location: source.location, publisherName: '', publisherUrl: '', lang: '', version: '', createdAtSec });
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

  const f: FeedReading = { source, feed, ids, file, on };
  await readAgencies(draft, f);
  await readFeedInfo(draft, f);
  await readStops(draft, f);
  await readFlexZones(draft, f);
  await readRoutes(draft, f);
  await readCalendars(draft, f);
  await readTrips(draft, f);
  if (ids.trips.size === 0) throw new FeedError(`${source.location}: no usable trip in trips.txt`);
  await readBookingRules(f);
  draft.feedFirstRow.push(draft.stage.rowCount);
  await readStopTimes(draft, f);
  await readFrequencies(draft, f);
  await readTransfers(draft, f);
  await readObjectCodes(draft, f);
}
