/**
 * GTFS-Realtime TripUpdates -> the realtime runs of a timetable: for each (trip, service day) a
 * TripUpdate speaks of, the new times of its stops, the stops it skips, or its cancellation; and the
 * trips it adds. Pure: the timetable is not touched, the result is what a realtime level overlays.
 *
 * Rules (GTFS-Realtime reference, "TripUpdate"):
 * - A StopTimeUpdate names its stop by stop_sequence, else (or when the stop at that sequence is not
 *   its stop_id) by stop_id, the first such stop after the previous update. Updates are applied in
 *   the trip's order, whatever the feed's. Updates that match no stop of the trip are reported.
 * - A time is absolute (`time`) or relative to the schedule (`delay`). A delay carries on to the
 *   following stops until another update says otherwise; stops before the first update keep their
 *   schedule. A missing arrival takes the departure's delay and the other way round; an update
 *   with neither says the vehicle is on time there.
 * - SKIPPED: the stop is not served (the delay carries on through it). NO_DATA: no prediction for
 *   this stop, which keeps its schedule, nor for the following ones until the next update.
 * - The service day is the trip's start_date; without one, the day of the trip's run nearest the
 *   feed's timestamp.
 * - A CANCELED trip loses its run that day; an ADDED trip is a new run made of its updates'
 *   stops and absolute times; a trip id the timetable does not know, not flagged ADDED, is reported.
 * - An ADDED trip belongs to the line of its route_id (a GTFS route is our line) and to that line's
 *   route in its direction_id (else the line's first route); without route_id, to no line. One
 *   whose route_id we do not know, or whose trip_id is a static trip's, is reported and skipped.
 */
import type { ServiceDays } from '../../model/service-days.js';
import type { Referential } from '../../ptref/referential.js';
import { serviceRunsOn, type Timetable } from '../../model/timetable.js';
import { dayNumber } from '../../util/calendar.js';
import type { FeedMessage, StopTimeEvent, StopTimeUpdate, TripUpdate } from './gtfs-rt.js';
import { NO_LINE, NO_ROUTE, runKey, type AddedRun, type RealtimeRun } from '../../model/realtime-runs.js';

export interface TripUpdateProblem {
  entity: string;
  reason: string;
}

export interface RealtimeRuns {
  /** by `runKey(trip, day)` */
  runs: Map<string, RealtimeRun>;
  added: AddedRun[];
  problems: TripUpdateProblem[];
}


/** The realtime runs of a feed's TripUpdates (later entities for the same run win). */
export function readTripUpdates(ref: Referential, feed: FeedMessage): RealtimeRuns {
  const out: RealtimeRuns = { runs: new Map(), added: [], problems: [] };
  for (const entity of feed.entities) readEntity(ref, feed, entity, out);
  return out;
}

/**
 * `readTripUpdates`, a few milliseconds at a time: the event loop gets a turn every SLICE_MS, so
 * that a feed updating every run of a day does not hold it. The same runs and problems.
 */
