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
 * And on rnv-mannheim (424,266 stop times, with its street network), whose feed has no capture:
 * 300 trip updates written here (delays of the runs of 2016-11-08 between 07:00 and 10:00):
 * - apply time, including the heat maps' realtime overlay;
 * - heat-map latency at data_freshness=realtime while the server applies them ten times a second,
 *   against the same server without realtime.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { decodeFeedMessage } from '../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../src/live/realtime/trip-updates.js';
import { Coverage } from '../src/service/coverage-registry.js';
import { withRealtime } from '../src/service/generation.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { serviceRunsOn } from '../src/model/timetable.js';
import { mulberry32 } from '../test/helpers/random.js';
import { writeTripUpdates, type TripDelay } from './trip-updates-writer.js';

const dir = path.resolve('../shared/data/rt/bart');
const gtfs = path.join(dir, 'gtfs.zip');
const feedBytes = readFileSync(path.join(dir, 'trip-updates-2019-08-07.pb'));
const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);

// ---------------------------------------------------------------------------------------------
// apply time, in process

/** Decode, read and swap in `bytes` many times on a loaded coverage; with `overlay`, also build the heat maps' realtime overlay. */
function applyTime(title: string, coverage: Coverage, bytes: Uint8Array, overlay: boolean): void {
  const generation = coverage.generation!;
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    const message = decodeFeedMessage(bytes);
    const runs = readTripUpdates(generation.ref, message);
    const next = withRealtime(generation, runs);
    if (overlay) next.overlays!.of('realtime');
    coverage.swap(next);
    if (i >= 50) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  const realtime = coverage.generation!.realtime!;
  console.log(
    `${title} on ${generation.tt.stopTimes.arrivalSec.length} stop times: p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (target <= 50 ms); ` +
      `${realtime.runs.size} runs changed, ${realtime.problems.length} updates skipped`,
  );
}

const bart = new Coverage({ id: 'bart', gtfs: [gtfs] });
await loadCoverage(bart);
applyTime('apply 91 BART trip updates (decode, read, new generation)', bart, feedBytes, false);

// rnv: delays written here for the runs of 2016-11-08 leaving between 07:00 and 10:00
const rnvDir = path.resolve('../shared/data/rnv-mannheim');
const rnv = new Coverage({ id: 'rnv', gtfs: [path.join(rnvDir, 'gtfs.zip')], osm: path.join(rnvDir, 'osm.pbf') });
await loadCoverage(rnv);
const rnvBytes = rnvDelays(rnv.generation!.tt);
applyTime('apply 300 rnv trip updates (and the heat maps\' overlay)', rnv, rnvBytes, true);

function rnvDelays(tt: NonNullable<Coverage['generation']>['tt']): Uint8Array {
  const day = Date.UTC(2016, 10, 8) / 86_400_000;
  const random = mulberry32(300);
  const candidates: number[] = [];
  for (let t = 0; t < tt.trips.ids.length; t++) {
    const first = tt.stopTimes.departureSec[tt.trips.stopTimeOffset[t]!]!;
    if (serviceRunsOn(tt, tt.trips.service[t]!, day) && first >= 7 * 3600 && first < 10 * 3600) candidates.push(t);
  }
  const trips: TripDelay[] = [];
  for (let i = 0; i < 300 && candidates.length > 0; i++) {
    const t = candidates.splice(Math.floor(random() * candidates.length), 1)[0]!;
    const o = tt.trips.stopTimeOffset[t]!;
    const n = tt.trips.stopTimeOffset[t + 1]! - o;
    const k = Math.floor(random() * n);
    trips.push({ tripId: tt.trips.ids[t]!, startDate: '20161108', stops: [{ stopSequence: tt.stopTimes.sequence[o + k]!, delaySec: 60 * Math.floor(random() * 11) }] });
  }
  return writeTripUpdates(Date.UTC(2016, 10, 8, 7) / 1000, trips);
}

// ---------------------------------------------------------------------------------------------
// /trips latency with and without a source applied ten times a second

