/**
 * Load a coverage's sources into a new generation, reporting progress and problems, and swap it in.
 */
import { loadTimetable, type LoadProgress } from '../gtfs/gtfs-loader.js';
import { LoadReport, type Problem } from '../gtfs/load-report.js';
import type { Coverage } from './coverage-registry.js';
import { makeGeneration, type Generation } from './generation.js';

export interface LoadHooks {
  onProgress?: (p: LoadProgress) => void;
  onProblem?: (p: Problem) => void;
}

export interface LoadSummary {
  generation: Generation;
  seconds: number;
  /** Heap and array buffers in use after the load, in bytes. */
  memoryBytes: number;
}

export async function loadCoverage(coverage: Coverage, hooks: LoadHooks = {}): Promise<LoadSummary> {
  const started = process.hrtime.bigint();
  const report = new LoadReport((p) => hooks.onProblem?.(p));
  try {
    const tt = await loadTimetable(coverage.config.gtfs, { timezone: coverage.config.timezone, report, onProgress: hooks.onProgress });
    // the street network (and the routing code) is loaded only for coverages that have one
    const streets = coverage.config.osm ? await (await import('./street-data.js')).buildStreetData(tt, coverage.config.osm, report) : undefined;
    const generation = makeGeneration(tt, report, streets);
    coverage.swap(generation);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const mem = process.memoryUsage();
    return { generation, seconds, memoryBytes: mem.heapUsed + mem.arrayBuffers };
  } catch (e) {
    coverage.fail((e as Error).message);
    throw e;
  }
}

/** Counts of a generation, for the load summary. */
export function generationCounts(g: Generation): Record<string, number> {
  const tt = g.tt;
  return {
    agencies: tt.agencies.length,
    lines: tt.lines.length,
    routes: tt.routes.length,
    stop_areas: tt.stopAreas.length,
    stop_points: tt.stopPoints.ids.length,
    trips: tt.trips.ids.length,
    stop_times: tt.stopTimes.arrivalSec.length,
    patterns: tt.patterns.stopOffset.length - 1,
    services: tt.services.ids.length,
    frequencies: tt.frequencies.startSec.length,
    transfers: tt.transfers.fromStop.length,
    problems: g.report.problemCount,
    ...(g.streets?.stats ?? {}),
  };
}
