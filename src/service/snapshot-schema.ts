/**
 * What a coverage's snapshot must hold before any of it is used: the schema of the meta and of the
 * tree coverage-snapshot.ts reads (the timetable, the load report and the street data), checked
 * after the checksum and the decoding.
 *
 * The checksum tells a damaged file, not a crafted one: whoever writes a file computes its checksum
 * too, and may put any JSON and any bytes under it. So everything the loader, the referential, the
 * API and the searches read without a check of their own is checked here, once:
 *
 *   - shape: every object has exactly the fields of its type, each of its kind (a string, a whole
 *     number, a finite number, a boolean), every typed array of the exact kind the code reads (a
 *     Uint32Array where indexes are unsigned, an Int32Array where -1 means none);
 *   - lengths: the arrays of a table's items have its count of items, its offsets one more, and the
 *     counts written as numbers (vertexCount, routeCount…) are those of the arrays;
 *   - offsets: they start at 0, never decrease and end at the length of the array they cut, and
 *     where two tables cut the same items (a trip's stop times and its pattern's stops, a route's
 *     stop times and its stops × trips) they cut them alike;
 *   - indexes: below the count of the table they index (a trip's pattern, a pattern's stop, a graph
 *     edge's ends, a segment's point within its edge, a route-trip's trip…);
 *   - values the code divides by, loops on or sizes memory with: a frequency's headway above 0, the
 *     calendar within GTFS dates, coordinates finite and on the globe, time zones known and distinct.
 *
 * What is refused is a SnapshotError naming the field, the ordinary refusal after which the coverage
 * loads from its sources. The checks are loops over the typed arrays and the lists, allocating
 * nothing per element: linear in the size of the data (docs/operating.md, "Snapshots", gives the
 * cost). Each type's list of fields is typed against the interface it checks, so a field added to
 * the compiled data fails to compile here until its rule is written.
 */
import type { LoadReportState, Problem } from '../gtfs/load-report.js';
import type { SegmentGrid } from '../model/segment-grid.js';
import { EXTRAS_PER_SQUARE, TILE_SIDE, type LinkLattice } from '../model/link-lattice.js';
import { SnapshotError } from '../model/snapshot-file.js';
import type { StopSnaps } from '../model/stop-snaps.js';
import type { LinkedPoints } from '../model/linked-points.js';
import type { PointSetInfo } from './point-sets.js';
import type { Projection, StreetGraph } from '../model/street-graph.js';
import { LAYER_NAMES } from '../model/street-layers.js';
import { ODT_LEVEL_NAMES, type Agency, type FeedMeta, type Line, type NamedObject, type Route, type StopArea, type Timetable } from '../model/timetable.js';
import type { HeatMapData } from '../routing/heat-map.js';
import type { RaptorData } from '../routing/raptor-data.js';
import { dayNumber } from '../util/calendar.js';
import { isValidTimeZone } from '../util/time-zones.js';
import type { SourceFile } from './source-files.js';
import type { StreetData } from './street-data.js';

/** What a coverage's snapshot records besides its data (the file layer adds the lengths of its parts). */
export interface SnapshotMeta {
  coverage: string;
  /** the Navette version that wrote it (for information: the format version decides) */
  navette: string;
  builtAt: string;
  timezone: string | null;
  sources: SourceFile[];
}

/** The tree of a coverage's snapshot. */
export interface SnapshotTree {
  tt: Timetable;
  report: LoadReportState;
  streets: Omit<StreetData, 'id'> | null;
}

/** Check the meta of a coverage's snapshot (before its sources are compared with the coverage's). */
export function checkSnapshotMeta(meta: unknown, file: string): asserts meta is SnapshotMeta {
  const c = new Checker(file);
  const m = c.someFields<SnapshotMeta>(meta, 'meta', { coverage: isString, navette: isString, builtAt: isString, timezone: isStringOrNull, sources: isArray });
  c.records<SourceFile>(m.sources, 'meta.sources', { path: isString, size: isCount, mtimeMs: isFiniteNumber, sha256: isString });
}

/** What a coverage's configuration says its snapshot holds. */
export interface ExpectedTree {
  /** its GTFS sources: one feed each */
  feedCount: number;
  /** whether it has an OpenStreetMap extract: street data exactly then */
  streets: boolean;
}

/** Check the tree of a coverage's snapshot; throws a SnapshotError naming the first field found wrong. */
export function checkSnapshotTree(tree: unknown, file: string, expected: ExpectedTree): asserts tree is SnapshotTree {
  const c = new Checker(file);
  const root = c.fields<SnapshotTree>(tree, '', { tt: true, report: true, streets: true });
  const tt = checkTimetable(c, root.tt, expected.feedCount);
  checkReport(c, root.report);
  if (!expected.streets) {
    if (root.streets !== null) c.refuse('streets', 'is not null, for a coverage without an OpenStreetMap extract');
  } else {
    checkStreets(c, root.streets, tt);
  }
}

// ---------------------------------------------------------------------------------------------
// The timetable

const TIMETABLE_FIELDS: Record<keyof Timetable, true> = {
  feeds: true,
  timezone: true,
  agencies: true,
  timezones: true,
  agencyTimezone: true,
  physicalModes: true,
  commercialModes: true,
  lines: true,
  routes: true,
  stopAreas: true,
  stopPoints: true,
  trips: true,
  stopTimes: true,
  frequencies: true,
  patterns: true,
  services: true,
  transfers: true,
  headsignTrips: true,
  tripCodes: true,
};

/** GTFS dates run from 0001-01-01 to 9999-12-31 (util/gtfs-times.ts): a calendar outside them was not compiled. */
const FIRST_GTFS_DAY = dayNumber(1, 1, 1);
const LAST_GTFS_DAY = dayNumber(9999, 12, 31);

