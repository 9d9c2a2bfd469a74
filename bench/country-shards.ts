/**
 * `navette matrix --shard` on a generated country (issue 43, "Batch past one machine"): the matrix
 * Indexed Job's pods (deploy/kubernetes/matrix-job.yaml) run here as processes, over the country's
 * point set (bench/country/points.ts), each reading the same snapshot:
 *
 *   npm run bench:country-shards -- DIR [--shards 2] [--sample 1000] [--one-at-a-time]
 *
 * DIR is a folder of `npm run country:generate` with its snapshot built by
 * `navette build --config DIR/navette.json --out DIR/snapshots`. Each pod runs the Job's command
 * with the Job's departure window, percentiles and `--threads`, and in place of the Job's Porto
 * Alegre: the coverage `country`, the set `points` as origins and destinations, a departure at
 * DEPARTURE and at most MAX_DURATION_SEC, the snapshot, `--shard K/N`. With more points than
 * `--sample`, the origins are that many spread evenly over the set (`--origin-ids`), the destinations
 * still the whole set. The N pods run at once (two pods on this 2-core machine), or, with
 * `--one-at-a-time`, one after the other (a country whose two snapshots in memory would not fit).
 *
 * It prints each pod's peak resident memory (every thread: what its memory request must hold), its
 * load, its compute and their CPU (bench/child-figures.ts), and the time per 1,000 origins, wall and
 * CPU. Then it checks that `navette merge` of the parts is the unsharded run's matrix: on the pods'
 * own origins when they are at most CHECK_WHOLE_ORIGINS (an unsharded run costs as much as all the
 * pods), else on CHECK_ORIGINS of them spread evenly, sharded and unsharded again.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { POINT_SET } from './country/points.js';
import { COVERAGE_ID } from './country/country.js';
import { childFigures, FIGURES_AT_EXIT } from './child-figures.js';
import { evenSample, LOAD_CPU_MARK, matrixRunLines, MATRIX_JOB, memoryBytes, podArgs, readMatrixJob, type IndexedJob, type MatrixRunLines } from './indexed-job.js';
import { readConfigFile } from '../src/cli/config.js';

/**
 * 13:00 on the reference date (generator: Tuesday 2026-03-10). Not the morning peak: the Porto
 * Alegre sample feed (EPTC, r5r's example data) runs from 11:00 to 17:00 only, so at 08:00 a
 * Porto Alegre tile has no bus and the command warns `no_service_in_feed`; at 13:00 every tile's
 * timetable runs, through the Job's two-hour window.
 */
const DEPARTURE = '20260310T130000';
/**
 * Three hours: a national study reaches past its own region (the intercity trains, hourly at
 * 120 km/h on the grid's rows and columns, reach two to four tiles, 100–200 km, with a change);
 * also the upper end of the 120–180 minutes such studies take, so the costlier one.
 */
const MAX_DURATION_SEC = 10_800;
const CHECK_WHOLE_ORIGINS = 200;
const CHECK_ORIGINS = 40;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { shards: { type: 'string', default: '2' }, sample: { type: 'string', default: '1000' }, 'one-at-a-time': { type: 'boolean', default: false } },
});
const [dir] = positionals;
if (!dir || positionals.length > 1) throw new Error('usage: npm run bench:country-shards -- DIR [--shards 2] [--sample 1000] [--one-at-a-time]');
const shards = Number(values.shards);
const sample = Number(values.sample);
if (!(Number.isInteger(shards) && shards >= 1) || !(Number.isInteger(sample) && sample >= 1)) throw new Error('--shards and --sample are positive whole numbers');
const country = path.resolve(dir);
const config = path.join(country, 'navette.json');
const snapshots = path.join(country, 'snapshots');
if (!existsSync(snapshots)) throw new Error(`${snapshots} is missing: run navette build --config ${config} --out ${snapshots} first`);
const pointSet = readConfigFile(config).coverages[0]?.pointSets?.find((p) => p.name === POINT_SET);
if (!pointSet) throw new Error(`${config} has no point set ${POINT_SET}: generate the country again (bench/country writes points.csv)`);
const ids = readFileSync(pointSet.file, 'utf8').trim().split('\n').slice(1).map((line) => line.slice(0, line.indexOf(',')));

const job = readMatrixJob();
const work = mkdtempSync(path.join(country, 'matrix-shards-'));

interface PodRun extends MatrixRunLines {
  shard: string;
  wallSeconds: number;
  cpu: number;
  peakBytes: number;
  out: string;
}

