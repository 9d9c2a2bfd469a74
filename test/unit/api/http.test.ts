/**
 * HTTP behaviour shared by every endpoint (navitia-trips.md §3.7, decisions.md "Errors and formats"
 * and "What existing Navitia clients need"): JSON content type, gzip and brotli, CORS (preflight
 * and the real `OPTIONS ?schema=true`), the navitia-request-id header, unknown paths.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';
import { tripsParams } from '../../../src/api/trips/trips-params.js';
import { testServer } from '../../helpers/town-app.js';
import { serveCoverages } from '../../helpers/app.js';
import { OSM_ATTRIBUTION } from '../../../src/api/explorer/explorer-routes.js';
import { DIVERGING_STOPS, GAINED_COLOUR, LOST_COLOUR, RAMP_STOPS } from '../../../src/formats/colour-ramp.js';
import type { ParamSpec } from '../../../src/queries/param-table.js';

after(async () => (await testServer()).app.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOW = '_current_datetime=20240115T120000';

async function inject(url: string, headers: Record<string, string> = {}, method: 'GET' | 'OPTIONS' | 'HEAD' = 'GET') {
  const { app } = await testServer();
  return app.inject({ method, url, headers });
}

/** Answers large enough to be compressed: the coverage list (all its links) and trips at depth 3. */
const LARGE = [`/v1/coverage?${NOW}`, `/v1/coverage/town/trips?depth=3&${NOW}`];

test('gzip when Accept-Encoding asks for it: the same bytes once decompressed', async () => {
  for (const url of LARGE) {
    const plain = await inject(url);
    assert.equal(plain.headers['content-encoding'], undefined, 'not compressed unless asked');
    const zipped = await inject(url, { 'accept-encoding': 'gzip' });
    assert.equal(zipped.statusCode, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.headers['vary']), /accept-encoding/i);
    assert.ok(zipped.rawPayload.length < plain.rawPayload.length);
    assert.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body);
  }
});

test('brotli when Accept-Encoding asks for it: the same bytes once decompressed', async () => {
  for (const url of LARGE) {
    const plain = await inject(url);
    const br = await inject(url, { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString('utf8'), plain.body);
  }
});

test('a client accepting both gets one of them, correctly encoded', async () => {
  const plain = await inject(LARGE[0]!);
  const res = await inject(LARGE[0]!, { 'accept-encoding': 'gzip, deflate, br' });
  const encoding = res.headers['content-encoding'];
  assert.ok(encoding === 'br' || encoding === 'gzip', String(encoding));
  const body = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
  assert.equal(body.toString('utf8'), plain.body);
});

test('every answer is application/json, errors included', async () => {
  for (const url of ['/v1/coverage', '/v1/coverage/town/trips', '/v1/coverage/town/trips?count=x', '/v1/coverage/nowhere/trips', '/v1/coverage/town/trips/NOPE', '/v1/coverage/pending/trips', '/v1/nothing', '/v1', '/nothing']) {
    const res = await inject(url);
    assert.match(String(res.headers['content-type']), /^application\/json/, url);
    JSON.parse(res.body);
  }
});

test('CORS headers on every answer, errors included', async () => {
  for (const url of ['/v1/coverage', '/v1/coverage/town/trips', '/v1/coverage/town/trips?count=x', '/v1/coverage/nowhere/trips', '/v1/coverage/broken/trips', '/v1/nothing']) {
    const res = await inject(url, { origin: 'https://playground.example' });
    assert.equal(res.headers['access-control-allow-origin'], '*', url);
    assert.match(String(res.headers['access-control-expose-headers']), /navitia-request-id/, url);
  }
});

test('a CORS preflight allows GET and OPTIONS and the Authorization header', async () => {
  const res = await inject('/v1/coverage/town/trips', { origin: 'https://playground.example', 'access-control-request-method': 'OPTIONS', 'access-control-request-headers': 'authorization' }, 'OPTIONS');
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['access-control-allow-origin'], '*');
  const methods = String(res.headers['access-control-allow-methods']).split(/,\s*/);
  assert.ok(methods.includes('GET') && methods.includes('OPTIONS'), methods.join());
  assert.ok(String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/).includes('authorization'));
  assert.match(String(res.headers['navitia-request-id']), UUID);
});

test('OPTIONS ?schema=true answers the endpoint\'s parameters as Swagger objects (not an empty preflight answer)', async () => {
  const res = await inject('/v1/coverage/town/trips?schema=true', { origin: 'https://playground.example' }, 'OPTIONS');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['access-control-allow-origin'], '*');
  const body = JSON.parse(res.body);
  const names = body.get.parameters.map((p: { name: string }) => p.name);
  const visible = tripsParams(DEFAULT_LIMITS, true).filter((p: ParamSpec) => !p.hidden);
  assert.deepEqual(names, visible.map((p: ParamSpec) => (p.array ? `${p.name}[]` : p.name)));
  assert.ok(names.includes('filter') && names.includes('forbidden_uris[]') && !names.includes('_current_datetime'));
  const count = body.get.parameters.find((p: { name: string }) => p.name === 'count');
  assert.deepEqual(count, { name: 'count', in: 'query', required: false, description: visible.find((p) => p.name === 'count')!.description, type: 'integer', default: 25, minimum: 0 });
  const odt = body.get.parameters.find((p: { name: string }) => p.name === 'odt_level');
  assert.deepEqual([odt.type, odt.enum, odt.default], ['string', ['all', 'scheduled', 'with_stops', 'zonal'], 'all']);
  const forbidden = body.get.parameters.find((p: { name: string }) => p.name === 'forbidden_uris[]');
  assert.deepEqual([forbidden.type, forbidden.items, forbidden.collectionFormat], ['array', { type: 'string' }, 'multi']);
});

