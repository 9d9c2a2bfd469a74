/**
 * An independent earliest-arrival computation with straight-line walking, the measuring instrument
 * of the heat maps' fidelity (issue 15): it shares nothing with the engine's walking model. No code
 * of src/ is used: the feed is read by `raw-gtfs.ts` (yauzl + csv-parse), the timetable is scanned
 * here, and walking is a straight line. The only import from src/ is a constant, the coverage's
 * default walking speed and access limit.
 *
 * Assumptions (the model of the city it stands for):
 *
 *   - Walking: the great-circle (haversine, earth radius 6,371,008.8 m) distance × DETOUR (1.3, the
 *     usual ratio of a street path to the straight line in a city) at WALKING_SPEED (1.12 m/s, the
 *     API's default `walking_speed`, Navitia's). No streets, no barriers, no rivers: where the real
 *     path is much longer than 1.3 × the straight line (a bridge far away, a motorway), the scan is
 *     faster than the city; where a street is straighter, slower.
 *   - Access: from the origin point to every stop whose walk is at most ACCESS_MAX_SEC (1800 s, the
 *     API's default `max_duration_to_pt`), i.e. within 1800 × 1.12 / 1.3 ≈ 1551 m in a straight
 *     line. A stop at the origin's own position is reached at once.
 *   - Transit: a connection scan over every timed stop time pair of every trip running on the
 *     service days around the query (calendar.txt weekdays within its dates, then calendar_dates.txt
 *     additions and removals; times past 24:00 belong to their service day, so the previous days'
 *     trips running past midnight are scanned with the day of the query). A service day starts at
 *     noon minus 12 h local time. Boarding needs an arrival at the stop no later than the departure
 *     (changing vehicles at one stop takes 0 s), and `pickup_type` / `drop_off_type` 1 forbid
 *     boarding / alighting. No limit on the number of vehicles. frequencies.txt and transfers.txt
 *     are not read (rnv-mannheim has neither).
 *   - Transfers: after alighting, a straight-line walk to every stop within TRANSFER_RADIUS_M
 *     (500 m straight, the engine's footpaths are 500 m of street); one walk between two vehicles,
 *     not a chain of them.
 *   - The end: the value at a point is the best of walking straight from the origin and, over every
 *     stop reached, its arrival plus the straight-line walk from it (no limit but the horizon).
 *   - Times are epoch seconds; a value is truncated to whole seconds like the heat map's.
 */
import { gtfsTime, RawFeed, routeTimezones, serviceDayOrigin, serviceDays } from './raw-gtfs.js';
import { MAP_FALLBACKS } from '../../src/queries/journey-params.js';

export const DETOUR = 1.3;
export const WALKING_SPEED = MAP_FALLBACKS['walking_speed']!;
export const ACCESS_MAX_SEC = MAP_FALLBACKS['max_duration_to_pt']!;
export const TRANSFER_RADIUS_M = 500;
const EARTH_RADIUS_M = 6_371_008.8;
const DAY_SEC = 86400;

/** Great-circle distance in metres. */
export function haversineM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Seconds to walk between two points: straight line × DETOUR at WALKING_SPEED. */
export function walkSec(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return (haversineM(lon1, lat1, lon2, lat2) * DETOUR) / WALKING_SPEED;
}

/** Earliest arrivals of one search: per stop, epoch seconds (Infinity when unreached). */
export interface Arrivals {
  originLon: number;
  originLat: number;
  t0: number;
  /** arrival at each stop, by the scan's stop index */
  at: Float64Array;
  /** how each stop was reached: the stop before it (-1: walked from the origin) */
  prevStop: Int32Array;
  /** … by the trip (index in trips.txt order), -1 on foot */
  prevTrip: Int32Array;
}

