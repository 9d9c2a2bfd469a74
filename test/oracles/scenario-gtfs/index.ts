/**
 * The GTFS oracle of scenarios: writes a scenario's changes into a copy of a GTFS feed, with code
 * that shares nothing with src/ (its own CSV and zip reading, calendar and timetable logic), so that
 * the copy loaded as a coverage of its own checks the server's scenario overlay. Rules:
 * docs/scenarios.md; how each change is written into the files: the header of each module here.
 */
import { readFeedFiles } from './feed-files.js';
import type { ModificationReport } from './modification-context.js';
import { OracleFeed } from './oracle-feed.js';
import { applyScenario } from './scenario-writer.js';

export type { ModificationReport } from './modification-context.js';

export interface WriteOptions {
  /** NAME in the ids of what the scenario adds (`scenario:NAME:M…`): the configured name. */
  scenarioName: string;
  /** The feed's key in its coverage: ids written `feedKey:id` are read as `id`. */
  feedKey?: string;
}

export interface WriteReport {
  scenarioName: string;
  /** The first and last dates any service of the feed runs (YYYYMMDD): the new services' span. */
  productionPeriod: { start: string; end: string };
  tripsBefore: number;
  tripsAfter: number;
  tripsAdded: number;
  tripsRemoved: number;
  tripsChanged: number;
  newStopIds: string[];
  newRouteIds: string[];
  newServiceIds: string[];
  stopTimesWritten: number;
  /** One per modification, in the file's order. */
  modifications: ModificationReport[];
}

/** `feed` is a GTFS zip or a folder of its files; `outDir` receives the new feed's files. */
export async function writeScenarioFeed(feed: string, scenario: unknown, outDir: string, options: WriteOptions): Promise<WriteReport> {
  const oracleFeed = new OracleFeed(await readFeedFiles(feed));
  const tripsBefore = oracleFeed.trips.size;
  const modifications = applyScenario(oracleFeed, scenario, options.scenarioName, options.feedKey);
  const { stopTimesWritten } = oracleFeed.write(outDir);
  const sum = (key: 'tripsAdded' | 'tripsRemoved' | 'tripsChanged') => modifications.reduce((total, m) => total + m[key], 0);
  return {
    scenarioName: options.scenarioName,
    productionPeriod: oracleFeed.period,
    tripsBefore,
    tripsAfter: oracleFeed.trips.size,
    tripsAdded: sum('tripsAdded'),
    tripsRemoved: sum('tripsRemoved'),
    tripsChanged: sum('tripsChanged'),
    newStopIds: modifications.flatMap((m) => m.newStopIds),
    newRouteIds: modifications.flatMap((m) => m.newRouteIds),
    newServiceIds: oracleFeed.newServiceIds,
    stopTimesWritten,
    modifications,
  };
}
