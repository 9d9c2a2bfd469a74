/**
 * Heat maps on the worker pool: the same answers as in-process, trips keep answering meanwhile,
 * the queue bound and the time budget answer 503 with Retry-After, and bodies come compressed from
 * the worker as the client asks.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../../src/api/app.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';
import { Coverage, CoverageRegistry } from '../../../../src/service/coverage-registry.js';
import { withRealtime } from '../../../../src/service/generation.js';
import { budgetScale, HeatMapPool } from '../../../../src/maps/heat-map-pool.js';
import type { MapQuery } from '../../../../src/maps/difference-map.js';
import { EngineCache } from '../../../../src/service/engine-cache.js';
import { loadCoverage } from '../../../../src/service/load-coverage.js';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { chooseEncoding } from '../../../../src/maps/heat-map-render.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { fixtureGtfs, writeFixtureOsm } from './fixture.js';
import { SPINNING_DURATION_SEC } from './spinning-worker.js';
import { departuresOf } from '../../../../src/queries/departure-window.js';
import { setsOf } from '../../../../src/maps/points.js';

// a fixed "now": bodies compared whole must not differ by their context's current_datetime
const URL = '/v1/coverage/main_routing_test/heat_maps?datetime=20120614T080100&from=stopB&max_duration=3600&resolution=200&_current_datetime=20120614T080000';
let registry: CoverageRegistry;

before(async () => {
  const osm = writeFixtureOsm();
  registry = new CoverageRegistry();
  const coverage = new Coverage({ id: 'main_routing_test', gtfs: [writeFeed(fixtureGtfs())], osm, timezone: 'UTC' });
  registry.add(coverage);
  await loadCoverage(coverage);
});

describe('heat-map worker pool', () => {
  const pools: HeatMapPool[] = [];
  after(async () => {
    for (const p of pools) await p.close();
  });
  const appWith = async (options: ConstructorParameters<typeof HeatMapPool>[0]) => {
    const pool = new HeatMapPool(options);
    pools.push(pool);
    return buildApp({ registry, heatMaps: pool });
  };
  const limits = { maxDurationSec: 86400, maxResolution: 1000 };

  test('answers exactly as the in-process computation, and trips meanwhile', async () => {
    const pooled = await appWith({ ...limits, threads: 2 });
    const local = await buildApp({ registry });
    const [a, b, trips] = await Promise.all([
      pooled.inject({ method: 'GET', url: URL }),
      local.inject({ method: 'GET', url: URL }),
      pooled.inject({ method: 'GET', url: '/v1/coverage/main_routing_test/trips' }),
    ]);
    assert.equal(a.statusCode, 200);
    assert.equal(a.body, b.body);
    assert.equal(trips.statusCode, 200);
    assert.equal(JSON.parse(trips.body).trips.length, 4);
    await local.close();
  });

  test('a map over a departure window answers on the pool as in process, whatever its budget scale (10 minutes: 8/3 of a map\'s budget)', async () => {
    const pooled = await appWith({ ...limits, threads: 1 });
    const local = await buildApp({ registry });
    for (const minutes of [10, 30]) {
      const url = `${URL}&departure_window=${minutes * 60}&percentiles[]=10&percentiles[]=90`;
      const [a, b] = await Promise.all([pooled.inject({ method: 'GET', url }), local.inject({ method: 'GET', url })]);
      assert.equal(a.statusCode, 200, `${minutes} min: ${a.body.slice(0, 200)}`);
      assert.equal(a.body, b.body, `${minutes} min`);
    }
    await local.close();
  });

  test('a difference map answers on the pool as in process (the comparison travels with the task)', async () => {
    const pooled = await appWith({ ...limits, threads: 1 });
    const local = await buildApp({ registry });
    for (const extra of ['', '&departure_window=600&percentiles[]=10&percentiles[]=90', '&format=tiff', '&format=png']) {
      const url = `${URL}&data_freshness=realtime&compare_data_freshness=base_schedule${extra}`;
      const [a, b] = await Promise.all([pooled.inject({ method: 'GET', url }), local.inject({ method: 'GET', url })]);
      assert.equal(a.statusCode, 200, `${extra}: ${a.body.slice(0, 200)}`);
      assert.deepEqual(a.rawPayload, b.rawPayload, extra);
    }
    await local.close();
  });

  test('the budget scale: one map, a window by its minutes, a difference map twice either', () => {
    const query = { maxDurationSec: 3600 } as MapQuery;
    const window = departuresOf({ departure_window: 600, percentiles: [] })!;
    const comparison = { quoted: { data_freshness: 'realtime' as const, compare_data_freshness: 'base_schedule' as const }, overlay: null };
    assert.equal(budgetScale(query), 1);
    assert.equal(budgetScale({ ...query, window }), 1 + 10 / 6);
    assert.equal(budgetScale({ ...query, comparison }), 2);
    assert.equal(budgetScale({ ...query, window, comparison }), 2 * (1 + 10 / 6));
    // a points task values each set it reads once: the budget counts the sets, each once
    assert.equal(budgetScale(query, setsOf({ kind: 'travel_times', set: 0 }).length), 1);
    const column = (set: number) => ({ set, column: 0 });
    const measures = { kind: 'measures' as const, columns: [column(0), column(1), column(0)], layout: { percentiles: 1, cutoffsSec: [1800], nearest: [] }, decay: { name: 'step' as const }, maxDurationSec: 3600, };
    assert.equal(budgetScale(query, setsOf(measures).length), 2);
  });

  test('bodies compressed in the worker decode to the plain body, in the encoding the client prefers', async () => {
    const app = await appWith({ ...limits, threads: 1 });
    const get = (acceptEncoding?: string) =>
      app.inject({ method: 'GET', url: URL, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
    const plain = await get();
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers['vary']), /accept-encoding/i);
    const decoders = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync };
    const cases: Array<[string, keyof typeof decoders]> = [
      ['gzip, deflate, br', 'gzip'],
      ['br', 'br'],
      ['deflate', 'deflate'],
      ['gzip;q=0, br', 'br'],
      ['*', 'gzip'],
    ];
    for (const [accept, expected] of cases) {
      const res = await get(accept);
      assert.equal(res.headers['content-encoding'], expected, accept);
      assert.match(String(res.headers['vary']), /accept-encoding/i);
      assert.ok(res.rawPayload.length < plain.rawPayload.length / 3, `${accept}: compressed to under a third`);
      assert.equal(decoders[expected](res.rawPayload).toString('utf8'), plain.body, accept);
    }
    const refused = await get('identity, gzip;q=0');
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(refused.body, plain.body);
  });

  test('encoding choice from Accept-Encoding', () => {
    assert.equal(chooseEncoding(undefined), null);
    assert.equal(chooseEncoding(''), null);
    assert.equal(chooseEncoding('br, gzip'), 'gzip');
    assert.equal(chooseEncoding('BR;q=0.5'), 'br');
    assert.equal(chooseEncoding('*;q=0, deflate'), 'deflate');
    assert.equal(chooseEncoding('gzip;q=0, br;q=0, deflate;q=0'), null);
    assert.equal(chooseEncoding('compress, identity'), null);
  });

  test('a realtime update keeps the engines: they follow the street data, not the generation', () => {
    const generation = registry.get('main_routing_test')!.generation!;
    const updated = withRealtime(generation, { runs: new Map(), added: [], problems: [] });
    assert.notEqual(updated.number, generation.number);
    const cache = new EngineCache(limits);
    const engine = cache.get('main_routing_test', generation.streets!.id, generation.streets!.data);
    assert.equal(cache.get('main_routing_test', updated.streets!.id, updated.streets!.data), engine);
    assert.notEqual(cache.get('main_routing_test', generation.streets!.id + 1, generation.streets!.data), engine, 'new street data, a new engine');
  });

  test('past the queue bound: 503 with Retry-After', async () => {
    const app = await appWith({ ...limits, threads: 1, maxQueue: 1 });
    const heavy = URL.replace('resolution=200', 'resolution=1000');
    const answers = await Promise.all(Array.from({ length: 12 }, () => app.inject({ method: 'GET', url: heavy })));
    const refused = answers.filter((r) => r.statusCode === 503);
    assert.ok(refused.length > 0, 'some requests are refused');
    assert.ok(answers.some((r) => r.statusCode === 200), 'the others are answered');
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(JSON.parse(r.body).error.id, 'service_unavailable');
    }
  });

  test('past the time budget: 503 service_unavailable with Retry-After, saying why; a busy coverage is no dead one', async () => {
    const app = await appWith({ ...limits, threads: 1, budgetMs: 1 });
    const r = await app.inject({ method: 'GET', url: URL.replace('resolution=200', 'resolution=1000') });
    assert.equal(r.statusCode, 503);
    assert.ok(r.headers['retry-after']);
    const error = JSON.parse(r.body).error;
    assert.equal(error.id, 'service_unavailable');
    assert.match(error.message, /^The computation on main_routing_test took longer than its time budget and was stopped: ask for less/);
    // the coverage itself answers on
    assert.equal((await app.inject({ method: 'GET', url: '/v1/coverage/main_routing_test' })).statusCode, 200);
  });

  test('past its deadline (its wait and its run), a map is stopped: 503 service_unavailable with Retry-After, saying so; the next map is answered', async () => {
    const pool = new HeatMapPool({ ...limits, threads: 1, budgetMs: 600_000, workerModule: new globalThis.URL('./spinning-worker.js', import.meta.url) });
    pools.push(pool);
    const app = await buildApp({ registry, heatMaps: pool, limits: { ...DEFAULT_LIMITS, mapDeadlineSec: 5 } });
    assert.equal((await app.inject({ method: 'GET', url: URL })).statusCode, 200);
    // a map that never ends, with a budget of ten minutes: its deadline stops it
    const stuck = await app.inject({ method: 'GET', url: URL.replace('max_duration=3600', `max_duration=${SPINNING_DURATION_SEC}`) });
    assert.equal(stuck.statusCode, 503);
    assert.equal(stuck.headers['retry-after'], '5');
    const error = JSON.parse(stuck.body).error;
    assert.equal(error.id, 'service_unavailable');
    assert.match(error.message, /^The computation on main_routing_test was not done within its request's deadline of 5 s \(its wait for a thread and its run\)/);
    assert.equal((await app.inject({ method: 'GET', url: URL })).statusCode, 200);
  });

  test('the worker threads report their caches: /metrics shows the bytes an in-process cache holds after the same maps', async () => {
    const pooled = await appWith({ ...limits, threads: 1 });
    const local = await buildApp({ registry });
    const bytes = async (app: typeof local, cache: string) => {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      return Number(new RegExp(`^navette_cache_bytes\\{cache="${cache}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    };
    assert.equal(await bytes(pooled, 'engines'), 0);
    for (const app of [pooled, local]) assert.equal((await app.inject({ method: 'GET', url: URL })).statusCode, 200);
    const engines = await bytes(pooled, 'engines');
    assert.ok(engines > 0);
    assert.equal(engines, await bytes(local, 'engines'));
    assert.equal(await bytes(pooled, 'egress_tables'), 0);
    await local.close();
  });

  test('a computation that never ends is cut off at the budget: its thread is replaced and the next map is answered', async () => {
    const app = await appWith({ ...limits, threads: 1, budgetMs: 1500, workerModule: new globalThis.URL('./spinning-worker.js', import.meta.url) });
    // warm the thread (first use loads the engine), so the budget below is the computation's own
    assert.equal((await app.inject({ method: 'GET', url: URL })).statusCode, 200);
    const stuck = await app.inject({ method: 'GET', url: URL.replace('max_duration=3600', `max_duration=${SPINNING_DURATION_SEC}`) });
    assert.equal(stuck.statusCode, 503);
    assert.equal(JSON.parse(stuck.body).error.id, 'service_unavailable');
    // the only thread was stuck in a loop: left spinning, it would hold this one until its budget too
    for (let i = 0; i < 3; i++) {
      const next = await app.inject({ method: 'GET', url: URL });
      assert.equal(next.statusCode, 200, `map ${i} after the stuck one`);
    }
  });
});
