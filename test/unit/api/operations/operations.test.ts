/**
 * Running the server: probes and status, Prometheus metrics, HTTP caching (ETag, 304, Cache-Control),
 * access tokens, the rate limit per client (behind trusted proxies too), and the configured query limits.
 *
 * Coverage `main_routing_test` is the heat-map fixture (GTFS + streets, 2012-06-14, UTC); `waiting`
 * is never loaded until a test loads it.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type AppOptions } from '../../../../src/api/app.js';
import { Coverage, CoverageRegistry } from '../../../../src/service/coverage-registry.js';
import { withRealtime } from '../../../../src/service/generation.js';
import { lazyInProcessRunner } from '../../../../src/maps/lazy-runner.js';
import { type HeatMapRunner } from '../../../../src/maps/heat-map-runner.js';
import { loadCoverage } from '../../../../src/service/load-coverage.js';
import { RealtimeUpdater } from '../../../../src/service/realtime-updater.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';
import { clientOf, tokenOf } from '../../../../src/api/operations/access.js';
import type { FastifyRequest } from 'fastify';
import { noToken, unknownToken } from '../../../../src/api/errors.js';
import { matches } from '../../../../src/api/operations/http-cache.js';
import { Metrics } from '../../../../src/api/operations/metrics.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from '../../../../src/api/operations/settings.js';
import { VERSION } from '../../../../src/util/version.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { fixtureGtfs, writeFixtureOsm } from '../heat-maps/fixture.js';

const NOW = '_current_datetime=20120614T080000';
const TRIPS = `/v1/coverage/main_routing_test/trips?${NOW}`;
const HEAT_MAP = `/v1/coverage/main_routing_test/heat_maps?datetime=20120614T080100&from=stopB&max_duration=3600&resolution=20&${NOW}`;

let osm: string;
let feed: string;

before(() => {
  osm = writeFixtureOsm();
  feed = writeFeed(fixtureGtfs());
});

/** A fresh registry with the loaded fixture coverage, and `waiting` not loaded. */
async function fixtureRegistry(): Promise<{ registry: CoverageRegistry; main: Coverage; waiting: Coverage }> {
  const registry = new CoverageRegistry();
  const main = new Coverage({ id: 'main_routing_test', gtfs: [feed], osm, timezone: 'UTC' });
  const waiting = new Coverage({ id: 'waiting', gtfs: [feed], timezone: 'UTC' });
  registry.add(main);
  registry.add(waiting);
  await loadCoverage(main);
  return { registry, main, waiting };
}

/** A heat-map runner that counts the maps it computes. */
function countingRunner(): HeatMapRunner & { runs: number } {
  const inner = lazyInProcessRunner(DEFAULT_LIMITS);
  const runner = {
    runs: 0,
    grid: (...args: Parameters<HeatMapRunner['grid']>) => {
      runner.runs++;
      return inner.grid(...args);
    },
    points: (...args: Parameters<HeatMapRunner['points']>) => {
      runner.runs++;
      return inner.points(...args);
    },
    close: () => inner.close(),
  };
  return runner;
}

async function appOf(registry: CoverageRegistry, options: Partial<AppOptions> = {}) {
  const app = await buildApp({ registry, ...options });
  await app.ready();
  return app;
}

const settings = (over: Partial<OperationsSettings>): OperationsSettings => ({ ...APP_DEFAULT_OPERATIONS, ...over });

