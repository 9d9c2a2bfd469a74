/**
 * Planned NO_SERVICE disruptions as runs of the adapted level (the same RealtimeRun objects as
 * TripUpdates give, so the freshness levels and the heat maps read both the same way):
 *
 * - on a trip, route, line or network: every run (trip, service day) of its trips whose span, from
 *   first departure to last arrival, meets an application period is cancelled;
 * - on a stop point or stop area: every run through the stop skips it when it is there (arrival or
 *   departure) during an application period; a run left with fewer than two stops is cancelled.
 *   Trips defined by frequencies are not changed by stop impacts (their runs have no single time).
 *
 * Only the service days of the production period are expanded, and at most MAX_PLANNED_RUNS runs.
 * Planned runs keep the scheduled times: their time arrays are views on the timetable (consumers
 * must not write them), so a long closure of a busy stop costs one skip flag per stop of each run.
 */
import type { Referential } from '../../ptref/referential.js';
import { serviceRunsOn } from '../../model/timetable.js';
import { runKey, type RealtimeRun } from '../../model/realtime-runs.js';
import { IndexCollector } from '../../ptref/sorted-set.js';
import type { Disruption, Period } from './disruption.js';

export const MAX_PLANNED_RUNS = 2_000_000;

export interface PlannedRuns {
  runs: RealtimeRun[];
  problems: string[];
}

const SEC_PER_DAY = 86400;

/** The runs changed by the NO_SERVICE disruptions among `disruptions`, on days firstDay..lastDay. */
export function plannedRuns(ref: Referential, disruptions: Disruption[], firstDay: number, lastDay: number, limit = MAX_PLANNED_RUNS): PlannedRuns {
  const out = new Map<string, RealtimeRun>();
  const problems: string[] = [];
  if (firstDay < 0) return { runs: [], problems };
  const { tt, days } = ref;
  const tripCollector = new IndexCollector(Math.max(1, ref.count('trip')));
  const stopCollector = new IndexCollector(Math.max(1, ref.count('stop_point')));
  const noSkips = new Map<number, Uint8Array>();
  let full = false;
  const add = (key: string, make: () => RealtimeRun): RealtimeRun | undefined => {
    let run = out.get(key);
    if (run) return run;
    if (out.size >= limit) {
      full = true;
      return undefined;
    }
    run = make();
    out.set(key, run);
    return run;
  };

  for (const d of disruptions) {
    if (d.severity.effect !== 'NO_SERVICE') continue;
    for (const o of d.impacted) {
      if (o.type === 'stop_point' || o.type === 'stop_area') stopCollector.addAll(ref.convert(o.type, 'stop_point', Uint32Array.of(o.index)));
      else tripCollector.addAll(ref.toTrips(o.type, Uint32Array.of(o.index)));
    }
    const cancelledTrips = tripCollector.take();
    const stops = stopCollector.take();
    for (const period of d.periods) {
      const [from, to] = dayRange(period, firstDay, lastDay);
      for (const trip of cancelledTrips) {
        const first = tt.trips.stopTimeOffset[trip]!;
        const count = tt.trips.stopTimeOffset[trip + 1]! - first;
        const [startSec, endSec] = runSpan(ref, trip);
        const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
        for (let day = from; day <= to; day++) {
          if (!serviceRunsOn(tt, tt.trips.service[trip]!, day)) continue;
          const origin = days.origin(tz, day);
          if (origin + endSec < period.begin || origin + startSec > period.end) continue;
          let skipped = noSkips.get(count);
          if (!skipped) noSkips.set(count, (skipped = new Uint8Array(count)));
          const shared = skipped;
          const run = add(runKey(trip, day), () => ({
            trip,
            day,
            cancelled: true,
            arrivalSec: tt.stopTimes.arrivalSec.subarray(first, first + count),
            departureSec: tt.stopTimes.departureSec.subarray(first, first + count),
            skipped: shared,
          }));
          if (run) run.cancelled = true;
        }
      }
      if (stops.length > 0) skipStops(ref, stops, period, from, to, add);
    }
    if (full) break;
  }
  if (full) problems.push(`more than ${limit} runs changed by planned disruptions: the rest is left as scheduled`);
  // a run left with fewer than two stops does not run
  for (const run of out.values()) {
    if (run.cancelled) continue;
    let served = 0;
    for (let k = 0; k < run.skipped.length; k++) if (!run.skipped[k]) served++;
    if (served < 2) run.cancelled = true;
  }
  return { runs: [...out.values()], problems };
}

/** Runs through `stops` skip them while in `period`. */
function skipStops(
  ref: Referential,
  stops: Uint32Array,
  period: Period,
  from: number,
  to: number,
  add: (key: string, make: () => RealtimeRun) => RealtimeRun | undefined,
): void {
  const { tt, days } = ref;
  const isStop = new Uint8Array(tt.stopPoints.ids.length);
  for (const s of stops) isStop[s] = 1;
  for (const trip of ref.toTrips('stop_point', stops)) {
    if (tt.trips.frequencyOffset[trip] !== tt.trips.frequencyOffset[trip + 1]) continue;
    const first = tt.trips.stopTimeOffset[trip]!;
    const count = tt.trips.stopTimeOffset[trip + 1]! - first;
    const p = tt.trips.pattern[trip]!;
    const patternStops = tt.patterns.stops.subarray(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p + 1]!);
    const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
    for (let day = from; day <= to; day++) {
      if (!serviceRunsOn(tt, tt.trips.service[trip]!, day)) continue;
      const origin = days.origin(tz, day);
      for (let k = 0; k < count; k++) {
        if (!isStop[patternStops[k]!]) continue;
        const at = origin + tt.stopTimes.arrivalSec[first + k]!;
        const leave = origin + tt.stopTimes.departureSec[first + k]!;
        if (leave < period.begin || at > period.end) continue;
        const run = add(runKey(trip, day), () => ({
          trip,
          day,
          cancelled: false,
          arrivalSec: tt.stopTimes.arrivalSec.subarray(first, first + count),
          departureSec: tt.stopTimes.departureSec.subarray(first, first + count),
          skipped: new Uint8Array(count),
        }));
        if (run && !run.cancelled) run.skipped[k] = 1;
      }
    }
  }
}

/** Service days whose runs may meet the period (runs last less than three days), within the production period. */
function dayRange(period: Period, firstDay: number, lastDay: number): [number, number] {
  const from = period.begin === -Infinity ? firstDay : Math.max(firstDay, Math.floor(period.begin / SEC_PER_DAY) - 3);
  const to = period.end === Infinity ? lastDay : Math.min(lastDay, Math.floor(period.end / SEC_PER_DAY) + 1);
  return [from, to];
}

/** Seconds after the service day's origin of a trip's first departure and last arrival (all frequency runs included). */
function runSpan(ref: Referential, trip: number): [number, number] {
  const { trips, stopTimes, frequencies } = ref.tt;
  const first = stopTimes.departureSec[trips.stopTimeOffset[trip]!]!;
  const last = stopTimes.arrivalSec[trips.stopTimeOffset[trip + 1]! - 1]!;
  const f0 = trips.frequencyOffset[trip]!;
  const f1 = trips.frequencyOffset[trip + 1]!;
  if (f0 === f1) return [first, last];
  let start = Infinity;
  let end = -Infinity;
  for (let f = f0; f < f1; f++) {
    start = Math.min(start, frequencies.startSec[f]!);
    end = Math.max(end, frequencies.endSec[f]!);
  }
  return [start, end + (last - first)];
}
