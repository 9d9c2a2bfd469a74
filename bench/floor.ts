/**
 * The speed floor of matrices (issue 40's targets) on Porto Alegre (r5r's example: walk + transit,
 * 2019-05-13 14:00, walking 1.0 m/s, 30 minutes of walking to transit, 2 transfers), the 1,227 ×
 * 1,227 hexagons:
 *
 *   npm run bench:floor
 *
 * - `navette matrix` with a 120-minute window and 5 percentiles, and with one departure, run in turn
 *   (window, single, window, single: the machine's drift hits both): wall time and CPU seconds of
 *   the whole process (every thread), targets ≤ 40 CPU-s and ≤ 20 s wall for the window, ≤ 3 s wall
 *   for one departure on two quiet cores;
 * - the work the window's searches do, counted on the first sixth of the origins in this process on
 *   one thread (the same engine code as the command's threads): per minute searched its rounds,
 *   routes scanned, stops visited, trip look-ups, walking relaxations, improved stops and the egress
 *   entries they read, the share of those that improve a point; and that part's CPU seconds. A
 *   change is judged on the work it saves as well as on the clock.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { poaSnapshot } from './poa-snapshot.js';
import { childFigures, FIGURES_AT_EXIT } from './child-figures.js';
import { readConfigFile } from '../src/cli/config.js';
import { loadGeneration } from '../src/service/load-coverage.js';
import { InProcessRunner } from '../src/maps/in-process-runner.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { originJob, originTimes } from '../src/queries/origin-rows.js';
import { matrixCommandParams } from '../src/queries/analysis-params.js';
import { parseParams } from '../src/queries/param-table.js';
import { requestInstant } from '../src/queries/map-prologue.js';
import { pointSetIndex } from '../src/queries/point-set-refs.js';

const run = promisify(execFile);
const { dir, config } = await poaSnapshot('navette-bench-floor-');
const JOURNEYS = { datetime: '20190513T140000', walking_speed: '1', max_walking_duration_to_pt: '1800', max_nb_transfers: '2', max_duration: '7200' };
const WINDOW = { departure_window: '7200', percentiles: '5,25,50,75,95' };

const flags = (params: Record<string, string>) => Object.entries(params).flatMap(([name, value]) => [`--${name.replaceAll('_', '-')}`, value]);

/** One run of the command: its wall time and CPU seconds. */
async function matrix(window: boolean, k: number): Promise<{ wall: number; cpu: number }> {
  const out = path.join(dir, `matrix-${window ? 'window' : 'single'}-${k}.csv`);
  const started = performance.now();
  const args = ['--import', FIGURES_AT_EXIT, 'dist/src/cli/main.js', 'matrix', '--config', config, '--coverage', 'poa', '--origins', 'hexgrid', ...flags(JOURNEYS), ...(window ? flags(WINDOW) : []), '--out', out];
  const { stderr } = await run(process.execPath, args, { maxBuffer: 1 << 26 });
  const wall = (performance.now() - started) / 1000;
  return { wall, cpu: childFigures(stderr).cpu };
}

const runs: Record<'window' | 'single', { wall: number; cpu: number }[]> = { window: [], single: [] };
for (let k = 0; k < 2; k++) {
  runs.window.push(await matrix(true, k));
  runs.single.push(await matrix(false, k));
}
const best = (xs: number[]) => Math.min(...xs);
for (const [name, list] of Object.entries(runs)) {
  for (const r of list) console.log(`matrix, ${name === 'window' ? '120-minute window, 5 percentiles' : 'one departure'}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU-s`);
}
console.log(`window: best ${best(runs.window.map((r) => r.wall)).toFixed(1)} s wall (target ≤ 20 s), ${best(runs.window.map((r) => r.cpu)).toFixed(1)} CPU-s (target ≤ 40)`);
console.log(`one departure: best ${best(runs.single.map((r) => r.wall)).toFixed(1)} s wall (target ≤ 3 s)`);

// the work, counted in this process on one thread
const coverage = readConfigFile(config).coverages[0]!;
const { generation } = await loadGeneration(coverage, { snapshotDir: path.join(dir, 'snapshots') });
const set = pointSetIndex(generation, 'origins', 'hexgrid');
const points = generation.streets!.data.pointSets![set]!;
const params = parseParams(matrixCommandParams(DEFAULT_LIMITS), (spec) => {
  const value = ({ ...JOURNEYS, ...WINDOW } as Record<string, string>)[spec.name];
  return value === undefined ? [] : spec.name === 'percentiles' ? value.split(',') : [value];
});
const timeZone = generation.tt.timezone;
const t0 = requestInstant(params, 0, timeZone);
const job = originJob({ coverage: { id: coverage.id, config: coverage }, generation, params, t0, timeZone, maxDurationSec: params.max_duration, destinations: set, originLon: points.lon, originLat: points.lat });
const runner = new InProcessRunner(DEFAULT_LIMITS);
const origins = Math.ceil(points.lon.length / 6);
const cpuBefore = process.cpuUsage();
await originTimes(runner, job, 0, origins, 1, () => {});
const cpuUsed = process.cpuUsage(cpuBefore);
const w = runner.work();
const per = (n: number) => (n / w.searches).toFixed(1);
console.log(`the first ${origins} origins on one thread: ${((cpuUsed.user + cpuUsed.system) / 1e6).toFixed(1)} CPU-s; ${w.searches} searches (origin × minute)`);
console.log(`per minute searched: ${per(w.rounds)} rounds, ${per(w.routesScanned)} routes scanned, ${per(w.visits)} stops visited, ${per(w.tripSearches)} trip look-ups, ${per(w.relaxations)} walking relaxations`);
console.log(`  ${per(w.improvedStops)} improved stops reading ${per(w.egressEntries)} egress entries, of which ${((100 * w.changes) / w.egressEntries).toFixed(1)} % improve a point; per point ${(w.changes / w.targets).toFixed(1)} improvements kept as ${(w.keptChanges / w.targets).toFixed(1)} changes (one a minute)`);
await runner.close();
