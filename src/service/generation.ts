/**
 * A generation: one immutable, query-ready version of a coverage's data. Requests take the current
 * generation once and use only it, so a reload (or a realtime update) that swaps in the next
 * generation never shows a request a half-built state.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { coverageHull, ringToWkt, type Ring } from '../model/coverage-shape.js';
import type { Timetable } from '../model/timetable.js';
import { AddedTrips } from '../ptref/added-trips.js';
import { BaseFreshness, type Freshness } from '../ptref/freshness.js';
import { LevelRuns, RealtimeFreshness } from '../ptref/realtime-freshness.js';
import type { RealtimeRun } from '../model/realtime-runs.js';
import type { RealtimeRuns } from '../live/realtime/trip-updates.js';
import type { Disruption } from '../live/disruptions/disruption.js';
import { DisruptionIndex, noDisruptions } from '../live/disruptions/disruption-index.js';
import { DEPARTURE_INDEXES } from '../ptref/departure-index.js';
import { PLACES_INDEXES } from '../ptref/places-index.js';
import { Referential } from '../ptref/referential.js';
import type { LoadReport } from '../gtfs/load-report.js';
import type { StreetData } from './street-data.js';
import { RaptorOverlays } from './raptor-overlays.js';
import type { Scenarios } from './scenario-lookup.js';

export interface FeedPublisher {
  id: string;
  name: string;
  url: string;
  license: string;
}

export interface Generation {
  readonly number: number;
  readonly tt: Timetable;
  readonly ref: Referential;
  readonly freshness: Freshness;
  readonly shape: Ring;
  readonly shapeWkt: string;
  /** First and last day (day numbers) on which some trip runs; -1 when none. */
  readonly productionStartDay: number;
  readonly productionEndDay: number;
  readonly loadedAtSec: number;
  /** Whether the data was read from the coverage's snapshot or compiled from its sources. */
  readonly loadedFrom: 'snapshot' | 'sources';
  readonly datasetCreatedAtSec: number;
  readonly publishers: FeedPublisher[];
  readonly report: LoadReport;
  /** The street network and transit search data of the heat maps; absent without an OSM extract. */
  readonly streets: StreetData | undefined;
  /** The realtime runs in force (from TripUpdates), absent before any. */
  readonly realtime: RealtimeRuns | undefined;
  /** The disruptions in force (disruptions file and ServiceAlerts) and what they impact. */
  readonly disruptions: DisruptionIndex;
  /** The runs changed by planned NO_SERVICE disruptions: the adapted level (read-only). */
  readonly adaptedRuns: RealtimeRun[];
  /** The freshness levels' indexes of those runs and of the realtime ones, kept for the next generation. */
  readonly levels: { adapted: LevelRuns; realtime: LevelRuns; added: AddedTrips | undefined };
  /** The heat maps' view of the adapted and realtime levels; absent without street data or changed runs. */
  readonly overlays: RaptorOverlays | undefined;
  /** The coverage's scenarios (their versions applied to this timetable); absent when it has none. */
  readonly scenarios?: Scenarios;
}

let generationCounter = 0;

/**
 * A generation of `tt`. `warm`: build beforehand the indexes the API's first requests would
 * otherwise pay for (the id maps, the places index, the trips by first departure); a command that
 * answers no request (a matrix) leaves them to be built if ever read.
 */
export async function makeGeneration(tt: Timetable, report: LoadReport, streets?: StreetData, loadedFrom: 'snapshot' | 'sources' = 'sources', warm = true): Promise<Generation> {
  const ref = new Referential(tt);
  if (warm) {
    // the steps in turns of their own: a reload builds beside requests being answered
    await nextTurn();
    for (const type of ['trip', 'line', 'route', 'stop_area', 'stop_point', 'network', 'physical_mode', 'commercial_mode'] as const) ref.indexOf(type, '');
    await nextTurn();
    // and the places index and the trips by first departure, in slices
    await PLACES_INDEXES.prepare(ref);
    await DEPARTURE_INDEXES.prepare(ref);
  }
  const shape = coverageHull(tt.stopPoints.lon, tt.stopPoints.lat);
  const [productionStartDay, productionEndDay] = productionPeriod(tt);
  return {
    number: ++generationCounter,
    tt,
    ref,
    freshness: new BaseFreshness(ref),
    shape,
    shapeWkt: ringToWkt(shape),
    productionStartDay,
    productionEndDay,
    loadedAtSec: Math.floor(Date.now() / 1000),
    loadedFrom,
    datasetCreatedAtSec: Math.max(0, ...tt.feeds.map((f) => f.createdAtSec)),
    publishers: tt.feeds
      .filter((f) => f.publisherName)
      .map((f) => ({ id: f.key, name: f.publisherName, url: f.publisherUrl, license: '' })),
    report,
    streets,
    realtime: undefined,
    disruptions: noDisruptions(ref),
    adaptedRuns: [],
    levels: { adapted: new LevelRuns([]), realtime: new LevelRuns([]), added: undefined },
    overlays: undefined,
  };
}

