/**
 * Reading a point set (places with opportunity counts, `model/point-set.ts`) from a file, for
 * accessibility: a CSV with a header row, or a GeoJSON FeatureCollection of Points.
 *
 * CSV: the id, longitude and latitude columns are `id`, `lon` and `lat` unless the source names
 * others; every other column is an opportunity column, or only those the source lists. An empty count
 * is 0. The CSV is read strictly, one line one row (`point-set-lines.ts`: a quoted field may not span
 * lines), every row with as many fields as the header, its numbers decimal. GeoJSON: the position is
 * the Point's coordinates; the id is the property the source names (`idColumn`), else `feature.id`,
 * else the property `id`, else the feature's index; the opportunity columns are the properties
 * holding a number in some feature (in the order they first appear), a missing or null one being 0.
 *
 * A place that cannot be used is reported to the load report with its line (a CSV's file line, the
 * header being line 1; a GeoJSON feature's index + 1) and skipped: a malformed CSV row (an
 * unterminated quote, too few or too many fields, a last line without its line end: a file cut short
 * or still being written), an empty or repeated id (the first place of an id is kept), a missing,
 * non-decimal or out-of-range position, a count that is not a finite decimal number, is negative or
 * is over MAX_OPPORTUNITY_COUNT (below: so that every sum of counts stays finite and
 * exact), a geometry that is not a Point. A file that cannot be a point set — an unknown extension,
 * a malformed or cut header, a missing id or position column, a listed opportunity column it lacks,
 * more than MAX_POINTS_PER_SET places or 64 opportunity columns, a GeoJSON file past
 * MAX_GEOJSON_BYTES, a file that changed while it was read — throws an Error naming the file.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { inSlices } from '../util/stepwise.js';
import path from 'node:path';
import { LineTooLong } from '../gtfs/csv-reader.js';
import { decimalNumber, PointSetLines, type LineFields } from './point-set-lines.js';
import type { LoadReport } from '../gtfs/load-report.js';
import { growFloat64, type Growable } from '../model/growable.js';
import type { OpportunityColumn, PointSetData, PointSetSource } from '../model/point-set.js';

/** The most places a point set may hold. */
export const MAX_POINTS_PER_SET = 1_000_000;

/**
 * Largest opportunity count of one point of a point set (a billion: more people, jobs or seats than
 * any place holds). A larger or non-finite count makes its row a load problem, skipped. The bound keeps every sum of counts finite and exact: a measure or
 * a column's total sums at most MAX_POINTS_PER_SET (1,000,000) counts, each weighted by at most 1,
 * so it stays under 10^9 × 10^6 = 10^15, below 2^53 (about 9.007 × 10^15), the doubles' last whole
 * number: whole counts sum exactly, in any order, and no answer meets Infinity (counts of 10^308
 * summed to it, which JSON cannot hold).
 */
export const MAX_OPPORTUNITY_COUNT = 1_000_000_000;
/** The most opportunity columns a point set may hold. */
export const MAX_OPPORTUNITY_COLUMNS = 64;

/** The bounds a read keeps to; tests lower them to try them on small files. */
export interface PointSetLimits {
  maxPoints: number;
  maxColumns: number;
  maxGeoJsonBytes: number;
}

/** A GeoJSON point set larger than this is refused (parsed whole; a CSV is read as a stream). */
export const MAX_GEOJSON_BYTES = 256 * 1024 * 1024;
/** GeoJSON features read between two turns of the event loop, at most. */
const FEATURES_PER_STEP = 2000;

/** A CSV line longer than this is refused (64 columns of numbers take a few hundred bytes). */
const MAX_CSV_LINE_BYTES = 1 << 20;

const DEFAULT_LIMITS: PointSetLimits = { maxPoints: MAX_POINTS_PER_SET, maxColumns: MAX_OPPORTUNITY_COLUMNS, maxGeoJsonBytes: MAX_GEOJSON_BYTES };

/** Read the point set `source` names; unusable places go to `report`, an unusable file throws. */
export async function readPointSet(source: PointSetSource, report: LoadReport, limits: PointSetLimits = DEFAULT_LIMITS): Promise<PointSetData> {
  const extension = path.extname(source.file).toLowerCase();
  if (extension === '.csv') return readCsvPointSet(source, report, limits);
  if (extension === '.geojson' || extension === '.json') return readGeoJsonPointSet(source, report, limits);
  throw new Error(`${source.file}: a point set is read from a .csv, .geojson or .json file, not ${extension ? `a ${extension} one` : 'a file without extension'}`);
}

/** The places kept so far, column-wise, with the checks every format shares. */
class PointCollector {
  readonly ids: string[] = [];
  private readonly seenIds = new Set<string>();
  private readonly lon = growFloat64();
  private readonly lat = growFloat64();
  private readonly values: Growable<Float64Array>[];
  private readonly totals: number[];

