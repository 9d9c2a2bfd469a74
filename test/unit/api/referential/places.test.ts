/**
 * `/places` (autocomplete) and `/coords/{lon};{lat}/places_nearby` on the `town` fixture: ranking,
 * accent and case folding, types, count, depth, Navitia's shapes and errors, OPTIONS ?schema=true.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { placesNearbyParams, placesParams } from '../../../../src/api/referential/referential-params.js';
import { swaggerParameters } from '../../../../src/api/params.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';
import { foldText } from '../../../../src/util/fold-text.js';
import { get, NOW, testServer, TOWN_PUBLISHER, type Answer } from '../../../helpers/town-app.js';

after(async () => (await testServer()).app.close());

const BOTH = '&type[]=stop_area&type[]=stop_point';

/** `[id, quality]` of each place of a 200 answer. */
function ranked(a: Answer, key = 'places'): [string, number][] {
  assert.equal(a.status, 200, a.body);
  return a.json[key].map((p: { id: string; quality: number }) => [p.id, p.quality]);
}

test('text folding: accents, case, ß and punctuation', () => {
  assert.equal(foldText('  Mannheim-Käfertal, STRAẞE  Œuvre École '), 'mannheim kafertal strasse oeuvre ecole');
  assert.equal(foldText('Große Straße'), 'grosse strasse');
  assert.equal(foldText('--'), '');
});

test('ranking: exact name, then name prefix, word prefix, substring; stop areas first, shorter names, ids', async () => {
  // "gare": the area Gare is exact; the two stop points start with it (same length: by id)
  assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=GARE${BOTH}`)), [
    ['GARE', 100],
    ['GARE_1', 90],
    ['GARE_2', 90],
  ]);
  // "quai": a word prefix of both stop points
  assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=quai${BOTH}`)), [
    ['GARE_1', 80],
    ['GARE_2', 80],
  ]);
  // "ar": a name prefix of nothing, a substring of Gare, Marché, Parc, Ferme (no), Zone rurale (no)
  assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=ar&type[]=stop_area`)), [
    ['GARE', 70],
    ['stop_area:PARC', 70],
    ['stop_area:MARCHE', 70],
  ]);
  // "rur": a word prefix of "Zone rurale" (a GTFS-Flex zone: a stop area, never a stop point)
  assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=rur${BOTH}`)), [['stop_area:G_RURAL', 80]]);
});