const feedServer = createServer((req, res) => res.writeHead(200).end(req.url === '/rnv' ? rnvBytes : feedBytes));
await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
const feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;

interface Served {
  id: string;
  /** serve arguments naming the data */
  data: string[];
  feedUrl: string;
  paths: string[];
  connections: number;
}

const BART: Served = {
  id: 'bart',
  data: ['--gtfs', gtfs],
  feedUrl: `${feedBase}/bart`,
  paths: ['/v1/coverage/bart/trips?since=20190807T100000&until=20190807T120000&data_freshness=realtime&count=25'],
  connections: 10,
};

/** The four stops with the most departures between 08:00 and 09:00 (any day): busy centres. */
function busyStops(tt: NonNullable<Coverage['generation']>['tt']): string[] {
  const departures = new Map<number, number>();
  for (let t = 0; t < tt.trips.ids.length; t++) {
    const p = tt.trips.pattern[t]!;
    const o = tt.trips.stopTimeOffset[t]!;
    for (let k = o; k < tt.trips.stopTimeOffset[t + 1]!; k++) {
      const d = tt.stopTimes.departureSec[k]!;
      if (d < 8 * 3600 || d >= 9 * 3600) continue;
      const s = tt.patterns.stops[tt.patterns.stopOffset[p]! + k - o]!;
      departures.set(s, (departures.get(s) ?? 0) + 1);
    }
  }
  return [...departures].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4).map(([s]) => tt.stopPoints.ids[s]!);
}

const RNV_CENTRES = busyStops(rnv.generation!.tt);
const RNV: Served = {
  id: 'rnv',
  data: ['--gtfs', path.join(rnvDir, 'gtfs.zip'), '--osm', path.join(rnvDir, 'osm.pbf')],
  feedUrl: `${feedBase}/rnv`,
  paths: RNV_CENTRES.map((c) => `/v1/coverage/rnv/heat_maps?from=${c}&datetime=20161108T080000&max_duration=3600&resolution=500&data_freshness=realtime`),
  connections: 2,
};

async function latency(title: string, served: Served, realtime: boolean): Promise<number> {
  const port = realtime ? 9322 : 9321;
  const args = ['dist/src/cli/main.js', 'serve', ...served.data, '--id', served.id, '--port', String(port), '--host', '127.0.0.1', '--rate-limit', '0'];
  if (realtime) args.push('--realtime', served.feedUrl, '--realtime-interval', '0.1');
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i === 1200) throw new Error('server did not become ready');
      try {
        const body = (await (await fetch(`${base}/v1/coverage/${served.id}`)).json()) as { regions?: Array<{ status: string; realtime_sources?: Array<{ successes: number }> }> };
        const region = body.regions?.[0];
        if (region?.status === 'running' && (!realtime || (region.realtime_sources?.[0]?.successes ?? 0) > 0)) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = await autocannon({
      url: base,
      connections: served.connections,
      duration: seconds,
      requests: served.paths.map((p) => ({ method: 'GET', path: p })),
    });
    const errors = result.errors + result.non2xx;
    let applied = '';
    if (realtime) {
      const body = (await (await fetch(`${base}/v1/coverage/${served.id}`)).json()) as { regions: Array<{ realtime_sources: Array<{ successes: number }> }> };
      applied = `, ${body.regions[0]!.realtime_sources[0]!.successes} updates applied`;
    }
    console.log(`${title.padEnd(44)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  errors ${errors}${applied}`);
    if (errors > 0) throw new Error(`${title}: ${errors} errors`);
    return result.latency.p99;
  } finally {
    server.kill('SIGTERM');
  }
}

for (const [what, served] of [['/trips (BART)', BART], ['heat maps (rnv)', RNV]] as const) {
  const quiet = await latency(`${what}, no realtime`, served, false);
  const busy = await latency(`${what}, realtime applied 10 times/s`, served, true);
  console.log(`${what}: p99 with updates / without: ${(busy / Math.max(quiet, 1)).toFixed(2)} (target < 2)`);
}
feedServer.close();