function checkTimetable(c: Checker, value: unknown, feedCount: number): Timetable {
  const tt = c.fields<Timetable>(value, 'tt', TIMETABLE_FIELDS);
  const feeds = c.records<FeedMeta>(tt.feeds, 'tt.feeds', {
    key: isString,
    location: isString,
    publisherName: isString,
    publisherUrl: isString,
    lang: isString,
    version: isString,
    createdAtSec: isFiniteNumber,
  });
  // one feed per GTFS source of the coverage (generation.ts spreads their dates into Math.max's arguments)
  if (feeds.length !== feedCount) c.refuse('tt.feeds', `holds ${feeds.length} feeds, the coverage has ${feedCount} GTFS sources`);
  c.value(tt.timezone, 'tt.timezone', isTimeZone);
  const timezones = c.strings(tt.timezones, 'tt.timezones');
  c.distinctTimeZones(timezones, 'tt.timezones');
  const agencies = c.records<Agency>(tt.agencies, 'tt.agencies', {
    id: isString,
    name: isString,
    url: isString,
    timezone: isString,
    lang: isString,
    phone: isString,
    feed: isIndexOf(feeds.length, 'tt.feeds'),
  });
  c.below(c.typed(tt.agencyTimezone, Uint16Array, 'tt.agencyTimezone', agencies.length), 'tt.agencyTimezone', timezones.length, 'tt.timezones');
  const physicalModes = c.records<NamedObject>(tt.physicalModes, 'tt.physicalModes', { id: isString, name: isString });
  const commercialModes = c.records<NamedObject>(tt.commercialModes, 'tt.commercialModes', { id: isString, name: isString });
  const lines = c.records<Line>(tt.lines, 'tt.lines', {
    id: isString,
    code: isString,
    name: isString,
    color: isString,
    textColor: isString,
    routeType: isInteger,
    agency: isIndexOf(agencies.length, 'tt.agencies'),
    physicalMode: isIndexOf(physicalModes.length, 'tt.physicalModes'),
    commercialMode: isIndexOf(commercialModes.length, 'tt.commercialModes'),
    feed: isIndexOf(feeds.length, 'tt.feeds'),
  });
  const routes = c.records<Route>(tt.routes, 'tt.routes', { id: isString, name: isString, line: isIndexOf(lines.length, 'tt.lines'), direction: isWithin(-1, 1) });
  const stopAreas = c.records<StopArea>(tt.stopAreas, 'tt.stopAreas', { id: isString, name: isString, lon: isLongitude, lat: isLatitude, fromStation: isBoolean });

  const sp = c.fields<Timetable['stopPoints']>(tt.stopPoints, 'tt.stopPoints', { ids: true, names: true, lon: true, lat: true, area: true, wheelchair: true, isZone: true, platformCodes: true });
  const stopCount = c.strings(sp.ids, 'tt.stopPoints.ids').length;
  c.strings(sp.names, 'tt.stopPoints.names', stopCount);
  c.strings(sp.platformCodes, 'tt.stopPoints.platformCodes', stopCount);
  c.coordinates(sp.lon, sp.lat, 'tt.stopPoints.lon', 'tt.stopPoints.lat', stopCount);
  c.below(c.typed(sp.area, Uint32Array, 'tt.stopPoints.area', stopCount), 'tt.stopPoints.area', stopAreas.length, 'tt.stopAreas');
  c.typed(sp.wheelchair, Uint8Array, 'tt.stopPoints.wheelchair', stopCount);
  c.typed(sp.isZone, Uint8Array, 'tt.stopPoints.isZone', stopCount);

  const st = c.fields<Timetable['stopTimes']>(tt.stopTimes, 'tt.stopTimes', { arrivalSec: true, departureSec: true, pickDrop: true, sequence: true });
  const stopTimeCount = c.typed(st.arrivalSec, Int32Array, 'tt.stopTimes.arrivalSec').length;
  c.typed(st.departureSec, Int32Array, 'tt.stopTimes.departureSec', stopTimeCount);
  c.typed(st.pickDrop, Uint8Array, 'tt.stopTimes.pickDrop', stopTimeCount);
  c.typed(st.sequence, Uint32Array, 'tt.stopTimes.sequence', stopTimeCount);

  const fr = c.fields<Timetable['frequencies']>(tt.frequencies, 'tt.frequencies', { startSec: true, endSec: true, headwaySec: true, exactTimes: true });
  const frequencyCount = c.typed(fr.startSec, Int32Array, 'tt.frequencies.startSec').length;
  c.typed(fr.endSec, Int32Array, 'tt.frequencies.endSec', frequencyCount);
  c.typed(fr.headwaySec, Int32Array, 'tt.frequencies.headwaySec', frequencyCount);
  c.typed(fr.exactTimes, Uint8Array, 'tt.frequencies.exactTimes', frequencyCount);
  // the runs of a row are start + k × headway before end: a headway of 0 would never end (as read-frequencies.ts refuses)
  for (let f = 0; f < frequencyCount; f++) {
    if (!(fr.startSec[f]! >= 0 && fr.endSec[f]! >= fr.startSec[f]! && fr.headwaySec[f]! > 0)) {
      c.refuse(`tt.frequencies[${f}]`, `runs from ${fr.startSec[f]} s to ${fr.endSec[f]} s every ${fr.headwaySec[f]} s (a window from 0 s on, a headway above 0)`);
    }
  }

  const pt = c.fields<Timetable['patterns']>(tt.patterns, 'tt.patterns', { stopOffset: true, stops: true });
  const patternStops = c.typed(pt.stops, Uint32Array, 'tt.patterns.stops');
  c.below(patternStops, 'tt.patterns.stops', stopCount, 'tt.stopPoints');
  const stopOffset = c.typed(pt.stopOffset, Uint32Array, 'tt.patterns.stopOffset');
  if (stopOffset.length === 0) c.refuse('tt.patterns.stopOffset', 'is empty (it has one offset more than there are patterns)');
  const patternCount = stopOffset.length - 1;
  c.offsets(stopOffset, 'tt.patterns.stopOffset', patternCount, patternStops.length);

  const sv = c.fields<Timetable['services']>(tt.services, 'tt.services', { ids: true, firstDay: true, dayCount: true, words: true, bits: true });
  const serviceCount = c.strings(sv.ids, 'tt.services.ids').length;
  c.value(sv.firstDay, 'tt.services.firstDay', isWithin(FIRST_GTFS_DAY, LAST_GTFS_DAY));
  c.value(sv.dayCount, 'tt.services.dayCount', isWithin(1, LAST_GTFS_DAY - sv.firstDay + 1));
  if (sv.words !== Math.ceil(sv.dayCount / 32)) c.refuse('tt.services.words', `is ${describe(sv.words)}, not the ${Math.ceil(sv.dayCount / 32)} words of ${sv.dayCount} days`);
  // every service's words, and never fewer than the words of one day set: the calendar (and what is
  // computed per day of it) stays within the size of the file
  c.typed(sv.bits, Uint32Array, 'tt.services.bits');
  if (sv.bits.length < Math.max(1, serviceCount) * sv.words) c.refuse('tt.services.bits', `holds ${sv.bits.length} words, fewer than the ${sv.words} of each of ${serviceCount} services`);

  const tr = c.fields<Timetable['trips']>(tt.trips, 'tt.trips', TRIP_FIELDS);
  const tripCount = c.strings(tr.ids, 'tt.trips.ids').length;
  c.strings(tr.names, 'tt.trips.names', tripCount);
  c.strings(tr.headsigns, 'tt.trips.headsigns', tripCount);
  c.strings(tr.shortNames, 'tt.trips.shortNames', tripCount);
  c.strings(tr.blockIds, 'tt.trips.blockIds', tripCount);
  c.below(c.typed(tr.route, Uint32Array, 'tt.trips.route', tripCount), 'tt.trips.route', routes.length, 'tt.routes');
  c.below(c.typed(tr.line, Uint32Array, 'tt.trips.line', tripCount), 'tt.trips.line', lines.length, 'tt.lines');
  c.below(c.typed(tr.agency, Uint16Array, 'tt.trips.agency', tripCount), 'tt.trips.agency', agencies.length, 'tt.agencies');
  c.below(c.typed(tr.service, Uint32Array, 'tt.trips.service', tripCount), 'tt.trips.service', serviceCount, 'tt.services');
  c.below(c.typed(tr.pattern, Uint32Array, 'tt.trips.pattern', tripCount), 'tt.trips.pattern', patternCount, 'tt.patterns');
  c.below(c.typed(tr.feed, Uint16Array, 'tt.trips.feed', tripCount), 'tt.trips.feed', feeds.length, 'tt.feeds');
  c.below(c.typed(tr.odtLevel, Uint8Array, 'tt.trips.odtLevel', tripCount), 'tt.trips.odtLevel', ODT_LEVEL_NAMES.length, 'the ODT levels');
  c.typed(tr.wheelchair, Uint8Array, 'tt.trips.wheelchair', tripCount);
  c.typed(tr.bikes, Uint8Array, 'tt.trips.bikes', tripCount);
  c.offsets(c.typed(tr.stopTimeOffset, Uint32Array, 'tt.trips.stopTimeOffset'), 'tt.trips.stopTimeOffset', tripCount, stopTimeCount);
  c.offsets(c.typed(tr.frequencyOffset, Uint32Array, 'tt.trips.frequencyOffset'), 'tt.trips.frequencyOffset', tripCount, frequencyCount);
  // the k-th stop time of a trip is at the k-th stop of its pattern: both have the same count (one at least)
  for (let t = 0; t < tripCount; t++) {
    const stops = tr.stopTimeOffset[t + 1]! - tr.stopTimeOffset[t]!;
    const p = tr.pattern[t]!;
    if (stops === 0 || stops !== stopOffset[p + 1]! - stopOffset[p]!) {
      c.refuse(`tt.trips.stopTimeOffset[${t}]`, `gives trip ${t} ${stops} stop times, its pattern ${p} ${stopOffset[p + 1]! - stopOffset[p]!} stops`);
    }
  }

  const tf = c.fields<Timetable['transfers']>(tt.transfers, 'tt.transfers', { fromStop: true, toStop: true, type: true, minTimeSec: true });
  const transferCount = c.typed(tf.fromStop, Uint32Array, 'tt.transfers.fromStop').length;
  c.below(tf.fromStop, 'tt.transfers.fromStop', stopCount, 'tt.stopPoints');
  c.below(c.typed(tf.toStop, Uint32Array, 'tt.transfers.toStop', transferCount), 'tt.transfers.toStop', stopCount, 'tt.stopPoints');
  c.typed(tf.type, Uint8Array, 'tt.transfers.type', transferCount);
  c.typed(tf.minTimeSec, Int32Array, 'tt.transfers.minTimeSec', transferCount);

  c.tripIndex(tt.headsignTrips, 'tt.headsignTrips', tripCount);
  c.tripIndex(tt.tripCodes, 'tt.tripCodes', tripCount);
  return tt;
}

