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
 * The work is sized by the timetable, not by the file: the periods of every disruption are first
 * merged per impacted object (one sorted list of disjoint periods), so a thousand disruptions on
 * one network visit its trips once; each run is then tested against its trip's few lists by binary
 * search. Every step counts against a budget (`maxSteps`): a file that asks for more is refused
 * whole (PlannedRunsBudgetError). The work is a generator that yields every few thousand steps, so
 * `plannedRunsInSlices` hands the event loop back every few milliseconds.
 *
 * Only the service days of the production period are expanded, and at most `maxRuns` runs.
 * Planned runs keep the scheduled times: their time arrays are views on the timetable (consumers
 * must not write them), so a long closure of a busy stop costs one skip flag per stop of each run.
 */
import type { Referential } from '../../ptref/referential.js';
import { serviceRunsOn } from '../../model/timetable.js';
import type { RealtimeRun } from '../../model/realtime-runs.js';
import { inOnePiece, inSlices } from '../../util/stepwise.js';
import type { Disruption, ImpactedObject, Period } from './disruption.js';
import { DisjointPeriods, mergePeriods } from './disjoint-periods.js';

export interface PlannedRunsBudget {
  /** most runs made; beyond, the rest is left as scheduled (reported) */
  maxRuns: number;
  /** most steps (a period merged, a trip visited, a run or a run's stop tested); beyond, refused */
  maxSteps: number;
}

export const DEFAULT_PLANNED_RUNS_BUDGET: PlannedRunsBudget = {
  maxRuns: 2_000_000,
  // a year of closures on every trip of a 100,000-trip feed is 40 million steps, about a second
  maxSteps: 100_000_000,
};

export interface PlannedRuns {
  runs: RealtimeRun[];
  problems: string[];
  /** the steps the expansion took (what the budget counts) */
  steps: number;
}

/** Disruptions whose expansion asks for more steps than the budget allows. */
export class PlannedRunsBudgetError extends Error {
  constructor(readonly maxSteps: number) {
    super(`the planned disruptions ask for more than ${maxSteps} steps to expand into runs (disruptions.maxExpansionSteps): refused`);
    this.name = 'PlannedRunsBudgetError';
  }
}

/** The runs changed by the NO_SERVICE disruptions among `disruptions`, on days firstDay..lastDay, in one piece. */
export function plannedRuns(ref: Referential, disruptions: Disruption[], firstDay: number, lastDay: number, budget = DEFAULT_PLANNED_RUNS_BUDGET): PlannedRuns {
  return inOnePiece(expand(ref, disruptions, firstDay, lastDay, budget));
}

/** `plannedRuns` a few milliseconds at a time, the event loop served in between. */
export function plannedRunsInSlices(ref: Referential, disruptions: Disruption[], firstDay: number, lastDay: number, budget = DEFAULT_PLANNED_RUNS_BUDGET): Promise<PlannedRuns> {
  return inSlices(expand(ref, disruptions, firstDay, lastDay, budget));
}

/** How many steps between two looks at the clock. */
const STEPS_PER_YIELD = 8192;

const SEC_PER_DAY = 86400;
/** runs last less than three days: a period reaches the runs of the service days from 3 days before it */
const DAYS_BEFORE = 3;

/** Counts the steps, throws past the budget, and tells when to yield. */
class StepCounter {
  steps = 0;
  private nextYield = STEPS_PER_YIELD;

  constructor(private readonly maxSteps: number) {}

  /** Count `n` steps; true when the work should yield. */
  add(n: number): boolean {
    this.steps += n;
    if (this.steps > this.maxSteps) throw new PlannedRunsBudgetError(this.maxSteps);
    if (this.steps < this.nextYield) return false;
    this.nextYield = this.steps + STEPS_PER_YIELD;
    return true;
  }
}

