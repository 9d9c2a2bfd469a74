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
import { checkSnapshotMeta, checkSnapshotTree, type SnapshotMeta, type SnapshotProduction, type SnapshotTree } from './snapshot-schema.js';
import { productionPeriod } from './generation.js';
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
    production: productionOf(compiled.tt),
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

function productionOf(tt: Timetable): SnapshotProduction {
  const [firstDay, lastDay] = productionPeriod(tt);
  return { firstDay, lastDay, timeZone: tt.timezone };
}

/**
 * The production period a coverage's snapshot records, from its header alone (none of its data is
 * read): when the snapshot is current (built from the coverage's sources, in its time zone) and
 * records one; undefined otherwise (no snapshot, another coverage's data, or written before the
 * period was recorded), and the period is known once the coverage has loaded.
 */
export async function snapshotProduction(file: string, config: CoverageConfig): Promise<SnapshotProduction | undefined> {
  let production: SnapshotProduction | undefined;
  try {
    await readSnapshotFile<unknown>(file, async (meta) => {
      checkSnapshotMeta(meta, file);
      const recorded = meta.production;
      const current = (meta.timezone ?? null) === (config.timezone ?? null) && !(await sourcesDiffer(meta.sources, coverageSourcePaths(config)));
      if (current && recorded && Number.isInteger(recorded.firstDay) && Number.isInteger(recorded.lastDay) && typeof recorded.timeZone === 'string') production = recorded;
      // the header is all that is wanted: the data is not read
      throw new SnapshotError(HEADER_READ);
    });
  } catch (e) {
    if (!(e instanceof SnapshotError)) throw e;
  }
  return production;
}

/** Why a read of a snapshot's header stops before its data. */
const HEADER_READ = 'header read';