describe('probes and status', () => {
  test('/healthz answers 200 {"status":"ok"} while the process serves, loaded or not', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry);
    const res = await app.inject('/healthz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(res.body), { status: 'ok' });
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['cache-control'], 'no-store');
    await app.close();
  });

  test('/readyz: 503 while a coverage loads, 200 once every coverage is loaded, with their states', async () => {
    const { registry, waiting } = await fixtureRegistry();
    const app = await appOf(registry);
    const before = await app.inject('/readyz');
    assert.equal(before.statusCode, 503);
    assert.deepEqual(JSON.parse(before.body), {
      status: 'loading',
      coverages: [
        { id: 'main_routing_test', status: 'running' },
        { id: 'waiting', status: 'loading_data' },
      ],
    });
    await loadCoverage(waiting);
    const after = await app.inject('/readyz');
    assert.equal(after.statusCode, 200);
    assert.equal(JSON.parse(after.body).status, 'ready');
    await app.close();
  });

  test('/readyz: a coverage that failed does not hold readiness back, unless none answers', async () => {
    const registry = new CoverageRegistry();
    const broken = new Coverage({ id: 'broken', gtfs: [`${feed}-missing`] });
    registry.add(broken);
    await loadCoverage(broken).catch(() => undefined);
    const app = await appOf(registry);
    const alone = await app.inject('/readyz');
    assert.equal(alone.statusCode, 503);
    assert.equal(JSON.parse(alone.body).status, 'dead');
    const main = new Coverage({ id: 'main', gtfs: [feed], timezone: 'UTC' });
    registry.add(main);
    await loadCoverage(main);
    const res = await app.inject('/readyz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(res.body).coverages, [
      { id: 'broken', status: 'dead' },
      { id: 'main', status: 'running' },
    ]);
    await app.close();
  });

  test('/v1/status: version, coverages with status, dates, generation and realtime sources, heat-map queue', async () => {
    const { registry, main } = await fixtureRegistry();
    main.realtime = new RealtimeUpdater(main, [], { info: () => undefined, warn: () => undefined });
    const app = await appOf(registry);
    const res = await app.inject('/v1/status');
    assert.equal(res.statusCode, 200);
    const { status } = JSON.parse(res.body);
    assert.equal(status.navette_version, VERSION);
    assert.match(VERSION, /^\d+\.\d+\.\d+/);
    assert.match(status.started_at, /^\d{8}T\d{6}$/);
    assert.deepEqual(status.heat_maps, { queue_depth: 0 });
    const [m, w] = status.regions;
    assert.equal(m.region_id, 'main_routing_test');
    assert.equal(m.status, 'running');
    assert.equal(m.generation, main.generation!.number);
    assert.match(m.last_load_at, /^\d{8}T\d{6}$/);
    assert.ok('dataset_created_at' in m);
    assert.equal(m.start_production_date, '20120614');
    assert.deepEqual(m.realtime_sources, []);
    assert.equal(m.is_realtime_loaded, false);
    assert.equal('shape' in m, false);
    assert.deepEqual([w.region_id, w.status, w.generation, w.last_load_at], ['waiting', 'loading_data', null, 'not-a-date-time']);
    await app.close();
  });
});

