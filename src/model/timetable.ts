/**
 * The compiled public-transport data of one coverage: every object of the referential and the
 * stop times, in flat columns indexed by integers. Immutable once built.
 *
 * Index kinds (all dense, from 0): agency, line (a GTFS route), route (a line in one direction),
 * stop area, stop point, trip (one scheduled run; in the base schedule, trip i is vehicle journey i),
 * pattern (the stop sequence shared by trips), service (a calendar), feed.
 *
 * Stop times are grouped by trip, in stop order:
 *
 *   tripStopTimeOffset: [0, 3, 5, …]          trip t owns stop times [offset[t], offset[t+1])
 *   arrivalSec:         [28800, 29100, 29400, 30000, 30300, …]
 *   patternStopOffset / patternStops:         the stop point of each position of a pattern
 *
 * Times are seconds after the service day's origin ("noon minus 12 h" in the trip's agency time
 * zone); they may pass 86400 (after-midnight runs) and are never wrapped.
 */

/** Why a value is absent: stop time arrival/departure unknown (only while loading). */
export const NO_TIME = -1;

/** On-demand-transport level of a trip (docs/api.md, Trips: `odt_level`). */
export const enum OdtLevel {
  Scheduled = 0,
  WithStops = 1,
  Zonal = 2,
}
export const ODT_LEVEL_NAMES = ['scheduled', 'with_stops', 'zonal'] as const;

/** Pickup/drop-off byte of a stop time: bits 0-1 pickup_type, bits 2-3 drop_off_type, bit 4 booking. */
export const PICKUP_MASK = 0b11;
export const DROP_OFF_SHIFT = 2;
export const BOOKING_BIT = 0b1_0000;
/** Bit 5: the time was interpolated (the feed left it empty). */
export const INTERPOLATED_BIT = 0b10_0000;
/** Bit 6: a GTFS-Flex pickup/drop-off window: the arrival is its start and the departure its end. */
export const WINDOW_BIT = 0b100_0000;

export interface FeedMeta {
  /** Short key of the feed in its coverage, used to prefix colliding ids. */
  key: string;
  location: string;
  publisherName: string;
  publisherUrl: string;
  lang: string;
  version: string;
  /** Modification time of the feed file (epoch seconds): our dataset creation time. */
  createdAtSec: number;
}

export interface Agency {
  id: string;
  name: string;
  url: string;
  timezone: string;
  lang: string;
  phone: string;
  feed: number;
}

export interface NamedObject {
  id: string;
  name: string;
}

export interface Line {
  id: string;
  /** route_short_name */
  code: string;
  /** route_long_name, or the short name when there is none */
  name: string;
  color: string;
  textColor: string;
  routeType: number;
  agency: number;
  physicalMode: number;
  commercialMode: number;
  feed: number;
}

export interface Route {
  id: string;
  name: string;
  line: number;
  /** GTFS direction_id, or -1 when the feed gives none. */
  direction: number;
}

export interface StopArea {
  id: string;
  name: string;
  lon: number;
  lat: number;
  /** true for areas that come from a GTFS station, false for the one made for a stop without parent */
  fromStation: boolean;
}

export interface Timetable {
  feeds: FeedMeta[];
  /** Coverage time zone (IANA). */
  timezone: string;
  agencies: Agency[];
  /** Time zone names used by agencies; `agencyTimezone[a]` indexes it. */
  timezones: string[];
  agencyTimezone: Uint16Array;
  physicalModes: NamedObject[];
  commercialModes: NamedObject[];
  lines: Line[];
  routes: Route[];
  stopAreas: StopArea[];

  stopPoints: {
    ids: string[];
    names: string[];
    /** WGS84 degrees */
    lon: Float64Array;
    lat: Float64Array;
    /** stop area of each stop point */
    area: Uint32Array;
    /** GTFS wheelchair_boarding: 0 unknown, 1 accessible, 2 not */
    wheelchair: Uint8Array;
    /** 1 when the "stop" is a GTFS-Flex zone or location group (an on-demand area) */
    isZone: Uint8Array;
    platformCodes: string[];
  };

  trips: {
    ids: string[];
    names: string[];
    headsigns: string[];
    shortNames: string[];
    route: Uint32Array;
    line: Uint32Array;
    agency: Uint16Array;
    service: Uint32Array;
    pattern: Uint32Array;
    feed: Uint16Array;
    /** OdtLevel */
    odtLevel: Uint8Array;
    /** GTFS wheelchair_accessible: 0 unknown, 1 accessible, 2 not */
    wheelchair: Uint8Array;
    /** GTFS bikes_allowed: 0 unknown, 1 allowed, 2 not */
    bikes: Uint8Array;
    blockIds: string[];
    /** stop times of trip t: [stopTimeOffset[t], stopTimeOffset[t+1]) */
    stopTimeOffset: Uint32Array;
    /** frequency rows of trip t: [frequencyOffset[t], frequencyOffset[t+1]) (empty for timed trips) */
    frequencyOffset: Uint32Array;
  };

  stopTimes: {
    arrivalSec: Int32Array;
    departureSec: Int32Array;
    /** pickup/drop-off byte, see PICKUP_MASK and friends */
    pickDrop: Uint8Array;
    /** GTFS stop_sequence (realtime updates name stops by it) */
    sequence: Uint32Array;
  };

  /** frequencies.txt rows, grouped by trip. Times relative to the service day like stop times. */
  frequencies: {
    startSec: Int32Array;
    endSec: Int32Array;
    headwaySec: Int32Array;
    /** 1 for exact_times=1 (a schedule), 0 for a headway estimate */
    exactTimes: Uint8Array;
  };

  patterns: {
    /** stops of pattern p: patternStops[stopOffset[p] .. stopOffset[p+1]) */
    stopOffset: Uint32Array;
    stops: Uint32Array;
  };

  services: {
    ids: string[];
    /** day number (days since 1970-01-01) of bit 0 */
    firstDay: number;
    /** number of days covered by the bitsets */
    dayCount: number;
    /** 32-bit words per service */
    words: number;
    /** bit d of service s: bits[s * words + (d >> 5)] >>> (d & 31) & 1 */
    bits: Uint32Array;
  };

  transfers: {
    fromStop: Uint32Array;
    toStop: Uint32Array;
    /** GTFS transfer_type */
    type: Uint8Array;
    /** min_transfer_time, or -1 when none */
    minTimeSec: Int32Array;
  };

  /** Every headsign (trip or stop-time headsign) -> trips carrying it, ascending. */
  headsignTrips: Map<string, Uint32Array>;
  /** External codes of trips (trip_id, trip_short_name, object_codes) -> trips, ascending. */
  tripCodes: Map<string, Uint32Array>;
}

/** Whether service `s` runs on day number `day`. */
export function serviceRunsOn(tt: Timetable, s: number, day: number): boolean {
  const { firstDay, dayCount, words, bits } = tt.services;
  const d = day - firstDay;
  if (d < 0 || d >= dayCount) return false;
  return ((bits[s * words + (d >>> 5)]! >>> (d & 31)) & 1) === 1;
}

export function stopTimeCount(tt: Timetable): number {
  return tt.stopTimes.arrivalSec.length;
}