const TRIP_FIELDS: Record<keyof Timetable['trips'], true> = {
  ids: true,
  names: true,
  headsigns: true,
  shortNames: true,
  route: true,
  line: true,
  agency: true,
  service: true,
  pattern: true,
  feed: true,
  odtLevel: true,
  wheelchair: true,
  bikes: true,
  blockIds: true,
  stopTimeOffset: true,
  frequencyOffset: true,
};

// ---------------------------------------------------------------------------------------------
// The load report

/**
 * The most lines a report's list may hold. LoadReport.restore spreads them into push(), whose
 * arguments live on the stack (200,000 overflow it); a compiled report holds five examples per
 * reason and a few notes per source file, far fewer.
 */
const MAX_REPORT_LINES = 10_000;

function checkReport(c: Checker, value: unknown): void {
  const report = c.fields<LoadReportState>(value, 'report', { counts: true, examples: true, notes: true });
  const counts = c.list(report.counts, 'report.counts');
  for (let i = 0; i < counts.length; i++) {
    const pair: unknown = counts[i];
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || isCount(pair[1]) !== undefined) {
      c.refuse(`report.counts[${i}]`, 'is not a [reason, count] pair');
    }
  }
  const examples = c.records<Problem>(report.examples, 'report.examples', { file: isString, line: isInteger, reason: isString });
  const notes = c.strings(report.notes, 'report.notes');
  for (const [list, path] of [[counts, 'report.counts'], [examples, 'report.examples'], [notes, 'report.notes']] as const) {
    if (list.length > MAX_REPORT_LINES) c.refuse(path, `holds ${list.length} lines, more than a load report's ${MAX_REPORT_LINES}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The street data

function checkStreets(c: Checker, value: unknown, tt: Timetable): void {
  const streets = c.fields<Omit<StreetData, 'id'>>(value, 'streets', { data: true, names: true, stats: true, pointSets: true });
  const names = c.strings(streets.names, 'streets.names');
  c.numbers(streets.stats, 'streets.stats');
  const data = c.fields<HeatMapData>(streets.data, 'streets.data', { graph: true, snaps: true, raptor: true, serviceDayOrigins: true, serviceFirstDay: true, stopLon: true, stopLat: true, pointSets: true });
  const stopCount = tt.stopPoints.ids.length;
  const { firstDay, dayCount } = tt.services;
  const graph = checkGraph(c, data.graph, names.length);
  checkSnaps(c, data.snaps, 'streets.data.snaps', stopCount, graph.edgeCount);
  checkPointSets(c, data.pointSets, streets.pointSets, graph.edgeCount);
  checkRaptor(c, data.raptor, tt);
  if (data.serviceFirstDay !== firstDay) c.refuse('streets.data.serviceFirstDay', `is ${describe(data.serviceFirstDay)}, not tt.services.firstDay (${firstDay})`);
  const origins = c.list(data.serviceDayOrigins, 'streets.data.serviceDayOrigins');
  // one array of service-day origins per time zone (the searches index them by zone)
  if (origins.length !== tt.timezones.length) c.refuse('streets.data.serviceDayOrigins', `holds ${origins.length} arrays for ${tt.timezones.length} time zones`);
  for (let z = 0; z < origins.length; z++) c.finite(c.typed(origins[z], Float64Array, `streets.data.serviceDayOrigins[${z}]`, dayCount), `streets.data.serviceDayOrigins[${z}]`);
  c.coordinates(data.stopLon, data.stopLat, 'streets.data.stopLon', 'streets.data.stopLat', stopCount);
}

const GRAPH_FIELDS: Record<keyof StreetGraph, true> = {
  projection: true,
  vertexCount: true,
  edgeCount: true,
  segmentCount: true,
  vertexNodeId: true,
  vertexX: true,
  vertexY: true,
  vertexParkable: true,
  edgeFrom: true,
  edgeTo: true,
  edgeLengthDm: true,
  edgeAccess: true,
  edgeName: true,
  adjOffset: true,
  adjTarget: true,
  adjEdge: true,
  geomOffset: true,
  geomX: true,
  geomY: true,
  geomAlongM: true,
  segmentEdge: true,
  segmentPoint: true,
  segmentGrid: true,
  linkLattices: true,
};

function checkGraph(c: Checker, value: unknown, nameCount: number): StreetGraph {
  const at = 'streets.data.graph';
  const g = c.fields<StreetGraph>(value, at, GRAPH_FIELDS);
  c.record<Projection>(g.projection, `${at}.projection`, { lon0: isLongitude, lat0: isLatitude, mPerDegLon: isPositiveNumber });
  const vertexCount = c.count(g.vertexCount, `${at}.vertexCount`);
  const edgeCount = c.count(g.edgeCount, `${at}.edgeCount`);
  const segmentCount = c.count(g.segmentCount, `${at}.segmentCount`);

  c.typed(g.vertexNodeId, Float64Array, `${at}.vertexNodeId`, vertexCount);
  c.finite(c.typed(g.vertexX, Float32Array, `${at}.vertexX`, vertexCount), `${at}.vertexX`);
  c.finite(c.typed(g.vertexY, Float32Array, `${at}.vertexY`, vertexCount), `${at}.vertexY`);
  c.typed(g.vertexParkable, Uint8Array, `${at}.vertexParkable`, vertexCount);

  c.below(c.typed(g.edgeFrom, Uint32Array, `${at}.edgeFrom`, edgeCount), `${at}.edgeFrom`, vertexCount, 'the vertices');
  c.below(c.typed(g.edgeTo, Uint32Array, `${at}.edgeTo`, edgeCount), `${at}.edgeTo`, vertexCount, 'the vertices');
  c.typed(g.edgeLengthDm, Uint32Array, `${at}.edgeLengthDm`, edgeCount);
  c.typed(g.edgeAccess, Uint8Array, `${at}.edgeAccess`, edgeCount);
  c.between(c.typed(g.edgeName, Int32Array, `${at}.edgeName`, edgeCount), `${at}.edgeName`, -1, nameCount, 'streets.names');

  const adjTarget = c.typed(g.adjTarget, Uint32Array, `${at}.adjTarget`);
  c.below(adjTarget, `${at}.adjTarget`, vertexCount, 'the vertices');
  const adjEdge = c.typed(g.adjEdge, Uint32Array, `${at}.adjEdge`, adjTarget.length);
  // an adjacency entry is edge × 2 + side
  for (let i = 0; i < adjEdge.length; i++) if (adjEdge[i]! >>> 1 >= edgeCount) c.refuse(`${at}.adjEdge[${i}]`, `names edge ${adjEdge[i]! >>> 1} of ${edgeCount}`);
  c.offsets(c.typed(g.adjOffset, Uint32Array, `${at}.adjOffset`), `${at}.adjOffset`, vertexCount, adjTarget.length);

  const pointCount = c.finite(c.typed(g.geomX, Float32Array, `${at}.geomX`), `${at}.geomX`).length;
  c.finite(c.typed(g.geomY, Float32Array, `${at}.geomY`, pointCount), `${at}.geomY`);
  c.finite(c.typed(g.geomAlongM, Float32Array, `${at}.geomAlongM`, pointCount), `${at}.geomAlongM`);
  const geomOffset = c.offsets(c.typed(g.geomOffset, Uint32Array, `${at}.geomOffset`), `${at}.geomOffset`, edgeCount, pointCount);
  for (let e = 0; e < edgeCount; e++) {
    if (geomOffset[e + 1]! - geomOffset[e]! < 2) c.refuse(`${at}.geomOffset[${e}]`, `gives edge ${e} ${geomOffset[e + 1]! - geomOffset[e]!} points, fewer than its two ends`);
  }
  const segmentEdge = c.typed(g.segmentEdge, Uint32Array, `${at}.segmentEdge`, segmentCount);
  c.below(segmentEdge, `${at}.segmentEdge`, edgeCount, 'the edges');
  const segmentPoint = c.typed(g.segmentPoint, Uint32Array, `${at}.segmentPoint`, segmentCount);
  // a segment runs from its point to the next one, both on its edge's geometry
  for (let s = 0; s < segmentCount; s++) {
    const e = segmentEdge[s]!;
    const p = segmentPoint[s]!;
    if (p < geomOffset[e]! || p + 1 >= geomOffset[e + 1]!) c.refuse(`${at}.segmentPoint[${s}]`, `is point ${p}, outside the points ${geomOffset[e]} to ${geomOffset[e + 1]! - 1} of its edge ${e}`);
  }
  checkSegmentGrid(c, g.segmentGrid, `${at}.segmentGrid`, segmentCount);
  const lattices = c.list(g.linkLattices, `${at}.linkLattices`);
  if (lattices.length !== LAYER_NAMES.length) c.refuse(`${at}.linkLattices`, `holds ${lattices.length} entries, not one per street layer (${LAYER_NAMES.length})`);
  lattices.forEach((lattice, layer) => checkLinkLattice(c, lattice, `${at}.linkLattices[${layer}]`, segmentCount));
  return g;
}

/**
 * The narrowest bucket of a segment grid: a search for the nearest street within LINK_RADIUS_M
 * (600 m) then looks at 60 rings of buckets at most, whatever the grid's shape; a crafted grid of
 * millimetre buckets would make each search visit millions (segment-grid.ts makes them 50 m at least).
 */
const MIN_BUCKET_M = 10;

function checkSegmentGrid(c: Checker, value: unknown, at: string, segmentCount: number): void {
  const grid = c.fields<SegmentGrid>(value, at, { x0: true, y0: true, sizeM: true, cols: true, rows: true, start: true, segments: true, coords: true, access: true });
  c.value(grid.x0, `${at}.x0`, isFiniteNumber);
  c.value(grid.y0, `${at}.y0`, isFiniteNumber);
  c.value(grid.sizeM, `${at}.sizeM`, (v) => (typeof v === 'number' && v >= MIN_BUCKET_M && v < Infinity ? undefined : `is not a finite number from ${MIN_BUCKET_M} m`));
  const cols = c.value<number>(grid.cols, `${at}.cols`, isWithin(1, Number.MAX_SAFE_INTEGER));
  const rows = c.value<number>(grid.rows, `${at}.rows`, isWithin(1, Number.MAX_SAFE_INTEGER));
  const segments = c.typed(grid.segments, Int32Array, `${at}.segments`);
  c.between(segments, `${at}.segments`, 0, segmentCount, 'the segments');
  const start = c.typed(grid.start, Int32Array, `${at}.start`);
  // (cols × rows is compared with an array's length: the buckets are never more than the file holds)
  if (start.length !== cols * rows + 1) c.refuse(`${at}.start`, `holds ${start.length} offsets, not one more than the ${cols} × ${rows} buckets`);
  c.offsets(start, `${at}.start`, cols * rows, segments.length);
  c.finite(c.typed(grid.coords, Float32Array, `${at}.coords`, 4 * segments.length), `${at}.coords`);
  c.typed(grid.access, Uint8Array, `${at}.access`, segments.length);
}

function checkLinkLattice(c: Checker, value: unknown, at: string, segmentCount: number): void {
  const l = c.fields<LinkLattice>(value, at, {
    x0: true,
    y0: true,
    stepM: true,
    cols: true,
    rows: true,
    tileRows: true,
    tileStart: true,
    segments: true,
    place: true,
    extraStart: true,
    extraSquare: true,
    extraSegments: true,
  });
  c.value(l.x0, `${at}.x0`, isFiniteNumber);
  c.value(l.y0, `${at}.y0`, isFiniteNumber);
  c.value(l.stepM, `${at}.stepM`, isPositiveNumber);
  const cols = c.value<number>(l.cols, `${at}.cols`, isWithin(2, Number.MAX_SAFE_INTEGER));
  const rows = c.value<number>(l.rows, `${at}.rows`, isWithin(2, Number.MAX_SAFE_INTEGER));
  const tileRows = Math.ceil(rows / TILE_SIDE);
  if (l.tileRows !== tileRows) c.refuse(`${at}.tileRows`, `is ${describe(l.tileRows)}, not ${tileRows} for ${rows} rows`);
  const segments = c.typed(l.segments, Int32Array, `${at}.segments`);
  c.between(segments, `${at}.segments`, -1, segmentCount, 'the segments');
  const tileStart = c.typed(l.tileStart, Int32Array, `${at}.tileStart`);
  const tiles = tileStart.length - 1;
  // (the tiles are compared with an array's length: never more than the file holds)
  if (tiles !== Math.ceil(cols / TILE_SIDE) * tileRows) c.refuse(`${at}.tileStart`, `holds ${tileStart.length} offsets, not one more than the tiles of ${cols} × ${rows} points`);
  c.offsets(tileStart, `${at}.tileStart`, tiles, segments.length);
  const place = c.typed(l.place, Uint8Array, `${at}.place`, tiles * TILE_SIDE * TILE_SIDE);
  for (let t = 0; t < tiles; t++) {
    const size = tileStart[t + 1]! - tileStart[t]!;
    for (let k = t * TILE_SIDE * TILE_SIDE; k < (t + 1) * TILE_SIDE * TILE_SIDE; k++) {
      if (place[k]! >= size) c.refuse(`${at}.place[${k}]`, `names entry ${place[k]} of its tile's ${size}`);
    }
  }
  // the extra candidates: per tile, squares in increasing order, each with its segments
  const extraStart = c.typed(l.extraStart, Int32Array, `${at}.extraStart`, tiles + 1);
  const extraSquare = c.typed(l.extraSquare, Uint8Array, `${at}.extraSquare`);
  c.offsets(extraStart, `${at}.extraStart`, tiles, extraSquare.length);
  const extraSegments = c.typed(l.extraSegments, Int32Array, `${at}.extraSegments`, extraSquare.length * EXTRAS_PER_SQUARE);
  c.between(extraSegments, `${at}.extraSegments`, -1, segmentCount, 'the segments');
  for (let t = 0; t < tiles; t++) {
    for (let k = extraStart[t]! + 1; k < extraStart[t + 1]!; k++) {
      if (extraSquare[k]! <= extraSquare[k - 1]!) c.refuse(`${at}.extraSquare[${k}]`, `does not follow ${extraSquare[k - 1]} in its tile`);
    }
  }
}