export class StraightLineScan {
  readonly stopIds: string[] = [];
  readonly lon: number[] = [];
  readonly lat: number[] = [];
  private readonly stopIndex = new Map<string, number>();
  /** stop pairs within TRANSFER_RADIUS_M: neighbours of stop s at footFrom[s] … footFrom[s + 1] − 1 */
  private footFrom = new Int32Array(0);
  private footTo = new Int32Array(0);
  private footSec = new Float64Array(0);
  /** connection templates (a trip's consecutive stop times), sorted by departure, then arrival, then sequence */
  private cDep = new Int32Array(0);
  private cArr = new Int32Array(0);
  private cFrom = new Int32Array(0);
  private cTo = new Int32Array(0);
  private cTrip = new Int32Array(0);
  /** bit 1: boarding allowed at the departure, bit 2: alighting allowed at the arrival */
  private cFlags = new Uint8Array(0);
  private tripService: string[] = [];
  private tripIds: string[] = [];
  private tripTimezone: string[] = [];
  private days = new Map<string, Set<number>>();
  /** latest stop time of the feed, seconds after its service day's origin */
  private maxTime = 0;
  /** per service day: indices of its connections, in template order (so by departure) */
  private readonly dayConnections = new Map<number, { origin: Float64Array; list: Int32Array }>();
  /** time zone of the feed's first agency */
  timezone = '';
  /** stop time rows left out (without arrival nor departure time) */
  untimedRows = 0;

  private constructor() {}

  /** Read a feed (zip or folder) with the plain GTFS reader. */
  static async load(file: string): Promise<StraightLineScan> {
    const feed = await RawFeed.open(file);
    try {
      const scan = new StraightLineScan();
      await scan.read(feed);
      return scan;
    } finally {
      feed.close();
    }
  }

  get stopCount(): number {
    return this.stopIds.length;
  }

  /** Index of a stop_id, -1 when the feed lacks it. */
  indexOf(stopId: string): number {
    return this.stopIndex.get(stopId) ?? -1;
  }