/** Prometheus text format → samples. */
function parseMetrics(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const samples = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

function sample(samples: ReturnType<typeof parseMetrics>, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('metrics', () => {
  test('/metrics after a trips query and a heat map: request histograms by kind, coverage and status; heat-map time and queue', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry);
    const scrape = async () => {
      const res = await app.inject('/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      return parseMetrics(res.body);
    };
    const first = await scrape();
    assert.equal(sample(first, 'navette_http_request_duration_seconds_count', { kind: 'trips' }), undefined);
    assert.equal((await app.inject(TRIPS)).statusCode, 200);
    assert.equal((await app.inject(TRIPS)).statusCode, 200);
    assert.equal((await app.inject('/v1/coverage/main_routing_test/trips/nope')).statusCode, 404);
    assert.equal((await app.inject(HEAT_MAP)).statusCode, 200);
    assert.equal((await app.inject('/v1/coverage/elsewhere/trips')).statusCode, 404);
    const s = await scrape();
    const count = (labels: Record<string, string>) => sample(s, 'navette_http_request_duration_seconds_count', labels);
    assert.equal(count({ kind: 'trips', coverage: 'main_routing_test', status: '200' }), 2);
    assert.equal(count({ kind: 'trips', coverage: 'main_routing_test', status: '404' }), 1);
    assert.equal(count({ kind: 'trips', coverage: '', status: '404' }), 1, 'an unknown coverage is no label of its own');
    assert.equal(count({ kind: 'heat_maps', coverage: 'main_routing_test', status: '200' }), 1);
    assert.equal(count({ kind: 'other', status: '200' }), 1, 'the first scrape');
    const bucket = sample(s, 'navette_http_request_duration_seconds_bucket', { kind: 'trips', coverage: 'main_routing_test', status: '200', le: '+Inf' });
    assert.equal(bucket, 2);
    assert.equal(sample(s, 'navette_heat_map_compute_seconds_count', { coverage: 'main_routing_test', outcome: 'ok' }), 1);
    assert.ok(sample(s, 'navette_heat_map_compute_seconds_sum', { coverage: 'main_routing_test', outcome: 'ok' })! > 0);
    assert.equal(sample(s, 'navette_heat_map_queue_depth'), 0);
    assert.equal(sample(s, 'navette_coverage_ready', { coverage: 'main_routing_test' }), 1);
    assert.equal(sample(s, 'navette_coverage_ready', { coverage: 'waiting' }), 0);
    assert.equal(sample(s, 'navette_coverage_generation', { coverage: 'main_routing_test' }), registry.get('main_routing_test')!.generation!.number);
    assert.ok(sample(s, 'process_resident_memory_bytes')! > 0, 'default metrics: memory');
    assert.ok(sample(s, 'nodejs_heap_size_used_bytes')! > 0);
    await app.close();
  });

  test('each app has its own registry; load and realtime apply durations are recorded for their coverage', async () => {
    const { registry, main } = await fixtureRegistry();
    const metrics = new Metrics();
    const app = await appOf(registry, { metrics });
    const other = await appOf(registry);
    await other.inject(TRIPS);
    metrics.coverageLoaded('main_routing_test', 1.5);
    const updater = new RealtimeUpdater(main, [], { info: () => undefined, warn: () => undefined });
    updater.onApplied = (seconds) => metrics.realtimeApplied(main.id, seconds);
    const generation = main.generation!.number;
    updater.apply();
    assert.notEqual(main.generation!.number, generation);
    const s = parseMetrics((await app.inject('/metrics')).body);
    assert.equal(sample(s, 'navette_http_request_duration_seconds_count', { kind: 'trips' }), undefined, "the other app's request");
    assert.equal(sample(s, 'navette_coverage_load_seconds', { coverage: 'main_routing_test' }), 1.5);
    assert.equal(sample(s, 'navette_realtime_apply_seconds_count', { coverage: 'main_routing_test' }), 1);
    await app.close();
    await other.close();
  });

  test('a heat map refused by the runner is counted with its outcome', async () => {
    const { registry } = await fixtureRegistry();
    const { WorkUnavailable } = await import('../../../../src/service/worker-pool.js');
    const full: HeatMapRunner = {
      grid: async () => {
        throw new WorkUnavailable('queue_full', 1);
      },
      points: async () => {
        throw new WorkUnavailable('queue_full', 1);
      },
      close: async () => undefined,
    };
    const app = await appOf(registry, { heatMaps: full });
    assert.equal((await app.inject(HEAT_MAP)).statusCode, 503);
    const s = parseMetrics((await app.inject('/metrics')).body);
    assert.equal(sample(s, 'navette_heat_map_compute_seconds_count', { outcome: 'queue_full' }), 1);
    assert.equal(sample(s, 'navette_http_request_duration_seconds_count', { kind: 'heat_maps', status: '503' }), 1);
    await app.close();
  });
});

describe('HTTP caching', () => {
  test('trips: a second request with If-None-Match gets 304 with an empty body; after a generation swap, 200 and a new ETag', async () => {
    const { registry, main } = await fixtureRegistry();
    const app = await appOf(registry);
    const first = await app.inject(TRIPS);
    assert.equal(first.statusCode, 200);
    const etag = String(first.headers['etag']);
    assert.match(etag, new RegExp(`^W/"main_routing_test-${main.generation!.number}-[A-Za-z0-9_-]+"$`));
    assert.equal(first.headers['cache-control'], 'public, max-age=60');
    const again = await app.inject({ url: TRIPS, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers['etag'], etag);
    assert.equal((await app.inject({ url: TRIPS, headers: { 'if-none-match': `W/"x", ${etag}` } })).statusCode, 304, 'one of a list');
    assert.equal((await app.inject({ url: TRIPS, headers: { 'if-none-match': '*' } })).statusCode, 304);
    assert.equal((await app.inject({ url: `${TRIPS}&count=1`, headers: { 'if-none-match': etag } })).statusCode, 200, 'another query');
    assert.equal((await app.inject({ url: TRIPS, headers: { 'if-none-match': etag, host: 'other.example' } })).statusCode, 200, 'another host: other links');
    main.swap(withRealtime(main.generation!, { runs: new Map(), added: [], problems: [] }));
    const after = await app.inject({ url: TRIPS, headers: { 'if-none-match': etag } });
    assert.equal(after.statusCode, 200);
    assert.equal(after.body, first.body);
    assert.notEqual(after.headers['etag'], etag);
    await app.close();
  });

  test('heat maps: 304 without computing the map again; the ETag does not depend on the encoding', async () => {
    const { registry } = await fixtureRegistry();
    const runner = countingRunner();
    const app = await appOf(registry, { heatMaps: runner });
    const first = await app.inject(HEAT_MAP);
    assert.equal(first.statusCode, 200);
    assert.equal(runner.runs, 1);
    const etag = String(first.headers['etag']);
    const again = await app.inject({ url: HEAT_MAP, headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(runner.runs, 1, 'not computed again');
    const gzipped = await app.inject({ url: HEAT_MAP, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzipped.headers['etag'], etag);
    await app.close();
  });

  test('coverages: ETag over the coverage states; it changes when a coverage loads', async () => {
    const { registry, waiting } = await fixtureRegistry();
    const app = await appOf(registry);
    const list = await app.inject(`/v1/coverage?${NOW}`);
    const etag = String(list.headers['etag']);
    assert.match(etag, /^W\/"coverages-[A-Za-z0-9_-]+"$/);
    assert.equal((await app.inject({ url: `/v1/coverage?${NOW}`, headers: { 'if-none-match': etag } })).statusCode, 304);
    const one = await app.inject(`/v1/coverage/main_routing_test?${NOW}`);
    assert.equal((await app.inject({ url: `/v1/coverage/main_routing_test?${NOW}`, headers: { 'if-none-match': String(one.headers['etag']) } })).statusCode, 304);
    await loadCoverage(waiting);
    assert.equal((await app.inject({ url: `/v1/coverage?${NOW}`, headers: { 'if-none-match': etag } })).statusCode, 200);
    await app.close();
  });

  test('without _current_datetime the ETag holds the current minute; error answers carry no validator', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry);
    const res = await app.inject('/v1/coverage/main_routing_test/trips');
    assert.match(String(res.headers['etag']), /^W\/"main_routing_test-\d+-m\d+-/);
    const minute = Number(/-m(\d+)-/.exec(String(res.headers['etag']))![1]);
    assert.ok(Math.abs(minute - Date.now() / 60_000) <= 1);
    for (const url of [`/v1/coverage/main_routing_test/trips/nope?${NOW}`, `/v1/coverage/waiting/trips?${NOW}`, `/v1/coverage/main_routing_test/trips?count=x&${NOW}`]) {
      const r = await app.inject(url);
      assert.notEqual(r.statusCode, 200, url);
      assert.equal(r.headers['etag'], undefined, url);
      assert.equal(r.headers['cache-control'], undefined, url);
    }
    await app.close();
  });

  test('Cache-Control: the configured max-age; no-cache for a coverage with realtime sources', async () => {
    const { registry, main } = await fixtureRegistry();
    const app = await appOf(registry, { operations: settings({ cache: { maxAgeSec: 300, realtimeMaxAgeSec: 0 } }) });
    assert.equal((await app.inject(TRIPS)).headers['cache-control'], 'public, max-age=300');
    main.realtime = new RealtimeUpdater(main, [], { info: () => undefined, warn: () => undefined });
    assert.equal((await app.inject(TRIPS)).headers['cache-control'], 'public, no-cache');
    await app.close();
    const short = await appOf(registry, { operations: settings({ cache: { maxAgeSec: 300, realtimeMaxAgeSec: 5 } }) });
    assert.equal((await short.inject(TRIPS)).headers['cache-control'], 'public, max-age=5');
    await short.close();
  });

  test('If-None-Match compares weakly', () => {
    assert.ok(matches('"a"', 'W/"a"'));
    assert.ok(matches('W/"b" , W/"a"', 'W/"a"'));
    assert.ok(!matches('W/"ab"', 'W/"a"'));
  });
});

describe('tokens', () => {
  test('a token is the Basic user name (empty password) or the raw header value', () => {
    const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    assert.equal(tokenOf(basic('secret:')), 'secret');
    assert.equal(tokenOf(basic('secret')), 'secret');
    assert.equal(tokenOf(basic(':pw')), undefined);
    assert.equal(tokenOf('secret'), 'secret');
    assert.equal(tokenOf(' secret '), 'secret');
    assert.equal(tokenOf(undefined), undefined);
    assert.equal(tokenOf(''), undefined);
  });

  test('the client of the rate limit and of the pool\'s turns: a configured token, else the address (a made-up token buys no turn of its own)', () => {
    const req = (authorization: string | undefined, ip: string) => ({ headers: authorization === undefined ? {} : { authorization }, ip }) as unknown as FastifyRequest;
    const tokens = new Set(['t1']);
    assert.equal(clientOf(req('t1', '10.0.0.1'), tokens), 'token t1');
    assert.equal(clientOf(req('made-up', '10.0.0.1'), tokens), 'address 10.0.0.1');
    assert.equal(clientOf(req(undefined, '10.0.0.2'), tokens), 'address 10.0.0.2');
    assert.equal(clientOf(req('t1', '10.0.0.1'), new Set()), 'address 10.0.0.1');
  });

  test('without configured tokens a token is accepted and ignored', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry);
    assert.equal((await app.inject({ url: TRIPS, headers: { authorization: 'anything' } })).statusCode, 200);
    assert.equal((await app.inject(TRIPS)).statusCode, 200);
    await app.close();
  });

  test('with tokens: missing or unknown 401 with a message; a known one, raw or Basic, passes; probes need none', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry, { operations: settings({ tokens: ['k1', 'k2'] }) });
    const missing = await app.inject(TRIPS);
    assert.equal(missing.statusCode, 401);
    assert.deepEqual(JSON.parse(missing.body), { message: noToken().message });
    assert.match(String(missing.headers['www-authenticate']), /^Basic /);
    assert.equal(missing.headers['access-control-allow-origin'], '*', 'CORS headers on the refusal');
    const unknown = await app.inject({ url: TRIPS, headers: { authorization: 'k3' } });
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(JSON.parse(unknown.body), { message: unknownToken().message });
    assert.equal((await app.inject({ url: TRIPS, headers: { authorization: 'k1' } })).statusCode, 200);
    assert.equal((await app.inject({ url: TRIPS, headers: { authorization: `Basic ${Buffer.from('k2:').toString('base64')}` } })).statusCode, 200);
    assert.equal((await app.inject('/v1/status')).statusCode, 401);
    for (const url of ['/healthz', '/readyz', '/metrics']) assert.notEqual((await app.inject(url)).statusCode, 401, url);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: TRIPS,
      headers: { origin: 'https://playground.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204, 'a preflight carries no token');
    await app.close();
  });
});

describe('rate limit', () => {
  test('past the burst: 429 with Retry-After in whole seconds and a JSON message; per client; health and metrics exempt', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry, { operations: settings({ rateLimit: { requestsPerSecond: 0.5, burst: 3 }, tokens: ['k1', 'k2'] }) });
    const asK1 = { url: TRIPS, headers: { authorization: 'k1' } };
    for (let i = 0; i < 3; i++) assert.equal((await app.inject(asK1)).statusCode, 200);
    const refused = await app.inject(asK1);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '2');
    assert.match(JSON.parse(refused.body).message, /^too many requests/);
    assert.equal((await app.inject({ url: TRIPS, headers: { authorization: 'k2' } })).statusCode, 200, 'another token, another bucket');
    for (const url of ['/healthz', '/readyz', '/metrics']) assert.notEqual((await app.inject(url)).statusCode, 429, url);
    // made-up tokens share their address's bucket
    for (let i = 0; i < 3; i++) await app.inject({ url: TRIPS, headers: { authorization: `fake${i}` } });
    assert.equal((await app.inject({ url: TRIPS, headers: { authorization: 'fake9' } })).statusCode, 429);
    const s = parseMetrics((await app.inject('/metrics')).body);
    assert.equal(sample(s, 'navette_http_request_duration_seconds_count', { kind: 'trips', status: '429' }), 2);
    await app.close();
  });

  test('behind a proxy: with trustProxy each client X-Forwarded-For names has its bucket; without, they share the socket\'s', async () => {
    const { registry } = await fixtureRegistry();
    /** The statuses of requests sent one after another through inject's socket (127.0.0.1), each with this X-Forwarded-For. */
    const statuses = async (trustProxy: OperationsSettings['trustProxy'], forwardedFor: string[]) => {
      const app = await appOf(registry, { operations: settings({ rateLimit: { requestsPerSecond: 0.5, burst: 2 }, trustProxy }) });
      const out: number[] = [];
      for (const xff of forwardedFor) out.push((await app.inject({ url: TRIPS, headers: { 'x-forwarded-for': xff } })).statusCode);
      await app.close();
      return out;
    };
    const [a, b] = ['203.0.113.1', '203.0.113.2'];
    // trusted (every proxy, or the socket's address listed): a's third request is refused, b's first is not
    assert.deepEqual(await statuses(true, [a, a, a, b]), [200, 200, 429, 200]);
    assert.deepEqual(await statuses(['127.0.0.1'], [a, a, a, b]), [200, 200, 429, 200]);
    assert.deepEqual(await statuses(['loopback'], [a, a, a, b]), [200, 200, 429, 200]);
    // not trusted (off, or the socket is not a listed proxy): the header is ignored, one bucket for all
    assert.deepEqual(await statuses(false, [a, a, b]), [200, 200, 429]);
    assert.deepEqual(await statuses(['10.0.0.0/8'], [a, a, b]), [200, 200, 429]);
    // behind listed proxies, addresses a client writes in front of its own do not make it another client
    assert.deepEqual(await statuses(['127.0.0.1'], [`198.51.100.7, ${a}`, `198.51.100.8, ${a}`, `198.51.100.9, ${a}`]), [200, 200, 429]);
  });

  test('a trusted proxy\'s X-Forwarded-Proto gives the links their scheme; an untrusted one\'s is ignored', async () => {
    const { registry } = await fixtureRegistry();
    const schemes = async (trustProxy: OperationsSettings['trustProxy']) => {
      const app = await appOf(registry, { operations: settings({ trustProxy }) });
      const res = await app.inject({ url: '/v1/coverage', headers: { 'x-forwarded-proto': 'https' } });
      await app.close();
      return [...new Set(JSON.parse(res.body).links.map((l: { href: string }) => new URL(l.href).protocol))];
    };
    assert.deepEqual(await schemes(['127.0.0.1']), ['https:']);
    assert.deepEqual(await schemes(false), ['http:']);
  });

  test('by default an app has no rate limit', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry);
    const answers = await Promise.all(Array.from({ length: 150 }, () => app.inject('/v1/coverage/main_routing_test/trips/nope')));
    assert.ok(answers.every((a) => a.statusCode === 404));
    await app.close();
  });
});

describe('configured limits', () => {
  const limits = { ...DEFAULT_LIMITS, maxCount: 3, maxResolution: 10, maxDurationSec: 600 };

  test('count above maxCount is lowered to it', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry, { limits });
    const body = JSON.parse((await app.inject(`${TRIPS}&count=50`)).body);
    assert.equal(body.pagination.items_per_page, 3);
    assert.equal(body.trips.length, 3);
    await app.close();
  });

  test('resolution above maxResolution is lowered to it; max_duration above maxDurationSec is refused', async () => {
    const { registry } = await fixtureRegistry();
    const app = await appOf(registry, { limits });
    const map = await app.inject(HEAT_MAP.replace('max_duration=3600', 'max_duration=600').replace('resolution=20', 'resolution=500'));
    assert.equal(map.statusCode, 200);
    assert.equal(JSON.parse(map.body).heat_maps[0].heat_matrix.lines.length, 10);
    const tooLong = await app.inject(HEAT_MAP.replace('max_duration=3600', 'max_duration=601'));
    assert.equal(tooLong.statusCode, 400);
    assert.match(JSON.parse(tooLong.body).message, /^parameter "max_duration" invalid/);
    await app.close();
  });
});
