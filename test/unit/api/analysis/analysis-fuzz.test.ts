/**
 * The analysis endpoints under random requests (fast-check), on the line city served with the
 * worker pool as the server runs it: accessibility from a place and from every point of a set,
 * travel-time matrices; windows and percentiles, every decay function, several point sets, every
 * street mode, `compare_data_freshness`, hostile numbers. Whatever is asked, the invariants hold:
 *
 * - the status is 200, a 4xx refusal, or 503 with `Retry-After` (a full queue, a budget, a deadline);
 *   never another 5xx;
 * - every body is strict JSON (no Infinity, no NaN: `JSON.parse` reads it);
 * - a 200 has its shape: every measure null or a finite number ≥ 0, every duration null or whole
 *   seconds within max_duration, one value per origin (and per destination), the percentiles asked.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lineCity, lonAt } from '../../../helpers/line-city.js';
import { HeatMapPool } from '../../../../src/maps/heat-map-pool.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';

const FEW = 7;
const fewCsv = ['id,lon,lat,shops,beds', ...Array.from({ length: FEW }, (_, k) => `f${k},${lonAt(200 + k * 400)},0,${k},${(k * 3) % 5}`)].join('\n') + '\n';
const pool = new HeatMapPool({ ...DEFAULT_LIMITS, threads: 2, budgetMs: 20_000 });
const served = await lineCity({ few: fewCsv }, { heatMaps: pool });
const app = served.app;

after(async () => {
  await served.close();
  await pool.close();
});

const MODES = ['walking', 'bike', 'bss', 'car', 'car_no_park', 'taxi'];
const hostileNumber = fc.constantFrom('0', '-1', '1e308', 'NaN', 'Infinity', '0x10', '', '86401', '1.5');

/** Mostly one of `valid`, now and then one of `hostile`: most requests are answered, some refused. */
const mostly = (valid: fc.Arbitrary<string>, hostile: fc.Arbitrary<string> = hostileNumber) => fc.oneof({ arbitrary: valid, weight: 29 }, { arbitrary: hostile, weight: 1 });
const pair = (name: string, value: fc.Arbitrary<string>) => value.map((v) => `${name}=${encodeURIComponent(v)}`);
const optional = (name: string, value: fc.Arbitrary<string>) => fc.option(pair(name, value), { nil: undefined });
const many = (name: string, value: fc.Arbitrary<string>, max = 3) => fc.array(pair(name, value), { maxLength: max });
/** An ascending subset of `values` (as `percentiles[]` and `cutoffs[]` are asked), now and then a hostile one. */
const ascending = (name: string, values: string[]) =>
  fc.oneof({ arbitrary: fc.subarray(values, { maxLength: 3 }).map((list) => list.map((v) => `${name}=${v}`)), weight: 29 }, { arbitrary: many(name, hostileNumber, 2), weight: 1 });

/** The words every analysis request shares: when, how far, by which modes, over which window. */
const journey = fc.tuple(
  optional('datetime', mostly(fc.constantFrom('20240102T080000', '20240102T075500'), fc.constantFrom('20990101T080000', 'garbage'))),
  optional('walking_speed', mostly(fc.constantFrom('1', '0.5', '4'))),
  many('first_section_mode[]', mostly(fc.constantFrom(...MODES), fc.constant('ridesharing')), 2),
  many('last_section_mode[]', mostly(fc.constantFrom(...MODES), fc.constant('ridesharing')), 2),
  optional('max_duration', mostly(fc.constantFrom('600', '1800', '3600'))),
  optional('departure_window', mostly(fc.constantFrom('0', '60', '120', '300'), fc.constantFrom('10801', 'x'))),
  ascending('percentiles[]', ['5', '25', '50', '75', '95']),
  optional('data_freshness', fc.constantFrom('base_schedule', 'adapted_schedule', 'realtime')),
  optional('max_bike_duration_to_pt', mostly(fc.constantFrom('600', '1800'))),
  optional('max_bss_duration_to_pt', mostly(fc.constantFrom('600', '1800', '7200'))),
  optional('max_nb_transfers', mostly(fc.constantFrom('0', '1', '10'))),
);

/** A decay function with the setting it takes (or, now and then, without it, or a bad one). */
const decay = mostly(
  fc.constantFrom('decay_function=step', 'decay_function=linear&decay_width=600', 'decay_function=logistic&decay_standard_deviation=300', 'decay_function=exponential', 'decay_function=fixed_exponential&decay_constant=0.001'),
  fc.constantFrom('decay_function=linear', 'decay_function=cubic', 'decay_function=fixed_exponential&decay_constant=2', 'decay_function=logistic&decay_standard_deviation=0'),
);