/** One pod: `navette matrix` with the Job's arguments for slice `index` of `count` (unsharded: count 0), its figures read from outside. */
function pod(job: IndexedJob, index: number, count: number, origins: string[] | null, name: string): Promise<PodRun> {
  const out = path.join(work, `${name}.csv.gz`);
  const set: Record<string, string> = {
    config,
    snapshots,
    coverage: COVERAGE_ID,
    origins: POINT_SET,
    datetime: DEPARTURE,
    'max-duration': String(MAX_DURATION_SEC),
    out,
    ...(count > 0 ? { shard: `${index}/${count}` } : {}),
    ...(origins ? { 'origin-ids': origins.join(',') } : {}),
  };
  const args = podArgs(job, index, set, count > 0 ? [] : ['shard']);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', FIGURES_AT_EXIT, '--import', LOAD_CPU_MARK, 'dist/src/cli/main.js', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallSeconds = (performance.now() - started) / 1000;
      try {
        if (code !== 0) throw new Error(`${name} exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
        const lines = matrixRunLines(stderr);
        if (lines.loadedFrom !== 'snapshot') throw new Error(`${name} loaded the coverage from its ${lines.loadedFrom}, not the snapshot: build it again`);
        const { cpu, peakBytes } = childFigures(stderr);
        resolve({ ...lines, shard: count > 0 ? `${index}/${count}` : 'unsharded', wallSeconds, cpu, peakBytes, out });
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** The N pods of one run over `origins` (null: the whole set), at once or one after the other. */
async function pods(origins: string[] | null, prefix: string, oneAtATime: boolean): Promise<PodRun[]> {
  const slices = Array.from({ length: shards }, (_, k) => k);
  if (!oneAtATime) return Promise.all(slices.map((k) => pod(job, k, shards, origins, `${prefix}-part-${k}`)));
  const runs: PodRun[] = [];
  for (const k of slices) runs.push(await pod(job, k, shards, origins, `${prefix}-part-${k}`));
  return runs;
}

/** `navette merge` of the parts, against an unsharded run's file, decompressed (merge compresses again). */
async function mergedIsUnsharded(parts: PodRun[], origins: string[] | null, prefix: string): Promise<{ same: boolean; rows: number; unsharded: PodRun }> {
  const merged = path.join(work, `${prefix}-merged.csv.gz`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'merge', '--out', merged, ...parts.map((p) => p.out)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`navette merge exited with ${code}`))));
  });
  const unsharded = await pod(job, 0, 0, origins, `${prefix}-unsharded`);
  const a = gunzipSync(readFileSync(merged));
  const b = gunzipSync(readFileSync(unsharded.out));
  let rows = 0;
  for (const byte of b) if (byte === 0x0a) rows++;
  return { same: a.equals(b), rows: rows - 1, unsharded };
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;
const s = (v: number) => `${v.toFixed(1)} s`;
const n = (v: number) => v.toLocaleString('en-US');

try {
  const origins = ids.length > sample ? evenSample(ids, sample) : null;
  const originCount = origins?.length ?? ids.length;
  const args = podArgs(job, 0, {});
  const jobFlag = (name: string) => args[args.indexOf(`--${name}`) + 1];
  console.log(`${country}: ${n(ids.length)} points; origins ${origins ? `${n(originCount)} spread evenly over them (--origin-ids)` : 'all of them'}, destinations all`);
  console.log(
    `${MATRIX_JOB}'s pods: --departure-window ${jobFlag('departure-window')} --percentiles ${jobFlag('percentiles')} --threads ${jobFlag('threads')} (requests ${JSON.stringify(job.resources.requests ?? {})}, limits ${JSON.stringify(job.resources.limits ?? {})}); here --datetime ${DEPARTURE} --max-duration ${MAX_DURATION_SEC}, --shard K/${shards}, ${values['one-at-a-time'] ? 'one pod after the other' : `${shards} pods at once`}`,
  );
  const started = performance.now();
  const runs = await pods(origins, 'matrix', values['one-at-a-time']!);
  const together = (performance.now() - started) / 1000;
  for (const r of runs) {
    const computeCpu = r.cpu - r.loadCpu;
    console.log(
      `pod --shard ${r.shard}: ${n(r.origins)} origins × ${n(r.destinations)} destinations; peak RSS ${gb(r.peakBytes)}; load ${s(r.loadSeconds)} (${s(r.loadCpu)} CPU), compute ${s(r.computeSeconds)} (${s(computeCpu)} CPU), process ${s(r.wallSeconds)}; per 1,000 origins ${s((r.computeSeconds / r.origins) * 1000)} wall, ${s((computeCpu / r.origins) * 1000)} CPU`,
    );
  }
  const cpu = runs.reduce((t, r) => t + r.cpu - r.loadCpu, 0);
  const computed = runs.reduce((t, r) => t + r.origins, 0);
  const peak = Math.max(...runs.map((r) => r.peakBytes));
  const limit = memoryBytes(job.resources.limits?.['memory']);
  const fits = limit === undefined ? 'the Job sets no memory limit' : `the Job's limit ${job.resources.limits!['memory']} (${gb(limit)}) ${peak <= limit ? 'holds it' : 'is too small: the pod would be killed'}`;
  console.log(
    `all pods: ${n(computed)} origins in ${s(together)} from the first start to the last exit (${values['one-at-a-time'] ? 'one pod after the other' : `${shards} pods at once`}, on this machine's cores); per 1,000 origins ${s((together / computed) * 1000)} wall, ${s((cpu / computed) * 1000)} CPU (loads left out); largest peak RSS ${gb(peak)}: ${fits}`,
  );
  if (originCount <= CHECK_WHOLE_ORIGINS) {
    const check = await mergedIsUnsharded(runs, origins, 'matrix');
    console.log(`navette merge of the ${shards} parts ${check.same ? 'is' : 'IS NOT'} the unsharded run's matrix (${n(check.rows)} rows; the unsharded run ${s(check.unsharded.wallSeconds)}, peak RSS ${gb(check.unsharded.peakBytes)})`);
    if (!check.same) process.exitCode = 1;
  } else {
    const subset = evenSample(origins ?? ids, CHECK_ORIGINS);
    const parts = await pods(subset, 'check', values['one-at-a-time']!);
    const check = await mergedIsUnsharded(parts, subset, 'check');
    console.log(`navette merge of ${shards} parts over ${CHECK_ORIGINS} of the origins (--origin-ids) ${check.same ? 'is' : 'IS NOT'} the unsharded run's matrix (${n(check.rows)} rows)`);
    if (!check.same) process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
