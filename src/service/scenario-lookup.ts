/**
 * What requests read of a coverage's scenarios (scenario-library.ts keeps them): a scenario applied
 * to one timetable, a scenario's state for `/scenarios`, and the lookup by name.
 */
import type { Timetable } from '../model/timetable.js';
import type { RaptorOverlay } from '../routing/raptor-overlay.js';
import type { ModificationSummary } from '../scenarios/apply-scenario.js';
import type { ScenarioError } from '../scenarios/scenario-file.js';
import type { scenarioGeoJson } from '../scenarios/scenario-geojson.js';

/** A scenario applied to one timetable: what requests read. */
export interface AppliedVersion {
  name: string;
  description: string | null;
  /** the timetable it was applied to */
  tt: Timetable;
  overlay: RaptorOverlay;
  summary: ModificationSummary[];
  geojson: ReturnType<typeof scenarioGeoJson>;
  newStops: number;
  newLines: number;
  /** trips added or changed, and base trips masked */
  trips: number;
  masked: number;
}

export type ScenarioStatus = 'ok' | 'refused' | 'preparing';

/** What `/scenarios` says of one scenario. */
export interface ScenarioReport {
  name: string;
  file: string;
  status: ScenarioStatus;
  /** the faults of the last version read (with status ok: a newer version refused, the last good one kept) */
  errors: ScenarioError[];
  applied: AppliedVersion | null;
  /** epoch seconds of the last good read, null before any */
  lastLoadAt: number | null;
  loads: number;
  failures: number;
}

/** What a request finds under a scenario's name. */
export type ScenarioLookup = { kind: 'ok'; applied: AppliedVersion } | { kind: 'unknown'; known: string[] } | { kind: 'refused'; errors: ScenarioError[] } | { kind: 'preparing' };

/** A coverage's scenarios as requests on one of its generations (its timetable `tt`) see them. */
export interface Scenarios {
  lookup(name: string, generation: { tt: Timetable }): ScenarioLookup;
  reports(generation: { tt: Timetable }): ScenarioReport[];
  /** bumped at each change of any scenario's state: answers that read a scenario are cached under it */
  readonly version: number;
  /** the bytes of the scenarios' overlays in service (each version's, for the timetable it was applied to) */
  bytes(): number;
  /** read the files that changed, and apply the good versions to the current timetable when they are not yet */
  check(): Promise<void>;
  stop(): void;
}
