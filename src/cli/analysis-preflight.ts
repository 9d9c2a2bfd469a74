/**
 * What an analysis command refuses before its coverage loads (loading a city takes seconds, its
 * snapshot included): the configuration and the coverage, `--threads`, `--datetime` (a day and a
 * time of day, in the production period when the coverage's snapshot records it), the point sets
 * and their opportunity columns (the configuration names the sets, a CSV file's header its
 * columns), each refused in the API's words with the command's flags. What only the loaded
 * coverage can tell (a GeoJSON set's columns, the period of a coverage without a current snapshot)
 * is refused once it has loaded, before any street search or worker thread.
 */
import { availableParallelism } from 'node:os';
import { pointSetColumns } from '../analysis/point-set-reader.js';
import { requestInstant } from '../queries/map-prologue.js';
import { checkDay, type ProductionDays } from '../queries/production-day.js';
import type { NamedSet } from '../queries/point-set-refs.js';
import { QueryError } from '../queries/query-errors.js';
import type { CoverageConfig } from '../service/coverage-config.js';
import { snapshotPath, snapshotProduction } from '../service/coverage-snapshot.js';
import { COMMAND_THREADS_PER_CORE } from '../service/limits.js';
import { datetimeHasTime } from '../util/api-datetime.js';
import { ConfigError, readConfigFile, type ServerConfig } from './config.js';
import { refusalText } from './refusal-text.js';

/** The coverage a command analyses, as its configuration gives it, and the run's threads. */
export interface CommandCoverage {
  server: ServerConfig;
  config: CoverageConfig;
  snapshotDir: string | undefined;
  threads: number;
}

/** `--config`, `--coverage`, `--snapshots` and `--threads`, read and checked. */
export function commandCoverage(own: Map<string, string>): CommandCoverage {
  const file = own.get('config');
  const id = own.get('coverage');
  if (!file || !id) throw new ConfigError('give --config FILE and --coverage ID');
  const server = readConfigFile(file);
  const config = server.coverages.find((c) => c.id === id);
  if (!config) throw new ConfigError(`no coverage ${id} in ${file} (${server.coverages.map((c) => c.id).join(', ')})`);
  const threadsText = own.get('threads');
  const cores = Math.max(1, availableParallelism());
  const maxThreads = COMMAND_THREADS_PER_CORE * cores;
  const threads = threadsText === undefined ? cores : Number(threadsText);
  // each thread holds an engine's scratch: past a few per core they cost memory and win nothing
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= maxThreads)) throw new ConfigError(`--threads must be a whole number from 1 to ${maxThreads} (${COMMAND_THREADS_PER_CORE} per core of this machine), not ${threadsText}`);
  return { server, config, snapshotDir: own.get('snapshots') ?? server.snapshots, threads };
}

/**
 * `--datetime`, required, with a time of day: a day alone is the API's midnight, when almost nothing
 * runs, which a batch run of hours should not compute by mistake.
 */
export function commandDatetime(datetime: string | undefined): string {
  if (datetime === undefined) throw new ConfigError('give --datetime YYYYMMDDThhmmss (the coverage\'s local time)');
  if (!datetimeHasTime(datetime)) throw new ConfigError(`--datetime ${datetime} names a day without a time of day (it would mean midnight): give one, as ${compactDay(datetime)}T080000`);
  return datetime;
}

/** A datetime's day in the compact form (`2019-05-13` → `20190513`), for the refusal's example. */
const compactDay = (datetime: string) => datetime.trim().replace(/-/g, '').slice(0, 8);

/**
 * `--datetime`'s day in the production period (`days`, in the timetable's time zone), refused in
 * the API's words (its message, then the period) with the flag named.
 */
export function checkCommandDay(days: ProductionDays, datetime: string, timeZone: string): void {
  try {
    checkDay(days, requestInstant({ datetime }, 0, timeZone), timeZone);
  } catch (e) {
    if (e instanceof QueryError) throw new ConfigError(`--datetime ${datetime}: ${refusalText(e)}`);
    throw e;
  }
}

/** `--datetime`'s day checked against the production period the coverage's snapshot records, when it records one. */
export async function checkDayBeforeLoad(coverage: CommandCoverage, datetime: string): Promise<void> {
  if (coverage.snapshotDir === undefined) return;
  const production = await snapshotProduction(snapshotPath(coverage.snapshotDir, coverage.config.id), coverage.config);
  if (production) checkCommandDay({ productionStartDay: production.firstDay, productionEndDay: production.lastDay }, datetime, production.timeZone);
}

/**
 * The coverage's point sets and their opportunity columns as the load will make them, from the
 * configuration and the CSV files' headers; undefined when one of them cannot be told before the
 * load (a GeoJSON set, a file the load refuses in its own words).
 */
export async function configuredSets(config: CoverageConfig): Promise<NamedSet[] | undefined> {
  // without streets the sets are left out (the load report says why): the coverage has none
  if (!config.osm) return [];
  const sets: NamedSet[] = [];
  for (const source of config.pointSets ?? []) {
    const columns = await pointSetColumns(source);
    if (columns === undefined) return undefined;
    sets.push({ name: source.name, columns: columns.map((name) => ({ name })) });
  }
  return sets;
}
