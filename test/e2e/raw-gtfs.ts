/**
 * A second, deliberately plain reading of GTFS feeds for the end-to-end tests. It unzips with yauzl's
 * own inflater, parses with csv-parse and computes every figure straight from the raw files
 * (service days from calendar.txt and calendar_dates.txt, first departures, frequencies, time zone
 * offsets from Intl), without any code of src/. The tests compare its figures with the loader's
 * Timetable and with the HTTP API.
 *
 * It favours clarity over speed: a file is parsed whole into arrays of strings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';

// ---------------------------------------------------------------------------------------------------
// Files and tables

export class RawTable {
  private readonly index = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly header: string[],
    readonly rows: string[][],
  ) {
    header.forEach((h, i) => {
      if (!this.index.has(h)) this.index.set(h, i);
    });
  }

  /** Index of a column, -1 when the file lacks it. */
  col(name: string): number {
    return this.index.get(name) ?? -1;
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  /** The value of a column in a row ('' when absent). */
  get(row: string[], name: string): string {
    const i = this.col(name);
    return i < 0 ? '' : (row[i] ?? '');
  }
}

export class RawFeed {
  private readonly tables = new Map<string, RawTable>();

  private constructor(
    readonly file: string,
    /** null for a folder of text files */
    private readonly zip: yauzl.ZipFile | null,
    private readonly entries: Map<string, yauzl.Entry | string>,
  ) {}

  /**
   * Open a zip: the whole file is read into memory, up to the end of its central directory. A
   * folder (a feed written by test/helpers/gtfs-fixture.ts) is read file by file.
   */
  static async open(file: string): Promise<RawFeed> {
    if (statSync(file).isDirectory()) {
      const files = new Map<string, string>();
      for (const name of readdirSync(file)) if (statSync(path.join(file, name)).isFile()) files.set(name, path.join(file, name));
      return new RawFeed(file, null, files);
    }
    const bytes = readFileSync(file);
    // Some feeds carry extra bytes after the archive (see rt/caltrain): cut the buffer after the
    // last end-of-central-directory record whose comment fits.
    let end = bytes.length;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 200_000); i--) {
      if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) {
        const e = i + 22 + bytes.readUInt16LE(i + 20);
        if (e <= bytes.length) {
          end = e;
          break;
        }
      }
    }
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(bytes.subarray(0, end), { lazyEntries: true }, (err, z) => (err || !z ? reject(err ?? new Error('no zip')) : resolve(z))),
    );
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/')) entries.set(path.posix.basename(entry.fileName), entry);
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
    return new RawFeed(file, zip, entries);
  }

  get fileNames(): string[] {
    return [...this.entries.keys()];
  }

  hasFile(name: string): boolean {
    return this.entries.has(name);
  }

  async bytes(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`${name} is not in ${this.file}`);
    if (typeof entry === 'string') return readFileSync(entry);
    const zip = this.zip!;
    return new Promise<Buffer>((resolve, reject) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err ?? new Error('no stream'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      });
    });
  }

  /** A CSV table (an empty one when the file is absent). */
  async table(name: string): Promise<RawTable> {
    let t = this.tables.get(name);
    if (t) return t;
    if (!this.entries.has(name)) {
      t = new RawTable(name, [], []);
    } else {
      const records = parse(await this.bytes(name), {
        bom: true,
        trim: true,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
      }) as string[][];
      t = new RawTable(name, records[0] ?? [], records.slice(1));
    }
    this.tables.set(name, t);
    return t;
  }

  close(): void {
    this.zip?.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Dates, times and time zones

const DAY_SEC = 86400;

/** The time zone of each route (its agency's), and the feed's (its first agency's). */
export async function routeTimezones(feed: RawFeed): Promise<{ feedTimezone: string; ofRoute: Map<string, string> }> {
  const agency = await feed.table('agency.txt');
  const feedTimezone = agency.get(agency.rows[0]!, 'agency_timezone');
  const ofAgency = new Map<string, string>();
  for (const r of agency.rows) if (!ofAgency.has(agency.get(r, 'agency_id'))) ofAgency.set(agency.get(r, 'agency_id'), agency.get(r, 'agency_timezone'));
  const routes = await feed.table('routes.txt');
  const ofRoute = new Map<string, string>();
  for (const r of routes.rows) ofRoute.set(routes.get(r, 'route_id'), ofAgency.get(routes.get(r, 'agency_id')) ?? feedTimezone);
  return { feedTimezone, ofRoute };
}

/** `H:MM:SS` (hours may pass 24) in seconds, null when empty. */
export function gtfsTime(text: string): number | null {
  if (text === '') return null;
  const m = /^(\d+):(\d\d):(\d\d)$/.exec(text);
  if (!m) throw new Error(`not a GTFS time: ${text}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** `YYYYMMDD` as a day number (days since 1970-01-01). */
export function gtfsDay(text: string): number {
  const m = /^(\d{4})(\d\d)(\d\d)$/.exec(text);
  if (!m) throw new Error(`not a GTFS date: ${text}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
}

export function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
}

/** 0 = Sunday … 6 = Saturday. */
function weekdayOf(day: number): number {
  return new Date(day * 86_400_000).getUTCDay();
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Seconds east of UTC in `timeZone` at `epochSec`, read from Intl's wall-clock rendering. */
export function utcOffset(timeZone: string, epochSec: number): number {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(epochSec * 1000)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p['year']), Number(p['month']) - 1, Number(p['day']), Number(p['hour']), Number(p['minute']), Number(p['second'])) / 1000;
  return wall - epochSec;
}

