/**
 * Realtime benchmark on BART (its static feed and its TripUpdates capture of 2019-08-07):
 *
 *   npm run bench:realtime
 *
 * - apply time: the 91 trip updates read against the timetable and swapped in as a new generation,
 *   many times in a row (issue 4: at most 50 ms, no copy of the timetable);
 * - /trips latency while a server polls the feed ten times a second and applies it each time,
 *   against the same server without realtime (issue 4: p99 must not double).
 *
 * Heat maps are left out: BART has no street network here.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { decodeFeedMessage } from '../src/realtime/gtfs-rt.js';
import { readTripUpdates, timetableIndex } from '../src/realtime/trip-updates.js';
import { Coverage } from '../src/service/coverage-registry.js';
import { withRealtime } from '../src/service/generation.js';
import { loadCoverage } from '../src/service/load-coverage.js';

const dir = path.resolve('../shared/data/rt/bart');
const gtfs = path.join(dir, 'gtfs.zip');
const feedBytes = readFileSync(path.join(dir, 'trip-updates-2019-08-07.pb'));
const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);

// ---------------------------------------------------------------------------------------------
// apply time, in process

const coverage = new Coverage({ id: 'bart', gtfs: [gtfs] });
await loadCoverage(coverage);
const generation = coverage.generation!;
const index = timetableIndex(generation.tt);
const times: number[] = [];
for (let i = 0; i < 300; i++) {
  const started = performance.now();
  const message = decodeFeedMessage(feedBytes);
  const runs = readTripUpdates(generation.tt, generation.ref.days, index, message);
  coverage.swap(withRealtime(generation, runs));
  if (i >= 50) times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
console.log(
  `apply 91 trip updates (decode, read, new generation) on ${generation.tt.stopTimes.arrivalSec.length} stop times: ` +
    `p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (target <= 50 ms); ${coverage.generation!.realtime!.runs.size} runs changed`,
);

// ---------------------------------------------------------------------------------------------
// /trips latency with and without a source applied ten times a second

const feedServer = createServer((_req, res) => res.writeHead(200).end(feedBytes));
await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
const feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/trip-updates`;

async function latency(title: string, realtime: boolean): Promise<number> {
  const port = realtime ? 9322 : 9321;
  const args = ['dist/src/cli/main.js', 'serve', '--gtfs', gtfs, '--id', 'bart', '--port', String(port), '--host', '127.0.0.1'];
  if (realtime) args.push('--realtime', feedUrl, '--realtime-interval', '0.1');
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i === 300) throw new Error('server did not become ready');
      try {
        const body = (await (await fetch(`${base}/v1/coverage/bart`)).json()) as { regions?: Array<{ status: string; realtime_sources?: Array<{ successes: number }> }> };
        const region = body.regions?.[0];
        if (region?.status === 'running' && (!realtime || (region.realtime_sources?.[0]?.successes ?? 0) > 0)) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = await autocannon({
      url: base,
      connections: 10,
      duration: seconds,
      requests: [{ method: 'GET', path: '/v1/coverage/bart/trips?since=20190807T100000&until=20190807T120000&data_freshness=realtime&count=25' }],
    });
    const errors = result.errors + result.non2xx;
    let applied = '';
    if (realtime) {
      const body = (await (await fetch(`${base}/v1/coverage/bart`)).json()) as { regions: Array<{ realtime_sources: Array<{ successes: number }> }> };
      applied = `, ${body.regions[0]!.realtime_sources[0]!.successes} updates applied`;
    }
    console.log(`${title.padEnd(34)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  errors ${errors}${applied}`);
    if (errors > 0) throw new Error(`${title}: ${errors} errors`);
    return result.latency.p99;
  } finally {
    server.kill('SIGTERM');
  }
}

const quiet = await latency('/trips, no realtime', false);
const busy = await latency('/trips, realtime applied 10 times/s', true);
console.log(`p99 with updates / without: ${(busy / Math.max(quiet, 1)).toFixed(2)} (target < 2)`);
feedServer.close();