/** The point sets: each linked set (on shared memory) beside its ids and totals, of one length. */
function checkPointSets(c: Checker, linkedValue: unknown, infoValue: unknown, edgeCount: number): void {
  const linked = c.list(linkedValue, 'streets.data.pointSets');
  const infos = c.list(infoValue, 'streets.pointSets');
  if (linked.length !== infos.length) c.refuse('streets.pointSets', `describes ${infos.length} point sets, the data holds ${linked.length}`);
  linked.forEach((value, k) => {
    const at = `streets.data.pointSets[${k}]`;
    const set = c.fields<LinkedPoints>(value, at, { name: true, lon: true, lat: true, links: true, columns: true });
    const info = c.fields<PointSetInfo>(infos[k], `streets.pointSets[${k}]`, { name: true, file: true, ids: true, columns: true, unlinked: true });
    const ids = c.strings(info.ids, `streets.pointSets[${k}].ids`);
    const count = ids.length;
    if (typeof set.name !== 'string' || set.name !== info.name) c.refuse(`${at}.name`, `is not the name its description gives (${describe(info.name)})`);
    if (typeof info.file !== 'string') c.refuse(`streets.pointSets[${k}].file`, 'is not a file name');
    c.count(info.unlinked, `streets.pointSets[${k}].unlinked`);
    c.coordinates(set.lon, set.lat, `${at}.lon`, `${at}.lat`, count);
    checkSnaps(c, set.links, `${at}.links`, count, edgeCount);
    const columns = c.records<{ name: string; values: Float64Array }>(set.columns, `${at}.columns`, { name: isString, values: (v) => (v instanceof Float64Array && v.length === count ? undefined : `is not a Float64Array of ${count} counts`) });
    const totals = c.records<{ name: string; total: number }>(info.columns, `streets.pointSets[${k}].columns`, { name: isString, total: (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'is not a finite total from 0') });
    if (totals.length !== columns.length) c.refuse(`streets.pointSets[${k}].columns`, `describes ${totals.length} columns, the data holds ${columns.length}`);
    columns.forEach((column, j) => {
      const path = `${at}.columns[${j}].values`;
      c.finite(column.values, path);
      if (column.values.some((v) => v < 0)) c.refuse(path, 'holds a negative count');
    });
  });
}