  private async read(feed: RawFeed): Promise<void> {
    const stops = await feed.table('stops.txt');
    for (const r of stops.rows) {
      const id = stops.get(r, 'stop_id');
      const lat = Number(stops.get(r, 'stop_lat'));
      const lon = Number(stops.get(r, 'stop_lon'));
      const type = stops.get(r, 'location_type');
      if (this.stopIndex.has(id) || (type !== '' && type !== '0') || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
      this.stopIndex.set(id, this.stopIds.length);
      this.stopIds.push(id);
      this.lon.push(lon);
      this.lat.push(lat);
    }
    this.buildFootpaths();

    const { feedTimezone: defaultTz, ofRoute: tzOfRoute } = await routeTimezones(feed);
    this.timezone = defaultTz;
    const trips = await feed.table('trips.txt');
    const tripIndex = new Map<string, number>();
    for (const r of trips.rows) {
      const id = trips.get(r, 'trip_id');
      if (tripIndex.has(id)) continue;
      tripIndex.set(id, this.tripService.length);
      this.tripIds.push(id);
      this.tripService.push(trips.get(r, 'service_id'));
      this.tripTimezone.push(tzOfRoute.get(trips.get(r, 'route_id')) ?? defaultTz);
    }
    this.days = await serviceDays(feed);

    // stop times per trip, ordered by stop_sequence
    const st = await feed.table('stop_times.txt');
    const [cTrip, cSeq, cArr, cDep, cStop, cPick, cDrop] = ['trip_id', 'stop_sequence', 'arrival_time', 'departure_time', 'stop_id', 'pickup_type', 'drop_off_type'].map((c) => st.col(c)) as number[];
    const rowsOf = new Map<number, { seq: number; arr: number; dep: number; stop: number; pick: boolean; drop: boolean }[]>();
    for (const r of st.rows) {
      const trip = tripIndex.get(r[cTrip!]!);
      const stop = this.stopIndex.get(r[cStop!]!);
      if (trip === undefined || stop === undefined) continue;
      const arr = gtfsTime(r[cArr!] ?? '');
      const dep = gtfsTime(r[cDep!] ?? '');
      if (arr === null && dep === null) {
        this.untimedRows++;
        continue;
      }
      let list = rowsOf.get(trip);
      if (!list) rowsOf.set(trip, (list = []));
      list.push({ seq: Number(r[cSeq!]), arr: arr ?? dep!, dep: dep ?? arr!, stop, pick: (r[cPick!] ?? '') !== '1', drop: (r[cDrop!] ?? '') !== '1' });
    }
    const templates: { dep: number; arr: number; from: number; to: number; trip: number; seq: number; flags: number }[] = [];
    for (const [trip, list] of rowsOf) {
      list.sort((a, b) => a.seq - b.seq);
      for (let k = 0; k + 1 < list.length; k++) {
        const a = list[k]!;
        const b = list[k + 1]!;
        this.maxTime = Math.max(this.maxTime, b.arr, a.dep);
        templates.push({ dep: a.dep, arr: b.arr, from: a.stop, to: b.stop, trip, seq: a.seq, flags: (a.pick ? 1 : 0) | (b.drop ? 2 : 0) });
      }
    }
    templates.sort((x, y) => x.dep - y.dep || x.arr - y.arr || x.trip - y.trip || x.seq - y.seq);
    const n = templates.length;
    this.cDep = new Int32Array(n);
    this.cArr = new Int32Array(n);
    this.cFrom = new Int32Array(n);
    this.cTo = new Int32Array(n);
    this.cTrip = new Int32Array(n);
    this.cFlags = new Uint8Array(n);
    templates.forEach((c, i) => {
      this.cDep[i] = c.dep;
      this.cArr[i] = c.arr;
      this.cFrom[i] = c.from;
      this.cTo[i] = c.to;
      this.cTrip[i] = c.trip;
      this.cFlags[i] = c.flags;
    });
  }

  /** Stop pairs within TRANSFER_RADIUS_M, by brute force. */
  private buildFootpaths(): void {
    const n = this.stopCount;
    const from = new Int32Array(n + 1);
    const to: number[] = [];
    const sec: number[] = [];
    for (let s = 0; s < n; s++) {
      from[s] = to.length;
      for (let t = 0; t < n; t++) {
        if (t === s) continue;
        const d = haversineM(this.lon[s]!, this.lat[s]!, this.lon[t]!, this.lat[t]!);
        if (d <= TRANSFER_RADIUS_M) {
          to.push(t);
          sec.push((d * DETOUR) / WALKING_SPEED);
        }
      }
    }
    from[n] = to.length;
    this.footFrom = from;
    this.footTo = Int32Array.from(to);
    this.footSec = Float64Array.from(sec);
  }

  /** The connections of service day `day` (days since 1970-01-01), with each trip's day origin. */
  private connectionsOf(day: number): { origin: Float64Array; list: Int32Array } {
    let c = this.dayConnections.get(day);
    if (c) return c;
    const tripOrigin = new Float64Array(this.tripService.length).fill(NaN);
    const origins = new Map<string, number>();
    for (let t = 0; t < this.tripService.length; t++) {
      if (!this.days.get(this.tripService[t]!)?.has(day)) continue;
      const tz = this.tripTimezone[t]!;
      let o = origins.get(tz);
      if (o === undefined) origins.set(tz, (o = serviceDayOrigin(tz, day)));
      tripOrigin[t] = o;
    }
    const list: number[] = [];
    const origin: number[] = [];
    for (let i = 0; i < this.cDep.length; i++) {
      const o = tripOrigin[this.cTrip[i]!]!;
      if (Number.isNaN(o)) continue;
      list.push(i);
      origin.push(o);
    }
    // a feed with several time zones could disorder one day's list: keep it sorted by epoch departure
    const order = list.map((_, k) => k);
    if (origins.size > 1) order.sort((a, b) => origin[a]! + this.cDep[list[a]!]! - (origin[b]! + this.cDep[list[b]!]!) || a - b);
    c = { origin: Float64Array.from(order, (k) => origin[k]!), list: Int32Array.from(order, (k) => list[k]!) };
    this.dayConnections.set(day, c);
    return c;
  }

  /** Forget the cached service days (memory). */
  clearDays(): void {
    this.dayConnections.clear();
  }

  /**
   * Earliest arrival at every stop leaving (lon, lat) at t0 (epoch seconds), scanning the
   * connections that depart within [t0, t0 + horizonSec].
   */
  earliestArrivals(lon: number, lat: number, t0: number, horizonSec: number): Arrivals {
    const n = this.stopCount;
    const at = new Float64Array(n).fill(Infinity);
    const prevStop = new Int32Array(n).fill(-1);
    const prevTrip = new Int32Array(n).fill(-1);
    for (let s = 0; s < n; s++) {
      const w = walkSec(lon, lat, this.lon[s]!, this.lat[s]!);
      if (w <= ACCESS_MAX_SEC) at[s] = t0 + w;
    }
    const until = t0 + horizonSec;
    // every service day whose trips may run within [t0, until]
    const firstDay = Math.floor(t0 / DAY_SEC) - Math.ceil(this.maxTime / DAY_SEC) - 1;
    const lastDay = Math.floor(until / DAY_SEC) + 1;
    const lists: { origin: Float64Array; list: Int32Array; next: number }[] = [];
    for (let d = firstDay; d <= lastDay; d++) {
      const c = this.connectionsOf(d);
      // first connection departing at t0 or later
      let lo = 0;
      let hi = c.list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (c.origin[mid]! + this.cDep[c.list[mid]!]! < t0) lo = mid + 1;
        else hi = mid;
      }
      if (lo < c.list.length) lists.push({ ...c, next: lo });
    }
    const tripCount = this.tripService.length;
    /** per trip run: the stop where it was boarded + 1 (0: not boarded) */
    const boarded = new Int32Array(tripCount * lists.length);
    for (;;) {
      // the earliest head among the days (a k-way merge)
      let best = -1;
      let bestDep = Infinity;
      for (let k = 0; k < lists.length; k++) {
        const l = lists[k]!;
        if (l.next >= l.list.length) continue;
        const dep = l.origin[l.next]! + this.cDep[l.list[l.next]!]!;
        if (dep < bestDep) {
          bestDep = dep;
          best = k;
        }
      }
      if (best < 0 || bestDep > until) break;
      const l = lists[best]!;
      const origin = l.origin[l.next]!;
      const i = l.list[l.next++]!;
      const slot = best * tripCount + this.cTrip[i]!;
      if (boarded[slot] === 0) {
        if (!(this.cFlags[i]! & 1) || at[this.cFrom[i]!]! > bestDep) continue;
        boarded[slot] = this.cFrom[i]! + 1;
      }
      if (!(this.cFlags[i]! & 2)) continue;
      const arr = origin + this.cArr[i]!;
      const to = this.cTo[i]!;
      if (arr >= at[to]!) continue;
      at[to] = arr;
      prevStop[to] = boarded[slot]! - 1;
      prevTrip[to] = this.cTrip[i]!;
      for (let f = this.footFrom[to]!; f < this.footFrom[to + 1]!; f++) {
        const t = this.footTo[f]!;
        const a = arr + this.footSec[f]!;
        if (a < at[t]!) {
          at[t] = a;
          prevStop[t] = to;
          prevTrip[t] = -1;
        }
      }
    }
    return { originLon: lon, originLat: lat, t0, at, prevStop, prevTrip };
  }