test('accent- and case-insensitive both ways', async () => {
  for (const q of ['ecole', 'École', 'ÉCOLE', 'e%CC%81cole']) {
    assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=${encodeURIComponent(decodeURIComponent(q))}${BOTH}`)), [
      ['stop_area:ECOLE', 100],
      ['ECOLE', 100],
    ]);
  }
  assert.deepEqual(ranked(await get('/v1/coverage/town/places?q=mus%C3%A9e')), [['stop_area:MUSEE', 100]]);
});

test("Navitia's default types are stop areas (no stop points); type[], count; other types give nothing", async () => {
  assert.deepEqual(ranked(await get('/v1/coverage/town/places?q=gare')), [['GARE', 100]]);
  assert.deepEqual(ranked(await get('/v1/coverage/town/places?q=gare&type[]=stop_point')), [
    ['GARE_1', 90],
    ['GARE_2', 90],
  ]);
  assert.deepEqual(ranked(await get(`/v1/coverage/town/places?q=gare&count=1${BOTH}`)), [['GARE', 100]]);
  assert.deepEqual(ranked(await get('/v1/coverage/town/places?q=gare&type[]=address&type[]=poi')), []);
  assert.deepEqual(ranked(await get('/v1/coverage/town/places?q=zzz')), []);
});

test("the answer: Navitia's place objects, publishers, context, links; depth", async () => {
  const a = await get(`/v1/coverage/town/places?q=quai%202&type[]=stop_point&${NOW}`);
  const gare = { id: 'GARE', name: 'Gare', label: 'Gare', coord: { lon: '5', lat: '45' }, timezone: 'Europe/Paris', administrative_regions: [], links: [] };
  const point = { id: 'GARE_2', name: 'Gare quai 2', label: 'Gare quai 2', coord: { lon: '5', lat: '45.0005' }, administrative_regions: [], equipments: [], links: [] };
  assert.deepEqual(a.json, {
    places: [{ id: 'GARE_2', name: 'Gare quai 2', quality: 80, embedded_type: 'stop_point', stop_point: { ...point, stop_area: gare } }],
    feed_publishers: [TOWN_PUBLISHER],
    context: { current_datetime: '20240115T130000', timezone: 'Europe/Paris' },
    links: [{ href: 'http://localhost:80/v1/coverage/town/stop_points/{stop_points.id}', templated: true, rel: 'stop_points', type: 'stop_points' }],
  });
  const flat = await get('/v1/coverage/town/places?q=quai%202&type[]=stop_point&depth=0');
  assert.deepEqual(flat.json.places[0].stop_point, point);
});

test("places errors: no q, an empty q, a bad type", async () => {
  const none = await get('/v1/coverage/town/places');
  assert.equal(none.status, 400);
  assert.deepEqual(none.json, {
    message: `parameter "q" invalid: Missing required parameter in the post body or the query string\nq description: ${placesParams(DEFAULT_LIMITS)[0].description}`,
  });
  assert.deepEqual([(await get('/v1/coverage/town/places?q=')).status, (await get('/v1/coverage/town/places?q=%20')).json], [400, { message: 'Search word absent' }]);
  const type = await get('/v1/coverage/town/places?q=gare&type[]=planet');
  assert.equal(type.status, 400);
  assert.match(type.json.message, /^parameter "type\[\]" invalid: The type\[\] argument must be in list/);
  assert.equal((await get('/v1/coverage/nowhere/places?q=gare')).status, 404);
});

test('places_nearby: stop areas and stop points within distance, nearest first, with their distance', async () => {
  const a = await get('/v1/coverage/town/coords/5.0;45.0/places_nearby?distance=200&depth=0');
  assert.deepEqual(
    a.json.places_nearby.map((p: { id: string; embedded_type: string; distance: string }) => [p.id, p.embedded_type, p.distance]),
    [
      ['GARE', 'stop_area', '0'],
      ['GARE_1', 'stop_point', '0'],
      ['GARE_2', 'stop_point', '56'],
      ['stop_area:MARCHE', 'stop_area', '167'],
      ['MARCHE', 'stop_point', '167'],
    ],
  );
  assert.deepEqual(a.json.pagination, { total_result: 5, start_page: 0, items_per_page: 10, items_on_page: 5 });
  const points = await get('/v1/coverage/town/coord/5.0;45.003/places_nearby?type[]=stop_point&count=2');
  assert.deepEqual(ranked(points, 'places_nearby'), [
    ['ECOLE', 0],
    ['MARCHE', 0],
  ]);
  assert.deepEqual(points.json.places_nearby[1], {
    id: 'MARCHE',
    name: 'Marché',
    quality: 0,
    embedded_type: 'stop_point',
    distance: '167',
    stop_point: {
      id: 'MARCHE',
      name: 'Marché',
      label: 'Marché',
      coord: { lon: '5', lat: '45.0015' },
      administrative_regions: [],
      equipments: [],
      links: [],
      stop_area: { id: 'stop_area:MARCHE', name: 'Marché', label: 'Marché', coord: { lon: '5', lat: '45.0015' }, timezone: 'Europe/Paris', administrative_regions: [], links: [] },
    },
  });
  assert.deepEqual(points.json.links.map((l: { type: string }) => l.type), ['stop_points', 'next', 'last', 'first']);
  const far = await get('/v1/coverage/town/coords/6.0;46.0/places_nearby');
  assert.deepEqual([far.status, far.json.places_nearby, far.json.pagination.total_result], [200, [], 0]);
  assert.equal((await get('/v1/coverage/town/coords/abc/places_nearby')).status, 404);
});

test('OPTIONS ?schema=true lists the places parameters', async () => {
  const { app } = await testServer();
  const places = await app.inject({ method: 'OPTIONS', url: '/v1/coverage/town/places?schema=true' });
  assert.deepEqual(places.json(), { get: { parameters: swaggerParameters(placesParams(DEFAULT_LIMITS)) } });
  assert.equal(places.json().get.parameters[0].required, true, 'q is required');
  const nearby = await app.inject({ method: 'OPTIONS', url: '/v1/coverage/town/coords/5.0;45.0/places_nearby?schema=true' });
  assert.deepEqual(nearby.json(), { get: { parameters: swaggerParameters(placesNearbyParams(DEFAULT_LIMITS)) } });
});
