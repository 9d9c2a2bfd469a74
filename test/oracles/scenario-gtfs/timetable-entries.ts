/**
 * Timetable entries (`frequencies[]` of add-trips, `entries[]` of adjust-frequency): their weekdays
 * and their trips' start times. A frequency entry starts trips at startTime + k × headwaySecs before
 * endTime; `firstDepartures` lists them. A phased entry (phaseFromTimetable, phaseAtStop,
 * phaseFromStop, phaseSeconds) starts at
 *   startTime + ((A − startTime) mod headwaySecs)
 * where A = the other entry's first start + its time to phaseFromStop + phaseSeconds − this entry's
 * time to phaseAtStop (a time to a stop: from the trip's start to its arrival at its first visit of
 * the stop). The mod is taken non-negative.
 */
import { WEEKDAYS } from './service-calendar.js';

export interface TimetableEntry {
  entryId?: string;
  startTime?: number;
  endTime?: number;
  headwaySecs?: number;
  firstDepartures?: number[];
  phaseFromTimetable?: string;
  phaseAtStop?: string;
  phaseFromStop?: string;
  phaseSeconds?: number;
  hopTimes?: number[];
  dwellTimes?: number[];
  sourceTrip?: string;
  monday?: boolean;
  tuesday?: boolean;
  wednesday?: boolean;
  thursday?: boolean;
  friday?: boolean;
  saturday?: boolean;
  sunday?: boolean;
}

export function entryWeekdays(entry: TimetableEntry): boolean[] {
  return WEEKDAYS.map((day) => entry[day] === true);
}

/** An entry given by startTime, endTime and headwaySecs (not by firstDepartures). */
export function isFrequencyEntry(entry: TimetableEntry): boolean {
  return entry.firstDepartures === undefined;
}

/** An entry's pattern as phasing sees it: its stops and the time from the start to each arrival. */
export interface EntryPattern {
  stopIds: string[];
  timesToArrival: number[];
}

export class EntryStarts {
  private readonly patterns = new Map<TimetableEntry, EntryPattern>();
  private readonly byId = new Map<string, TimetableEntry>();
  private readonly starts = new Map<TimetableEntry, number[]>();

  /** `plainStopId` reads a phase stop id as the pattern's stop ids are written (feed key stripped). */
  constructor(private readonly plainStopId: (id: string) => string) {}

  register(entry: TimetableEntry, pattern: EntryPattern, where: string): void {
    this.patterns.set(entry, pattern);
    if (entry.entryId !== undefined) {
      if (this.byId.has(entry.entryId)) throw new Error(`${where}: entryId ${entry.entryId} is used twice`);
      this.byId.set(entry.entryId, entry);
    }
  }

  startsOf(entry: TimetableEntry, where: string, visiting: Set<TimetableEntry> = new Set()): number[] {
    const known = this.starts.get(entry);
    if (known) return known;
    let starts: number[];
    if (entry.firstDepartures !== undefined) {
      starts = entry.firstDepartures.map((t) => integer(t, `${where}.firstDepartures`));
    } else {
      const startTime = integer(entry.startTime, `${where}.startTime`);
      const endTime = integer(entry.endTime, `${where}.endTime`);
      const headway = integer(entry.headwaySecs, `${where}.headwaySecs`);
      if (headway <= 0) throw new Error(`${where}: headwaySecs must be positive`);
      if (endTime < startTime) throw new Error(`${where}: endTime before startTime`);
      let first = startTime;
      if (entry.phaseFromTimetable !== undefined) {
        if (visiting.has(entry)) throw new Error(`${where}: phasing goes round in a circle`);
        visiting.add(entry);
        const other = this.byId.get(entry.phaseFromTimetable);
        if (!other) throw new Error(`${where}: phaseFromTimetable ${entry.phaseFromTimetable} names no entry of this scenario`);
        if (other.headwaySecs !== headway) throw new Error(`${where}: a phased entry needs the same headway as ${entry.phaseFromTimetable}`);
        const otherFirst = this.startsOf(other, `entry ${entry.phaseFromTimetable}`, visiting)[0];
        if (otherFirst === undefined) throw new Error(`${where}: entry ${entry.phaseFromTimetable} has no trip to phase from`);
        const a = otherFirst + this.timeTo(other, entry.phaseFromStop, `${where}.phaseFromStop`) + integer(entry.phaseSeconds ?? 0, `${where}.phaseSeconds`) - this.timeTo(entry, entry.phaseAtStop, `${where}.phaseAtStop`);
        first = startTime + ((((a - startTime) % headway) + headway) % headway);
      }
      starts = [];
      for (let t = first; t < endTime; t += headway) starts.push(t);
    }
    this.starts.set(entry, starts);
    return starts;
  }

  private timeTo(entry: TimetableEntry, stop: string | undefined, where: string): number {
    if (stop === undefined) throw new Error(`${where} is missing`);
    const pattern = this.patterns.get(entry);
    if (!pattern) throw new Error(`${where}: entry not known`);
    const k = pattern.stopIds.indexOf(this.plainStopId(stop));
    if (k < 0) throw new Error(`${where}: stop ${stop} is not on the entry's pattern`);
    return pattern.timesToArrival[k]!;
  }
}

export function integer(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`${where}: ${JSON.stringify(value)} is not a whole number`);
  return value;
}