export async function readTripUpdatesInSlices(ref: Referential, feed: FeedMessage): Promise<RealtimeRuns> {
  const out: RealtimeRuns = { runs: new Map(), added: [], problems: [] };
  let sliceStart = performance.now();
  for (let k = 0; k < feed.entities.length; k++) {
    readEntity(ref, feed, feed.entities[k]!, out);
    if (k % 64 === 63 && performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return out;
}

/** How long `readTripUpdatesInSlices` reads before giving the event loop a turn. */
const SLICE_MS = 4;

/** One entity of a feed into `out`: its run, its added trip, or its problem. */
function readEntity(ref: Referential, feed: FeedMessage, entity: FeedMessage['entities'][number], out: RealtimeRuns): void {
  const { tt, days } = ref;
  const feedTime = feed.header.timestamp ?? 0;
  const update = entity.tripUpdate;
  if (!update || entity.isDeleted) return;
  const problem = (reason: string) => out.problems.push({ entity: entity.id, reason });
  const descriptor = update.trip;
  const tripId = descriptor.tripId;
  if (tripId === undefined) {
    problem('a trip update without trip_id');
    return;
  }
  if (descriptor.scheduleRelationship === 'ADDED') {
    const added = addedRun(ref, update, feedTime, problem);
    if (added) out.added.push(added);
    return;
  }
  const trip = ref.indexOf('trip', tripId);
  if (trip < 0) {
    problem(`unknown trip ${tripId}`);
    return;
  }
  if (tt.trips.frequencyOffset[trip] !== tt.trips.frequencyOffset[trip + 1]) {
    problem(`trip ${tripId} runs by frequency: its runs cannot be told apart without a start time`);
    return;
  }
  const day = descriptor.startDate !== undefined ? parseStartDate(descriptor.startDate) : nearestRunDay(tt, days, trip, feedTime);
  if (day === null || !serviceRunsOn(tt, tt.trips.service[trip]!, day)) {
    problem(`trip ${tripId} does not run on ${descriptor.startDate ?? 'any day near the feed time'}`);
    return;
  }
  const run = scheduledRun(tt, trip, day);
  if (descriptor.scheduleRelationship === 'CANCELED' || descriptor.scheduleRelationship === 'DELETED') run.cancelled = true;
  else applyStopTimeUpdates(ref, run, update, problem);
  out.runs.set(runKey(trip, day), run);
}

/** The run as scheduled. */
function scheduledRun(tt: Timetable, trip: number, day: number): RealtimeRun {
  const from = tt.trips.stopTimeOffset[trip]!;
  const to = tt.trips.stopTimeOffset[trip + 1]!;
  return {
    trip,
    day,
    cancelled: false,
    arrivalSec: tt.stopTimes.arrivalSec.slice(from, to),
    departureSec: tt.stopTimes.departureSec.slice(from, to),
    skipped: new Uint8Array(to - from),
  };
}

function applyStopTimeUpdates(ref: Referential, run: RealtimeRun, update: TripUpdate, problem: (reason: string) => void): void {
  const { tt, days } = ref;
  const trip = run.trip;
  const count = run.arrivalSec.length;
  const origin = days.origin(tt.agencyTimezone[tt.trips.agency[trip]!]!, run.day);
  const scheduledArrival = run.arrivalSec.slice();
  const scheduledDeparture = run.departureSec.slice();
  // each update's place in the trip, then the updates in the trip's order (feeds do not always sort them)
  const placed: Array<[number, StopTimeUpdate]> = [];
  let previous = 0;
  for (const stu of update.stopTimeUpdates) {
    const k = placeOf(ref, trip, stu, previous);
    if (k < 0) {
      const named = [stu.stopSequence !== undefined ? `sequence ${stu.stopSequence}` : '', stu.stopId !== undefined ? `stop_id ${stu.stopId}` : ''].filter((x) => x);
      problem(`trip ${tt.trips.ids[trip]}: no stop with ${named.join(' or ') || 'neither stop_sequence nor stop_id'}`);
      continue;
    }
    placed.push([k, stu]);
    previous = k;
  }
  placed.sort((p, q) => p[0] - q[0]);
  // the delay in force (null: none, the schedule holds), from the stop `next` on
  let delay: number | null = null;
  let next = 0;
  const carryTo = (end: number) => {
    for (; next < end; next++) {
      if (delay === null) continue;
      run.arrivalSec[next] = scheduledArrival[next]! + delay;
      run.departureSec[next] = scheduledDeparture[next]! + delay;
    }
  };
  for (const [k, stu] of placed) {
    carryTo(k);
    next = k + 1;
    if (stu.scheduleRelationship === 'NO_DATA') {
      delay = null;
      continue;
    }
    const skipped = stu.scheduleRelationship === 'SKIPPED';
    if (skipped) run.skipped[k] = 1;
    const arrival = delayOf(stu.arrival, scheduledArrival[k]!, origin);
    const departure = delayOf(stu.departure, scheduledDeparture[k]!, origin);
    // neither time: a skipped stop changes nothing, a served one is on time (the reference's example)
    const arrivalDelay: number | null = arrival ?? departure ?? (skipped ? delay : 0);
    const departureDelay: number | null = departure ?? arrivalDelay;
    if (arrivalDelay !== null) run.arrivalSec[k] = scheduledArrival[k]! + arrivalDelay;
    if (departureDelay !== null) run.departureSec[k] = Math.max(run.arrivalSec[k]!, scheduledDeparture[k]! + departureDelay);
    delay = departureDelay;
  }
  carryTo(count);
}

/**
 * The position in the trip of the stop an update names: by stop_sequence (unique in a trip), unless
 * the stop there is not its stop_id; else by stop_id, its first occurrence from `from` on (then
 * anywhere). -1 when none.
 */
function placeOf(ref: Referential, trip: number, stu: StopTimeUpdate, from: number): number {
  const tt = ref.tt;
  const first = tt.trips.stopTimeOffset[trip]!;
  const count = tt.trips.stopTimeOffset[trip + 1]! - first;
  const stops = tt.patterns.stops.subarray(tt.patterns.stopOffset[tt.trips.pattern[trip]!]!);
  const stop = stopOf(ref, stu);
  if (stu.stopSequence !== undefined) {
    for (let k = 0; k < count; k++) {
      if (tt.stopTimes.sequence[first + k] === stu.stopSequence) {
        if (stop === undefined || stops[k] === stop) return k;
        break;
      }
    }
  }
  if (stop === undefined) return -1;
  for (let k = from; k < count; k++) if (stops[k] === stop) return k;
  for (let k = 0; k < Math.min(from, count); k++) if (stops[k] === stop) return k;
  return -1;
}

/** The stop point an update names by stop_id; undefined when it names none the coverage knows. */
function stopOf(ref: Referential, stu: StopTimeUpdate): number | undefined {
  if (stu.stopId === undefined) return undefined;
  const stop = ref.indexOf('stop_point', stu.stopId);
  return stop < 0 ? undefined : stop;
}

/** An event's delay against its scheduled time (seconds after `origin`), or null when it gives none. */
function delayOf(event: StopTimeEvent | undefined, scheduledSec: number, origin: number): number | null {
  if (!event) return null;
  if (event.time !== undefined && event.time > 0) return Math.round(event.time - origin) - scheduledSec;
  if (event.delay !== undefined) return event.delay;
  return null;
}

function addedRun(
  ref: Referential,
  update: TripUpdate,
  feedTime: number,
  problem: (reason: string) => void,
): AddedRun | null {
  const tripId = update.trip.tripId!;
  const { tt, days } = ref;
  if (ref.indexOf('trip', tripId) >= 0) {
    problem(`added trip ${tripId}: a static trip has this id, ignored`);
    return null;
  }
  const routeId = update.trip.routeId ?? '';
  const line = routeId === '' ? NO_LINE : ref.indexOf('line', routeId);
  if (routeId !== '' && line < 0) {
    problem(`added trip ${tripId}: unknown route_id ${routeId}`);
    return null;
  }
  const stops: number[] = [];
  const times: Array<[number, number]> = [];
  for (const stu of update.stopTimeUpdates) {
    const stop = stopOf(ref, stu);
    const arrival = stu.arrival?.time ?? stu.departure?.time;
    const departure = stu.departure?.time ?? stu.arrival?.time;
    if (stop === undefined || arrival === undefined || departure === undefined) {
      problem(`added trip ${tripId}: a stop update without a known stop_id and an absolute time`);
      return null;
    }
    if (stu.scheduleRelationship === 'SKIPPED') continue;
    stops.push(stop);
    times.push([arrival, departure]);
  }
  if (stops.length < 2) {
    problem(`added trip ${tripId}: fewer than two stops`);
    return null;
  }
  // the service day: its start_date, else the coverage's local day of its first departure
  const tz = tt.timezones.indexOf(tt.timezone);
  const firstSec = times[0]![1];
  const day = update.trip.startDate !== undefined ? parseStartDate(update.trip.startDate) : dayOfInstant(days, Math.max(0, tz), firstSec || feedTime);
  if (day === null) {
    problem(`added trip ${tripId}: invalid start_date ${update.trip.startDate}`);
    return null;
  }
  const origin = days.origin(Math.max(0, tz), day);
  return {
    tripId,
    routeId,
    line,
    route: line === NO_LINE ? NO_ROUTE : routeOf(tt, line, update.trip.directionId),
    day,
    originSec: origin,
    stops: Uint32Array.from(stops),
    arrivalSec: Int32Array.from(times, ([a]) => Math.round(a - origin)),
    departureSec: Int32Array.from(times, ([, d]) => Math.round(d - origin)),
  };
}

/** The line's route in that direction, else its first route; NO_ROUTE when the line has no trip. */
function routeOf(tt: Timetable, line: number, directionId: number | undefined): number {
  let first = NO_ROUTE;
  for (let r = 0; r < tt.routes.length; r++) {
    if (tt.routes[r]!.line !== line) continue;
    if (tt.routes[r]!.direction === (directionId ?? -1)) return r;
    if (first === NO_ROUTE) first = r;
  }
  return first;
}

/** YYYYMMDD -> day number, null when malformed. */
function parseStartDate(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return dayNumber(y, mo, d);
}

/** The service day whose origin precedes `epochSec` most closely (the local day, "noon minus 12 h"). */
function dayOfInstant(days: ServiceDays, tz: number, epochSec: number): number {
  let day = Math.floor(epochSec / 86400) + 1;
  while (days.origin(tz, day) > epochSec) day--;
  return day;
}

/** The day of the trip's run nearest `epochSec` (0 inside the run), within two days; null if none. */
function nearestRunDay(tt: Timetable, days: ServiceDays, trip: number, epochSec: number): number | null {
  const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
  const from = tt.trips.stopTimeOffset[trip]!;
  const first = tt.stopTimes.departureSec[from]!;
  const last = tt.stopTimes.arrivalSec[tt.trips.stopTimeOffset[trip + 1]! - 1]!;
  const service = tt.trips.service[trip]!;
  const today = dayOfInstant(days, tz, epochSec);
  let best: number | null = null;
  let bestGap = Infinity;
  for (let day = today - 2; day <= today + 1; day++) {
    if (!serviceRunsOn(tt, service, day)) continue;
    const origin = days.origin(tz, day);
    const gap = Math.max(0, origin + first - epochSec, epochSec - (origin + last));
    if (gap < bestGap) {
      bestGap = gap;
      best = day;
    }
  }
  return best;
}
