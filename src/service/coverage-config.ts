/** What the configuration says of a coverage: its sources and their settings. */
import type { ReadLimits } from '../gtfs/read-limits.js';
import type { FeedSourceConfig } from '../live/realtime/feed-source.js';
import type { DisruptionFileLimits } from '../live/disruptions/disruption-file.js';
import type { PointSetSource } from '../model/point-set.js';

export interface CoverageConfig {
  id: string;
  /** GTFS feeds: zip files or folders. */
  gtfs: string[];
  /** OpenStreetMap extract (PBF or XML) for the street network. */
  osm?: string;
  /** Coverage time zone; defaults to the first agency's. */
  timezone?: string;
  /** GTFS-Realtime sources (TripUpdates), polled once the coverage is loaded */
  realtime?: FeedSourceConfig[];
  /** The disruptions file, read once the coverage is loaded and again when it changes */
  disruptions?: DisruptionSourceConfig;
  /** What reading its GTFS feeds may cost (gtfs/read-limits.ts): the defaults where it says nothing */
  readLimits?: Partial<ReadLimits>;
  /** Seconds a rider must be at a stop before the vehicle leaves, at every boarding (default DEFAULT_BOARD_SLACK_SEC) */
  boardSlackSec?: number;
  /** Point sets (places with opportunity counts) for accessibility and matrices, linked to the streets at load */
  pointSets?: PointSetSource[];
  /** Scenarios (R5's scenario JSON files, docs/scenarios.md), read once the coverage is loaded and again when they change */
  scenarios?: ScenarioSourceConfig[];
}

export interface ScenarioSourceConfig {
  name: string;
  path: string;
}

/** What a scenario's name must be: it is written `scenario=NAME` in the API and in the ids of what it adds. */
export const SCENARIO_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The name `compare_scenario` gives the timetable without a scenario: no scenario may take it. */
export const BASE_SCENARIO = 'base';

/** What a point set's name must be: it is written `NAME:COLUMN` in the API and in file names. */
export const POINT_SET_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The board slack of a coverage that sets none: R5's, and OpenTripPlanner's usual `boardSlack`. */
export const DEFAULT_BOARD_SLACK_SEC = 60;

/** The coverage's board slack, seconds. */
export function boardSlackOf(config: CoverageConfig): number {
  return config.boardSlackSec ?? DEFAULT_BOARD_SLACK_SEC;
}

export interface DisruptionSourceConfig extends Partial<DisruptionFileLimits> {
  path: string;
  /** seconds between two checks of the file (default 5) */
  intervalSec?: number;
}
