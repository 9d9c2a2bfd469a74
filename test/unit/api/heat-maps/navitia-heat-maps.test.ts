/**
 * Navitia's heat-map tests (navitia-heat-maps.md §6.2, §6.3), ported onto our fixture: cell values
 * within ±10 s, errors with their exact messages, the response shape and orientation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { getJson } from '../../../helpers/app.js';
import { cellAt, coordOf, fixtureApp, latOf, lonOf, type HeatMatrix } from './fixture.js';

const TOLERANCE = 10;
const S = coordOf('S');
const R = coordOf('R');

let app: FastifyInstance;
before(async () => {
  app = await fixtureApp();
});
after(async () => app.close());

/** GET `/v1/coverage/{url}`; its body must be JSON. */
const get = (url: string) => getJson(app, `/v1/coverage/${url}`);

/** The structural invariants Navitia's tests check on every heat map. */
function checkStructure(body: Record<string, any>): HeatMatrix {
  assert.equal(body['heat_maps'].length, 1);
  const item = body['heat_maps'][0];
  assert.ok(('from' in item) !== ('to' in item), 'exactly one of from and to');
  const matrix = item.heat_matrix as HeatMatrix;
  const R = matrix.line_headers.length;
  assert.ok(R > 0);
  assert.equal(matrix.lines.length, R);
  for (let j = 0; j < R; j++) {
    const c = matrix.line_headers[j]!.cell_lat;
    assert.ok(c.min_lat <= c.center_lat && c.center_lat <= c.max_lat);
    if (j > 0) assert.equal(matrix.line_headers[j - 1]!.cell_lat.max_lat, c.min_lat);
  }
  for (let i = 0; i < R; i++) {
    const line = matrix.lines[i]!;
    assert.equal(line.duration.length, R);
    assert.ok(line.cell_lon.min_lon <= line.cell_lon.center_lon && line.cell_lon.center_lon <= line.cell_lon.max_lon);
    if (i > 0) assert.equal(matrix.lines[i - 1]!.cell_lon.max_lon, line.cell_lon.min_lon);
    for (const d of line.duration) assert.ok(d === null || (Number.isInteger(d) && d >= 0));
  }
  assert.deepEqual(body['links'], []);
  assert.deepEqual(body['warnings'], []);
  assert.ok(Array.isArray(body['feed_publishers']));
  assert.ok(body['feed_publishers'].some((p: { id: string; license: string }) => p.id === 'osm' && p.license === 'ODbL'));
  return matrix;
}

function near(matrix: HeatMatrix, point: string, expected: number) {
  const v = cellAt(matrix, lonOf(point), latOf(point));
  assert.equal(typeof v, 'number', `cell at ${point} has a value`);
  assert.ok(Math.abs((v as number) - expected) <= TOLERANCE, `cell at ${point}: ${v} s, expected ${expected} ± ${TOLERANCE}`);
}

