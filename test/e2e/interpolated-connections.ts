/**
 * The connections of raw GTFS feeds, for the street oracle (street-transit-oracle.ts): every pair of
 * consecutive stop times of a trip, on every service day that can reach a query's window. Read by
 * raw-gtfs.ts (yauzl, csv-parse, its calendar logic), no code of src/.
 *
 * Times are completed as the feeds' convention wants, the way a GTFS consumer (and our loader) does:
 * a stop time with only one of its arrival and departure takes it for both; the untimed stop times
 * between two timed ones get times in proportion to the distance covered between them, the
 * cumulative `shape_dist_traveled` when every row of the run has one, else the cumulative
 * great-circle distance between consecutive stops (else evenly, when the stops do not move),
 * rounded to whole seconds. A trip whose first or last stop time is untimed is left out. This is
 * the feed's timetable, not the walking model: Porto Alegre's bus feed times only the ends of its
 * trips.
 *
 * Several feeds make one timetable: their stops, services and trips are kept apart by feed.
 * `pickup_type` / `drop_off_type` 1 forbid boarding / alighting; frequencies.txt and transfers.txt
 * are not read (neither city has them). A service day starts at noon minus 12 h, local time of the
 * trip's agency.
 */
import { gtfsTime, RawFeed, routeTimezones, serviceDayOrigin, serviceDays } from './raw-gtfs.js';
import { haversineM } from './straight-line-scan.js';

const DAY_SEC = 86400;
/** Connection flags: boarding allowed at the departure, alighting allowed at the arrival. */
export const BOARD = 1;
export const ALIGHT = 2;

export interface RawStop {
  /** `<feed index>/<stop_id>` */
  id: string;
  lon: number;
  lat: number;
}

/** Connections departing within a window, sorted by departure, then arrival, then run and sequence. */
export interface Connections {
  /** epoch seconds */
  dep: Float64Array;
  arr: Float64Array;
  from: Int32Array;
  to: Int32Array;
  /** a trip on one service day: the same trip on two days is two runs */
  run: Int32Array;
  flags: Uint8Array;
  runCount: number;
}

interface Template {
  dep: number;
  arr: number;
  from: number;
  to: number;
  trip: number;
  seq: number;
  flags: number;
}

interface Row {
  seq: number;
  arr: number | null;
  dep: number | null;
  stop: number;
  dist: number;
  board: boolean;
  alight: boolean;
}

export class FeedConnections {
  readonly stops: RawStop[] = [];
  /** time zone of the first feed's first agency (the coverage's) */
  timezone = '';
  /** untimed stop times given times by distance */
  interpolated = 0;
  /** trips left out: first or last stop time untimed */
  tripsLeftOut = 0;
  private templates: Template[] = [];
  private tripService: string[] = [];
  private tripTimezone: string[] = [];
  private days = new Map<string, Set<number>>();
  /** latest time of the timetable after its service day's origin */
  private maxTime = 0;

  private constructor() {}

  static async load(files: string[]): Promise<FeedConnections> {
    const c = new FeedConnections();
    for (let k = 0; k < files.length; k++) {
      const feed = await RawFeed.open(files[k]!);
      try {
        await c.read(feed, k);
      } finally {
        feed.close();
      }
    }
    return c;
  }

  private async read(feed: RawFeed, k: number): Promise<void> {
    const stopIndex = new Map<string, number>();
    const stops = await feed.table('stops.txt');
    for (const r of stops.rows) {
      const id = stops.get(r, 'stop_id');
      const type = stops.get(r, 'location_type');
      const lon = Number(stops.get(r, 'stop_lon'));
      const lat = Number(stops.get(r, 'stop_lat'));
      if (stopIndex.has(id) || (type !== '' && type !== '0') || !Number.isFinite(lon) || !Number.isFinite(lat)) continue;
      stopIndex.set(id, this.stops.length);
      this.stops.push({ id: `${k}/${id}`, lon, lat });
    }

    const { feedTimezone: defaultTz, ofRoute: tzOfRoute } = await routeTimezones(feed);
    if (k === 0) this.timezone = defaultTz;
    const trips = await feed.table('trips.txt');
    const tripIndex = new Map<string, number>();
    for (const r of trips.rows) {
      const id = trips.get(r, 'trip_id');
      if (tripIndex.has(id)) continue;
      tripIndex.set(id, this.tripService.length);
      this.tripService.push(`${k}/${trips.get(r, 'service_id')}`);
      this.tripTimezone.push(tzOfRoute.get(trips.get(r, 'route_id')) ?? defaultTz);
    }
    for (const [service, days] of await serviceDays(feed)) this.days.set(`${k}/${service}`, days);

    const st = await feed.table('stop_times.txt');
    const col = (name: string) => st.col(name);
    const [cTrip, cSeq, cArr, cDep, cStop, cPick, cDrop, cDist] = ['trip_id', 'stop_sequence', 'arrival_time', 'departure_time', 'stop_id', 'pickup_type', 'drop_off_type', 'shape_dist_traveled'].map(col) as number[];
    const rowsOf = new Map<number, Row[]>();
    for (const r of st.rows) {
      const trip = tripIndex.get(r[cTrip!]!);
      const stop = stopIndex.get(r[cStop!]!);
      if (trip === undefined || stop === undefined) continue;
      const distText = cDist! >= 0 ? (r[cDist!] ?? '') : '';
      let list = rowsOf.get(trip);
      if (!list) rowsOf.set(trip, (list = []));
      list.push({
        seq: Number(r[cSeq!]),
        arr: gtfsTime(r[cArr!] ?? ''),
        dep: gtfsTime(r[cDep!] ?? ''),
        stop,
        dist: distText === '' ? NaN : Number(distText),
        board: (r[cPick!] ?? '') !== '1',
        alight: (r[cDrop!] ?? '') !== '1',
      });
    }
    for (const [trip, list] of rowsOf) {
      list.sort((a, b) => a.seq - b.seq);
      if (!this.completeTimes(list)) {
        this.tripsLeftOut++;
        continue;
      }
      for (let i = 0; i + 1 < list.length; i++) {
        const a = list[i]!;
        const b = list[i + 1]!;
        this.maxTime = Math.max(this.maxTime, a.dep!, b.arr!);
        this.templates.push({ dep: a.dep!, arr: b.arr!, from: a.stop, to: b.stop, trip, seq: a.seq, flags: (a.board ? BOARD : 0) | (b.alight ? ALIGHT : 0) });
      }
    }
  }