function checkSnaps(c: Checker, value: unknown, at: string, stopCount: number, edgeCount: number): void {
  const snaps = c.fields<StopSnaps>(value, at, { edge: true, alongM: true, offsetM: true, unsnapped: true });
  const layers = LAYER_NAMES.length;
  const perLayer = (list: unknown, name: string): unknown[] => {
    const arrays = c.list(list, `${at}.${name}`);
    if (arrays.length !== layers) c.refuse(`${at}.${name}`, `holds ${arrays.length} entries, not one per street layer (${layers})`);
    return arrays;
  };
  const edges = perLayer(snaps.edge, 'edge');
  const along = perLayer(snaps.alongM, 'alongM');
  const offsets = perLayer(snaps.offsetM, 'offsetM');
  const unsnapped = perLayer(snaps.unsnapped, 'unsnapped');
  for (let layer = 0; layer < layers; layer++) {
    c.between(c.typed(edges[layer], Int32Array, `${at}.edge[${layer}]`, stopCount), `${at}.edge[${layer}]`, -1, edgeCount, 'the edges');
    c.finite(c.typed(along[layer], Float32Array, `${at}.alongM[${layer}]`, stopCount), `${at}.alongM[${layer}]`);
    c.finite(c.typed(offsets[layer], Float32Array, `${at}.offsetM[${layer}]`, stopCount), `${at}.offsetM[${layer}]`);
    c.count(unsnapped[layer], `${at}.unsnapped[${layer}]`);
  }
}