  constructor(
    private readonly source: PointSetSource,
    private readonly report: LoadReport,
    private readonly limits: PointSetLimits,
    /** 'row' or 'feature', as the reasons name a place of the file. */
    private readonly unit: string,
    private readonly columnNames: string[],
  ) {
    this.values = columnNames.map(() => growFloat64());
    this.totals = columnNames.map(() => 0);
  }

  /** Whether the id and position can be used; when not, the place is reported. */
  placeIsUsable(line: number, id: string, lon: number, lat: number, lonText: string, latText: string): boolean {
    if (id === '') return this.skip(line, 'empty id');
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return this.skip(line, 'missing or non-decimal lon/lat', `lon=${lonText}, lat=${latText}`);
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90) return this.skip(line, 'lon/lat out of range', `lon=${lonText}, lat=${latText}`);
    return true;
  }

  /** Whether `count` (read from `text` of column `column`) is a usable count; when not, the place is reported. */
  countIsUsable(line: number, column: number, count: number, text: string): boolean {
    if (!Number.isFinite(count)) return this.skip(line, 'opportunity count not a finite decimal number', `${this.columnNames[column]}=${text}`);
    if (count < 0) return this.skip(line, 'negative opportunity count', `${this.columnNames[column]}=${text}`);
    if (count > MAX_OPPORTUNITY_COUNT) return this.skip(line, `opportunity count over ${MAX_OPPORTUNITY_COUNT}, the most a point may hold`, `${this.columnNames[column]}=${text}`);
    return true;
  }

  /** Keep a checked place, unless its id was kept before. */
  add(line: number, id: string, lon: number, lat: number, counts: Float64Array): void {
    if (this.seenIds.has(id)) {
      this.report.problem(this.source.file, line, `duplicate id, ${this.unit} skipped (the first ${this.unit} of that id is kept)`, id);
      return;
    }
    if (this.ids.length >= this.limits.maxPoints) {
      throw new Error(`${this.source.file}: more than ${this.limits.maxPoints} points, the most a point set may hold`);
    }
    this.seenIds.add(id);
    this.ids.push(id);
    this.lon.push(lon);
    this.lat.push(lat);
    for (let c = 0; c < counts.length; c++) {
      this.values[c]!.push(counts[c]!);
      this.totals[c]! += counts[c]!;
    }
  }

  /** Report the place with a reason free of its values (they go to the detail); returns false. */
  skip(line: number, what: string, detail = ''): false {
    this.report.problem(this.source.file, line, `${what}, ${this.unit} skipped`, detail);
    return false;
  }

  finish(): PointSetData {
    const columns: OpportunityColumn[] = this.columnNames.map((name, c) => ({ name, values: this.values[c]!.finish(), total: this.totals[c]! }));
    return { name: this.source.name, file: this.source.file, ids: this.ids, lon: this.lon.finish(), lat: this.lat.finish(), columns };
  }
}

/** The header's column index of `name`, or a thrown Error saying what the column was for. */
function requiredColumn(file: string, names: string[], name: string, role: string): number {
  const index = names.indexOf(name);
  if (index < 0) throw new Error(`${file}: no column "${name}" (${role}) in the header`);
  return index;
}

/** The opportunity columns: those the source lists, else every column but the id and the position. */
function chooseColumns(source: PointSetSource, available: string[], placeColumns: string[], limits: PointSetLimits, where: string): string[] {
  let chosen: string[];
  if (source.opportunities) {
    for (const name of source.opportunities) {
      if (placeColumns.includes(name)) throw new Error(`${source.file}: "${name}" is listed as an opportunity column but holds the id or position`);
      if (!available.includes(name)) throw new Error(`${source.file}: no ${where} "${name}", listed as an opportunity column`);
    }
    chosen = source.opportunities;
  } else {
    chosen = available.filter((name) => !placeColumns.includes(name));
  }
  const repeated = chosen.find((name, i) => chosen.indexOf(name) !== i);
  if (repeated !== undefined) throw new Error(`${source.file}: the opportunity column "${repeated}" appears twice`);
  if (chosen.length > limits.maxColumns) {
    throw new Error(`${source.file}: ${chosen.length} opportunity columns, more than the ${limits.maxColumns} a point set may hold`);
  }
  return chosen;
}

