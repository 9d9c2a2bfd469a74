/**
 * Load a coverage into a new generation, from its snapshot when one is valid, else from its sources
 * (reporting progress and problems), and install it.
 */
import { loadTimetable, type LoadProgress } from '../gtfs/gtfs-loader.js';
import { LoadReport, type Problem } from '../gtfs/load-report.js';
import { SnapshotError } from '../model/snapshot-file.js';
import type { CoverageConfig } from './coverage-config.js';
import type { Coverage } from './coverage-registry.js';
import { readCoverageSnapshot, snapshotPath, writeCoverageSnapshot, type CompiledCoverage } from './coverage-snapshot.js';
import { makeGeneration, type Generation } from './generation.js';
import { lockPathOf, tryLock, waitForLock } from './snapshot-lock.js';

export interface LoadHooks {
  onProgress?: (p: LoadProgress) => void;
  onProblem?: (p: Problem) => void;
}

export interface LoadOptions extends LoadHooks {
  /**
   * The folder of snapshots: the coverage's is read when it is valid, and written again from the
   * sources when it is missing or refused.
   */
  snapshotDir?: string;
  /** Told when another process holds the snapshot's lock and this one waits for its snapshot. */
  onWaitForSnapshot?: (lockFile: string) => void;
  /** false: leave the indexes only the API's requests read to be built when first read (`makeGeneration`'s `warm`) */
  warm?: boolean;
}

export interface LoadSummary {
  generation: Generation;
  /** Seconds from the start to a query-ready generation. */
  seconds: number;
  /** Heap and array buffers in use after the load, in bytes. */
  memoryBytes: number;
  from: 'snapshot' | 'sources';
  /** Why the snapshot was not used, when there is a snapshot folder and it was not. */
  snapshotRefused?: string;
  /** The snapshot written after a load from the sources. */
  snapshotWritten?: { file: string; bytes: number; seconds: number };
  snapshotWriteError?: string;
  /** Held while the snapshot is written (snapshot-lock.ts); loadCoverage releases it. */
  releaseLock?: () => void;
}

/** Compile a coverage from its sources: the timetable and, with an OSM extract, the street data. */
export async function compileCoverage(config: CoverageConfig, hooks: LoadHooks = {}): Promise<CompiledCoverage> {
  const report = new LoadReport((p) => hooks.onProblem?.(p));
  const tt = await loadTimetable(config.gtfs, { timezone: config.timezone, report, onProgress: hooks.onProgress, readLimits: config.readLimits });
  // the street network (and the routing code) is loaded only for coverages that have one
  if (config.pointSets?.length && !config.osm) report.note(`point sets ${config.pointSets.map((p) => p.name).join(', ')} left out: they link to the street network, and the coverage has no OpenStreetMap extract`);
  const streets = config.osm ? await (await import('./street-data.js')).buildStreetData(tt, config.osm, config.pointSets ?? [], report) : undefined;
  return { tt, report, streets };
}

/**
 * A query-ready generation of a coverage, not yet installed, from its snapshot when one is current.
 * `toWrite`: the caller writes the snapshot after a load from the sources (loadCoverage), so a
 * refused snapshot is compiled under its lock (snapshot-lock.ts), handed back in `releaseLock`, or
 * waited for while another process holds it; without it no lock is taken.
 */
export async function loadGeneration(config: CoverageConfig, options: LoadOptions = {}, toWrite = false): Promise<LoadSummary> {
  const started = process.hrtime.bigint();
  let compiled: CompiledCoverage | undefined;
  let snapshotRefused: string | undefined;
  let releaseLock: (() => void) | undefined;
  if (options.snapshotDir) {
    // read the snapshot; when it is refused, build it under the lock, or wait for whoever holds it
    const file = snapshotPath(options.snapshotDir, config.id);
    const lockFile = lockPathOf(file);
    for (;;) {
      try {
        compiled = await readCoverageSnapshot(file, config);
        break;
      } catch (e) {
        if (!(e instanceof SnapshotError)) throw e;
        snapshotRefused ??= e.message;
      }
      if (releaseLock || !toWrite) break; // read again under the lock (or no lock wanted): still to build
      releaseLock = tryLock(lockFile);
      if (!releaseLock) {
        options.onWaitForSnapshot?.(lockFile);
        await waitForLock(lockFile);
      }
    }
    if (compiled) releaseLock?.();
  }
  const from = compiled ? 'snapshot' : 'sources';
  try {
    compiled ??= await compileCoverage(config, options);
  } catch (e) {
    releaseLock?.();
    throw e;
  }
  const generation = await makeGeneration(compiled.tt, compiled.report, compiled.streets, from, options.warm ?? true);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const mem = process.memoryUsage();
  return { generation, seconds, memoryBytes: mem.heapUsed + mem.arrayBuffers, from, snapshotRefused: from === 'sources' ? snapshotRefused : undefined, releaseLock: from === 'sources' ? releaseLock : undefined };
}

/**
 * Load a coverage and install the generation (its disruptions and realtime data applied on it).
 * With a snapshot folder, a load from the sources then writes the coverage's snapshot. When the
 * load fails, a coverage already running keeps its generation.
 */
export async function loadCoverage(coverage: Coverage, options: LoadOptions = {}): Promise<LoadSummary> {
  let summary: LoadSummary;
  try {
    summary = await loadGeneration(coverage.config, options, true);
  } catch (e) {
    coverage.fail((e as Error).message);
    throw e;
  }
  try {
    coverage.install(summary.generation);
    if (options.snapshotDir && summary.from === 'sources') await writeSnapshot(coverage, summary, options.snapshotDir);
  } finally {
    summary.releaseLock?.();
  }
  return summary;
}

/** Write the snapshot of a generation loaded from the sources; the summary tells how it went. */
async function writeSnapshot(coverage: Coverage, summary: LoadSummary, snapshotDir: string): Promise<void> {
  const file = snapshotPath(snapshotDir, coverage.id);
  const started = performance.now();
  try {
    const { tt, report, streets } = summary.generation;
    const bytes = await writeCoverageSnapshot(file, coverage.config, { tt, report, streets });
    summary.snapshotWritten = { file, bytes, seconds: (performance.now() - started) / 1000 };
  } catch (e) {
    summary.snapshotWriteError = `${file} could not be written: ${(e as Error).message}`;
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
