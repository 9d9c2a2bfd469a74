/**
 * The PT-referential collections on the `town` fixture (drawing in test/helpers/town-app.ts):
 * lists, paging, depth shapes, filters, `{uri}` narrowing, forbidden ids, since/until on vehicle
 * journeys, Navitia's errors and OPTIONS ?schema=true.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectionParams } from '../../../../src/api/referential/referential-params.js';
import { swaggerParameters } from '../../../../src/api/params.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';
import { get, NOT_FOUND_MESSAGE, NOW, testServer, TOWN_PUBLISHER, type Answer } from '../../../helpers/town-app.js';
import { navitiaError } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

/** Ids of a collection's 200 answer. */
function idsOf(a: Answer, collection: string): string[] {
  assert.equal(a.status, 200, a.body);
  return (a.json[collection] ?? []).map((o: { id: string }) => o.id);
}

const list = async (collection: string, path = '', query = '') => idsOf(await get(`/v1/coverage/town/${path}${collection}?count=100${query}`), collection);

const AREAS = ['GARE', 'stop_area:MARCHE', 'stop_area:ECOLE', 'stop_area:PARC', 'stop_area:MUSEE', 'stop_area:FERME', 'stop_area:G_RURAL'];

test('each collection lists its objects in feed order', async () => {
  assert.deepEqual(await list('networks'), ['RED', 'BLUE']);
  assert.deepEqual(await list('companies'), ['RED', 'BLUE']);
  assert.deepEqual(await list('lines'), ['B1', 'B2', 'N1', 'T1', 'D1']);
  assert.deepEqual(await list('routes'), ['route:B1:0', 'route:B1:1', 'route:B2:0', 'route:N1:0', 'route:T1:0', 'route:D1:0']);
  assert.deepEqual(await list('stop_areas'), AREAS);
  assert.deepEqual(await list('stop_points'), ['GARE_1', 'GARE_2', 'MARCHE', 'ECOLE', 'PARC', 'MUSEE', 'FERME', 'G_RURAL']);
  assert.deepEqual(await list('physical_modes'), ['physical_mode:Bus', 'physical_mode:Tramway']);
  assert.deepEqual(await list('commercial_modes'), ['commercial_mode:Bus', 'commercial_mode:Tramway']);
  assert.equal((await list('vehicle_journeys')).length, 9);
  assert.equal((await list('vehicle_journeys'))[0], 'vehicle_journey:B1-0800');
});

test('the answer: pagination, the collection, disruptions, publishers, context, links', async () => {
  const a = await get(`/v1/coverage/town/networks?count=1&${NOW}`);
  assert.deepEqual(a.json, {
    pagination: { total_result: 2, start_page: 0, items_per_page: 1, items_on_page: 1 },
    networks: [{ id: 'RED', name: 'Red Buses' }],
    disruptions: [],
    feed_publishers: [TOWN_PUBLISHER],
    context: { current_datetime: '20240115T130000', timezone: 'Europe/Paris' },
    links: [
      { href: 'http://localhost:80/v1/coverage/town/networks/{networks.id}', templated: true, rel: 'networks', type: 'networks' },
      { href: `http://localhost:80/v1/coverage/town/networks?count=1&${NOW}&start_page=1`, type: 'next', templated: false },
      { href: `http://localhost:80/v1/coverage/town/networks?count=1&${NOW}&start_page=1`, type: 'last', templated: false },
      { href: `http://localhost:80/v1/coverage/town/networks?count=1&${NOW}`, type: 'first', templated: false },
    ],
  });
  const past = await get('/v1/coverage/town/networks?count=1&start_page=5');
  assert.deepEqual(past.json.pagination, { total_result: 2, start_page: 5, items_per_page: 1, items_on_page: 0 });
  assert.equal(past.json.networks, undefined, 'an empty page has no collection key');
});