/** A CSV header's opportunity columns, once its id and position columns are found and no column is named twice. */
function headerColumns(source: PointSetSource, names: string[], limits: PointSetLimits): string[] {
  const file = source.file;
  const idName = source.idColumn ?? 'id';
  const lonName = source.lonColumn ?? 'lon';
  const latName = source.latColumn ?? 'lat';
  requiredColumn(file, names, idName, 'the id');
  requiredColumn(file, names, lonName, 'the longitude');
  requiredColumn(file, names, latName, 'the latitude');
  const named = names.filter((name) => name !== '');
  const repeatedHeader = named.find((name, i) => named.indexOf(name) !== i);
  if (repeatedHeader !== undefined) throw new Error(`${file}: the column "${repeatedHeader}" appears twice in the header`);
  return chooseColumns(source, named, [idName, lonName, latName], limits, 'column');
}

/**
 * The opportunity columns a CSV point set will have once loaded, from its header alone (what a
 * command refuses before its coverage loads); undefined for a GeoJSON set (its columns are known
 * once it is parsed whole) and for a file the load will refuse, in its own words.
 */
export async function pointSetColumns(source: PointSetSource, limits: PointSetLimits = DEFAULT_LIMITS): Promise<string[] | undefined> {
  if (path.extname(source.file).toLowerCase() !== '.csv') return undefined;
  let header: string[] | undefined;
  const lines = new PointSetLines((_, row, unterminated) => {
    if (header === undefined && !unterminated && !('malformed' in row)) header = row.fields;
  }, MAX_CSV_LINE_BYTES);
  const stream = createReadStream(source.file, { highWaterMark: 1 << 16 });
  try {
    for await (const chunk of stream) {
      lines.push(chunk as Buffer);
      if (header !== undefined) break;
    }
    return header === undefined ? undefined : headerColumns(source, header, limits);
  } catch {
    return undefined;
  } finally {
    stream.destroy();
  }
}

async function readCsvPointSet(source: PointSetSource, report: LoadReport, limits: PointSetLimits): Promise<PointSetData> {
  const file = source.file;
  const idName = source.idColumn ?? 'id';
  const lonName = source.lonColumn ?? 'lon';
  const latName = source.latColumn ?? 'lat';
  let collector: PointCollector | null = null;
  /** The header's field count: every row has as many. */
  let width = 0;
  let idColumn = -1;
  let lonColumn = -1;
  let latColumn = -1;
  /** The header index of each opportunity column. */
  let countColumns: number[] = [];
  let counts = new Float64Array(0);

  const readRow = (line: number, row: LineFields, unterminated: boolean, c: PointCollector): void => {
    if (unterminated) {
      c.skip(line, 'last line without its line end (the file is cut short or still being written)');
      return;
    }
    if ('malformed' in row) {
      c.skip(line, row.malformed);
      return;
    }
    const fields = row.fields;
    if (fields.length !== width) {
      c.skip(line, 'wrong number of fields', `${fields.length} fields, the header has ${width}`);
      return;
    }
    const id = fields[idColumn]!;
    const lonText = fields[lonColumn]!;
    const latText = fields[latColumn]!;
    const lon = decimalNumber(lonText);
    const lat = decimalNumber(latText);
    if (!c.placeIsUsable(line, id, lon, lat, lonText, latText)) return;
    for (let k = 0; k < countColumns.length; k++) {
      const text = fields[countColumns[k]!]!;
      const count = text === '' ? 0 : decimalNumber(text);
      if (!c.countIsUsable(line, k, count, text)) return;
      counts[k] = count;
    }
    c.add(line, id, lon, lat, counts);
  };

  const readHeader = (row: LineFields, unterminated: boolean): PointCollector => {
    if ('malformed' in row) throw new Error(`${file}: the header row is malformed: ${row.malformed}`);
    if (unterminated) throw new Error(`${file}: the header row has no line end (the file is cut short or still being written)`);
    const names = row.fields;
    width = names.length;
    const unnamed = names.filter((name) => name === '').length;
    if (unnamed > 0) report.note(`${file}: ${unnamed} column(s) without a name in the header, ignored`);
    const chosen = headerColumns(source, names, limits);
    idColumn = names.indexOf(idName);
    lonColumn = names.indexOf(lonName);
    latColumn = names.indexOf(latName);
    countColumns = chosen.map((name) => names.indexOf(name));
    counts = new Float64Array(chosen.length);
    return new PointCollector(source, report, limits, 'row', chosen);
  };

  const lines = new PointSetLines((line, row, unterminated) => {
    if (collector) readRow(line, row, unterminated, collector);
    else collector = readHeader(row, unterminated);
  }, MAX_CSV_LINE_BYTES);

  await readSettled(file, async () => {
    try {
      for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) lines.push(chunk as Buffer);
      lines.end();
    } catch (e) {
      if (e instanceof LineTooLong) throw new Error(`${file}: ${e.message}: the point set is refused`);
      throw e;
    }
  });
  const kept = collector as PointCollector | null;
  if (!kept) throw new Error(`${file}: empty, no header row`);
  return kept.finish();
}