/** What is measured: the opportunities (of one set or two), the cutoffs, the decay, the dual access. */
const measures = fc.tuple(
  fc.array(mostly(fc.constantFrom('places:jobs', 'places:schools', 'few:shops', 'few:beds'), fc.constantFrom('few:none', 'nowhere:jobs')), { minLength: 1, maxLength: 3 }).map((list) => list.map((o) => `opportunities[]=${o}`)),
  ascending('cutoffs[]', ['600', '1200', '1800', '3600']),
  fc.option(decay, { nil: undefined }),
  many('nearest[]', mostly(fc.constantFrom('1', '10', '100')), 2),
);

const place = mostly(fc.constantFrom(`from=${lonAt(0)};0`, `to=${lonAt(2900)};0`, `from=${lonAt(1000)};0.05`, `origins=few`, `origins=places`), fc.constantFrom('from=1e308;0', 'origins=nowhere', ''));

const request = fc.oneof(
  fc.tuple(place, journey, measures, fc.option(pair('compare_data_freshness', fc.constantFrom('base_schedule', 'realtime')), { nil: undefined, freq: 8 })).map(([where, j, m, c]) => ['accessibility', [where, ...j.flat(), ...m.flat(), c]] as const),
  fc
    .tuple(mostly(fc.constantFrom('origins=few', 'origins=places'), fc.constantFrom('origins=nowhere', '')), optional('destinations', mostly(fc.constantFrom('few', 'places'), fc.constant('nowhere'))), journey)
    .map(([origins, destinations, j]) => ['travel_time_matrix', [origins, destinations, ...j.flat()]] as const),
).map(([path, parts]) => `/v1/coverage/line/${path}?${parts.filter((p) => p !== undefined && p !== '').join('&')}`);

const finiteAtLeast0 = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
const wholeWithin = (max: number) => (v: unknown) => v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max);

/** What is wrong with a 200 answer's shape, or undefined. */
function shapeProblem(url: string, body: any): string | undefined {
  const query = new URLSearchParams(url.split('?')[1]);
  const maxDuration = Number(query.get('max_duration') ?? 86400) || 86400;
  if ('travel_time_matrix' in body) {
    const m = body.travel_time_matrix;
    if (m.durations.length !== m.percentiles.length) return 'a matrix per percentile';
    for (const rows of m.durations) {
      if (rows.length !== m.origins.length) return 'a row per origin';
      for (const row of rows) if (row.length !== m.destinations.length || !row.every(wholeWithin(maxDuration))) return 'a whole duration within max_duration per destination';
    }
    return undefined;
  }
  if ('accessibility_by_origin' in body) {
    const r = body.accessibility_by_origin;
    for (const m of r.measures) if (m.values.length !== r.origins.length || !m.values.every(finiteAtLeast0)) return `measure ${JSON.stringify(m).slice(0, 120)}`;
    for (const n of r.nearest) if (n.durations.length !== r.origins.length || !n.durations.every(wholeWithin(maxDuration))) return 'a dual access per origin';
    return undefined;
  }
  if (!Array.isArray(body.accessibility)) return 'no accessibility';
  for (const a of body.accessibility) if (!finiteAtLeast0(a.value) || ('compared_value' in a && !finiteAtLeast0(a.compared_value))) return `value ${JSON.stringify(a)}`;
  for (const n of body.nearest) if (!wholeWithin(maxDuration)(n.duration)) return `duration ${JSON.stringify(n)}`;
  return undefined;
}

test('fuzz: the analysis endpoints answer every request with a 200 of the right shape, a refusal, or a 503 to retry; every body strict JSON', { timeout: 600_000 }, async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(request, async (url) => {
      const res = await app.inject({ method: 'GET', url });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      assert.ok(res.statusCode === 200 || (res.statusCode >= 400 && res.statusCode < 500) || (res.statusCode === 503 && res.headers['retry-after']), `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      let body: unknown;
      assert.doesNotThrow(() => (body = JSON.parse(res.body)), `${url}: not strict JSON: ${res.body.slice(0, 300)}`);
      if (res.statusCode === 200) assert.equal(shapeProblem(url, body), undefined, url);
    }),
    { seed: 20240102, numRuns: 300 },
  );
  // the random requests reach both outcomes: answers and refusals
  assert.ok((statuses.get(200) ?? 0) >= 100, JSON.stringify([...statuses]));
  assert.ok([...statuses.keys()].some((s) => s >= 400 && s < 500), JSON.stringify([...statuses]));
});
