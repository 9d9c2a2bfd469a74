/**
 * The eight trips routes (navitia-trips.md §1, interface.md §4.1) and every `{uri}` kind (§4.2),
 * on the `town` fixture (drawing in fixture.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, ids, notFound, testServer, TOWN_TRIPS, townTrips } from '../../../helpers/town-app.js';

after(async () => (await testServer()).app.close());

const B1 = ['B1-0800', 'B1-0900', 'B1-1700'];
const B2 = ['B2-1000', 'B2-1100'];
const RED = [...B1, ...B2, 'N1-2530'];
const BLUE = ['T1-FREQ', 'D1-ODT', 'D1-ZONE'];

// The eight routes -----------------------------------------------------------------------------

for (const [form, coverage] of [
  ['region', 'town'],
  ['lon;lat', '5.0;45.003'],
] as const) {
  test(`/coverage/{${form}}/trips lists every trip`, async () => {
    assert.deepEqual(ids(await get(`/v1/coverage/${coverage}/trips`)), TOWN_TRIPS);
  });

  test(`/coverage/{${form}}/trips/{id} fetches one trip`, async () => {
    const a = await get(`/v1/coverage/${coverage}/trips/B2-1100`);
    assert.deepEqual(a.json.trips, [{ id: 'B2-1100', name: 'École' }]);
    assert.deepEqual(a.json.pagination, { total_result: 1, start_page: 0, items_per_page: 25, items_on_page: 1 });
  });

  test(`/coverage/{${form}}/{uri}/trips narrows to the object`, async () => {
    assert.deepEqual(ids(await get(`/v1/coverage/${coverage}/lines/B2/trips`)), B2);
  });

  test(`/coverage/{${form}}/{uri}/trips/{id} fetches one trip of the object`, async () => {
    assert.deepEqual(ids(await get(`/v1/coverage/${coverage}/lines/B2/trips/B2-1100`)), ['B2-1100']);
    await notFound(`/v1/coverage/${coverage}/lines/B1/trips/B2-1100`);
  });
}

test('a lon;lat coverage is the coverage whose shape contains the point', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/-73.5;45.495/trips')), ['V-1', 'V-2']);
  assert.deepEqual(ids(await get('/v1/coverage/-73.5;45.495/lines/V/trips/V-2')), ['V-2']);
  const a = await get('/v1/coverage/-73.5;45.495/trips');
  assert.equal(a.json.context.timezone, 'America/Toronto');
});

test('trailing slashes are optional', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/town/trips/')), TOWN_TRIPS);
  assert.deepEqual(ids(await get('/v1/coverage/town/lines/B2/trips/B2-1100/')), ['B2-1100']);
});

test('path segments are percent-decoded', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/town/trips/B2%2D1100')), ['B2-1100']);
  assert.deepEqual(ids(await get('/v1/coverage/town/routes/route%3AB1%3A1/trips')), ['B1-1700']);
  assert.deepEqual(ids(await get('/v1/coverage/town/coord/5.0%3B45.003/trips?distance=100')), B2);
});

test('HEAD answers like GET without a body', async () => {
  const { app } = await testServer();
  const res = await app.inject({ method: 'HEAD', url: '/v1/coverage/town/lines/B2/trips' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '');
  assert.match(String(res.headers['content-type']), /^application\/json/);
});

// {uri} kinds ----------------------------------------------------------------------------------

test('networks/{id}: trips of the network\'s lines', async () => {
  assert.deepEqual(await townTrips('', 'networks/RED'), RED);
  assert.deepEqual(await townTrips('', 'networks/BLUE'), BLUE);
});

test('lines/{id}: trips of the line', async () => {
  assert.deepEqual(await townTrips('', 'lines/B1'), B1);
  assert.deepEqual(await townTrips('', 'lines/N1'), ['N1-2530']);
});

test('routes/{id}: trips of one direction of a line', async () => {
  assert.deepEqual(await townTrips('', 'routes/route:B1:0'), ['B1-0800', 'B1-0900']);
  assert.deepEqual(await townTrips('', 'routes/route:B1:1'), ['B1-1700']);
});

test('stop_areas/{id}: trips serving one of the area\'s stop points', async () => {
  assert.deepEqual(await townTrips('', 'stop_areas/GARE'), TOWN_TRIPS.filter((t) => t !== 'N1-2530'));
  assert.deepEqual(await townTrips('', 'stop_areas/stop_area:MARCHE'), B1);
  assert.deepEqual(await townTrips('', 'stop_areas/stop_area:G_RURAL'), ['D1-ZONE']);
});

test('stop_points/{id}: trips serving the stop point', async () => {
  assert.deepEqual(await townTrips('', 'stop_points/GARE_2'), [...B2, 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await townTrips('', 'stop_points/PARC'), [...B1, 'N1-2530']);
  assert.deepEqual(await townTrips('', 'stop_points/FERME'), ['D1-ODT']);
});

test('physical_modes/{id} and commercial_modes/{id}: trips of lines of that mode', async () => {
  assert.deepEqual(await townTrips('', 'physical_modes/physical_mode:Tramway'), ['T1-FREQ']);
  assert.deepEqual(await townTrips('', 'physical_modes/physical_mode:Bus'), TOWN_TRIPS.filter((t) => t !== 'T1-FREQ'));
  assert.deepEqual(await townTrips('', 'commercial_modes/commercial_mode:Tramway'), ['T1-FREQ']);
  await notFound('/v1/coverage/town/physical_modes/physical_mode:Ferry/trips');
});

test('companies/{id}: trips of the company\'s lines', async () => {
  assert.deepEqual(await townTrips('', 'companies/BLUE'), BLUE);
  assert.deepEqual(await townTrips('', 'companies/RED'), RED);
});

test('vehicle_journeys/{id} and trips/{id}: that trip', async () => {
  assert.deepEqual(await townTrips('', 'vehicle_journeys/vehicle_journey:B2-1000'), ['B2-1000']);
  assert.deepEqual(await townTrips('', 'trips/B2-1000'), ['B2-1000']);
  await notFound('/v1/coverage/town/vehicle_journeys/B2-1000/trips');
});

test('datasets/{id} and contributors/{id}: trips of the feed', async () => {
  assert.deepEqual(await townTrips('', 'datasets/town'), TOWN_TRIPS);
  assert.deepEqual(await townTrips('', 'contributors/town'), TOWN_TRIPS);
  await notFound('/v1/coverage/town/datasets/valley/trips');
});

test('coord/{lon;lat} and coords/{lon;lat}: trips serving a stop within distance', async () => {
  assert.deepEqual(await townTrips('distance=100', 'coord/5.0;45.003'), B2);
  assert.deepEqual(await townTrips('distance=100', 'coords/5.0;45.003'), B2);
  assert.deepEqual(await townTrips('', 'coords/5.0;45.003'), [...B1, ...B2]);
  await notFound('/v1/coverage/town/coord/5.01;45.003/trips');
});

test('collections our data never has (disruptions, pois, line groups, calendars) find nothing', async () => {
  for (const uri of ['disruptions/d1', 'pois/p1', 'poi_types/t1', 'line_groups/g1', 'calendars/c1', 'connections/c1']) {
    await notFound(`/v1/coverage/town/${uri}/trips`);
  }
});

// Chained pairs --------------------------------------------------------------------------------

test('chained pairs are ANDed', async () => {
  assert.deepEqual(await townTrips('', 'lines/B2/stop_areas/GARE'), B2);
  assert.deepEqual(await townTrips('', 'physical_modes/physical_mode:Bus/lines/D1'), ['D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await townTrips('', 'networks/RED/stop_points/PARC'), [...B1, 'N1-2530']);
  assert.deepEqual(await townTrips('', 'networks/RED/routes/route:B1:0/stop_points/GARE_1'), ['B1-0800', 'B1-0900']);
  await notFound('/v1/coverage/town/networks/BLUE/stop_points/PARC/trips');
  await notFound('/v1/coverage/town/lines/B1/stop_areas/stop_area:ECOLE/trips');
});

test('a coordinate chained with a mode (port of the mode + coord case)', async () => {
  assert.deepEqual(await townTrips('distance=400', 'physical_modes/physical_mode:Tramway/coords/5.0;45.003'), ['T1-FREQ']);
  await notFound('/v1/coverage/town/physical_modes/physical_mode:Tramway/coords/5.0;45.003/trips?distance=300');
});

test('chained pairs with an id', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/town/stop_areas/GARE/trips/B1-0800')), ['B1-0800']);
  await notFound('/v1/coverage/town/stop_areas/GARE/trips/N1-2530');
  assert.deepEqual(ids(await get('/v1/coverage/5.0;45.003/networks/RED/lines/B1/trips/B1-1700')), ['B1-1700']);
});

test('a type segment without a value before trips/{id} is ignored', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/town/lines/trips/B1-0800')), ['B1-0800']);
});

test('trips/trips is the trip whose id is "trips"', async () => {
  await notFound('/v1/coverage/town/trips/trips');
});
