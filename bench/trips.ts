/**
 * Trips benchmark over loopback HTTP: `/trips` filtered on a line, 25 per page, against a server
 * process started here (one core), loaded by autocannon from this process (the other core).
 *
 *   npm run bench:trips [-- path/to/feed.zip]       (default: nyc/bus-brooklyn-gtfs.zip)
 *
 * Targets (issue 2): p50 at most 1 ms and at least 5,000 requests/s; the cost of a page must not
 * grow with start_page (compare the first and the last pages of the largest line).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

const feed = process.argv[2] ?? path.resolve('../shared/data/nyc/bus-brooklyn-gtfs.zip');
const port = 9311;
const base = `http://127.0.0.1:${port}`;
const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);

const server = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--gtfs', feed, '--id', 'bench', '--port', String(port), '--host', '127.0.0.1', '--rate-limit', '0'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, LOG_LEVEL: 'warn' },
});

async function waitReady(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${base}/v1/coverage/bench`);
      const body = (await r.json()) as { regions?: { status: string }[] };
      if (body.regions?.[0]?.status === 'running') return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

async function run(title: string, paths: string[], connections = 10): Promise<autocannon.Result> {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  const errors = result.errors + result.non2xx;
  // autocannon's percentiles have a 1 ms resolution; with one connection the mean latency is exactly 1 / throughput.
  const mean = connections === 1 ? `  mean ${(1000 / result.requests.average).toFixed(3)} ms` : '';
  console.log(`${title.padEnd(40)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${mean}  ${Math.round(result.requests.average)} req/s  errors ${errors}`);
  if (errors > 0) throw new Error(`${title}: ${errors} errors`);
  return result;
}

try {
  await waitReady();
  // Lines and their trip counts, from the API itself (depth 2 carries the line).
  const counts = new Map<string, number>();
  for (let page = 0; ; page++) {
    const r = (await (await fetch(`${base}/v1/coverage/bench/trips?depth=2&count=1000&start_page=${page}`)).json()) as { trips?: { line: { id: string } }[] };
    if (!r.trips) break;
    for (const t of r.trips) counts.set(t.line.id, (counts.get(t.line.id) ?? 0) + 1);
  }
  const lines = [...counts].sort((a, b) => b[1] - a[1]);
  const some = lines.filter((_, i) => i % Math.max(1, Math.floor(lines.length / 20)) === 0).slice(0, 20);
  console.log(`${lines.length} lines, ${[...counts.values()].reduce((a, b) => a + b, 0)} trips; largest line ${lines[0]![0]} has ${lines[0]![1]} trips`);
  const enc = encodeURIComponent;
  const lineFilter = (id: string) => `/v1/coverage/bench/trips?filter=${enc(`line.uri=${JSON.stringify(id)}`)}&count=25`;
  await run('warm-up', some.map(([id]) => lineFilter(id)));
  const single = await run('line filter, one connection', some.map(([id]) => lineFilter(id)), 1);
  const main = await run('line filter, 10 connections', some.map(([id]) => lineFilter(id)));
  const [bigLine, bigCount] = lines[0]!;
  const first = await run('largest line, start_page=0', [`/v1/coverage/bench/lines/${enc(bigLine)}/trips?count=25&start_page=0`], 1);
  const lastPage = Math.floor((bigCount - 1) / 25);
  const last = await run(`largest line, start_page=${lastPage}`, [`/v1/coverage/bench/lines/${enc(bigLine)}/trips?count=25&start_page=${lastPage}`], 1);
  console.log(`line filter: p50 ${single.latency.p50} ms, mean ${(1000 / single.requests.average).toFixed(3)} ms on one connection (target p50 <= 1 ms); ${Math.round(main.requests.average)} req/s with 10 connections (target >= 5000)`);
  console.log(`last page / first page throughput: ${(last.requests.average / first.requests.average).toFixed(2)} (about 1: a page costs the same wherever it is)`);
} finally {
  server.kill('SIGTERM');
}
