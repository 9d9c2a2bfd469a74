/**
 * `/v1/coverage`, `/v1/coverage/{region}` and `/v1/coverage/{lon};{lat}` (navitia-trips.md §9, §5).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { COVERAGE_PARAMS } from '../../../../src/api/trips/trips-params.js';
import { get, mtimeSec, paramMessage, testServer, TOWN_STOPS } from '../../../helpers/town-app.js';
import { withoutDetails } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

const BASE = 'http://localhost:80';

/** `YYYYMMDDTHHMMSS` in UTC. */
function utc(epochSec: number): string {
  return new Date(epochSec * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15);
}

/** The link names of a coverage answer, in order: Navitia's (§9) that we serve. */
const COLLECTIONS = ['stop_points', 'routes', 'networks', 'commercial_modes', 'physical_modes', 'companies', 'stop_areas', 'lines', 'vehicle_journeys', 'trips'];
const APIS = ['places', 'isochrones', 'heat_maps'];

function expectedLinks(r: string) {
  const link = (path: string, name: string) => ({ href: `${BASE}/v1/coverage/${r}/${path}`, templated: true, rel: name, type: name });
  return [...COLLECTIONS.map((c) => link(c, c)), link('', 'coverage'), ...APIS.map((a) => link(a, a)), link('coord/{lon;lat}/places_nearby', 'places_nearby')];
}

async function townRegion() {
  const { townFeed } = await testServer();
  return {
    id: 'town',
    name: 'Town Open Data',
    status: 'running',
    // WK loses 1 January and ALL starts on the 2nd; HOL's last day is 10 February.
    start_production_date: '20240102',
    end_production_date: '20240210',
    dataset_created_at: utc(mtimeSec(townFeed)),
  };
}

const PENDING = {
  id: 'pending',
  name: '',
  status: 'loading_data',
  start_production_date: '',
  end_production_date: '',
  last_load_at: 'not-a-date-time',
  dataset_created_at: 'not-a-date-time',
  shape: '',
};
const BROKEN = { ...PENDING, id: 'broken', status: 'dead', error: { code: 'dead_socket', value: 'The region broken is dead' } };

/** A region without its load-time-dependent fields. */
function stable(region: Record<string, unknown>) {
  const { last_load_at: _l, shape: _s, ...rest } = region;
  return rest;
}

test('/v1/coverage lists every coverage, by id (README: a deliberate difference from Navitia\'s by-name order)', async () => {
  const a = await get('/v1/coverage');
  assert.equal(a.status, 200);
  assert.deepEqual(a.json.regions.map((r: { id: string }) => r.id), ['broken', 'pending', 'town', 'valley']);
  assert.deepEqual(a.json.regions[0], BROKEN);
  assert.deepEqual(a.json.regions[1], PENDING);
  assert.deepEqual(stable(a.json.regions[2]), await townRegion());
  const valley = a.json.regions[3];
  assert.deepEqual(
    [valley.name, valley.status, valley.start_production_date, valley.end_production_date],
    ['Valley Transit', 'running', '20240301', '20240331'],
    'without feed_info.txt the name is the agency\'s',
  );
});

test('/v1/coverage links are templated on {regions.id}', async () => {
  const a = await get('/v1/coverage');
  assert.deepEqual(a.json.links, expectedLinks('{regions.id}'));
});

test('/v1/coverage/ with a trailing slash answers like /v1/coverage', async () => {
  const [a, b] = [await get('/v1/coverage/?_current_datetime=20240115T120000'), await get('/v1/coverage?_current_datetime=20240115T120000')];
  assert.equal(a.status, 200);
  assert.deepEqual(a.json, b.json);
});

test('the context is in UTC with the Africa/Abidjan time zone', async () => {
  const a = await get('/v1/coverage?_current_datetime=20240115T235959');
  assert.deepEqual(a.json.context, { current_datetime: '20240115T235959', timezone: 'Africa/Abidjan' });
  const b = await get('/v1/coverage/town?_current_datetime=20240715T120000');
  assert.deepEqual(b.json.context, { current_datetime: '20240715T120000', timezone: 'Africa/Abidjan' });
});

test('/v1/coverage/{region}: one region, links on the region', async () => {
  const a = await get('/v1/coverage/town');
  assert.equal(a.status, 200);
  assert.equal(a.json.regions.length, 1);
  assert.deepEqual(stable(a.json.regions[0]), await townRegion());
  assert.deepEqual(a.json.links, expectedLinks('town'));
});

