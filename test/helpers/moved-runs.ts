/**
 * Realtime runs made up over a timetable, for the tests of the period filter at the adapted and
 * realtime levels: random trips on random days (days they do not run too), each moved by one of
 * `SHIFTS` (minutes to days, either way: before its day's origin, onto another day), a fifth
 * cancelled, a fifth without their first stops.
 */
import type { RealtimeRun } from '../../src/model/realtime-runs.js';
import type { Timetable } from '../../src/model/timetable.js';

export const SHIFTS = [0, 60, -600, 2 * 3600, 86400, -2 * 86400, 5 * 86400 + 7];

/** `count` runs of `tt`'s trips on days [firstDay, firstDay + dayCount). */
export function movedRuns(tt: Timetable, random: () => number, count: number, firstDay: number, dayCount: number): RealtimeRun[] {
  const pick = (n: number) => Math.floor(random() * n);
  return Array.from({ length: count }, () => {
    const trip = pick(tt.trips.ids.length);
    const from = tt.trips.stopTimeOffset[trip]!;
    const to = tt.trips.stopTimeOffset[trip + 1]!;
    const shift = SHIFTS[pick(SHIFTS.length)]!;
    const skipped = new Uint8Array(to - from);
    if (random() < 0.2) skipped.fill(1, 0, 1 + pick(3));
    return {
      trip,
      day: firstDay + pick(dayCount),
      cancelled: random() < 0.2,
      arrivalSec: Int32Array.from(tt.stopTimes.arrivalSec.subarray(from, to), (s) => s + shift),
      departureSec: Int32Array.from(tt.stopTimes.departureSec.subarray(from, to), (s) => s + shift),
      skipped,
    };
  });
}
