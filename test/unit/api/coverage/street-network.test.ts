/**
 * `/v1/coverage/{region}/street_network`: the streets of the heat maps' routing fixture as GeoJSON
 * lines (ends on the fixture's points, footways as paths), the same bytes gzipped or not, an empty
 * collection without an OSM extract, and Navitia's answers for a coverage loading or dead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { fixtureApp, lonOf, latOf, POINTS_M } from '../heat-maps/fixture.js';
import { testServer } from '../../../helpers/town-app.js';

type Lines = { type: string; features: { properties: { kind: string }; geometry: { coordinates: [number, number][][] } }[] };

test('street_network: the fixture\'s footways as path lines, each end on one of its points; gzipped alike', async () => {
  const app = await fixtureApp();
  const plain = await app.inject({ method: 'GET', url: '/v1/coverage/main_routing_test/street_network' });
  assert.equal(plain.statusCode, 200);
  assert.match(String(plain.headers['content-type']), /^application\/geo\+json/);
  const lines = JSON.parse(plain.body) as Lines;
  const [roads, paths] = lines.features;
  assert.deepEqual([roads!.properties.kind, paths!.properties.kind], ['road', 'path']);
  // every way of the fixture is a footway: no road
  assert.equal(roads!.geometry.coordinates.length, 0);
  // 15 ways, each one street between two of the fixture's points (the bend X inside A–X–B)
  assert.equal(paths!.geometry.coordinates.length, 15);
  const near = ([lon, lat]: [number, number]) => Object.keys(POINTS_M).find((p) => Math.abs(lonOf(p) - lon) < 1e-5 && Math.abs(latOf(p) - lat) < 1e-5);
  for (const line of paths!.geometry.coordinates) for (const point of line) assert.ok(near(point), `a point of the fixture: ${point}`);
  const gzipped = await app.inject({ method: 'GET', url: '/v1/coverage/main_routing_test/street_network', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gzipped.rawPayload).toString(), plain.body);

  const none = await app.inject({ method: 'GET', url: '/v1/coverage/no_streets/street_network' });
  assert.equal(none.statusCode, 200);
  assert.deepEqual(JSON.parse(none.body), { type: 'FeatureCollection', features: [] });
  await app.close();
});

test('street_network: a coverage still loading, or dead', async () => {
  const { app } = await testServer();
  const loading = await app.inject({ method: 'GET', url: '/v1/coverage/pending/street_network' });
  assert.equal(loading.statusCode, 503);
  assert.deepEqual(JSON.parse(loading.body).error, { id: 'service_unavailable', message: 'The service is loading data' });
  const dead = await app.inject({ method: 'GET', url: '/v1/coverage/broken/street_network' });
  assert.equal(dead.statusCode, 503);
  assert.deepEqual(JSON.parse(dead.body).error, { id: 'dead_socket', message: 'The region broken is dead' });
});
