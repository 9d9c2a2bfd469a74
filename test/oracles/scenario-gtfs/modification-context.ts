/** What each modification works with, and what it reports. */
import type { EntryStarts } from './timetable-entries.js';
import type { OracleFeed } from './oracle-feed.js';
import type { ScenarioIds } from './scenario-ids.js';

export type Modification = Record<string, unknown>;

export interface ModificationContext {
  feed: OracleFeed;
  ids: ScenarioIds;
  /** NAME in the ids of what the scenario adds (`scenario:NAME:M…`). */
  scenarioName: string;
  /** M: the modification's index in the file (from 0), whatever the order it applies in. */
  index: number;
  /** Where an error is, for its message: `modification M (type)`. */
  where: string;
  entryStarts: EntryStarts;
}

export interface ModificationReport {
  index: number;
  type: string;
  tripsAdded: number;
  tripsRemoved: number;
  /** Trips kept with new stops or times (or, for adjust-frequency, on fewer days). */
  tripsChanged: number;
  newStopIds: string[];
  newRouteIds: string[];
}

export function emptyReport(context: ModificationContext, type: string): ModificationReport {
  return { index: context.index, type, tripsAdded: 0, tripsRemoved: 0, tripsChanged: 0, newStopIds: [], newRouteIds: [] };
}

export function positiveNumber(value: unknown, where: string, allowZero = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`${where}: ${JSON.stringify(value)} must be a number ${allowZero ? '≥ 0' : '> 0'}`);
  }
  return value;
}

export function numberList(value: unknown, length: number, where: string): number[] {
  if (!Array.isArray(value) || value.length !== length) throw new Error(`${where}: a list of ${length} numbers is needed`);
  return value.map((v, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`${where}[${i}]: ${JSON.stringify(v)} is not a whole number ≥ 0`);
    return v;
  });
}
