/**
 * What realtime says of the timetable's runs, the vocabulary shared by the realtime readers (which
 * build it), the trip queries and the journey planner's overlay (which read it).
 */

/** One run of a static trip on one service day, as realtime tells it. */
export interface RealtimeRun {
  trip: number;
  /** service day number (days since 1970-01-01) */
  day: number;
  cancelled: boolean;
  /** per stop time of the trip, in its order: seconds after the service day's origin */
  arrivalSec: Int32Array;
  departureSec: Int32Array;
  /** 1 where the stop is skipped */
  skipped: Uint8Array;
}

/** `AddedRun.line` and `.route` of an added trip whose TripUpdate names no route (and its overlay's `addedTripLine`). */
export const NO_LINE = -1;
export const NO_ROUTE = -1;

/** A run the timetable does not have. */
export interface AddedRun {
  tripId: string;
  /** GTFS route_id ('' when the update gives none) */
  routeId: string;
  /** its line and route indexes, NO_LINE / NO_ROUTE when it names no route */
  line: number;
  route: number;
  day: number;
  /** epoch second of the service day's origin (the coverage's time zone) */
  originSec: number;
  /** stop point indexes, in order */
  stops: Uint32Array;
  /** seconds after the service day's origin */
  arrivalSec: Int32Array;
  departureSec: Int32Array;
}

/** The key of a run in `RealtimeRuns.runs`. */
export const runKey = (trip: number, day: number): string => `${trip}:${day}`;
