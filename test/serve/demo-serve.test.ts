/**
 * The README's start command end to end: `navette serve` on the demo coverage (what `npm start`
 * runs), in its own process, answering trips and a gzipped heat map over HTTP, and stopping cleanly.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveRefusal, startServer } from '../helpers/serve.js';

let server: ChildProcess;
let base: string;
let logs: Record<string, unknown>[];

before(async () => {
  ({ process: server, base, logs } = await startServer(['--config', 'data/demo/navette.json']));
});

after(async () => {
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});

test('the log names the address to open, on the host and port it listens on, and the explorer answers there', async () => {
  const root = base.replace(/v1\/coverage$/, '');
  assert.ok(/^http:\/\/127\.0\.0\.1:\d+\/$/.test(root), root);
  assert.ok(logs.some((l) => l['msg'] === `open ${root} (the explorer; the API under ${root}v1)`), JSON.stringify(logs.map((l) => l['msg'])));
  assert.equal((await fetch(root)).status, 200);
});

test('the demo coverage answers trips', async () => {
  const res = await fetch(`${base}/demo/trips?count=3`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { trips: Array<{ id: string }>; pagination: { total_result: number } };
  assert.equal(body.trips.length, 3);
  assert.ok(body.pagination.total_result > 1000);
});

test('the demo coverage answers a heat map, gzipped, from a coordinate', async () => {
  const url = `${base}/4.85;45.74/heat_maps?from=4.85;45.74&max_duration=1800&resolution=20&datetime=20261124T080000`;
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  const body = (await res.json()) as { heat_maps: Array<{ heat_matrix: { lines: Array<{ duration: Array<number | null> }> } }> };
  const lines = body.heat_maps[0]!.heat_matrix.lines;
  assert.equal(lines.length, 20);
  const values = lines.flatMap((l) => l.duration);
  const valued = values.filter((d): d is number => d !== null);
  assert.ok(valued.length > 100, `a town's worth of cells is reached (${valued.length})`);
  assert.ok(valued.length < 400, 'the corners of the box are out of reach');
  assert.ok(Math.min(...valued) < 300, 'the cells around the centre are minutes away');
  assert.ok(Math.max(...valued) < 1800, 'no value reaches max_duration');
});

test('probes, status and metrics: ready once loaded, the load time and request counts in /metrics', async () => {
  const root = base.replace(/\/v1\/coverage$/, '');
  const health = await fetch(`${root}/healthz`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: 'ok' });
  const ready = await fetch(`${root}/readyz`);
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), { status: 'ready', coverages: [{ id: 'demo', status: 'running' }] });
  const status = ((await (await fetch(`${root}/v1/status`)).json()) as { status: { regions: Array<{ region_id: string; status: string }> } }).status;
  assert.deepEqual(status.regions.map((r) => [r.region_id, r.status]), [['demo', 'running']]);
  const trips = await fetch(`${base}/demo/trips?count=1`);
  const etag = trips.headers.get('etag')!;
  assert.match(etag, /^W\/"demo-\d+-m\d+-/);
  assert.equal(trips.headers.get('cache-control'), 'public, max-age=60');
  const again = await fetch(`${base}/demo/trips?count=1`, { headers: { 'if-none-match': etag } });
  assert.ok(again.status === 304 || again.headers.get('etag') !== etag, 'the same minute: 304');
  const metrics = await (await fetch(`${root}/metrics`)).text();
  const load = /^navette_coverage_load_seconds\{coverage="demo"\} (\S+)$/m.exec(metrics);
  assert.ok(load && Number(load[1]) > 0, 'the load time of demo');
  assert.match(metrics, /^navette_http_request_duration_seconds_count\{kind="trips",coverage="demo",status="200"\} [1-9]/m);
});

test('--rate-limit N allows N requests a second per client, in bursts of 2N; past them 429 with Retry-After; X-Forwarded-For is not trusted by default', async () => {
  const limited = await startServer(['--config', 'data/demo/navette.json', '--rate-limit', '2']);
  try {
    // without --trust-proxy, an X-Forwarded-For is ignored: made-up addresses do not make other clients
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(limited.base, { headers: { 'x-forwarded-for': `203.0.113.${i}` } })));
    const ok = answers.filter((r) => r.status === 200).length;
    // the burst of 4, and one more if the 8 took half a second (the bucket refills 2 a second)
    assert.ok(ok === 4 || ok === 5, `${ok} answered`);
    const refused = answers.filter((r) => r.status !== 200);
    assert.ok(refused.every((r) => r.status === 429));
    assert.match(refused[0]!.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await fetch(limited.base.replace(/\/v1\/coverage$/, '/healthz'))).status, 200, 'probes do not count');
    // the default server (50 a second, bursts of 100) took the same 8 at once
    const statuses2 = await Promise.all(Array.from({ length: 8 }, () => fetch(base).then((r) => r.status)));
    assert.deepEqual(statuses2, Array(8).fill(200));
  } finally {
    limited.process.kill('SIGTERM');
    await once(limited.process, 'exit');
  }
});

test('--trust-proxy ADDRESSES: behind the proxy at an address listed, each client X-Forwarded-For names has its own bucket', async () => {
  const proxied = await startServer(['--config', 'data/demo/navette.json', '--rate-limit', '1', '--trust-proxy', '10.0.0.0/8, 127.0.0.1']);
  try {
    const from = (address: string) => fetch(proxied.base, { headers: { 'x-forwarded-for': address } }).then((r) => r.status);
    // the burst of 2, and one more if the 4 took a second
    const first = await Promise.all(Array.from({ length: 4 }, () => from('203.0.113.1')));
    assert.ok(first.includes(429), first.join());
    assert.equal(await from('203.0.113.2'), 200, 'another client');
  } finally {
    proxied.process.kill('SIGTERM');
    await once(proxied.process, 'exit');
  }
});

test('a bad --trust-proxy or trustProxy: exit code 2, a message naming the option or the key, and the usage', async () => {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'navette-trust-')), 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [{ id: 'demo', gtfs: path.resolve('data/demo/gtfs') }], trustProxy: 'proxy.example' }));
  const cases: Array<[string[], string]> = [
    [['--config', 'data/demo/navette.json', '--trust-proxy', '1'], 'navette: --trust-proxy: a number of proxy hops is not accepted'],
    [['--config', 'data/demo/navette.json', '--trust-proxy', '127.0.0.1,10.0.0.0/40'], 'navette: --trust-proxy: "10.0.0.0/40" is not an IP address, a CIDR range'],
    [['--config', config], `navette: ${config}: trustProxy: "proxy.example" is not an IP address, a CIDR range`],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await serveRefusal(args);
    assert.equal(code, 2, args.join(' '));
    assert.ok(stderr.startsWith(message), stderr);
    assert.match(stderr, /Usage:[^]*--trust-proxy VALUE/);
  }
});

test('stops on SIGTERM with exit code 0', async () => {
  server.kill('SIGTERM');
  const [code] = await once(server, 'exit');
  assert.equal(code, 0);
});
