/**
 * The timetable as a scenario's modifications see it while they apply: the base trips, untouched
 * until a modification chooses one (it is then copied out as a `ScenarioTrip` and the base trip is
 * masked), and the trips the scenario makes. What a scenario changes is the trips it copied or made;
 * everything else stays the base timetable's, shared.
 */
import type { Timetable } from '../model/timetable.js';
import type { StopTimes } from './retime.js';

/** One trip of the scenario: copied from a base trip and changed, or new. */
export interface ScenarioTrip extends StopTimes {
  id: string;
  /** the base trip it comes from (its masks, filters and agency), -1 for a new trip */
  source: number;
  /** line index: the timetable's, or timetable lines + k for the scenario's k-th new line */
  line: number;
  /** time-zone index (`Timetable.timezones`) its times are read in */
  timezone: number;
  /** stop points: the timetable's, or stop points + k for the scenario's k-th new stop */
  stops: number[];
  /** per stop: the pickup/drop-off byte (timetable.ts) */
  pickDrop: number[];
  /** service index: the timetable's, or services + k for the scenario's k-th new calendar */
  service: number;
  /** seconds added to the times for each run (one 0 for a timed trip; frequencies.txt runs otherwise) */
  shifts: number[];
}

export class ScenarioTrips {
  /** per base trip: 1 when the scenario masks it (removed, or copied out and changed) */
  readonly masked: Uint8Array;
  /** copies of base trips, by base trip (null: removed) */
  readonly copies = new Map<number, ScenarioTrip | null>();
  /** trips made by the scenario (adjust-frequency's, add-trips'), in order; null once removed */
  readonly made: (ScenarioTrip | null)[] = [];
  private lineTrips: Map<number, number[]> | null = null;

  constructor(readonly tt: Timetable) {
    this.masked = new Uint8Array(tt.trips.ids.length);
  }

  /** The base trips of line `l` (any state), ascending. */
  baseTripsOf(line: number): number[] {
    if (!this.lineTrips) {
      this.lineTrips = new Map();
      const lines = this.tt.trips.line;
      for (let t = 0; t < lines.length; t++) {
        const list = this.lineTrips.get(lines[t]!);
        if (list) list.push(t);
        else this.lineTrips.set(lines[t]!, [t]);
      }
    }
    return this.lineTrips.get(line) ?? [];
  }

  /** Whether base trip t still runs in the scenario. */
  runs(t: number): boolean {
    return this.copies.get(t) !== null;
  }

  /** Base trip t's stops as the scenario has them now. */
  stopsOf(t: number): ArrayLike<number> {
    const copy = this.copies.get(t);
    if (copy) return copy.stops;
    const { patterns, trips } = this.tt;
    const p = trips.pattern[t]!;
    return patterns.stops.subarray(patterns.stopOffset[p]!, patterns.stopOffset[p + 1]!);
  }

  /** Base trip t, copied out for a change (the same copy on later changes). */
  copy(t: number): ScenarioTrip {
    const known = this.copies.get(t);
    if (known) return known;
    const { trips, stopTimes, patterns, agencyTimezone, frequencies } = this.tt;
    const o = trips.stopTimeOffset[t]!;
    const n = trips.stopTimeOffset[t + 1]! - o;
    const p = trips.pattern[t]!;
    const f0 = trips.frequencyOffset[t]!;
    const f1 = trips.frequencyOffset[t + 1]!;
    const shifts: number[] = [];
    if (f0 === f1) shifts.push(0);
    const firstDeparture = stopTimes.departureSec[o]!;
    // as the timetable runs frequencies.txt: from start_time every headway_secs, before end_time
    for (let f = f0; f < f1; f++) {
      for (let dep = frequencies.startSec[f]!; dep < frequencies.endSec[f]!; dep += frequencies.headwaySec[f]!) shifts.push(dep - firstDeparture);
    }
    const trip: ScenarioTrip = {
      id: trips.ids[t]!,
      source: t,
      line: trips.line[t]!,
      timezone: agencyTimezone[trips.agency[t]!]!,
      stops: Array.from(patterns.stops.subarray(patterns.stopOffset[p]!, patterns.stopOffset[p]! + n)),
      pickDrop: Array.from(stopTimes.pickDrop.subarray(o, o + n)),
      arrival: Array.from(stopTimes.arrivalSec.subarray(o, o + n)),
      departure: Array.from(stopTimes.departureSec.subarray(o, o + n)),
      service: trips.service[t]!,
      shifts,
    };
    this.copies.set(t, trip);
    this.masked[t] = 1;
    return trip;
  }

  remove(t: number): void {
    this.copies.set(t, null);
    this.masked[t] = 1;
  }

  /** Every trip the scenario runs beside the unmasked base trips: the changed copies and the made trips. */
  changedTrips(): ScenarioTrip[] {
    const out: ScenarioTrip[] = [];
    for (const trip of this.copies.values()) if (trip) out.push(trip);
    for (const trip of this.made) if (trip) out.push(trip);
    return out;
  }
}
