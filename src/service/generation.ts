/**
 * A generation: one immutable, query-ready version of a coverage's data. Requests take the current
 * generation once and use only it, so a reload (or a realtime update) that swaps in the next
 * generation never shows a request a half-built state.
 */
import { coverageHull, ringToWkt, type Ring } from '../model/coverage-shape.js';
import type { Timetable } from '../model/timetable.js';
import { AddedTrips } from '../ptref/added-trips.js';
import { BaseFreshness, type Freshness } from '../ptref/freshness.js';
import { LevelRuns, RealtimeFreshness } from '../ptref/realtime-freshness.js';
import type { RealtimeRun, RealtimeRuns } from '../realtime/trip-updates.js';
import type { Disruption } from '../disruptions/disruption.js';
import { DisruptionIndex, noDisruptions } from '../disruptions/disruption-index.js';
import { Referential } from '../ptref/referential.js';
import type { LoadReport } from '../gtfs/load-report.js';
import type { StreetData } from './street-data.js';
import { RaptorOverlays } from './raptor-overlays.js';

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
  readonly adaptedLevel: LevelRuns;
  /** The heat maps' view of the adapted and realtime levels; absent without street data or changed runs. */
  readonly overlays: RaptorOverlays | undefined;
}

let generationCounter = 0;

export function makeGeneration(tt: Timetable, report: LoadReport, streets?: StreetData): Generation {
  const ref = new Referential(tt);
  // Build the id maps the first requests would otherwise pay for.
  for (const type of ['trip', 'line', 'route', 'stop_area', 'stop_point', 'network', 'physical_mode', 'commercial_mode'] as const) ref.indexOf(type, '');
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
    datasetCreatedAtSec: Math.max(0, ...tt.feeds.map((f) => f.createdAtSec)),
    publishers: tt.feeds
      .filter((f) => f.publisherName)
      .map((f) => ({ id: f.key, name: f.publisherName, url: f.publisherUrl, license: '' })),
    report,
    streets,
    realtime: undefined,
    disruptions: noDisruptions(ref),
    adaptedRuns: [],
    adaptedLevel: new LevelRuns([]),
    overlays: undefined,
  };
}

/**
 * The same data with other realtime runs: a new generation sharing the timetable, referential and
 * street data, whose adapted and realtime levels see the runs (built aside, then swapped in whole).
 */
export function withRealtime(generation: Generation, realtime: RealtimeRuns): Generation {
  const runs = new LevelRuns(realtime.runs.values());
  return {
    ...generation,
    number: ++generationCounter,
    freshness: new RealtimeFreshness(generation.ref, generation.adaptedLevel, runs, new AddedTrips(generation.ref, realtime.added)),
    realtime,
    overlays: overlaysOf(generation, generation.adaptedRuns, realtime),
  };
}

/** The heat maps' overlays of a generation's levels (built on first use). */
function overlaysOf(generation: Generation, adaptedRuns: RealtimeRun[], realtime: RealtimeRuns | undefined): RaptorOverlays | undefined {
  if (!generation.streets || (adaptedRuns.length === 0 && !realtime)) return undefined;
  return new RaptorOverlays(generation.tt, generation.streets.data.raptor, adaptedRuns, realtime);
}

/**
 * The same data with other disruptions: those of the file with the adapted runs they give (see
 * disruptions/planned-runs.ts), and those of the ServiceAlerts.
 */
export function withDisruptions(generation: Generation, file: Disruption[], alerts: Disruption[], adaptedRuns: RealtimeRun[]): Generation {
  const adaptedLevel = adaptedRuns === generation.adaptedRuns ? generation.adaptedLevel : new LevelRuns(adaptedRuns);
  const realtime = new LevelRuns(generation.realtime?.runs.values() ?? []);
  return {
    ...generation,
    number: ++generationCounter,
    freshness: new RealtimeFreshness(generation.ref, adaptedLevel, realtime, generation.realtime && new AddedTrips(generation.ref, generation.realtime.added)),
    disruptions: new DisruptionIndex(generation.ref, file, alerts),
    adaptedRuns,
    adaptedLevel,
    overlays: overlaysOf(generation, adaptedRuns, generation.realtime),
  };
}

/** Days on which at least one trip's service runs. */
function productionPeriod(tt: Timetable): [number, number] {
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