test('a line by depth: code, name and colours; then its network, modes and routes; routes embed their line and direction', async () => {
  const line0 = { id: 'B2', code: '2', name: 'Gare - École', color: '', text_color: '' };
  assert.deepEqual((await get('/v1/coverage/town/lines/B2?depth=0')).json.lines, [line0]);
  const route0 = { id: 'route:B2:0', name: 'École', direction_type: 'forward', is_frequence: 'False' };
  const line1 = {
    ...line0,
    network: { id: 'RED', name: 'Red Buses' },
    commercial_mode: { id: 'commercial_mode:Bus', name: 'Bus' },
    physical_modes: [{ id: 'physical_mode:Bus', name: 'Bus' }],
    routes: [route0],
  };
  assert.deepEqual((await get('/v1/coverage/town/lines/B2')).json.lines, [line1]);
  const ecole = { id: 'stop_area:ECOLE', name: 'École', label: 'École', coord: { lon: '5', lat: '45.003' }, timezone: 'Europe/Paris', administrative_regions: [], links: [] };
  const route = (await get('/v1/coverage/town/routes/route:B2:0?depth=2')).json.routes[0];
  assert.deepEqual(route, { ...route0, line: line1, direction: { id: 'stop_area:ECOLE', name: 'École', quality: 0, embedded_type: 'stop_area', stop_area: ecole } });
});

test('a stop point embeds its stop area from depth 1; a stop area has coord, label, administrative_regions', async () => {
  const gare = { id: 'GARE', name: 'Gare', label: 'Gare', coord: { lon: '5', lat: '45' }, timezone: 'Europe/Paris', administrative_regions: [], links: [] };
  assert.deepEqual((await get('/v1/coverage/town/stop_areas/GARE')).json.stop_areas, [gare]);
  const point = { id: 'GARE_2', name: 'Gare quai 2', label: 'Gare quai 2', coord: { lon: '5', lat: '45.0005' }, administrative_regions: [], equipments: [], links: [] };
  assert.deepEqual((await get('/v1/coverage/town/stop_points/GARE_2?depth=0')).json.stop_points, [point]);
  assert.deepEqual((await get('/v1/coverage/town/stop_points/GARE_2?depth=1')).json.stop_points, [{ ...point, stop_area: gare }]);
});

test('a vehicle journey: headsign at depth 0; its trip, journey pattern and stop times from depth 1; frequencies', async () => {
  assert.deepEqual((await get('/v1/coverage/town/vehicle_journeys/vehicle_journey:N1-2530?depth=0')).json.vehicle_journeys, [
    { id: 'vehicle_journey:N1-2530', name: 'Nuit', headsign: 'Nuit', disruptions: [] },
  ]);
  const vj = (await get('/v1/coverage/town/vehicle_journeys/vehicle_journey:N1-2530')).json.vehicle_journeys[0];
  assert.deepEqual(vj.trip, { id: 'N1-2530', name: 'Nuit' });
  assert.deepEqual(
    vj.stop_times.map((st: { arrival_time: string; departure_time: string; stop_point: { id: string } }) => [st.arrival_time, st.departure_time, st.stop_point.id]),
    [
      ['253000', '253000', 'PARC'],
      ['255000', '255000', 'MUSEE'],
    ],
  );
  assert.equal(vj.stop_times[0].stop_point.stop_area, undefined, 'stop points one depth lower');
  const freq = (await get('/v1/coverage/town/vehicle_journeys/vehicle_journey:T1-FREQ')).json.vehicle_journeys[0];
  assert.deepEqual([freq.start_time, freq.end_time, freq.headway_secs], ['060500', '070500', 600]);
  const odt = (await get('/v1/coverage/town/vehicle_journeys/vehicle_journey:D1-ODT')).json.vehicle_journeys[0];
  assert.deepEqual(
    odt.stop_times.map((st: { pickup_allowed: boolean; drop_off_allowed: boolean }) => [st.pickup_allowed, st.drop_off_allowed]),
    [
      [true, true],
      [true, true],
    ],
  );
});

test('{uri} narrows a collection to an object: /lines/L/stop_areas, /stop_areas/SA/lines, /networks/N/lines', async () => {
  assert.deepEqual(await list('stop_areas', 'lines/B1/'), ['GARE', 'stop_area:MARCHE', 'stop_area:PARC', 'stop_area:MUSEE']);
  assert.deepEqual(await list('lines', 'stop_areas/GARE/'), ['B1', 'B2', 'T1', 'D1']);
  assert.deepEqual(await list('lines', 'networks/BLUE/'), ['T1', 'D1']);
  assert.deepEqual(await list('stop_points', 'stop_areas/GARE/'), ['GARE_1', 'GARE_2']);
  assert.deepEqual(await list('physical_modes', 'networks/BLUE/'), ['physical_mode:Bus', 'physical_mode:Tramway']);
  assert.deepEqual(await list('vehicle_journeys', 'lines/B2/'), ['vehicle_journey:B2-1000', 'vehicle_journey:B2-1100']);
  assert.deepEqual(await list('stop_areas', 'coords/5.0;45.0/', '&distance=200'), ['GARE', 'stop_area:MARCHE']);
  assert.deepEqual(idsOf(await get('/v1/coverage/town/lines/B1/stop_areas/GARE'), 'stop_areas'), ['GARE']);
});

