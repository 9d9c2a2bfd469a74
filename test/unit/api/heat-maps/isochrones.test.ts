/**
 * `/isochrones` on the Navitia test fixture: Navitia's errors, the response's shape and bands, valid
 * shapes (JSTS), and the heat map's other formats read back by independent readers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fromArrayBuffer } from 'geotiff';
import { PNG } from 'pngjs';
import { insideRing } from '../../../../src/formats/rings.js';
import { getAnswer } from '../../../helpers/app.js';
import { invalidity } from '../../../helpers/geometry-validity.js';
import { coordOf, fixtureApp, type HeatMatrix } from './fixture.js';
import { navitiaError } from '../../../helpers/http.js';

const S = coordOf('S');
let app: FastifyInstance;
before(async () => {
  app = await fixtureApp();
});
after(() => app.close());

/** GET `/v1/coverage/main_routing_test/{url}`: JSON answers parsed, images as bytes. */
const get = (url: string) => getAnswer(app, `/v1/coverage/main_routing_test/${url}`);

describe("Navitia's errors", () => {
  for (const [name, query, message] of [
    ['no centre', 'isochrones?datetime=20120614T080000&max_duration=3600', "you should provide a 'from' or a 'to' argument"],
    ['no duration', `isochrones?datetime=20120614T080000&from=${S}`, "you should provide a 'boundary_duration[]' or a 'max_duration' argument"],
    [
      'more than 10 boundaries',
      `isochrones?datetime=20120614T080000&from=${S}&${Array.from({ length: 11 }, (_, k) => `boundary_duration[]=${(k + 1) * 60}`).join('&')}`,
      "you cannot provide more than 10 'boundary_duration[]'",
    ],
    ['both from and to', `isochrones?datetime=20120614T080000&from=${S}&to=${S}&max_duration=3600`, "you cannot provide a 'from' and a 'to' argument"],
    ['ridesharing', `isochrones?datetime=20120614T080000&from=${S}&max_duration=3600&first_section_mode[]=ridesharing`, "ridesharing isn't available on isochrone"],
  ] as const) {
    test(`${name}: 400 with Navitia's message`, async () => {
      const { status, json } = await get(query);
      assert.equal(status, 400);
      assert.deepEqual(json, { message });
    });
  }

  test('Navitia order: no centre before no duration, both centres after a missing duration and after too many boundaries', async () => {
    assert.match((await get('isochrones?datetime=20120614T080000')).json.message, /'from' or a 'to'/);
    assert.match((await get(`isochrones?from=${S}&to=${S}`)).json.message, /'boundary_duration\[\]' or a 'max_duration'/);
    const many = Array.from({ length: 11 }, (_, k) => `boundary_duration[]=${(k + 1) * 60}`).join('&');
    assert.match((await get(`isochrones?from=${S}&to=${S}&${many}`)).json.message, /more than 10/);
  });

  test('an unknown centre: the engine error inside an empty isochrones envelope', async () => {
    const { status, json } = await get('isochrones?datetime=20120614T080000&from=stop_area:nowhere&max_duration=3600');
    assert.equal(status, 404);
    assert.deepEqual(Object.keys(json), ['isochrones', 'feed_publishers', 'links', 'warnings', 'context', 'error']);
    assert.deepEqual(json.isochrones, []);
    assert.deepEqual(navitiaError(json.error), { id: 'unknown_object', message: 'The entry point: stop_area:nowhere is not valid' });
  });
});

describe('the response', () => {
  test("Navitia's shape: one band per pair of [min_duration, boundaries…, max_duration], each a valid MultiPolygon", async () => {
    const { status, json } = await get(`isochrones?datetime=20120614T080000&from=${S}&min_duration=60&boundary_duration[]=1200&boundary_duration[]=300&boundary_duration[]=5000&max_duration=3600`);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(json), ['isochrones', 'feed_publishers', 'links', 'warnings', 'context']);
    const bands = json.isochrones as Record<string, any>[];
    assert.deepEqual(
      bands.map((b) => [b['min_duration'], b['max_duration']]),
      [
        [60, 300],
        [300, 1200],
        [1200, 3600],
      ],
      'sorted, the boundary past max_duration left out',
    );
    for (const band of bands) {
      assert.deepEqual(Object.keys(band), ['geojson', 'max_duration', 'min_duration', 'from', 'requested_date_time', 'min_date_time', 'max_date_time']);
      assert.equal(band['requested_date_time'], '20120614T080000');
      assert.equal(band['geojson'].type, 'MultiPolygon');
      assert.equal(invalidity(band['geojson']), undefined);
    }
    assert.equal(bands[0]!['min_date_time'], '20120614T080100');
    assert.equal(bands[0]!['max_date_time'], '20120614T080500');
    assert.equal(bands[2]!['max_date_time'], '20120614T090000');
    assert.ok(bands[0]!['geojson'].coordinates.length > 0, 'the centre is reached at once');
  });

  test('an arrival: to, and the date-times run backwards from datetime', async () => {
    const { status, json } = await get(`isochrones?datetime=20120614T090000&to=${S}&boundary_duration[]=600&boundary_duration[]=1800`);
    assert.equal(status, 200);
    const [first, second] = json.isochrones;
    assert.deepEqual([first.min_duration, first.max_duration, second.min_duration, second.max_duration], [0, 600, 600, 1800], 'the last boundary closes the bands');
    assert.equal(first.min_date_time, '20120614T085000');
    assert.equal(first.max_date_time, '20120614T090000');
    assert.ok('to' in first && !('from' in first));
  });

  test('the centre lies in the first band and not in the others', async () => {
    const { json } = await get(`isochrones?datetime=20120614T080000&from=${S}&boundary_duration[]=600&max_duration=3600`);
    const [lon, lat] = S.split(';').map(Number) as [number, number];
    const holds = (band: any) => band.geojson.coordinates.some((p: [number, number][][]) => insideRing(lon, lat, p[0]!) && !p.slice(1).some((h) => insideRing(lon, lat, h)));
    assert.equal(holds(json.isochrones[0]), true);
    assert.equal(holds(json.isochrones[1]), false);
  });
});

