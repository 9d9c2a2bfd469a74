/**
 * The heat-map fuzz, long: valid heat maps drawn at random (test/helpers/heat-map-requests.ts) on the
 * demo town and rnv-mannheim, over loopback HTTP against a server with its worker pool (two threads,
 * a 10 s budget), two clients at a time:
 *
 *   npm run bench:heat-maps-fuzz            (FUZZ_RUNS, 5000 by default; FUZZ_SEED)
 *
 * Prints the number of requests, the answers by status, the latency percentiles and the worst
 * request. Every answer should be a well-formed 200; anything else is listed.
 */
import path from 'node:path';
import fc from 'fast-check';
import { buildApp } from '../src/api/app.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { HeatMapPool } from '../src/maps/heat-map-pool.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { fuzzCoverage, mapProblem, validHeatMapRequest } from '../test/helpers/heat-map-requests.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 5000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 1124);
const MAX_RESOLUTION = 200;
const CLIENTS = 2;

const registry = new CoverageRegistry();
const demoDir = path.resolve('data/demo');
const rnvDir = path.resolve('../shared/data/rnv-mannheim');
const demo = new Coverage({ id: 'demo', gtfs: [path.join(demoDir, 'gtfs')], osm: path.join(demoDir, 'valmont.osm'), timezone: 'Europe/Paris' });
const rnv = new Coverage({ id: 'rnv', gtfs: [path.join(rnvDir, 'gtfs.zip')], osm: path.join(rnvDir, 'osm.pbf') });
registry.add(demo);
registry.add(rnv);
const coverages = [
  fuzzCoverage('demo', (await loadCoverage(demo)).generation, ['20261124T080000', '20261124T173000', '20261125T064500']),
  fuzzCoverage('rnv', (await loadCoverage(rnv)).generation, ['20161108T080000', '20161108T171500', '20161110T063000', '20161112T120000']),
];
const limits = { ...DEFAULT_LIMITS, maxResolution: MAX_RESOLUTION };
const pool = new HeatMapPool({ ...limits, threads: 2, budgetMs: 10_000 });
const app = await buildApp({ registry, limits, heatMaps: pool });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const urls = fc.sample(fc.oneof(...coverages.map((c) => validHeatMapRequest(c, MAX_RESOLUTION))), { numRuns: RUNS, seed: SEED });
const statuses = new Map<number, number>();
const latencies: number[] = [];
const problems: string[] = [];
let worst = { ms: 0, url: '' };
let next = 0;
const started = performance.now();

async function client(): Promise<void> {
  while (next < urls.length) {
    const url = urls[next++]!;
    const t = performance.now();
    const res = await fetch(base + url, { headers: { 'accept-encoding': 'gzip' } });
    const body = await res.text();
    const ms = performance.now() - t;
    latencies.push(ms);
    if (ms > worst.ms) worst = { ms, url };
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problem = mapProblem(res.status, body, url);
    if (problem) problems.push(`${url}: ${problem}`);
    if (latencies.length % 1000 === 0) console.log(`${latencies.length} requests…`);
  }
}

await Promise.all(Array.from({ length: CLIENTS }, client));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
console.log(`${latencies.length} valid heat maps in ${seconds.toFixed(1)} s (${CLIENTS} clients, seed ${SEED})`);
console.log(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
console.log(`latency: p50 ${pct(50)} ms, p99 ${pct(99)} ms, worst ${worst.ms.toFixed(1)} ms: ${worst.url}`);
console.log(`problems: ${problems.length}`);
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
await app.close();
await pool.close();
process.exit(problems.length > 0 ? 1 : 0);