test('filter, forbidden_uris[], headsign and external_code, as on trips', async () => {
  assert.deepEqual(await list('lines', '', '&filter=physical_mode.id=physical_mode:Tramway'), ['T1']);
  assert.deepEqual(await list('lines', '', '&filter=stop_area.id=stop_area:ECOLE'), ['B2']);
  assert.deepEqual(await list('stop_areas', '', '&filter=line.code=N'), ['stop_area:PARC', 'stop_area:MUSEE']);
  assert.deepEqual(await list('lines', '', '&forbidden_uris[]=RED'), ['T1', 'D1']);
  assert.deepEqual(await list('networks', '', '&forbidden_uris[]=B1&forbidden_uris[]=B2&forbidden_uris[]=N1'), ['BLUE']);
  assert.deepEqual(await list('lines', '', '&headsign=École'), ['B2']);
  assert.deepEqual(await list('lines', '', '&external_code=T1'), ['T1']);
  assert.deepEqual(await list('lines', '', '&odt_level=zonal'), ['D1']);
});

test('since and until select vehicle journeys and are ignored on other collections', async () => {
  assert.deepEqual(await list('vehicle_journeys', 'lines/B1/', '&since=20240115T085000&until=20240115T093000'), ['vehicle_journey:B1-0900']);
  assert.deepEqual(await list('lines', 'lines/B1/', '&since=20240115T085000&until=20240115T093000'), ['B1']);
});

test("Navitia's errors: unknown object, bad filter, unknown type, the odt_level guard, bad parameters", async () => {
  const unknown = await get(`/v1/coverage/town/lines/NOPE?${NOW}`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(navitiaError(unknown.json.error), { id: 'unknown_object', message: NOT_FOUND_MESSAGE });
  assert.equal(unknown.json.lines, undefined);
  const narrowed = await get('/v1/coverage/town/lines/NOPE/stop_areas');
  assert.equal(narrowed.status, 404);
  assert.equal(narrowed.json.error.id, 'unknown_object');
  const badFilter = await get('/v1/coverage/town/lines?filter=line.code=nope');
  assert.equal(badFilter.status, 400);
  assert.deepEqual(navitiaError(badFilter.json.error), { id: 'bad_filter', message: NOT_FOUND_MESSAGE });
  const unparsable = await get('/v1/coverage/town/lines?filter=line.code=');
  assert.equal(unparsable.status, 400);
  assert.equal(unparsable.json.error.id, 'unable_to_parse');
  assert.deepEqual((await get('/v1/coverage/town/planets/mars/lines')).json, { message: 'unknown type: planets' });
  const guard = await get('/v1/coverage/town/stop_areas?odt_level=scheduled');
  assert.deepEqual([guard.status, guard.json], [404, { message: 'bad request: odt_level filter can only be applied to lines' }]);
  const depth = await get('/v1/coverage/town/lines?depth=4');
  assert.equal(depth.status, 400);
  assert.match(depth.json.message, /^parameter "depth" invalid: The depth argument has to be <= 3, you gave : 4\ndepth description: Level of detail of the returned lines/);
  const code = await get('/v1/coverage/town/lines?external_code=X9');
  assert.deepEqual([code.status, code.json.error], [404, { id: 'unknown_object', message: 'Unable to find an object for the external_code X9' }]);
  const region = await get('/v1/coverage/nowhere/lines');
  assert.deepEqual([region.status, navitiaError(region.json.error)], [404, { id: 'unknown_object', message: "The region nowhere doesn't exists" }]);
});

test('OPTIONS ?schema=true lists each collection\'s parameters', async () => {
  const { app } = await testServer();
  for (const c of ['lines', 'stop_areas', 'vehicle_journeys'] as const) {
    const res = await app.inject({ method: 'OPTIONS', url: `/v1/coverage/town/${c}?schema=true` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { get: { parameters: swaggerParameters(collectionParams(DEFAULT_LIMITS, c, true)) } });
    const one = await app.inject({ method: 'OPTIONS', url: `/v1/coverage/town/${c}/X?schema=true` });
    assert.ok(!one.json().get.parameters.some((p: { name: string }) => p.name === 'filter'), 'no filter on one object');
  }
});