test('last_load_at is the UTC time the data was loaded', async () => {
  const { loadedFrom, loadedTo } = await testServer();
  const shown = (await get('/v1/coverage/town')).json.regions[0].last_load_at as string;
  assert.match(shown, /^\d{8}T\d{6}$/);
  assert.ok(shown >= utc(loadedFrom) && shown <= utc(loadedTo), `${shown} in [${utc(loadedFrom)}, ${utc(loadedTo)}]`);
});

/** `MULTIPOLYGON(((x y, …)))` → ring. */
function parseWkt(wkt: string): [number, number][] {
  const m = /^MULTIPOLYGON\(\(\((.*)\)\)\)$/.exec(wkt);
  assert.ok(m, wkt);
  return m[1]!.split(', ').map((p) => p.split(' ').map(Number) as [number, number]);
}

function inside(ring: [number, number][], [x, y]: [number, number]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

test('the shape is a closed WKT polygon around every stop, 500 m wide of them', async () => {
  const ring = parseWkt((await get('/v1/coverage/town')).json.regions[0].shape);
  assert.deepEqual(ring[0], ring[ring.length - 1], 'closed');
  for (const [id, stop] of Object.entries(TOWN_STOPS)) assert.ok(inside(ring, stop), `${id} inside`);
  // Bounding box: the stops' box widened by 500 m (latitude degrees of 111.226 km, Navitia's sphere,
  // longitude ones shortened by the cosine of the latitude), to the 6 decimals of the WKT.
  const dLat = 500 / 111_226.2991;
  const dLon = (lat: number) => 500 / (111_226.2991 * Math.cos((lat * Math.PI) / 180));
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 2e-6, `${what}: ${a} vs ${b}`);
  near(Math.min(...ys), 45.0 - dLat, 'south');
  near(Math.max(...ys), 45.02 + dLat, 'north');
  near(Math.min(...xs), 5.0 - dLon(45.02), 'west');
  near(Math.max(...xs), 5.02 + dLon(45.02), 'east');
});

test('disable_geojson=true leaves the shape out (null)', async () => {
  const a = await get('/v1/coverage/town?disable_geojson=true');
  assert.equal(a.json.regions[0].shape, null);
  const list = await get('/v1/coverage?disable_geojson=1');
  assert.ok(list.json.regions.every((r: { shape: unknown }) => r.shape === null));
});

test('/v1/coverage/{lon};{lat}: the coverage whose shape strictly contains the point', async () => {
  const a = await get('/v1/coverage/5.0;45.003');
  assert.deepEqual(a.json.regions.map((r: { id: string }) => r.id), ['town']);
  assert.deepEqual(a.json.links, expectedLinks('5.0;45.003'));
  const v = await get('/v1/coverage/-73.5;45.495');
  assert.deepEqual(v.json.regions.map((r: { id: string }) => r.id), ['valley']);
  // GARE_1 (5.0, 45.0) is the southernmost stop: the shape reaches 500 m (0.00449°) south of it.
  assert.equal((await get('/v1/coverage/5.0;44.9956')).status, 200);
  assert.equal((await get('/v1/coverage/5.0;44.9954')).status, 404);
});

test('a dead coverage is shown with its error; a loading one without data', async () => {
  assert.deepEqual((await get('/v1/coverage/broken')).json.regions, [BROKEN]);
  assert.deepEqual((await get('/v1/coverage/pending')).json.regions, [PENDING]);
});

test('unknown region: 404 "The region <r> doesn\'t exists"', async () => {
  const a = await get('/v1/coverage/atlantis');
  assert.equal(a.status, 404);
  const message = "The region atlantis doesn't exists";
  assert.deepEqual(withoutDetails(a.json), { error: { id: 'unknown_object', message }, message });
});

test('no coverage at the coordinates: 404 "No region available for the coordinates:<lon>, <lat>"', async () => {
  const a = await get('/v1/coverage/20;15');
  assert.equal(a.status, 404);
  const message = 'No region available for the coordinates:20.0, 15.0';
  assert.deepEqual(withoutDetails(a.json), { error: { id: 'unknown_object', message }, message });
  assert.equal((await get('/v1/coverage/0;0')).status, 404, 'lon 0 and lat 0 are tested like any point');
});

test('a bad disable_geojson: 400, before the region is looked up', async () => {
  for (const url of ['/v1/coverage?disable_geojson=12', '/v1/coverage/town?disable_geojson=12', '/v1/coverage/lines?disable_geojson=12']) {
    const a = await get(url);
    assert.equal(a.status, 400, url);
    assert.deepEqual(a.json, { message: paramMessage('disable_geojson', 'Invalid literal for boolean(): 12', COVERAGE_PARAMS) });
  }
});

test('a path under a region that names no endpoint: 404', async () => {
  const a = await get('/v1/coverage/lines/bob');
  assert.equal(a.status, 404);
  assert.deepEqual(Object.keys(a.json), ['message']);
});