  /** Fill every time of a trip's rows (see the header); false when its first or last row is untimed. */
  private completeTimes(rows: Row[]): boolean {
    for (const r of rows) {
      r.arr ??= r.dep;
      r.dep ??= r.arr;
    }
    if (rows[0]!.arr === null || rows[rows.length - 1]!.arr === null) return false;
    let a = 0;
    for (let b = 1; b < rows.length; b++) {
      if (rows[b]!.arr === null) continue;
      if (b > a + 1) this.interpolate(rows, a, b);
      a = b;
    }
    return true;
  }

  /** Times of the untimed rows strictly between timed rows a and b, by distance covered. */
  private interpolate(rows: Row[], a: number, b: number): void {
    const byShape = rows.slice(a, b + 1).every((r) => Number.isFinite(r.dist));
    const cumulative = [0];
    for (let i = a + 1; i <= b; i++) {
      const p = rows[i - 1]!;
      const q = rows[i]!;
      const step = byShape ? q.dist - p.dist : haversineM(this.stops[p.stop]!.lon, this.stops[p.stop]!.lat, this.stops[q.stop]!.lon, this.stops[q.stop]!.lat);
      cumulative.push(cumulative[cumulative.length - 1]! + Math.max(0, step));
    }
    const total = cumulative[b - a]!;
    const t0 = rows[a]!.dep!;
    const t1 = rows[b]!.arr!;
    for (let i = a + 1; i < b; i++) {
      const fraction = total > 0 ? cumulative[i - a]! / total : (i - a) / (b - a);
      const t = Math.round(t0 + (t1 - t0) * fraction);
      rows[i]!.arr = t;
      rows[i]!.dep = t;
      this.interpolated++;
    }
  }

  /** Every connection departing within [from, until] (epoch seconds), on every service day that reaches it. */
  departingWithin(from: number, until: number): Connections {
    const firstDay = Math.floor(from / DAY_SEC) - Math.ceil(this.maxTime / DAY_SEC) - 1;
    const lastDay = Math.floor(until / DAY_SEC) + 1;
    const tripCount = this.tripService.length;
    const picked: { dep: number; arr: number; t: Template; run: number }[] = [];
    const origins = new Map<string, number>();
    for (let day = firstDay; day <= lastDay; day++) {
      const originOfTrip = new Float64Array(tripCount).fill(NaN);
      for (let trip = 0; trip < tripCount; trip++) {
        if (!this.days.get(this.tripService[trip]!)?.has(day)) continue;
        const key = `${this.tripTimezone[trip]} ${day}`;
        let o = origins.get(key);
        if (o === undefined) origins.set(key, (o = serviceDayOrigin(this.tripTimezone[trip]!, day)));
        originOfTrip[trip] = o;
      }
      for (const t of this.templates) {
        const o = originOfTrip[t.trip]!;
        if (Number.isNaN(o) || o + t.dep < from || o + t.dep > until) continue;
        picked.push({ dep: o + t.dep, arr: o + t.arr, t, run: (day - firstDay) * tripCount + t.trip });
      }
    }
    picked.sort((x, y) => x.dep - y.dep || x.arr - y.arr || x.run - y.run || x.t.seq - y.t.seq);
    const runs = new Map<number, number>();
    const runOf = (r: number) => {
      let n = runs.get(r);
      if (n === undefined) runs.set(r, (n = runs.size));
      return n;
    };
    const n = picked.length;
    const c: Connections = { dep: new Float64Array(n), arr: new Float64Array(n), from: new Int32Array(n), to: new Int32Array(n), run: new Int32Array(n), flags: new Uint8Array(n), runCount: 0 };
    picked.forEach((p, k) => {
      c.dep[k] = p.dep;
      c.arr[k] = p.arr;
      c.from[k] = p.t.from;
      c.to[k] = p.t.to;
      c.run[k] = runOf(p.run);
      c.flags[k] = p.t.flags;
    });
    c.runCount = runs.size;
    return c;
  }
}
