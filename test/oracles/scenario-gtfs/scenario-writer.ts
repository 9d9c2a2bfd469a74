/**
 * Applies a scenario's modifications to the feed in memory, in R5's order whatever the file's:
 * adjust-speed, adjust-dwell-time, remove-stops, reroute, adjust-frequency, remove-trips, add-trips
 * (two of one type in the file's order), each on the timetable the previous ones left.
 *
 * Phasing may name an entry of a later modification, so every entry's pattern is taken just before
 * the first adjust-frequency or add-trips applies: after the changes that may retime a source trip.
 */
import { addTrips, addTripsPatterns } from './add-trips.js';
import { adjustDwellTime } from './adjust-dwell-time.js';
import { adjustFrequency, adjustFrequencyPatterns } from './adjust-frequency.js';
import { adjustSpeed } from './adjust-speed.js';
import type { Modification, ModificationContext, ModificationReport } from './modification-context.js';
import type { OracleFeed } from './oracle-feed.js';
import { removeStops } from './remove-stops.js';
import { removeTrips } from './remove-trips.js';
import { reroute } from './reroute.js';
import { ScenarioIds } from './scenario-ids.js';
import { EntryStarts } from './timetable-entries.js';

const APPLY = {
  'adjust-speed': adjustSpeed,
  'adjust-dwell-time': adjustDwellTime,
  'remove-stops': removeStops,
  reroute,
  'adjust-frequency': adjustFrequency,
  'remove-trips': removeTrips,
  'add-trips': addTrips,
} as const;

type ModificationType = keyof typeof APPLY;

const ORDER = Object.keys(APPLY) as ModificationType[];

export function applyScenario(feed: OracleFeed, scenario: unknown, scenarioName: string, feedKey: string | undefined): ModificationReport[] {
  if (typeof scenario !== 'object' || scenario === null || !Array.isArray((scenario as Record<string, unknown>)['modifications'])) {
    throw new Error('the scenario is not an object with a list of modifications');
  }
  const modifications = (scenario as { modifications: unknown[] }).modifications.map((m, index) => {
    const type = typeof m === 'object' && m !== null ? (m as Modification)['type'] : undefined;
    if (typeof type !== 'string' || !ORDER.includes(type as ModificationType)) throw new Error(`modification ${index}: unknown type ${JSON.stringify(type)}`);
    return { index, type: type as ModificationType, modification: m as Modification };
  });
  const ids = new ScenarioIds(feed, feedKey);
  const entryStarts = new EntryStarts((id) => ids.plain(id));
  const contextOf = (index: number, type: string): ModificationContext => ({ feed, ids, scenarioName, index, where: `modification ${index} (${type})`, entryStarts });

  const ordered = [...modifications].sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type) || a.index - b.index);
  const reports: ModificationReport[] = [];
  let patternsTaken = false;
  for (const { index, type, modification } of ordered) {
    if (!patternsTaken && (type === 'adjust-frequency' || type === 'add-trips')) {
      for (const m of modifications) {
        const context = contextOf(m.index, m.type);
        const patterns = m.type === 'add-trips' ? addTripsPatterns(context, m.modification) : m.type === 'adjust-frequency' ? adjustFrequencyPatterns(context, m.modification) : [];
        patterns.forEach(([entry, pattern], e) => entryStarts.register(entry, pattern, `${context.where} entry ${e}`));
      }
      patternsTaken = true;
    }
    reports.push(APPLY[type](contextOf(index, type), modification));
  }
  return reports.sort((a, b) => a.index - b.index);
}
