/**
 * Hostile requests (fast-check): random and malicious query strings and paths at every endpoint of
 * the demo coverage (huge numbers, NaN, empty and repeated parameters, unicode, very long values,
 * `..` and encoded garbage in ids). Every answer must be well-formed JSON with an expected status:
 * never a 500, never a hang. A failure prints the shrunk request that caused it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { heatMapParams } from '../../../src/api/heat-maps/heat-maps-params.js';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';
import { COVERAGE_PARAMS, tripsParams } from '../../../src/api/trips/trips-params.js';
import { serveCoverages } from '../../helpers/app.js';
import type { ParamSpec } from '../../../src/queries/param-table.js';

/** Statuses an endpoint may answer; 500 and anything unlisted fail the test. */
const EXPECTED = new Set([200, 304, 400, 404, 405, 503]);
/** Longest a request may take before it counts as a hang. */
const HANG_MS = 15_000;
const SEED = 20261123;

let app: FastifyInstance;

before(async () => {
  const demo = path.resolve('data/demo');
  // the limits bound the work of a heat map, as in production
  ({ app } = await serveCoverages([{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris' }], {
    app: { limits: { ...DEFAULT_LIMITS, maxResolution: 200 } },
  }));
});

after(async () => {
  await app?.close();
});

// ---------------------------------------------------------------------------------------------
// generators

const PARAM_NAMES = [...new Set([...tripsParams(DEFAULT_LIMITS, true), ...heatMapParams(DEFAULT_LIMITS), ...COVERAGE_PARAMS].map((p: ParamSpec) => (p.array ? `${p.name}[]` : p.name)))];

const hostileText = fc.oneof(
  fc.constantFrom('', ' ', 'NaN', 'nan', 'Infinity', '-Infinity', '1e308', '-1e308', '1e-400', '99999999999999999999999', '-1', '0', '-0', '0x10', '1_000', 'true', 'TRUE', 'null', 'undefined'),
  fc.constantFrom('..', '../..', '%2e%2e', '%2e%2e%2f', '%00', '%ff', '%', '%%', '%c3%28', '\u0000', '\ud83d\ude8b', 'é', '€', '漢字', '\u202e'),
  fc.constantFrom('20261124T080000', '20261124', '2026-11-24T08:00:00+01:00', '19700101T000000', '99991231T235959', '20261324T250000', '2026-02-30'),
  fc.constantFrom('GARE', 'GARE-T', 'T1', 'line:T1', 'stop_area:GARE', '4.84;45.73', '4.84;', ';45.73', '1000;1000', '-180;-90', 'NaN;NaN', 'walking', 'bike', 'bss', 'car', 'taxi', 'ridesharing'),
  fc.constantFrom('line.uri=T1', 'line.uri="T1"', 'vehicle_journey.has_headsign(', '((((((((((', 'a' + ' and a'.repeat(200), 'trip.name="\\"'),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.double().map(String),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** A query string: known and unknown names, bracket and bare forms, repeated, encoded or raw. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PARAM_NAMES) }, { weight: 1, arbitrary: fc.constantFrom('schema', '', '[]', 'count[]', 'from[]') }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }),
      hostileText,
      fc.boolean(),
    ),
    { maxLength: 12 },
  )
  .map((pairs) => pairs.map(([k, v, raw]) => (raw ? `${k}=${v.replace(/[#&\s]/g, '')}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&'));

const segment = fc.oneof(
  fc.constantFrom('demo', 'lines', 'T1', 'stop_areas', 'GARE', 'stop_points', 'routes', 'networks', 'coord', 'coords', 'addresses', 'trips', 'heat_maps', 'isochrones', 'places', 'places_nearby', 'vehicle_journeys', 'street_network', 'explorer', '..', '.', '%2e%2e', '%2F', 'nowhere', '4.84;45.73', '0;0', 'x;y', '%'),
  hostileText.map(encodeURIComponent),
);

/** A path under /v1/coverage ending at an endpoint, or anywhere. */
const requestPath = fc.oneof(
  fc.tuple(fc.constantFrom('demo', '4.84;45.73', 'nowhere', '..'), fc.array(segment, { maxLength: 4 }), fc.constantFrom('/trips', '/heat_maps', '', '/trips/T1-0-0530')).map(
    ([cov, mid, end]) => `/v1/coverage/${cov}${mid.map((s) => `/${s}`).join('')}${end}`,
  ),
  fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`),
);

async function answer(method: 'GET' | 'OPTIONS' | 'HEAD', url: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([app.inject({ method, url }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers by status, to check that the properties reach the endpoints' work, not only their errors. */
const statuses = new Map<number, number>();

async function assertWellFormed(method: 'GET' | 'OPTIONS' | 'HEAD', url: string): Promise<void> {
  const res = await answer(method, url);
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  assert.ok(EXPECTED.has(res.statusCode), `${method} ${url}: status ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (method === 'HEAD' || res.statusCode === 304 || (method === 'OPTIONS' && res.statusCode === 204)) return;
  // the explorer's page and files are the only answers that are not JSON
  if (res.statusCode === 200 && /^(text\/(html|css|javascript)|image\/png)/.test(String(res.headers['content-type']))) return;
  assert.match(String(res.headers['content-type']), /^application\/(geo\+)?json/, `${method} ${url}: content type`);
  let body: unknown;
  assert.doesNotThrow(() => (body = JSON.parse(res.body)), `${method} ${url}: JSON body`);
  assert.ok(body !== null && typeof body === 'object', `${method} ${url}: an object`);
  if (res.statusCode >= 400) {
    const b = body as { message?: unknown; error?: { id?: unknown; message?: unknown } };
    assert.ok(typeof b.message === 'string' || (typeof b.error?.id === 'string' && typeof b.error.message === 'string'), `${method} ${url}: an error body ${res.body.slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// properties

test('fuzz: hostile query strings on every endpoint', async () => {
  statuses.clear();
  const endpoints = ['/v1/coverage', '/v1/coverage/demo', '/v1/coverage/4.84;45.73', '/v1/coverage/demo/trips', '/v1/coverage/demo/trips/T1-0-0530', '/v1/coverage/demo/lines/T1/trips', '/v1/coverage/4.84;45.73/trips', '/v1/coverage/demo/heat_maps', '/v1/coverage/4.84;45.73/heat_maps', '/v1/coverage/demo/isochrones', '/v1/coverage/demo/lines', '/v1/coverage/demo/stop_areas/GARE/lines', '/v1/coverage/demo/vehicle_journeys', '/v1/coverage/demo/places', '/v1/coverage/demo/coords/4.84;45.73/places_nearby', '/v1/coverage/demo/street_network', '/v1'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...endpoints), queryString, async (endpoint, qs) => assertWellFormed('GET', qs ? `${endpoint}?${qs}` : endpoint)),
    { seed: SEED, numRuns: 400 },
  );
  assert.ok((statuses.get(200) ?? 0) >= 40 && (statuses.get(400) ?? 0) >= 40, `answers by status: ${JSON.stringify([...statuses])}`);
});

test('fuzz: heat maps with a valid place and hostile numbers', async () => {
  statuses.clear();
  // mostly values in range (so that maps get computed), sometimes hostile ones
  const value = (valid: fc.Arbitrary<number>) => fc.oneof({ weight: 4, arbitrary: valid.map(String) }, { weight: 1, arbitrary: hostileText });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('from=GARE-T', 'to=GARE', 'from=4.8418;45.7327'),
      value(fc.integer({ min: 1, max: 7200 })),
      value(fc.integer({ min: 1, max: 250 })),
      value(fc.integer({ min: 0, max: 12 })),
      value(fc.double({ min: 0.1, max: 4, noNaN: true })),
      async (place, duration, resolution, transfers, speed) => {
        const qs = `${place}&datetime=20261124T080000&max_duration=${encodeURIComponent(duration)}&resolution=${encodeURIComponent(resolution)}&max_nb_transfers=${encodeURIComponent(transfers)}&walking_speed=${encodeURIComponent(speed)}`;
        await assertWellFormed('GET', `/v1/coverage/demo/heat_maps?${qs}`);
      },
    ),
    { seed: SEED + 1, numRuns: 150 },
  );
  assert.ok((statuses.get(200) ?? 0) >= 30, `maps computed: ${JSON.stringify([...statuses])}`);
});

test('fuzz: hostile paths, with GET, HEAD and OPTIONS', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'HEAD', 'OPTIONS') as fc.Arbitrary<'GET' | 'HEAD' | 'OPTIONS'>, requestPath, fc.constantFrom('', '?schema=true', '?count=1'), async (method, p, qs) =>
      assertWellFormed(method, p + qs),
    ),
    { seed: SEED + 2, numRuns: 400 },
  );
});