const RAPTOR_FIELDS: Record<keyof RaptorData, true> = {
  stopCount: true,
  routeCount: true,
  routeTripCount: true,
  tripCount: true,
  timezoneCount: true,
  minTimeSec: true,
  maxTimeSec: true,
  routeStopOffset: true,
  routeStops: true,
  routeTripOffset: true,
  routeStopTimeOffset: true,
  routeTimezone: true,
  routeMinSec: true,
  routeMaxSec: true,
  routeDayBits: true,
  routeTripTrip: true,
  routeTripService: true,
  arrivalSec: true,
  departureSec: true,
  boardAlight: true,
  stopRouteOffset: true,
  stopRoutes: true,
  stopRoutePos: true,
  transferOffset: true,
  transferTo: true,
  transferFixedSec: true,
  transferLengthM: true,
  transferInOffset: true,
  transferInEdge: true,
  transferInFrom: true,
  stopStaySec: true,
  stopWheelchair: true,
  tripWheelchair: true,
  serviceFirstDay: true,
  serviceDayCount: true,
  serviceWords: true,
  serviceBits: true,
};

function checkRaptor(c: Checker, value: unknown, tt: Timetable): void {
  const at = 'streets.data.raptor';
  const d = c.fields<RaptorData>(value, at, RAPTOR_FIELDS);
  const stopCount = tt.stopPoints.ids.length;
  const tripCount = tt.trips.ids.length;
  const { services } = tt;
  // the transit search data is compiled from the timetable: it has its counts and its calendar
  c.same(d.stopCount, `${at}.stopCount`, stopCount, 'the stop points of tt.stopPoints');
  c.same(d.tripCount, `${at}.tripCount`, tripCount, 'the trips of tt.trips');
  c.same(d.timezoneCount, `${at}.timezoneCount`, tt.timezones.length, 'the time zones of tt.timezones');
  c.same(d.serviceFirstDay, `${at}.serviceFirstDay`, services.firstDay, 'tt.services.firstDay');
  c.same(d.serviceDayCount, `${at}.serviceDayCount`, services.dayCount, 'tt.services.dayCount');
  c.same(d.serviceWords, `${at}.serviceWords`, services.words, 'tt.services.words');
  c.typed(d.serviceBits, Uint32Array, `${at}.serviceBits`, services.bits.length);
  // stop times are Int32: so are their bounds (the search steps back over the days a run may span from them)
  c.value(d.minTimeSec, `${at}.minTimeSec`, isWithin(-(2 ** 31), 2 ** 31 - 1));
  c.value(d.maxTimeSec, `${at}.maxTimeSec`, isWithin(-(2 ** 31), 2 ** 31 - 1));
  const routeCount = c.count(d.routeCount, `${at}.routeCount`);
  const routeTripCount = c.count(d.routeTripCount, `${at}.routeTripCount`);
  const serviceCount = services.ids.length;

  const routeStops = c.typed(d.routeStops, Uint32Array, `${at}.routeStops`);
  c.below(routeStops, `${at}.routeStops`, stopCount, 'tt.stopPoints');
  const routeStopOffset = c.offsets(c.typed(d.routeStopOffset, Uint32Array, `${at}.routeStopOffset`), `${at}.routeStopOffset`, routeCount, routeStops.length);
  const routeTripOffset = c.offsets(c.typed(d.routeTripOffset, Uint32Array, `${at}.routeTripOffset`), `${at}.routeTripOffset`, routeCount, routeTripCount);
  c.below(c.typed(d.routeTripTrip, Uint32Array, `${at}.routeTripTrip`, routeTripCount), `${at}.routeTripTrip`, tripCount, 'tt.trips');
  c.below(c.typed(d.routeTripService, Uint32Array, `${at}.routeTripService`, routeTripCount), `${at}.routeTripService`, serviceCount, 'tt.services');
  const stopTimeCount = c.typed(d.arrivalSec, Int32Array, `${at}.arrivalSec`).length;
  c.typed(d.departureSec, Int32Array, `${at}.departureSec`, stopTimeCount);
  c.typed(d.boardAlight, Uint8Array, `${at}.boardAlight`, stopTimeCount);
  const routeStopTimeOffset = c.offsets(c.typed(d.routeStopTimeOffset, Uint32Array, `${at}.routeStopTimeOffset`), `${at}.routeStopTimeOffset`, routeCount, stopTimeCount);
  // a route's stop times are a block of its trips × its stops, read at offset + trip × stops + position
  for (let r = 0; r < routeCount; r++) {
    const stops = routeStopOffset[r + 1]! - routeStopOffset[r]!;
    const trips = routeTripOffset[r + 1]! - routeTripOffset[r]!;
    if (routeStopTimeOffset[r + 1]! - routeStopTimeOffset[r]! !== stops * trips) {
      c.refuse(`${at}.routeStopTimeOffset[${r}]`, `gives route ${r} ${routeStopTimeOffset[r + 1]! - routeStopTimeOffset[r]!} stop times, not its ${trips} trips × ${stops} stops`);
    }
  }
  c.below(c.typed(d.routeTimezone, Uint16Array, `${at}.routeTimezone`, routeCount), `${at}.routeTimezone`, tt.timezones.length, 'tt.timezones');
  c.typed(d.routeMinSec, Int32Array, `${at}.routeMinSec`, routeCount);
  c.typed(d.routeMaxSec, Int32Array, `${at}.routeMaxSec`, routeCount);
  c.typed(d.routeDayBits, Uint32Array, `${at}.routeDayBits`, routeCount * services.words);

  const stopRoutes = c.typed(d.stopRoutes, Uint32Array, `${at}.stopRoutes`);
  c.below(stopRoutes, `${at}.stopRoutes`, routeCount, 'the routes');
  c.offsets(c.typed(d.stopRouteOffset, Uint32Array, `${at}.stopRouteOffset`), `${at}.stopRouteOffset`, stopCount, stopRoutes.length);
  const stopRoutePos = c.typed(d.stopRoutePos, Uint32Array, `${at}.stopRoutePos`, stopRoutes.length);
  for (let k = 0; k < stopRoutePos.length; k++) {
    const r = stopRoutes[k]!;
    if (stopRoutePos[k]! >= routeStopOffset[r + 1]! - routeStopOffset[r]!) c.refuse(`${at}.stopRoutePos[${k}]`, `is position ${stopRoutePos[k]} on route ${r} of ${routeStopOffset[r + 1]! - routeStopOffset[r]!} stops`);
  }

  const transferTo = c.typed(d.transferTo, Uint32Array, `${at}.transferTo`);
  const transferCount = transferTo.length;
  c.below(transferTo, `${at}.transferTo`, stopCount, 'tt.stopPoints');
  c.offsets(c.typed(d.transferOffset, Uint32Array, `${at}.transferOffset`), `${at}.transferOffset`, stopCount, transferCount);
  c.typed(d.transferFixedSec, Int32Array, `${at}.transferFixedSec`, transferCount);
  // (NaN is a connection without a walking length)
  c.typed(d.transferLengthM, Float64Array, `${at}.transferLengthM`, transferCount);
  const transferInEdge = c.typed(d.transferInEdge, Uint32Array, `${at}.transferInEdge`);
  c.below(transferInEdge, `${at}.transferInEdge`, transferCount, 'the connections');
  c.offsets(c.typed(d.transferInOffset, Uint32Array, `${at}.transferInOffset`), `${at}.transferInOffset`, stopCount, transferInEdge.length);
  c.below(c.typed(d.transferInFrom, Uint32Array, `${at}.transferInFrom`, transferInEdge.length), `${at}.transferInFrom`, stopCount, 'tt.stopPoints');
  c.typed(d.stopStaySec, Int32Array, `${at}.stopStaySec`, stopCount);
  c.typed(d.stopWheelchair, Uint8Array, `${at}.stopWheelchair`, stopCount);
  c.typed(d.tripWheelchair, Uint8Array, `${at}.tripWheelchair`, tripCount);
}

