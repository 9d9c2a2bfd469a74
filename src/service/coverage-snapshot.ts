/**
 * A coverage's compiled data in a snapshot file: the timetable, the load report and, for a coverage
 * with an OpenStreetMap extract, the street graph, stop snaps and transit search data. The file
 * records the data version it was built from (its source files and time zone, see
 * source-files.ts); it is refused when the coverage's sources are no longer those, and when its
 * meta or its tree is not what snapshot-schema.ts says a coverage's snapshot holds: nothing of a
 * file is used before it is checked.
 */
import path from 'node:path';
import { LoadReport } from '../gtfs/load-report.js';
import type { Timetable } from '../model/timetable.js';
import { readSnapshotFile, SnapshotError, writeSnapshotFile } from '../model/snapshot-file.js';
import { VERSION } from '../util/version.js';
import type { CoverageConfig } from './coverage-config.js';
import { checkSnapshotMeta, checkSnapshotTree, type SnapshotMeta, type SnapshotTree } from './snapshot-schema.js';
import { coverageSourcePaths, describeSourceFiles, sourcesDiffer } from './source-files.js';
import { withStreetDataId, type StreetData } from './street-data.js';

/** What a coverage's snapshot holds. */
export interface CompiledCoverage {
  tt: Timetable;
  report: LoadReport;
  streets: StreetData | undefined;
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
  const streets = compiled.streets ? { data: compiled.streets.data, names: compiled.streets.names, stats: compiled.streets.stats, pointSets: compiled.streets.pointSets } : null;
  const tree: SnapshotTree = { tt: compiled.tt, report: compiled.report.state(), streets };
  return writeSnapshotFile(file, meta, tree);
}

/**
 * Read a coverage's compiled data; throws a SnapshotError saying why when the file is missing,
 * damaged or crafted (its meta or its tree not what snapshot-schema.ts describes), of another
 * format, or built from other data than the coverage's sources.
 */
export async function readCoverageSnapshot(file: string, config: CoverageConfig): Promise<CompiledCoverage> {
  const sources = coverageSourcePaths(config);
  const { tree } = await readSnapshotFile<unknown>(file, async (meta) => {
    checkSnapshotMeta(meta, file);
    const refuse = (why: string) => {
      throw new SnapshotError(`${file} was built from other data: ${why}`);
    };
    if ((meta.timezone ?? null) !== (config.timezone ?? null)) refuse(`its time zone is ${meta.timezone ?? 'the agencies\''}, the coverage's is ${config.timezone ?? 'the agencies\''}`);
    const differ = await sourcesDiffer(meta.sources, sources);
    if (differ) refuse(differ);
  });
  checkSnapshotTree(tree, file, { feedCount: config.gtfs.length, streets: Boolean(config.osm) });
  const { tt, report, streets } = tree;
  return { tt, report: LoadReport.restore(report), streets: streets ? withStreetDataId(streets) : undefined };
}