function* expand(ref: Referential, disruptions: Disruption[], firstDay: number, lastDay: number, budget: PlannedRunsBudget): Generator<void, PlannedRuns> {
  const problems: string[] = [];
  if (firstDay < 0) return { runs: [], problems, steps: 0 };
  const counter = new StepCounter(budget.maxSteps);
  const runs = new RunTable(ref, firstDay, lastDay, budget.maxRuns);

  // 1. the periods of each impacted object, merged across the disruptions that name it
  const byObject = new Map<string, { object: ImpactedObject; periods: Period[][] }>();
  for (const d of disruptions) {
    if (d.severity.effect !== 'NO_SERVICE') continue;
    for (const o of d.impacted) {
      const key = `${o.type}:${o.index}`;
      let entry = byObject.get(key);
      if (!entry) byObject.set(key, (entry = { object: o, periods: [] }));
      entry.periods.push(d.periods);
      if (counter.add(d.periods.length)) yield;
    }
  }
  const tripLists: DisjointPeriods[][] = [];
  const stopLists: DisjointPeriods[][] = [];
  for (const { object, periods } of byObject.values()) {
    const merged = mergePeriods(periods);
    if (counter.add(merged.count + periods.length)) yield;
    const stopLevel = object.type === 'stop_point' || object.type === 'stop_area';
    const members = stopLevel ? ref.convert(object.type, 'stop_point', Uint32Array.of(object.index)) : ref.toTrips(object.type, Uint32Array.of(object.index));
    const lists = stopLevel ? stopLists : tripLists;
    for (const m of members) (lists[m] ??= []).push(merged);
    if (counter.add(members.length)) yield;
  }

  // 2. runs of the impacted trips, cancelled
  const { tt, days } = ref;
  for (let trip = 0; trip < tripLists.length; trip++) {
    const lists = tripLists[trip];
    if (!lists) continue;
    const [startSec, endSec] = runSpan(ref, trip);
    const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
    for (const day of runDays(ref, trip, lists, firstDay, lastDay, counter)) {
      if (day === PAUSE) {
        yield;
        continue;
      }
      const origin = days.origin(tz, day);
      if (DisjointPeriods.meetAny(lists, origin + startSec, origin + endSec)) runs.cancel(trip, day);
    }
  }

  // 3. runs through the impacted stops, skipping them
  const impactedStops: number[] = [];
  for (let s = 0; s < stopLists.length; s++) if (stopLists[s]) impactedStops.push(s);
  if (impactedStops.length > 0) {
    const positions: number[] = [];
    for (const trip of ref.toTrips('stop_point', Uint32Array.from(impactedStops))) {
      if (tt.trips.frequencyOffset[trip] !== tt.trips.frequencyOffset[trip + 1]) continue;
      const first = tt.trips.stopTimeOffset[trip]!;
      const count = tt.trips.stopTimeOffset[trip + 1]! - first;
      const p = tt.trips.pattern[trip]!;
      const patternStops = tt.patterns.stops.subarray(tt.patterns.stopOffset[p]!, tt.patterns.stopOffset[p + 1]!);
      positions.length = 0;
      const lists: DisjointPeriods[] = [];
      for (let k = 0; k < count; k++) {
        if (!stopLists[patternStops[k]!]) continue;
        positions.push(k);
        lists.push(...stopLists[patternStops[k]!]!);
      }
      if (counter.add(count)) yield;
      const tz = tt.agencyTimezone[tt.trips.agency[trip]!]!;
      for (const day of runDays(ref, trip, lists, firstDay, lastDay, counter)) {
        if (day === PAUSE) {
          yield;
          continue;
        }
        const origin = days.origin(tz, day);
        for (const k of positions) {
          const at = origin + tt.stopTimes.arrivalSec[first + k]!;
          const leave = origin + tt.stopTimes.departureSec[first + k]!;
          if (DisjointPeriods.meetAny(stopLists[patternStops[k]!]!, at, leave)) runs.skip(trip, day, k);
        }
      }
    }
  }
  if (runs.full) problems.push(`more than ${budget.maxRuns} runs changed by planned disruptions: the rest is left as scheduled`);
  return { runs: runs.finish(), problems, steps: counter.steps };
}