/** The instant of a local wall-clock time (not in a DST gap or overlap) of `day` in `timeZone`. */
export function localTime(timeZone: string, day: number, secondOfDay: number): number {
  const wall = day * DAY_SEC + secondOfDay;
  let t = wall - utcOffset(timeZone, wall);
  t = wall - utcOffset(timeZone, t);
  if (t + utcOffset(timeZone, t) !== wall) throw new Error(`no single instant for ${dayText(day)} ${secondOfDay} s in ${timeZone}`);
  return t;
}

/** GTFS service day origin: noon minus 12 h, local time. */
export function serviceDayOrigin(timeZone: string, day: number): number {
  return localTime(timeZone, day, 12 * 3600) - 12 * 3600;
}

/** `YYYYMMDDThhmmss` of a day and a second of that day (for naive query parameters). */
export function naiveDatetime(day: number, secondOfDay: number): string {
  const hh = Math.floor(secondOfDay / 3600);
  const mm = Math.floor((secondOfDay % 3600) / 60);
  const ss = secondOfDay % 60;
  return `${dayText(day)}T${String(hh).padStart(2, '0')}${String(mm).padStart(2, '0')}${String(ss).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------
// What the feed says

/** Days on which each service runs: calendar.txt weekdays in [start, end], then calendar_dates.txt. */
export async function serviceDays(feed: RawFeed): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>();
  const of = (id: string) => {
    let s = out.get(id);
    if (!s) out.set(id, (s = new Set()));
    return s;
  };
  const cal = await feed.table('calendar.txt');
  const names = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
  const seen = new Set<string>();
  for (const r of cal.rows) {
    const id = cal.get(r, 'service_id');
    if (seen.has(id)) continue; // a repeated service_id: the first row counts
    seen.add(id);
    const days = of(id);
    for (let d = gtfsDay(cal.get(r, 'start_date')); d <= gtfsDay(cal.get(r, 'end_date')); d++) {
      if (cal.get(r, names[weekdayOf(d)]!) === '1') days.add(d);
    }
  }
  const dates = await feed.table('calendar_dates.txt');
  for (const r of dates.rows) {
    const days = of(dates.get(r, 'service_id'));
    const d = gtfsDay(dates.get(r, 'date'));
    if (dates.get(r, 'exception_type') === '1') days.add(d);
    else if (dates.get(r, 'exception_type') === '2') days.delete(d);
  }
  return out;
}

export interface RawTrip {
  id: string;
  routeId: string;
  serviceId: string;
  blockId: string;
  /** Time zone of the trip's agency. */
  timezone: string;
  agencyId: string;
  /** stop_times rows of the trip */
  stopTimes: number;
  /** departure (else arrival) of the row with the smallest stop_sequence; null when untimed */
  firstDeparture: number | null;
  /** frequencies.txt rows of the trip */
  frequencies: { start: number; end: number; headway: number; exact: boolean }[];
}

/** Every trip of trips.txt with its stop time count, first departure and frequencies. */
export async function rawTrips(feed: RawFeed): Promise<Map<string, RawTrip>> {
  const agency = await feed.table('agency.txt');
  const tzOf = new Map<string, string>();
  for (const r of agency.rows) if (!tzOf.has(agency.get(r, 'agency_id'))) tzOf.set(agency.get(r, 'agency_id'), agency.get(r, 'agency_timezone'));
  const defaultTz = agency.get(agency.rows[0]!, 'agency_timezone');
  const routes = await feed.table('routes.txt');
  const agencyOfRoute = new Map<string, string>();
  for (const r of routes.rows) agencyOfRoute.set(routes.get(r, 'route_id'), routes.get(r, 'agency_id'));
  const trips = await feed.table('trips.txt');
  const out = new Map<string, RawTrip>();
  for (const r of trips.rows) {
    const id = trips.get(r, 'trip_id');
    if (out.has(id)) continue;
    const routeId = trips.get(r, 'route_id');
    const agencyId = agencyOfRoute.get(routeId) ?? '';
    out.set(id, {
      id,
      routeId,
      serviceId: trips.get(r, 'service_id'),
      blockId: trips.get(r, 'block_id'),
      agencyId,
      timezone: tzOf.get(agencyId) ?? defaultTz,
      stopTimes: 0,
      firstDeparture: null,
      frequencies: [],
    });
  }
  const st = await feed.table('stop_times.txt');
  const [cTrip, cSeq, cArr, cDep] = ['trip_id', 'stop_sequence', 'arrival_time', 'departure_time'].map((c) => st.col(c)) as [number, number, number, number];
  const firstSeq = new Map<string, number>();
  for (const r of st.rows) {
    const trip = out.get(r[cTrip]!);
    if (!trip) continue;
    trip.stopTimes++;
    const seq = Number(r[cSeq]);
    const previous = firstSeq.get(trip.id);
    if (previous === undefined || seq < previous) {
      firstSeq.set(trip.id, seq);
      trip.firstDeparture = gtfsTime(r[cDep] ?? '') ?? gtfsTime(r[cArr] ?? '');
    }
  }
  const freq = await feed.table('frequencies.txt');
  for (const r of freq.rows) {
    out.get(freq.get(r, 'trip_id'))?.frequencies.push({
      start: gtfsTime(freq.get(r, 'start_time'))!,
      end: gtfsTime(freq.get(r, 'end_time'))!,
      headway: Number(freq.get(r, 'headway_secs')),
      exact: freq.get(r, 'exact_times') === '1',
    });
  }
  return out;
}

/**
 * Departure times of a trip's runs after its service day origin: the first departure, or for a
 * frequency-based trip every `start + k × headway` before `end`.
 */
export function runDepartures(trip: RawTrip): number[] {
  if (trip.frequencies.length === 0) return trip.firstDeparture === null ? [] : [trip.firstDeparture];
  const out: number[] = [];
  for (const f of trip.frequencies) for (let t = f.start; t < f.end; t += f.headway) out.push(t);
  return out;
}

/**
 * Ids of the trips with a run whose first departure is in [since, until] (epoch seconds, both
 * inclusive), looking at every service day that could reach the window.
 */
export function tripsDepartingWithin(trips: Iterable<RawTrip>, days: Map<string, Set<number>>, since: number, until: number): Set<string> {
  const out = new Set<string>();
  const firstDay = Math.floor(since / DAY_SEC) - 3;
  const lastDay = Math.floor(until / DAY_SEC) + 1;
  const origins = new Map<string, number>();
  for (const trip of trips) {
    const runs = runDepartures(trip);
    const active = days.get(trip.serviceId);
    if (runs.length === 0 || !active) continue;
    for (let d = firstDay; d <= lastDay && !out.has(trip.id); d++) {
      if (!active.has(d)) continue;
      const key = `${trip.timezone} ${d}`;
      let origin = origins.get(key);
      if (origin === undefined) origins.set(key, (origin = serviceDayOrigin(trip.timezone, d)));
      if (runs.some((t) => origin! + t >= since && origin! + t <= until)) out.add(trip.id);
    }
  }
  return out;
}

/** Largest time and number of times of 24:00:00 or later among the arrival and departure columns. */
export async function timeStats(feed: RawFeed): Promise<{ max: number; after24h: number; untimed: number; rows: number }> {
  const st = await feed.table('stop_times.txt');
  const cArr = st.col('arrival_time');
  const cDep = st.col('departure_time');
  let max = -1;
  let after24h = 0;
  let untimed = 0;
  for (const r of st.rows) {
    const a = gtfsTime(r[cArr] ?? '');
    const d = gtfsTime(r[cDep] ?? '');
    if (a === null && d === null) untimed++;
    const m = Math.max(a ?? -1, d ?? -1);
    if (m > max) max = m;
    if (m >= DAY_SEC) after24h++;
  }
  return { max, after24h, untimed, rows: st.rows.length };
}
