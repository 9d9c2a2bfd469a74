/**
 * The timetable's trips by first departure, for the period filter (departure-window.ts): which
 * trips a window [sinceSec, untilSec] need test at all. A timed trip's first departure is a fixed
 * number of seconds after its service day's origin, and the origins of a time zone's days are
 * known (ServiceDays), so on each day of the calendar the window asks for the departures between
 * `sinceSec − origin` and `untilSec − origin`: one binary search per day and time zone in that
 * zone's trips sorted by departure. The candidates are the trips with such a departure on some
 * day of the calendar, whether or not their service runs then: a superset, which the exact test
 * narrows. Frequency-based trips depart over a range of times; they are few, and every window
 * tests them all.
 *
 * Per trip, 8 bytes (a Uint32Array of trips and an Int32Array of their departures), sorted by
 * counting the departures' seconds: linear, tens of milliseconds for a million trips. Built once per
 * referential, when the data loads or on first use (referential-cache.ts).
 */
import type { ServiceDays } from '../model/service-days.js';
import type { Timetable } from '../model/timetable.js';
import { lowerBound } from '../util/sorted-search.js';
import { ReferentialCache } from './referential-cache.js';

/** Departure spans up to this many seconds times the trip count are sorted by counting (else by comparison). */
const COUNTING_SPAN_PER_TRIP = 4;
const MIN_COUNTING_SPAN = 1 << 20;
/** How many trips a build step reads between two yields. */
const TRIPS_PER_STEP = 65536;

/** The index of each referential: built when its data loads, or on first use. */
export const DEPARTURE_INDEXES = new ReferentialCache((ref) => DepartureIndex.steps(ref.tt));

/** One time zone's timed trips, ascending by first departure (then by trip index). */
interface ZoneTrips {
  trips: Uint32Array;
  departures: Int32Array;
}

export class DepartureIndex {
  private constructor(
    /** by time zone index (tt.timezones) */
    private readonly zones: ZoneTrips[],
    /** the frequency-based trips, ascending */
    readonly frequencyTrips: Uint32Array,
  ) {}

  /** The index of a timetable, built in steps (util/stepwise.ts). */
  static *steps(tt: Timetable): Generator<void, DepartureIndex> {
    const { trips, stopTimes } = tt;
    const n = trips.ids.length;
    const zoneOf = new Int32Array(n).fill(-1);
    const departure = new Int32Array(n);
    const frequency: number[] = [];
    for (let t = 0; t < n; t++) {
      if (t % TRIPS_PER_STEP === TRIPS_PER_STEP - 1) yield;
      if (trips.frequencyOffset[t] !== trips.frequencyOffset[t + 1]) {
        frequency.push(t);
        continue;
      }
      // what departsWithin reads (a trip without stop times past the last has none: it never departs)
      const dep = stopTimes.departureSec[trips.stopTimeOffset[t]!];
      if (dep === undefined) continue;
      zoneOf[t] = tt.agencyTimezone[trips.agency[t]!]!;
      departure[t] = dep;
    }
    const zones: ZoneTrips[] = [];
    for (let zone = 0; zone < tt.timezones.length; zone++) zones.push(yield* sortedByDeparture(zoneOf, departure, zone));
    return new DepartureIndex(zones, Uint32Array.from(frequency));
  }

  /** How many trips `candidates` would give (without building them): what choosing between it and a scan needs. */
  candidateCount(days: ServiceDays, sinceSec: number, untilSec: number): number {
    let count = this.frequencyTrips.length;
    this.ranges(days, sinceSec, untilSec, (_zone, from, to) => (count += to - from));
    return count;
  }

  /**
   * The trips that may depart inside [sinceSec, untilSec], ascending: the timed trips with a first
   * departure inside it on a day of the calendar, and every frequency-based trip.
   */
  candidates(days: ServiceDays, sinceSec: number, untilSec: number): Uint32Array {
    const out = new Uint32Array(this.candidateCount(days, sinceSec, untilSec));
    out.set(this.frequencyTrips);
    let n = this.frequencyTrips.length;
    this.ranges(days, sinceSec, untilSec, (zone, from, to) => {
      out.set(this.zones[zone]!.trips.subarray(from, to), n);
      n += to - from;
    });
    return out.sort(); // the ranges are disjoint: no duplicates
  }

  /**
   * `visit(zone, from, to)` for each range of a zone's sorted trips whose departures fall inside
   * the window on some day of the calendar; a zone's ranges are disjoint.
   */
  private ranges(days: ServiceDays, sinceSec: number, untilSec: number, visit: (zone: number, from: number, to: number) => void): void {
    for (let zone = 0; zone < this.zones.length; zone++) {
      const { departures } = this.zones[zone]!;
      if (departures.length === 0) continue;
      const origins = days.originSec[zone]!;
      const minDep = departures[0]!;
      const maxDep = departures[departures.length - 1]!;
      // the days whose window of departures meets [minDep, maxDep]; origins ascend, so these
      // windows move down as the days go on, and each range either joins the one before or lies
      // wholly below it
      let from = -1;
      let to = -1;
      for (let d = lowerBound(origins, sinceSec - maxDep); d < origins.length && origins[d]! <= untilSec - minDep; d++) {
        const lo = lowerBound(departures, sinceSec - origins[d]!);
        const hi = lowerBound(departures, untilSec - origins[d]!, 0, true);
        if (lo >= hi) continue;
        if (from >= 0 && hi >= from) from = Math.min(from, lo);
        else {
          if (from >= 0) visit(zone, from, to);
          from = lo;
          to = hi;
        }
      }
      if (from >= 0) visit(zone, from, to);
    }
  }
}

/** The trips of one zone ascending by departure, then by trip index. */
function* sortedByDeparture(zoneOf: Int32Array, departure: Int32Array, zone: number): Generator<void, ZoneTrips> {
  let size = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let t = 0; t < zoneOf.length; t++) {
    if (t % TRIPS_PER_STEP === TRIPS_PER_STEP - 1) yield;
    if (zoneOf[t] !== zone) continue;
    size++;
    min = Math.min(min, departure[t]!);
    max = Math.max(max, departure[t]!);
  }
  const trips = new Uint32Array(size);
  const departures = new Int32Array(size);
  if (size === 0) return { trips, departures };
  const span = max - min + 1;
  if (span <= Math.max(MIN_COUNTING_SPAN, COUNTING_SPAN_PER_TRIP * size)) {
    // counting sort: each second's first slot, then the trips in index order
    const slot = new Int32Array(span + 1);
    for (let t = 0; t < zoneOf.length; t++) if (zoneOf[t] === zone) slot[departure[t]! - min + 1]!++;
    yield;
    for (let s = 1; s <= span; s++) slot[s]! += slot[s - 1]!;
    for (let t = 0; t < zoneOf.length; t++) {
      if (t % TRIPS_PER_STEP === TRIPS_PER_STEP - 1) yield;
      if (zoneOf[t] !== zone) continue;
      const k = slot[departure[t]! - min]!++;
      trips[k] = t;
      departures[k] = departure[t]!;
    }
    return { trips, departures };
  }
  // departures spread over more seconds than is worth counting (odd data): sorted by comparison
  let k = 0;
  for (let t = 0; t < zoneOf.length; t++) if (zoneOf[t] === zone) trips[k++] = t;
  const order = Array.from(trips).sort((a, b) => departure[a]! - departure[b]! || a - b);
  order.forEach((t, i) => {
    trips[i] = t;
    departures[i] = departure[t]!;
  });
  return { trips, departures };
}
