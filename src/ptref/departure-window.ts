/**
 * The period filter of trips: does a trip have a run whose first departure falls inside
 * [sinceSec, untilSec] (both inclusive, epoch seconds)? Frequency-based trips count each of their
 * departures. Days are visited through the service bitset, skipping empty words, so a window as long
 * as the whole calendar costs a few word reads per trip.
 */
import type { ServiceDays } from '../model/service-days.js';
import type { Timetable } from '../model/timetable.js';

/** UTC offsets range from -12 h to +14 h: a service day's origin is within these bounds of 00:00 UTC. */
const MAX_EAST_SEC = 14 * 3600;
const MAX_WEST_SEC = 12 * 3600;

export function departsWithin(tt: Timetable, days: ServiceDays, trip: number, sinceSec: number, untilSec: number): boolean {
  const { trips, frequencies } = tt;
  const f0 = trips.frequencyOffset[trip]!;
  const f1 = trips.frequencyOffset[trip + 1]!;
  if (f0 === f1) return someRunDay(tt, days, trip, sinceSec, untilSec, (_day, at) => at >= sinceSec && at <= untilSec);
  let minDep = Infinity;
  let maxDep = -Infinity;
  for (let f = f0; f < f1; f++) {
    minDep = Math.min(minDep, frequencies.startSec[f]!);
    maxDep = Math.max(maxDep, frequencies.endSec[f]!);
  }
  return someActiveDay(tt, days, trip, minDep, maxDep, sinceSec, untilSec, (_day, origin) => {
    for (let f = f0; f < f1; f++) {
      const start = frequencies.startSec[f]!;
      const end = frequencies.endSec[f]!;
      const headway = frequencies.headwaySec[f]!;
      // First departure of this frequency row at or after `sinceSec`.
      const k = Number.isFinite(sinceSec) ? Math.max(0, Math.ceil((sinceSec - origin - start) / headway)) : 0;
      const dep = start + k * headway;
      if (dep < end && origin + dep <= untilSec) return true;
    }
    return false;
  });
}

/**
 * The service days of a timed trip's runs whose first departure may fall inside [sinceSec, untilSec]:
 * `visit(day, firstDepartureEpochSec)` for each, in day order, until it returns true (then true).
 */
export function someRunDay(
  tt: Timetable,
  days: ServiceDays,
  trip: number,
  sinceSec: number,
  untilSec: number,
  visit: (day: number, departureSec: number) => boolean,
): boolean {
  const dep = tt.stopTimes.departureSec[tt.trips.stopTimeOffset[trip]!]!;
  return someActiveDay(tt, days, trip, dep, dep, sinceSec, untilSec, (day, origin) => visit(day, origin + dep));
}

/**
 * The days the trip's service runs on whose departures, between minDep and maxDep seconds after the day's
 * origin in the trip's time zone, may fall inside [sinceSec, untilSec]: `visit(day, origin)` for
 * each, in day order, until it returns true (then true).
 */
function someActiveDay(
  tt: Timetable,
  days: ServiceDays,
  trip: number,
  minDep: number,
  maxDep: number,
  sinceSec: number,
  untilSec: number,
  visit: (day: number, originSec: number) => boolean,
): boolean {
  const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
  const service = tt.trips.service[trip]!;
  const lastDay = days.firstDay + days.dayCount - 1;
  const dayLo = Number.isFinite(sinceSec) ? Math.floor((sinceSec - maxDep - MAX_WEST_SEC) / 86400) - 1 : days.firstDay;
  const dayHi = Number.isFinite(untilSec) ? Math.min(lastDay, Math.ceil((untilSec - minDep + MAX_EAST_SEC) / 86400) + 1) : lastDay;
  for (let d = days.nextActiveDay(service, dayLo); d >= 0 && d <= dayHi; d = days.nextActiveDay(service, d + 1)) {
    if (visit(d, days.origin(tz, d))) return true;
  }
  return false;
}
