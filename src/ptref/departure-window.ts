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
  const { trips, stopTimes, frequencies } = tt;
  const f0 = trips.frequencyOffset[trip]!;
  const f1 = trips.frequencyOffset[trip + 1]!;
  if (f0 === f1) {
    const dep = stopTimes.departureSec[trips.stopTimeOffset[trip]!]!;
    const w = runWindow(tt, days, trip, dep, dep, sinceSec, untilSec);
    for (let d = days.nextActiveDay(w.service, w.firstDay); d >= 0 && d <= w.lastDay; d = days.nextActiveDay(w.service, d + 1)) {
      const at = days.origin(w.tz, d) + dep;
      if (at > untilSec) return false;
      if (at >= sinceSec) return true;
    }
    return false;
  }
  let minDep = Infinity;
  let maxDep = -Infinity;
  for (let f = f0; f < f1; f++) {
    minDep = Math.min(minDep, frequencies.startSec[f]!);
    maxDep = Math.max(maxDep, frequencies.endSec[f]!);
  }
  const w = runWindow(tt, days, trip, minDep, maxDep, sinceSec, untilSec);
  for (let d = days.nextActiveDay(w.service, w.firstDay); d >= 0 && d <= w.lastDay; d = days.nextActiveDay(w.service, d + 1)) {
    const origin = days.origin(w.tz, d);
    for (let f = f0; f < f1; f++) {
      const start = frequencies.startSec[f]!;
      const end = frequencies.endSec[f]!;
      const headway = frequencies.headwaySec[f]!;
      // First departure of this frequency row at or after `sinceSec`.
      const k = Number.isFinite(sinceSec) ? Math.max(0, Math.ceil((sinceSec - origin - start) / headway)) : 0;
      const dep = start + k * headway;
      if (dep < end && origin + dep <= untilSec) return true;
    }
  }
  return false;
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
  const w = runWindow(tt, days, trip, dep, dep, sinceSec, untilSec);
  for (let d = days.nextActiveDay(w.service, w.firstDay); d >= 0 && d <= w.lastDay; d = days.nextActiveDay(w.service, d + 1)) {
    const at = days.origin(w.tz, d) + dep;
    if (at > untilSec) return false;
    if (visit(d, at)) return true;
  }
  return false;
}

/**
 * Where to look for a trip's runs with departures between minDep and maxDep seconds after their
 * day's origin inside [sinceSec, untilSec]: its service, the time zone of its days, and the range
 * of days to visit (`days.nextActiveDay` skips those it does not run on).
 */
function runWindow(tt: Timetable, days: ServiceDays, trip: number, minDep: number, maxDep: number, sinceSec: number, untilSec: number) {
  const lastDay = days.firstDay + days.dayCount - 1;
  return {
    service: tt.trips.service[trip]!,
    tz: tt.agencyTimezone[tt.trips.agency[trip]!]!,
    firstDay: Number.isFinite(sinceSec) ? Math.floor((sinceSec - maxDep - MAX_WEST_SEC) / 86400) - 1 : days.firstDay,
    lastDay: Number.isFinite(untilSec) ? Math.min(lastDay, Math.ceil((untilSec - minDep + MAX_EAST_SEC) / 86400) + 1) : lastDay,
  };
}