/** What `runDays` yields where the work may hand the event loop back. */
const PAUSE = -1;

/**
 * The service days of `trip` (within firstDay..lastDay) on which its runs may meet one of `lists`,
 * each costing a step per list; PAUSE between them when the work should yield.
 */
function* runDays(ref: Referential, trip: number, lists: DisjointPeriods[], firstDay: number, lastDay: number, counter: StepCounter): Generator<number> {
  const { tt } = ref;
  const service = tt.trips.service[trip]!;
  const [from, to] = dayRange(lists, firstDay, lastDay);
  for (let day = from; day <= to; day++) {
    if (counter.add(lists.length)) yield PAUSE;
    if (serviceRunsOn(tt, service, day)) yield day;
  }
}

/** Service days whose runs may meet one of the lists, within the production period. */
function dayRange(lists: DisjointPeriods[], firstDay: number, lastDay: number): [number, number] {
  let begin = Infinity;
  let end = -Infinity;
  for (const l of lists) {
    begin = Math.min(begin, l.first);
    end = Math.max(end, l.last);
  }
  const from = begin === -Infinity ? firstDay : Math.max(firstDay, Math.floor(begin / SEC_PER_DAY) - DAYS_BEFORE);
  const to = end === Infinity ? lastDay : Math.min(lastDay, Math.floor(end / SEC_PER_DAY) + 1);
  return [from, to];
}

/**
 * The runs made, one per (trip, day), in the order they were made. The time arrays of a trip's
 * runs are one pair of views; runs that skip nothing share one array of zeros per length.
 */
class RunTable {
  private readonly byKey = new Map<number, RealtimeRun>();
  private readonly noSkips = new Map<number, Uint8Array>();
  private readonly dayCount: number;
  private viewsOf = -1;
  private views: { arrivalSec: Int32Array; departureSec: Int32Array } | undefined;
  full = false;

  constructor(
    private readonly ref: Referential,
    private readonly firstDay: number,
    lastDay: number,
    private readonly maxRuns: number,
  ) {
    this.dayCount = lastDay - firstDay + 1;
  }

  cancel(trip: number, day: number): void {
    const run = this.run(trip, day);
    if (run) run.cancelled = true;
  }

  skip(trip: number, day: number, k: number): void {
    const run = this.run(trip, day);
    if (!run || run.cancelled) return;
    if (run.skipped === this.noSkips.get(run.skipped.length)) run.skipped = new Uint8Array(run.skipped.length);
    run.skipped[k] = 1;
  }

  /** The runs; a run left with fewer than two stops does not run. */
  finish(): RealtimeRun[] {
    const out = [...this.byKey.values()];
    for (const run of out) {
      if (run.cancelled) continue;
      let served = 0;
      for (let k = 0; k < run.skipped.length; k++) if (!run.skipped[k]) served++;
      if (served < 2) run.cancelled = true;
    }
    return out;
  }

  private run(trip: number, day: number): RealtimeRun | undefined {
    const key = trip * this.dayCount + (day - this.firstDay);
    const known = this.byKey.get(key);
    if (known) return known;
    if (this.byKey.size >= this.maxRuns) {
      this.full = true;
      return undefined;
    }
    const { tt } = this.ref;
    const first = tt.trips.stopTimeOffset[trip]!;
    const count = tt.trips.stopTimeOffset[trip + 1]! - first;
    if (this.viewsOf !== trip) {
      this.viewsOf = trip;
      this.views = { arrivalSec: tt.stopTimes.arrivalSec.subarray(first, first + count), departureSec: tt.stopTimes.departureSec.subarray(first, first + count) };
    }
    let skipped = this.noSkips.get(count);
    if (!skipped) this.noSkips.set(count, (skipped = new Uint8Array(count)));
    const run: RealtimeRun = { trip, day, cancelled: false, arrivalSec: this.views!.arrivalSec, departureSec: this.views!.departureSec, skipped };
    this.byKey.set(key, run);
    return run;
  }
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
