/**
 * `error.details`: beside Navitia's id and message, which stay Navitia's, what is wrong in the
 * request's terms (errors.ts DETAILS): the unknown id and its type, the day asked and the days the
 * trips run, the criteria that match nothing, a map's unknown centre or date. On the hand-made
 * town (test/helpers/town-app.ts: trips in January 2024) and on the demo town (data/demo: 2026 to 2028).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { getJson, serveCoverages, type ServedApp } from '../../helpers/app.js';
import { get, NOT_FOUND_MESSAGE, testServer } from '../../helpers/town-app.js';

after(async () => (await testServer()).app.close());

async function townError(url: string): Promise<{ id: string; message: string; details?: string }> {
  const a = await get(url);
  assert.equal(a.status, 404, `${url}: ${a.body}`);
  return a.json.error;
}

describe('trips and collections on the hand-made town', () => {
  test('an unknown trip id is named, Navitia id and message unchanged', async () => {
    assert.deepEqual(await townError('/v1/coverage/town/trips/NOPE'), { id: 'unknown_object', message: NOT_FOUND_MESSAGE, details: 'no trip with id NOPE' });
  });

  test('an unknown line (or stop area) in the path is named with its type', async () => {
    assert.equal((await townError('/v1/coverage/town/lines/NOPE/trips')).details, 'no line with id NOPE');
    assert.equal((await townError('/v1/coverage/town/stop_areas/NOPE/trips/B1-0800')).details, 'no stop area with id NOPE');
    assert.equal((await townError('/v1/coverage/town/stop_points/NOPE')).details, 'no stop point with id NOPE');
  });

  test('a line with no trip on the asked day says so, and the days its trips run', async () => {
    assert.equal(
      (await townError('/v1/coverage/town/lines/B1/trips?since=20240301T000000&until=20240301T235959')).details,
      'line B1 has no trip on 2024-03-01; it runs from 2024-01-02 to 2024-01-31',
    );
    assert.equal(
      (await townError('/v1/coverage/town/lines/B1/trips?since=20240115T200000&until=20240115T210000')).details,
      'line B1 has no trip between 2024-01-15 20:00 and 2024-01-15 21:00; it runs from 2024-01-02 to 2024-01-31',
    );
  });

  test('an unknown coverage; a point in no coverage, and the coverage it would be in with lon and lat swapped', async () => {
    assert.deepEqual(await townError('/v1/coverage/nowhere/trips'), {
      id: 'unknown_object',
      message: "The region nowhere doesn't exists",
      details: 'no coverage with id nowhere: /v1/coverage lists them',
    });
    assert.equal((await townError('/v1/coverage/20;15/trips')).details, 'no coverage contains the point 20.0;15.0 (longitude first, then latitude)');
    assert.equal(
      (await townError('/v1/coverage/45.003;5.0/trips')).details,
      'no coverage contains the point 45.003;5.0; 5.0;45.003 lies in coverage town: longitude comes first, then latitude',
    );
  });

  test('criteria that match nothing are listed as the request gives them', async () => {
    assert.equal((await townError('/v1/coverage/town/trips?headsign=gare')).details, 'no trip matches headsign=gare');
    assert.equal((await townError('/v1/coverage/town/lines/B2/trips/B1-0800')).details, 'no trip matches line B2, id B1-0800');
  });
});

describe('the demo town', () => {
  let served: ServedApp;
  before(async () => {
    const demo = path.resolve('data/demo');
    served = await serveCoverages([{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris' }]);
  });
  after(async () => served.close());
  const error = async (url: string) => (await getJson(served.app, url)).json.error;

  test('unknown trip and line, a line on a day outside its calendar', async () => {
    assert.equal((await error('/v1/coverage/demo/trips/no-such-trip')).details, 'no trip with id no-such-trip');
    assert.equal((await error('/v1/coverage/demo/lines/line:2441/trips')).details, 'no line with id line:2441');
    assert.deepEqual(await error('/v1/coverage/demo/lines/T1/trips?since=20300101T000000&until=20300101T235959'), {
      id: 'unknown_object',
      message: NOT_FOUND_MESSAGE,
      details: 'line T1 has no trip on 2030-01-01; it runs from 2026-01-01 to 2028-12-31',
    });
  });

  test("a map's unknown centre, out-of-range coordinate and date outside the production period", async () => {
    const map = (query: string) => error(`/v1/coverage/demo/heat_maps?max_duration=600&resolution=5&${query}`);
    assert.deepEqual(await map('from=nope&datetime=20261124T080000'), {
      id: 'unknown_object',
      message: 'The entry point: nope is not valid',
      details: 'from=nope is neither a stop point id, a stop area id nor a coordinate lon;lat',
    });
    assert.equal((await map('to=200;100&datetime=20261124T080000')).details, 'to=200;100: a coordinate is lon;lat, lon from -180 to 180 and lat from -90 to 90');
    assert.deepEqual(await map('from=GARE&datetime=20361124T080000'), {
      id: 'date_out_of_bounds',
      message: 'date is not in data production period',
      details: '2036-11-24 is outside the production period, 2026-01-01 to 2028-12-31',
    });
  });
});