/** What a new generation changes: the realtime runs, the disruptions of the file (with the adapted runs they give), the ServiceAlerts'. */
export interface GenerationChanges {
  realtime?: RealtimeRuns;
  file?: Disruption[];
  adaptedRuns?: RealtimeRun[];
  alerts?: Disruption[];
  /** the index of the new disruptions and the level of the new adapted runs, when built aside already (in slices) */
  built?: { index: DisruptionIndex; adapted: LevelRuns };
}

/**
 * The same data with some changes: a new generation sharing the timetable, referential and street
 * data, whose levels see the new runs and disruptions (built aside, then swapped in whole). What does
 * not change is shared with `generation`, not built again.
 */
export function withChanges(generation: Generation, changes: GenerationChanges): Generation {
  const { ref } = generation;
  const realtime = changes.realtime ?? generation.realtime;
  const adaptedRuns = changes.adaptedRuns ?? generation.adaptedRuns;
  const previous = generation.levels;
  const levels = {
    adapted: changes.built?.adapted ?? (adaptedRuns === generation.adaptedRuns ? previous.adapted : new LevelRuns(adaptedRuns)),
    realtime: realtime === generation.realtime || !realtime ? previous.realtime : new LevelRuns(realtime.runs.values()),
    added: realtime === generation.realtime || !realtime ? previous.added : new AddedTrips(ref, realtime.added),
  };
  const disruptions =
    changes.built?.index ??
    (changes.file || changes.alerts ? DisruptionIndex.of(ref, changes.file ?? generation.disruptions.file, changes.alerts ?? generation.disruptions.alerts) : generation.disruptions);
  return {
    ...generation,
    number: ++generationCounter,
    freshness: new RealtimeFreshness(ref, levels.adapted, levels.realtime, levels.added),
    realtime,
    disruptions,
    adaptedRuns,
    levels,
    overlays:
      generation.streets && (adaptedRuns.length > 0 || realtime) ? new RaptorOverlays(generation.tt, generation.streets.data.raptor, adaptedRuns, realtime) : undefined,
  };
}

/** The same data with other realtime runs. */
export function withRealtime(generation: Generation, realtime: RealtimeRuns): Generation {
  return withChanges(generation, { realtime });
}

/**
 * The same data with other disruptions: those of the file with the adapted runs they give (see
 * disruptions/planned-runs.ts), and those of the ServiceAlerts.
 */
export function withDisruptions(generation: Generation, file: Disruption[], alerts: Disruption[], adaptedRuns: RealtimeRun[], built?: GenerationChanges['built']): Generation {
  return withChanges(generation, { file, alerts, adaptedRuns, built });
}

/** Days on which at least one trip's service runs (day numbers; -1 and -1 when none). */
export function productionPeriod(tt: Timetable): [number, number] {
  const { words, bits, firstDay, dayCount } = tt.services;
  const used = new Uint8Array(tt.services.ids.length);
  for (let t = 0; t < tt.trips.service.length; t++) used[tt.trips.service[t]!] = 1;
  const any = new Uint32Array(words);
  for (let s = 0; s < used.length; s++) {
    if (!used[s]) continue;
    for (let w = 0; w < words; w++) any[w]! |= bits[s * words + w]!;
  }
  let first = -1;
  let last = -1;
  for (let d = 0; d < dayCount; d++) {
    if ((any[d >>> 5]! >>> (d & 31)) & 1) {
      if (first < 0) first = d;
      last = d;
    }
  }
  return first < 0 ? [-1, -1] : [firstDay + first, firstDay + last];
}
