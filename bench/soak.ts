/**
 * Soak test: mixed trips, heat-map and analysis traffic (accessibility from a place and from every
 * point of a set, travel-time matrices) against `navette serve` on the demo coverage, with a point
 * set of its stops, over loopback, for 10 minutes by default (SOAK_SECONDS to change it):
 *
 *   npm run bench:soak
 *
 * Prints, per minute, the requests answered, errors, latency and the server's resident and heap
 * memory (read from its /metrics), then the resident memory before the load, its peak (sampled every
 * second) and after it (the server idle for 15 s), and what each cache holds (navette_cache_bytes).
 * Passes when no request failed, memory stayed flat (the last minute's resident memory within 20 % of
 * the second minute's: the first one warms up), and it settled within its documented bound: what the
 * server held before the load (its runtime and its data) plus what the load may add
 * (service/memory-bound.ts, docs/operating.md "Memory").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { residentGrowthBoundMb } from '../src/service/memory-bound.js';

const seconds = Number(process.env['SOAK_SECONDS'] ?? 600);
// the demo coverage and a point set of its stops, with a count of each kind of opportunity
const dir = mkdtempSync(path.join(tmpdir(), 'navette-soak-'));
const demo = path.resolve('data/demo');
const stopRows = readFileSync(path.join(demo, 'gtfs', 'stops.txt'), 'utf8').trim().split('\n');
const header = stopRows[0]!.split(',');
const column = (name: string) => header.indexOf(name);
const places = stopRows.slice(1).map((line, k) => {
  const f = line.split(',');
  return `${f[column('stop_id')]},${f[column('stop_lon')]},${f[column('stop_lat')]},${k % 7},${(k * 13) % 50}`;
});
writeFileSync(path.join(dir, 'stops.csv'), ['id,lon,lat,schools,jobs', ...places].join('\n') + '\n');
const config = path.join(dir, 'navette.json');
writeFileSync(config, JSON.stringify({ coverages: [{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris', pointSets: { stops: path.join(dir, 'stops.csv') } }] }));
const server = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--config', config, '--port', '0', '--host', '127.0.0.1', '--rate-limit', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, LOG_LEVEL: 'info' },
});
let base = '';
for await (const line of createInterface({ input: server.stdout! })) {
  const msg = line.startsWith('{') ? String(JSON.parse(line).msg) : '';
  base = /^serving \d+ coverage\(s\) on (\S+)$/.exec(msg)?.[1] ?? '';
  if (base) break;
}
if (!base) throw new Error('the server stopped before serving');
server.stdout!.resume();
const root = base.replace(/\/v1\/coverage$/, '');
for (let i = 0; (await fetch(`${root}/readyz`)).status !== 200; i++) {
  if (i > 600) throw new Error('the demo coverage did not load');
  await new Promise((r) => setTimeout(r, 100));
}

// per 40 requests: four heat maps, four analyses (a window, a decay, a regional one, a matrix), the rest trips
const stops = ['GARE', 'GARE-T', 'LES-COTEAUX', 'HOPITAL-SUD'];
const analyses = [
  (stop: string, hour: string) => `/v1/coverage/demo/accessibility?from=${stop}&datetime=20261124T${hour}0000&opportunities[]=stops:jobs&opportunities[]=stops:schools&cutoffs[]=900&cutoffs[]=1800&nearest[]=20`,
  (stop: string, hour: string) => `/v1/coverage/demo/accessibility?to=${stop}&datetime=20261124T${hour}0000&opportunities[]=stops:jobs&decay_function=logistic&decay_standard_deviation=300&departure_window=600&percentiles[]=25&percentiles[]=75`,
  (_: string, hour: string) => `/v1/coverage/demo/accessibility?origins=stops&datetime=20261124T${hour}0000&opportunities[]=stops:jobs&cutoffs[]=1200`,
  (_: string, hour: string) => `/v1/coverage/demo/travel_time_matrix?origins=stops&datetime=20261124T${hour}0000&max_duration=1800&first_section_mode[]=bike`,
];
const paths: string[] = [];
for (let i = 0; i < 40; i++) {
  const hour = String(6 + (i % 14)).padStart(2, '0');
  if (i % 10 === 0) {
    paths.push(`/v1/coverage/demo/heat_maps?from=${stops[i % stops.length]}&datetime=20261124T${hour}0000&max_duration=${900 + 300 * (i % 4)}&resolution=${100 + 50 * (i % 3)}`);
  } else if (i % 10 === 5) {
    paths.push(analyses[(i / 10) | 0]!(stops[i % stops.length]!, hour));
  } else {
    const forms = [
      `/v1/coverage/demo/trips?count=25&start_page=${i % 7}`,
      `/v1/coverage/demo/lines/T1/trips?depth=2&count=10`,
      `/v1/coverage/demo/trips?since=20261124T${hour}0000&until=20261124T${hour}3000&data_freshness=realtime`,
      `/v1/coverage/demo/stop_areas/GARE/trips?depth=3&count=5`,
      `/v1/coverage/demo/trips?filter=line.code=T1&count=50`,
    ];
    paths.push(forms[i % forms.length]!);
  }
}

async function memory(): Promise<{ rssMb: number; heapMb: number; cachesMb: Record<string, number> }> {
  const text = await (await fetch(`${root}/metrics`)).text();
  const value = (name: string) => Number(/^(\S+) (\S+)$/m.exec(text.split('\n').filter((l) => l.startsWith(`${name} `)).join('\n'))?.[2] ?? NaN);
  const cachesMb: Record<string, number> = {};
  for (const [, cache, bytes] of text.matchAll(/^navette_cache_bytes\{cache="([^"]+)"\} (\S+)$/gm)) cachesMb[cache!] = Number(bytes) / 1e6;
  return { rssMb: value('process_resident_memory_bytes') / 1e6, heapMb: value('nodejs_heap_size_used_bytes') / 1e6, cachesMb };
}

const cachesText = (cachesMb: Record<string, number>) =>
  Object.entries(cachesMb)
    .map(([cache, mb]) => `${cache} ${mb.toFixed(1)}`)
    .join(', ');

const minutes = Math.max(1, Math.round(seconds / 60));
const perMinute = seconds / minutes;
const rss: number[] = [];
let total = 0;
let errors = 0;
let busy = 0;
const before = (await memory()).rssMb;
let peak = before;
const sampler = setInterval(() => void memory().then((m) => (peak = Math.max(peak, m.rssMb)), () => {}), 1000);
let after = NaN;
let afterCaches: Record<string, number> = {};
try {
  for (let m = 1; m <= minutes; m++) {
    const r = await autocannon({ url: root, connections: 4, duration: perMinute, requests: paths.map((p) => ({ method: 'GET', path: p })) });
    const mem = await memory();
    rss.push(mem.rssMb);
    total += r.requests.total;
    // a 503 with Retry-After is the server's answer to a full queue, not a failure; anything else not 2xx is
    const refused = (r.statusCodeStats as Record<string, { count: number }> | undefined)?.['503']?.count ?? 0;
    busy += refused;
    errors += r.errors + r.non2xx - refused + r.timeouts;
    console.log(
      `minute ${String(m).padStart(2)}: ${r.requests.total} requests (${Math.round(r.requests.average)}/s), errors ${r.errors + r.non2xx - refused + r.timeouts}, 503 (busy: queue full or past a deadline, with Retry-After) ${refused}, ` +
        `p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms, server rss ${mem.rssMb.toFixed(1)} MB heap ${mem.heapMb.toFixed(1)} MB, caches (MB) ${cachesText(mem.cachesMb)}`,
    );
  }
  clearInterval(sampler);
  // idle: what the server keeps once the load is over
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const idle = await memory();
  after = idle.rssMb;
  afterCaches = idle.cachesMb;
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
}
console.log(`server resident memory: before the load ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, after it (idle 15 s) ${after.toFixed(1)} MB`);
console.log(`caches after the load (MB): ${cachesText(afterCaches)}`);
const bound = before + residentGrowthBoundMb(availableParallelism());
console.log(`documented bound (docs/operating.md, Memory): before + ${residentGrowthBoundMb(availableParallelism()).toFixed(1)} MB = ${bound.toFixed(1)} MB; after is ${after <= bound ? 'within' : 'PAST'} it`);
const reference = rss[Math.min(1, rss.length - 1)]!;
const growth = rss[rss.length - 1]! / reference - 1;
console.log(`${seconds} s: ${total} requests, ${errors} errors, ${busy} answered 503 (busy, Retry-After); resident memory ${reference.toFixed(1)} -> ${rss[rss.length - 1]!.toFixed(1)} MB (${(growth * 100).toFixed(1)} %)`);
if (errors > 0 || growth > 0.2 || !(after <= bound)) {
  console.log('FAIL: errors, memory grew by more than 20 %, or it did not settle within its bound');
  process.exitCode = 1;
}