test('OPTIONS on an id form lists no filter; on a coverage, only disable_geojson', async () => {
  const id = JSON.parse((await inject('/v1/coverage/town/trips/B1-0800?schema=true', {}, 'OPTIONS')).body);
  assert.equal(id.get.parameters.some((p: { name: string }) => p.name === 'filter'), false);
  const cov = JSON.parse((await inject('/v1/coverage/town?schema=true', {}, 'OPTIONS')).body);
  assert.deepEqual(cov.get.parameters.map((p: { name: string }) => p.name), ['disable_geojson']);
  const unknown = await inject('/v1/nothing?schema=true', {}, 'OPTIONS');
  assert.equal(unknown.statusCode, 404);
});

test('navitia-request-id: a fresh uuid on every answer', async () => {
  const seen = new Set<string>();
  for (const url of ['/v1/coverage', '/v1/coverage/town/trips', '/v1/coverage/town/trips?depth=9', '/v1/coverage/town/trips/NOPE', '/v1/coverage/broken/trips', '/v1/nothing']) {
    const res = await inject(url);
    const id = String(res.headers['navitia-request-id']);
    assert.match(id, UUID, url);
    seen.add(id);
  }
  assert.equal(seen.size, 6);
});

test('/v1: an index of links, from the request\'s host', async () => {
  const res = await inject('/v1');
  assert.equal(res.statusCode, 200);
  const { links } = JSON.parse(res.body) as { links: { href: string; rel: string; templated: boolean }[] };
  assert.deepEqual(
    links.map((l) => [l.rel, l.href, l.templated]),
    [
      ['coverage', 'http://localhost:80/v1/coverage', false],
      ['openapi', 'http://localhost:80/v1/openapi.json', false],
      ['schema', 'http://localhost:80/v1/schema', false],
      ['docs', 'http://localhost:80/docs', false],
      ['status', 'http://localhost:80/v1/status', false],
      ['explorer', 'http://localhost:80/', false],
    ],
  );
  // every link answers
  for (const l of links) assert.equal((await inject(new URL(l.href).pathname)).statusCode, 200, l.href);
});

test('/ serves the explorer page and its files, with validators', async () => {
  const page = await inject('/');
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  // every file the page names is served from the package, none from elsewhere
  const named = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:') && !u.startsWith('#'));
  assert.ok(named.length >= 4, named.join(' '));
  for (const url of named) {
    assert.ok(url.startsWith('/'), `${url} is served by Navette`);
    const res = await inject(url);
    assert.equal(res.statusCode, 200, url);
  }
  const again = await inject('/explorer/explorer.js', { 'if-none-match': String((await inject('/explorer/explorer.js')).headers['etag']) });
  assert.equal(again.statusCode, 304);
  const settings = JSON.parse((await inject('/explorer/settings.json')).body);
  assert.deepEqual(settings, {
    tile_url: null,
    tile_attribution: null,
    osm_attribution: OSM_ATTRIBUTION,
    colour_ramp: RAMP_STOPS.map(([t, r, g, b]) => [t, [r, g, b]]),
    diverging_ramp: { ramp: DIVERGING_STOPS.map(([t, r, g, b]) => [t, [r, g, b]]), lost: [...LOST_COLOUR], gained: [...GAINED_COLOUR] },
    max_boundaries: 10,
  });
});

test('unknown paths: 404 {"message"} only', async () => {
  for (const url of ['/nothing', '/v1/nothing', '/v1/journeys', '/v1/coverage/town/trips/B1-0800/x', '/explorer/nothing.js']) {
    const res = await inject(url);
    assert.equal(res.statusCode, 404, url);
    assert.deepEqual(JSON.parse(res.body), {
      message: 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
    });
  }
});

test('the explorer\'s settings carry the configured tile layer, with OpenStreetMap\'s attribution by default', async () => {
  const tileUrl = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
  const served = await serveCoverages([], { app: { explorer: { tileUrl } } });
  try {
    const settings = JSON.parse((await served.app.inject({ method: 'GET', url: '/explorer/settings.json' })).body);
    assert.deepEqual([settings.tile_url, settings.tile_attribution], [tileUrl, OSM_ATTRIBUTION]);
    assert.match(settings.tile_attribution, /openstreetmap\.org\/copyright/);
  } finally {
    await served.close();
  }
});