  /** The legs of the best way to (lon, lat), for reports: `walk → 123 (+600 s)`, `trip T from 123 → 456 (+1200 s)`… */
  legs(a: Arrivals, lon: number, lat: number): string[] {
    let best = a.t0 + walkSec(a.originLon, a.originLat, lon, lat);
    let last = -1;
    for (let s = 0; s < this.stopCount; s++) {
      const v = a.at[s]! + walkSec(this.lon[s]!, this.lat[s]!, lon, lat);
      if (v < best) {
        best = v;
        last = s;
      }
    }
    const out = [`walk → end (+${Math.floor(best - a.t0)} s)`];
    for (let s = last; s >= 0; s = a.prevStop[s]!) {
      const how = a.prevTrip[s]! >= 0 ? `trip ${this.tripIds[a.prevTrip[s]!]} from ${this.stopIds[a.prevStop[s]!]}` : 'walk';
      out.unshift(`${how} → ${this.stopIds[s]} (+${Math.floor(a.at[s]! - a.t0)} s)`);
    }
    return out;
  }

  /** Seconds from t0 to (lon, lat) by the search `a` (walking straight from the origin included), truncated. */
  valueAt(a: Arrivals, lon: number, lat: number): number {
    let best = a.t0 + walkSec(a.originLon, a.originLat, lon, lat);
    for (let s = 0; s < this.stopCount; s++) {
      const t = a.at[s]!;
      if (t >= best) continue;
      const v = t + walkSec(this.lon[s]!, this.lat[s]!, lon, lat);
      if (v < best) best = v;
    }
    return Math.floor(best - a.t0);
  }
}