describe('the heat map in other formats', () => {
  const query = `heat_maps?datetime=20120614T080000&from=${S}&max_duration=3600&resolution=60`;
  let matrix: HeatMatrix;
  before(async () => {
    matrix = (await get(query)).json.heat_maps[0].heat_matrix;
  });
  /** the JSON grid's value of cell (i west to east, j south to north), -1 for null */
  const cell = (i: number, j: number) => matrix.lines[i]!.duration[j] ?? -1;

  test('format=tiff: a GeoTIFF whose pixels are the heat matrix, on its box', async () => {
    const { status, headers, raw } = await get(`${query}&format=tiff`);
    assert.equal(status, 200);
    assert.equal(headers['content-type'], 'image/tiff');
    const image = await (await fromArrayBuffer(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer)).getImage();
    const [band] = (await image.readRasters()) as unknown as Int32Array[];
    const R = matrix.lines.length;
    assert.equal(image.getWidth(), R);
    for (let row = 0; row < R; row++) for (let i = 0; i < R; i++) assert.equal(band![row * R + i], cell(i, R - 1 - row));
    const [minX, , , maxY] = image.getBoundingBox();
    assert.ok(Math.abs(minX! - matrix.lines[0]!.cell_lon.min_lon) < 1e-9);
    assert.ok(Math.abs(maxY! - matrix.line_headers[R - 1]!.cell_lat.max_lat) < 1e-9);
  });

  test('format=png: transparent exactly where the heat matrix is null', async () => {
    const { status, headers, raw } = await get(`${query}&format=png`);
    assert.equal(status, 200);
    assert.equal(headers['content-type'], 'image/png');
    const png = PNG.sync.read(raw);
    const R = matrix.lines.length;
    assert.equal(png.width, R);
    for (let row = 0; row < R; row++) for (let i = 0; i < R; i++) assert.equal(png.data[(row * R + i) * 4 + 3], cell(i, R - 1 - row) < 0 ? 0 : 255);
  });

  test('format=geojson: bands every 10 minutes by default, valid, as a FeatureCollection', async () => {
    const { status, headers, json } = await get(`${query}&format=geojson`);
    assert.equal(status, 200);
    assert.equal(headers['content-type'], 'application/geo+json');
    assert.equal(json.type, 'FeatureCollection');
    assert.deepEqual(
      json.features.map((f: any) => [f.properties.min_duration, f.properties.max_duration]),
      [0, 600, 1200, 1800, 2400, 3000].map((lo) => [lo, lo + 600]),
    );
    for (const f of json.features) assert.equal(invalidity(f.geometry), undefined);
  });

  test('an unknown format: the enum error', async () => {
    const { status, json } = await get(`${query}&format=svg`);
    assert.equal(status, 400);
    assert.match(json.message, /The format argument must be in list \['json', 'tiff', 'png', 'geojson'\], you gave svg/);
  });
});

test('OPTIONS isochrones?schema=true lists its parameters, max_duration not required (boundaries may stand for it)', async () => {
  const res = await app.inject({ method: 'OPTIONS', url: '/v1/coverage/main_routing_test/isochrones?schema=true' });
  assert.equal(res.statusCode, 200);
  const parameters = res.json().get.parameters as { name: string; required: boolean }[];
  const names = parameters.map((p) => p.name);
  for (const name of ['from', 'to', 'min_duration', 'boundary_duration[]', 'simplify', 'resolution', 'data_freshness']) assert.ok(names.includes(name), name);
  assert.equal(parameters.find((p) => p.name === 'max_duration')!.required, false);
  assert.ok(!names.includes('format'), 'the formats are the heat map’s');
});