// ---------------------------------------------------------------------------------------------
// Rules and the checker

/** Why a value is refused (completing "<field> …"), or undefined when it is accepted. */
type Rule = (value: unknown) => string | undefined;

const isString: Rule = (v) => (typeof v === 'string' ? undefined : 'is not a string');
const isStringOrNull: Rule = (v) => (v === null || typeof v === 'string' ? undefined : 'is neither a string nor null');
const isBoolean: Rule = (v) => (typeof v === 'boolean' ? undefined : 'is not a boolean');
const isArray: Rule = (v) => (Array.isArray(v) ? undefined : 'is not a list');
const isFiniteNumber: Rule = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'is not a finite number');
const isPositiveNumber: Rule = (v) => (typeof v === 'number' && v > 0 && v < Infinity ? undefined : 'is not a finite number above 0');
const isInteger: Rule = (v) => (Number.isSafeInteger(v) ? undefined : 'is not a whole number');
const isCount: Rule = (v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'is not a whole number from 0');
const isTimeZone: Rule = (v) => (typeof v === 'string' && isValidTimeZone(v) ? undefined : 'is not a known time zone');
/** A whole number from lo to hi. */
const isWithin =
  (lo: number, hi: number): Rule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= lo && (v as number) <= hi ? undefined : `is not a whole number from ${lo} to ${hi}`;
const isIndexOf =
  (count: number, table: string): Rule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) < count ? undefined : `is not an index of ${table} (${count} of them)`;
// (comparisons are false for NaN: a NaN coordinate is refused too)
const isLongitude: Rule = (v) => (typeof v === 'number' && v >= -180 && v <= 180 ? undefined : 'is not a longitude');
const isLatitude: Rule = (v) => (typeof v === 'number' && v >= -90 && v <= 90 ? undefined : 'is not a latitude');

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** The checks, each failing with a SnapshotError that names the file and the field. */
class Checker {
  constructor(private readonly file: string) {}

  refuse(path: string, why: string): never {
    throw new SnapshotError(`${this.file} is damaged: ${path} ${why}`);
  }

  /** `value` as a whole number from 0 (a count). */
  count(value: unknown, path: string): number {
    return this.value<number>(value, path, isCount);
  }

  /** `value` as a list. */
  list(value: unknown, path: string): unknown[] {
    return this.value<unknown[]>(value, path, isArray);
  }

  /** `value` accepted by `rule`. */
  value<T = unknown>(value: unknown, path: string, rule: Rule): T {
    const why = rule(value);
    if (why !== undefined) this.refuse(path, why);
    return value as T;
  }

  /** `value` as an object with exactly the own fields of `fields` (any other is refused: it is no field of the data). */
  fields<T>(value: unknown, path: string, fields: { [K in keyof T]: unknown }): T {
    if (!isPlainObject(value)) this.refuse(path || 'its tree', 'is not an object');
    let count = 0;
    for (const key in value) {
      if (!Object.hasOwn(fields, key)) this.refuse(fieldPath(path, key), 'is not a field of the data');
      count++;
    }
    if (count !== Object.keys(fields).length) this.missingField(value, path, fields);
    return value as T;
  }

  /** `value` as an object whose fields named in `rules` are accepted by them (others are left alone). */
  someFields<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T {
    if (!isPlainObject(value)) this.refuse(path, 'is not an object');
    for (const key in rules) {
      if (!Object.hasOwn(value, key)) this.refuse(`${path}.${key}`, 'is missing');
      const why = rules[key](value[key]);
      if (why !== undefined) this.refuse(`${path}.${key}`, why);
    }
    return value as T;
  }

  /** `value` as an object with exactly the fields of `rules`, each accepted by its rule. */
  record<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T {
    this.recordAt(value, path, -1, rules as Record<string, Rule>, Object.keys(rules).length);
    return value as T;
  }

  /** `value` as a list of records (see `record`). */
  records<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T[] {
    if (!Array.isArray(value)) this.refuse(path, 'is not a list');
    const fieldCount = Object.keys(rules).length;
    for (let i = 0; i < value.length; i++) this.recordAt(value[i], path, i, rules as Record<string, Rule>, fieldCount);
    return value as T[];
  }

  /** Item `index` of the list at `path` (or the object at `path` for -1); its path is written only to refuse it. */
  private recordAt(item: unknown, path: string, index: number, rules: Record<string, Rule>, fieldCount: number): void {
    if (!isPlainObject(item)) this.refuse(itemPath(path, index), 'is not an object');
    let count = 0;
    for (const key in item) {
      if (!Object.hasOwn(rules, key)) this.refuse(`${itemPath(path, index)}.${key}`, 'is not a field of the data');
      const why = rules[key]!(item[key]);
      if (why !== undefined) this.refuse(`${itemPath(path, index)}.${key}`, why);
      count++;
    }
    if (count !== fieldCount) this.missingField(item, itemPath(path, index), rules);
  }