/**
 * Run `read` over `file`, refusing the file when it changed meanwhile (its size, time or inode
 * differ after the read): a file being written or replaced is not taken half-written. The load
 * fails and the coverage keeps its data; a watching server sees the change and loads again once
 * the file has settled (service/coverage-reloader.ts).
 */
async function readSettled(file: string, read: () => Promise<void>): Promise<void> {
  const before = await stat(file);
  await read();
  const after = await stat(file);
  if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
    throw new Error(`${file}: changed while it was read (${before.size} bytes when the read began, ${after.size} at its end): the point set is refused until the file settles`);
  }
}

/** The parts of a GeoJSON feature the reader looks at. */
interface GeoJsonFeature {
  id?: unknown;
  geometry?: { type?: unknown; coordinates?: unknown } | null;
  properties?: Record<string, unknown> | null;
}

async function readGeoJsonPointSet(source: PointSetSource, report: LoadReport, limits: PointSetLimits): Promise<PointSetData> {
  const file = source.file;
  // JSON.parse holds the event loop for the whole file: bounded, then the features in slices
  const bytes = (await stat(file)).size;
  if (bytes > limits.maxGeoJsonBytes) throw new Error(`${file}: a GeoJSON point set of ${bytes} bytes is larger than ${limits.maxGeoJsonBytes}: give it as CSV, which is read as a stream`);
  let text = '';
  await readSettled(file, async () => {
    text = await readFile(file, 'utf8');
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) throw new Error(`${file}: not valid JSON (${e.message})`);
    throw e;
  }
  const collection = parsed as { type?: unknown; features?: unknown } | null;
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new Error(`${file}: not a GeoJSON FeatureCollection`);
  }
  return inSlices(geoJsonPlaces(source, collection.features as (GeoJsonFeature | null)[], report, limits));
}

/** The places of a FeatureCollection's features, yielding every FEATURES_PER_STEP features. */
function* geoJsonPlaces(source: PointSetSource, features: (GeoJsonFeature | null)[], report: LoadReport, limits: PointSetLimits): Generator<void, PointSetData> {
  const file = source.file;
  const idName = source.idColumn ?? 'id';
  const placeProperties = [idName, source.lonColumn ?? 'lon', source.latColumn ?? 'lat'];

  // the properties holding a number in some feature, in the order they first appear
  const numeric = new Set<string>();
  for (let index = 0; index < features.length; index++) {
    for (const [name, value] of Object.entries(features[index]?.properties ?? {})) if (typeof value === 'number') numeric.add(name);
    if (index % FEATURES_PER_STEP === FEATURES_PER_STEP - 1) yield;
  }
  const chosen = chooseColumns(source, [...numeric], placeProperties, limits, 'numeric property');
  const collector = new PointCollector(source, report, limits, 'feature', chosen);
  const counts = new Float64Array(chosen.length);

  for (let index = 0; index < features.length; index++) {
    if (index % FEATURES_PER_STEP === FEATURES_PER_STEP - 1) yield;
    const feature = features[index];
    const line = index + 1;
    const geometry = feature?.geometry;
    if (geometry?.type !== 'Point') {
      report.problem(file, line, 'geometry not a Point, feature skipped', geometry ? String(geometry.type) : 'no geometry');
      continue;
    }
    const properties = feature!.properties ?? {};
    const id = featureId(feature!, properties, source.idColumn, index);
    const coordinates = Array.isArray(geometry.coordinates) ? (geometry.coordinates as unknown[]) : [];
    const [lon, lat] = coordinates.map((v) => (typeof v === 'number' ? v : NaN));
    if (!collector.placeIsUsable(line, id, lon ?? NaN, lat ?? NaN, String(coordinates[0]), String(coordinates[1]))) continue;
    let usable = true;
    for (let k = 0; k < chosen.length && usable; k++) {
      const value = properties[chosen[k]!];
      const count = value === undefined || value === null ? 0 : typeof value === 'number' ? value : NaN;
      usable = collector.countIsUsable(line, k, count, typeof value === 'number' ? String(value) : JSON.stringify(value));
      counts[k] = count;
    }
    if (usable) collector.add(line, id, lon!, lat!, counts);
  }
  return collector.finish();
}

/**
 * The id of a feature: the property `idColumn` when the source names one, else `feature.id`, else the
 * property `id`, else the feature's index; a string or number, written as text ('' for anything else).
 */
function featureId(feature: GeoJsonFeature, properties: Record<string, unknown>, idColumn: string | undefined, index: number): string {
  const candidates = idColumn !== undefined ? [properties[idColumn], feature.id] : [feature.id, properties['id']];
  const found = candidates.find((v) => v !== undefined && v !== null);
  if (found === undefined) return String(index);
  return typeof found === 'string' || typeof found === 'number' ? String(found) : '';
}
