/**
 * A coverage's compiled data in a snapshot file: the timetable, the load report and, for a coverage
 * with an OpenStreetMap extract, the street graph, stop snaps and transit search data. The file
 * records the data version it was built from (its source files and time zone, see
 * source-files.ts); it is refused when the coverage's sources are no longer those.
 */
import path from 'node:path';
import { LoadReport, type LoadReportState } from '../gtfs/load-report.js';
import type { Timetable } from '../model/timetable.js';
import { readSnapshotFile, SnapshotError, writeSnapshotFile } from '../model/snapshot-file.js';
import { VERSION } from '../util/version.js';
import type { CoverageConfig } from './coverage-config.js';
import { coverageSourcePaths, describeSourceFiles, sourcesDiffer, type SourceFile } from './source-files.js';
import { withStreetDataId, type StreetData } from './street-data.js';

/** What a coverage's snapshot holds. */
export interface CompiledCoverage {
  tt: Timetable;
  report: LoadReport;
  streets: StreetData | undefined;
}

interface SnapshotMeta {
  coverage: string;
  /** the Navette version that wrote it (for information: the format version decides) */
  navette: string;
  builtAt: string;
  timezone: string | null;
  sources: SourceFile[];
}

interface SnapshotTree {
  tt: Timetable;
  report: LoadReportState;
  streets: Omit<StreetData, 'id'> | null;
}

/** Where a coverage's snapshot lives in a snapshot folder. */
export function snapshotPath(dir: string, coverageId: string): string {
  return path.join(dir, `${coverageId}.snapshot`);
}

/** Write a coverage's compiled data; returns the file's size in bytes. */
export async function writeCoverageSnapshot(file: string, config: CoverageConfig, compiled: CompiledCoverage): Promise<number> {
  const meta: SnapshotMeta = {
    coverage: config.id,
    navette: VERSION,
    builtAt: new Date().toISOString(),
    timezone: config.timezone ?? null,
    sources: await describeSourceFiles(coverageSourcePaths(config)),
  };
  const streets = compiled.streets ? { data: compiled.streets.data, names: compiled.streets.names, stats: compiled.streets.stats } : null;
  const tree: SnapshotTree = { tt: compiled.tt, report: compiled.report.state(), streets };
  return writeSnapshotFile(file, meta, tree);
}

/**
 * Read a coverage's compiled data; throws a SnapshotError saying why when the file is missing,
 * damaged, of another format, or built from other data than the coverage's sources.
 */
export async function readCoverageSnapshot(file: string, config: CoverageConfig): Promise<CompiledCoverage> {
  const sources = coverageSourcePaths(config);
  const { tree } = await readSnapshotFile<SnapshotMeta>(file, async (meta) => {
    const refuse = (why: string) => {
      throw new SnapshotError(`${file} was built from other data: ${why}`);
    };
    if (!Array.isArray(meta.sources)) refuse('it records no source files');
    if ((meta.timezone ?? null) !== (config.timezone ?? null)) refuse(`its time zone is ${meta.timezone ?? 'the agencies\''}, the coverage's is ${config.timezone ?? 'the agencies\''}`);
    const differ = await sourcesDiffer(meta.sources, sources);
    if (differ) refuse(differ);
  });
  // (its source files include the OSM extract: a street network is there exactly when the coverage has one)
  const { tt, report, streets } = tree as SnapshotTree;
  return { tt, report: LoadReport.restore(report), streets: streets ? withStreetDataId(streets) : undefined };
}