  private missingField(value: Record<string, unknown>, path: string, fields: object): never {
    const missing = Object.keys(fields).find((key) => !Object.hasOwn(value, key))!;
    this.refuse(fieldPath(path, missing), 'is missing');
  }

  /** `value` as an object of named finite numbers (any names). */
  numbers(value: unknown, path: string): void {
    if (!isPlainObject(value)) this.refuse(path, 'is not an object');
    for (const key in value) this.value(value[key], `${path}.${key}`, isFiniteNumber);
  }

  /** `value` as a list of strings, of `length` when given. */
  strings(value: unknown, path: string, length?: number): string[] {
    if (!Array.isArray(value)) this.refuse(path, 'is not a list');
    if (length !== undefined && value.length !== length) this.refuse(path, `holds ${value.length} strings, not ${length}`);
    for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') this.refuse(`${path}[${i}]`, 'is not a string');
    return value as string[];
  }

  /** Time zones the runtime knows, each named once (the searches size their memory by their count). */
  distinctTimeZones(zones: string[], path: string): void {
    const seen = new Set<string>();
    for (let i = 0; i < zones.length; i++) {
      this.value(zones[i], `${path}[${i}]`, isTimeZone);
      if (seen.has(zones[i]!)) this.refuse(`${path}[${i}]`, `names ${zones[i]} a second time`);
      seen.add(zones[i]!);
    }
  }

  /** `value` as a typed array of exactly `Kind` (not another kind of the same size), of `length` when given. */
  typed<T extends TypedArray>(value: unknown, Kind: { readonly prototype: T; readonly name: string }, path: string, length?: number): T {
    if (!ArrayBuffer.isView(value) || Object.getPrototypeOf(value) !== Kind.prototype) this.refuse(path, `is ${describe(value)}, not ${withArticle(Kind.name)}`);
    const array = value as T;
    if (length !== undefined && array.length !== length) this.refuse(path, `holds ${array.length} values, not ${length}`);
    return array;
  }

  /** Counts written as a number are the counts of the data they describe. */
  same(value: unknown, path: string, expected: number, what: string): void {
    if (value !== expected) this.refuse(path, `is ${describe(value)}, not the ${expected} of ${what}`);
  }

  /** Every value an index of a table of `count` items (unsigned kinds: from 0 already). */
  below(array: Uint8Array | Uint16Array | Uint32Array, path: string, count: number, table: string): void {
    for (let i = 0; i < array.length; i++) if (array[i]! >= count) this.refuse(`${path}[${i}]`, `is ${array[i]}, not an index of ${table} (${count} of them)`);
  }

  /** Every value from `lo` to below `count` (lo = -1: an index, or -1 for none). */
  between(array: Int32Array, path: string, lo: number, count: number, table: string): void {
    for (let i = 0; i < array.length; i++) {
      const v = array[i]!;
      if (v < lo || v >= count) this.refuse(`${path}[${i}]`, `is ${v}, not ${lo < 0 ? 'none (-1) nor ' : ''}an index of ${table} (${count} of them)`);
    }
  }

  /** Every value a finite number. */
  finite<T extends Float32Array | Float64Array>(array: T, path: string): T {
    // (v - v is 0 for a finite v, NaN for NaN and the infinities: one subtraction, no call)
    for (let i = 0; i < array.length; i++) if (array[i]! - array[i]! !== 0) this.refuse(`${path}[${i}]`, `is ${array[i]}, not a finite number`);
    return array;
  }

  /** Longitudes and latitudes (Float64Arrays) of `count` points, on the globe. */
  coordinates(lon: unknown, lat: unknown, lonPath: string, latPath: string, count: number): void {
    const lons = this.typed(lon, Float64Array, lonPath, count);
    const lats = this.typed(lat, Float64Array, latPath, count);
    // (comparisons are false for NaN: a NaN coordinate is refused too)
    for (let i = 0; i < count; i++) {
      if (!(lons[i]! >= -180 && lons[i]! <= 180)) this.refuse(`${lonPath}[${i}]`, `is ${lons[i]}, not a longitude`);
      if (!(lats[i]! >= -90 && lats[i]! <= 90)) this.refuse(`${latPath}[${i}]`, `is ${lats[i]}, not a latitude`);
    }
  }

  /**
   * Offsets cutting `items` items into `groups` groups: group g is [offsets[g], offsets[g+1]). One
   * more offset than groups, from 0, never decreasing, ending at the items' count.
   */
  offsets<T extends Uint32Array | Int32Array>(offsets: T, path: string, groups: number, items: number): T {
    if (offsets.length !== groups + 1) this.refuse(path, `holds ${offsets.length} offsets, not one more than the ${groups} it cuts`);
    if (offsets[0] !== 0) this.refuse(`${path}[0]`, `is ${offsets[0]}, not 0`);
    for (let g = 0; g < groups; g++) if (offsets[g + 1]! < offsets[g]!) this.refuse(`${path}[${g + 1}]`, `is ${offsets[g + 1]}, below the offset before it (${offsets[g]})`);
    if (offsets[groups] !== items) this.refuse(`${path}[${groups}]`, `is ${offsets[groups]}, not the end of the ${items} items it cuts`);
    return offsets;
  }

  /** A map from strings to ascending trips (what the headsign and code lookups read). */
  tripIndex(value: unknown, path: string, tripCount: number): void {
    if (!(value instanceof Map)) this.refuse(path, 'is not a map');
    value.forEach((trips: unknown, key: unknown) => {
      if (typeof key !== 'string') this.refuse(path, `has a key that is not a string (${describe(key)})`);
      const list = this.typed(trips, Uint32Array, `${path}{${key}}`);
      for (let i = 0; i < list.length; i++) {
        if (list[i]! >= tripCount) this.refuse(`${path}{${key}}[${i}]`, `is ${list[i]}, not an index of tt.trips (${tripCount} of them)`);
        if (i > 0 && list[i]! < list[i - 1]!) this.refuse(`${path}{${key}}[${i}]`, 'is below the trip before it (the trips are listed in ascending order)');
      }
    });
  }
}

/**
 * A value as a refusal names it: a number or a short string as it is, anything else by its kind
 * (never through its own toString, which a crafted object may have replaced by a number).
 */
function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (ArrayBuffer.isView(value)) return withArticle(Object.getPrototypeOf(value).constructor.name);
  return value instanceof Map ? 'a map' : withArticle(typeof value);
}

/** "an Int32Array", "a Uint32Array", "an object". */
function withArticle(name: string): string {
  return `${/^[AEIOaeio]/.test(name) ? 'an' : 'a'} ${name}`;
}

function fieldPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function itemPath(path: string, index: number): string {
  return index < 0 ? path : `${path}[${index}]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