describe('heat maps (Navitia test suite)', () => {
  test('1: departure heat map from a coordinate', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?from=${S}&datetime=20120614T080000&max_duration=3600`);
    assert.equal(status, 200);
    checkStructure(json);
    assert.equal(json['heat_maps'][0].requested_date_time, '20120614T080000');
    assert.equal(json['heat_maps'][0].from.embedded_type, 'address');
    assert.deepEqual(json['heat_maps'][0].from.address.coord, { lon: String(lonOf('S')), lat: String(latOf('S')) });
    assert.ok(json['context'].current_datetime);
    assert.equal(json['context'].timezone, 'UTC');
  });

  test('2: arrival heat map to a coordinate', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?to=${R}&datetime=20120614T080200&max_duration=3600`);
    assert.equal(status, 200);
    checkStructure(json);
    assert.ok('to' in json['heat_maps'][0]);
    assert.ok(!('from' in json['heat_maps'][0]));
  });

  test('3: from a stop area, cell values', async () => {
    const { status, json } = await get('main_routing_test/heat_maps?datetime=20120614T080100&from=stopB&max_duration=3600');
    assert.equal(status, 200);
    const m = checkStructure(json);
    assert.equal(json['heat_maps'][0].from.embedded_type, 'stop_area');
    assert.ok(json['heat_maps'][0].from.stop_area.coord.lon);
    near(m, 'B', 0);
    near(m, 'S', 18);
    near(m, 'A', 2);
    near(m, 'R', 83);
  });

  test('4: to a stop area with a forbidden line, cell values', async () => {
    const { status, json } = await get('main_routing_test/heat_maps?datetime=20120614T080200&to=stopA&max_duration=3600&forbidden_uris[]=M');
    assert.equal(status, 200);
    const m = checkStructure(json);
    near(m, 'A', 0);
    near(m, 'R', 81);
    near(m, 'B', 60);
    near(m, 'S', 78);
  });

  test('5: no datetime: now is _current_datetime', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?from=${S}&max_duration=3600&_current_datetime=20120614T080000`);
    assert.equal(status, 200);
    checkStructure(json);
    assert.equal(json['context'].current_datetime, '20120614T080000');
    assert.equal(json['context'].timezone, 'UTC');
    assert.equal(json['heat_maps'][0].requested_date_time, '20120614T080000');
  });

  test('6: datetime without seconds', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?from=${S}&max_duration=3600&datetime=20120614T0800`);
    assert.equal(status, 200);
    checkStructure(json);
  });

  test('7: no arguments', async () => {
    const { status, json } = await get('main_routing_test/heat_maps');
    assert.equal(status, 400);
    assert.equal(json['message'], "you should provide a 'from' or a 'to' argument");
  });

  test('8: no region', async () => {
    const { status, json } = await get('heat_maps');
    assert.equal(status, 404);
    assert.equal(json['error'].message, "The region heat_maps doesn't exists");
  });

  test('9: invalid max_duration', async () => {
    let r = await get(`main_routing_test/heat_maps?datetime=20120614T080000&from=${S}&max_duration=-3600`);
    assert.equal(r.status, 400);
    assert.ok(r.json['message'].includes('Unable to evaluate, invalid unsigned int\nmax_duration description: Maximum duration of journeys in seconds'));
    r = await get(`main_routing_test/heat_maps?datetime=20120614T080000&from=${S}&max_duration=toto`);
    assert.equal(r.status, 400);
    assert.ok(r.json['message'].includes("Unable to evaluate, invalid literal for int() with base 10: 'toto'"));
  });

  test('10: null walking speed', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?datetime=20120614T080000&from=${S}&max_duration=3600&walking_speed=0`);
    assert.equal(status, 400);
    assert.ok(json['message'].includes('The walking_speed argument has to be in range [0.01, 4], you gave : 0'));
  });

  test('11: no max_duration; 0 gets the standard parameter message (a deviation: Navitia says the same as for none)', async () => {
    const none = await get(`main_routing_test/heat_maps?datetime=20120614T080000&from=${S}`);
    assert.equal(none.status, 400);
    assert.equal(none.json['message'], "you should provide a 'max_duration' argument");
    const zero = await get(`main_routing_test/heat_maps?datetime=20120614T080000&from=${S}&max_duration=0`);
    assert.equal(zero.status, 400);
    assert.ok(zero.json['message'].startsWith('parameter "max_duration" invalid: The max_duration argument has to be >= 1, you gave : 0\n'), zero.json['message']);
  });

  test('12: date out of the production period', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?datetime=20050614T080000&from=${S}&max_duration=3600`);
    assert.equal(status, 404);
    assert.equal(json['error'].id, 'date_out_of_bounds');
    assert.equal(json['error'].message, 'date is not in data production period');
    assert.deepEqual(json['heat_maps'], []);
  });

  test('13: invalid datetimes', async () => {
    let r = await get(`main_routing_test/heat_maps?datetime=2005061&from=${S}&max_duration=3600`);
    assert.equal(r.status, 400);
    assert.ok(r.json['message'].includes('Unable to parse datetime, year'));
    r = await get(`main_routing_test/heat_maps?datetime=toto&from=${S}&max_duration=3600`);
    assert.equal(r.status, 400);
    assert.ok(r.json['message'].toLowerCase().includes('unable to parse datetime, unknown string format'));
  });

  test('14: unknown typed centre', async () => {
    const { status, json } = await get('main_routing_test/heat_maps?from=stop_area:OIF:SA:toto&datetime=20120614T080000&max_duration=3600');
    assert.equal(status, 404);
    assert.equal(json['error'].id, 'unknown_object');
    assert.equal(json['error'].message, 'The entry point: stop_area:OIF:SA:toto is not valid');
  });

  test('15: from and to', async () => {
    const { status, json } = await get(`main_routing_test/heat_maps?from=${S}&datetime=20120614T080000&max_duration=3600&to=${R}`);
    assert.equal(status, 400);
    assert.equal(json['message'], "you cannot provide a 'from' and a 'to' argument");
  });

  test('without a street network: no_solution, HTTP 200', async () => {
    const { status, json } = await get('no_streets/heat_maps?from=stop_point:stopB&datetime=20120615T080000&max_duration=60');
    assert.equal(status, 200);
    assert.equal(json['error'].id, 'no_solution');
    assert.equal(json['error'].message, 'no street network data, impossible to compute a heat_map');
  });

  test('ridesharing is refused', async () => {
    const { status, json } = await get(
      `main_routing_test/heat_maps?from=${S}&datetime=20120614T075500&first_section_mode[]=ridesharing&last_section_mode[]=walking&max_duration=2`,
    );
    assert.equal(status, 400);
    assert.equal(json['message'], "ridesharing isn't available on heatmaps");
  });

  test('resolution 50: nulls are the only non-integers', async () => {
    const { status, json } = await get('main_routing_test/heat_maps?datetime=20120614T080100&from=stopB&max_duration=3600&resolution=50');
    assert.equal(status, 200);
    const m = checkStructure(json);
    assert.equal(m.lines.length, 50);
  });
});
