/**
 * The explorer's per-coverage answers, on the heat-map routing fixture (test/unit/api/heat-maps/fixture.ts):
 * street ends from D (0 m east) to C (220 m east) and from S (10 m north) to K (120 m north), stops at
 * B (10, 30), A (120, 80) and J (70, 120), all inside the streets; four trips every day from
 * Thursday 2012-06-14 to 2013-06-13, all leaving at 08:01.
 *
 * - `view.json`: today (2026) is outside the period, every weekday runs the same four trips, so
 *   the earliest weekday wins: Monday, and its first day, 2012-06-18, at 08:00; the map opens on
 *   the stops' box (inside the streets');
 * - `basemap.geojson`: the fixture's extract has streets only: an empty collection, gzipped on request.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { fixtureApp, POINTS_M } from '../heat-maps/fixture.js';
import { overlap } from '../../../../src/api/explorer/coverage-view.js';

let app: FastifyInstance;
before(async () => {
  app = await fixtureApp();
});
after(async () => app.close());

const M = 111319.9;
const round5 = (v: number) => Math.round(v * 1e5) / 1e5;
const lon = (p: string) => round5(POINTS_M[p]![0] / M);
const lat = (p: string) => round5(POINTS_M[p]![1] / M);

test('view.json: the period, the busiest weekday at its busiest hour, the boxes and the credits', async () => {
  const res = await app.inject({ method: 'GET', url: '/explorer/coverage/main_routing_test/view.json' });
  assert.equal(res.statusCode, 200);
  const view = JSON.parse(res.body);
  assert.match(view.today, /^\d{8}$/);
  delete view.today;
  assert.deepEqual(view, {
    production_period: { start: '20120614', end: '20130613' },
    representative_day: { date: '20120618', reason: 'busiest_weekday', trips: 4, hour: 8, departures: 4, busiest_weekday: 'Monday' },
    // the vertices' box: X is a bend inside the A–B street, not a vertex; S (10 m north) is the southmost
    streets_box: [lon('D'), lat('S'), lon('C'), lat('K')],
    stops_box: [lon('B'), lat('B'), lon('A'), lat('J')],
    view_box: [lon('B'), lat('B'), lon('A'), lat('J')],
    streets_from_osm: true,
    realtime: false,
    feed_publishers: [],
  });
});

test('view.json without streets opens on the stops, and names an unknown coverage', async () => {
  const view = JSON.parse((await app.inject({ method: 'GET', url: '/explorer/coverage/no_streets/view.json' })).body);
  assert.deepEqual([view.streets_box, view.view_box, view.streets_from_osm], [null, [lon('B'), lat('B'), lon('A'), lat('J')], false]);
  const unknown = await app.inject({ method: 'GET', url: '/explorer/coverage/nowhere/view.json' });
  assert.equal(unknown.statusCode, 404);
  assert.equal(JSON.parse(unknown.body).error.id, 'unknown_object');
});

test('the view box is where the boxes overlap, else the one that exists, else the streets when they do not meet', () => {
  assert.deepEqual(overlap([0, 0, 10, 10], [5, -5, 20, 8]), [5, 0, 10, 8]);
  assert.deepEqual(overlap(null, [5, -5, 20, 8]), [5, -5, 20, 8]);
  assert.deepEqual(overlap([0, 0, 10, 10], null), [0, 0, 10, 10]);
  assert.deepEqual(overlap([0, 0, 10, 10], [20, 20, 30, 30]), [0, 0, 10, 10]);
  assert.equal(overlap(null, null), null);
});

test('basemap.geojson: the extract has streets only, so an empty collection; gzipped when asked, the same bytes', async () => {
  const empty = { type: 'FeatureCollection', truncated: false, features: [] };
  const plain = await app.inject({ method: 'GET', url: '/explorer/coverage/main_routing_test/basemap.geojson' });
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['content-type'], 'application/geo+json');
  assert.deepEqual(JSON.parse(plain.body), empty);
  const zipped = await app.inject({ method: 'GET', url: '/explorer/coverage/main_routing_test/basemap.geojson', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body);
  assert.deepEqual(JSON.parse((await app.inject({ method: 'GET', url: '/explorer/coverage/no_streets/basemap.geojson' })).body), empty);
});
