/**
 * The acceptance cases of navitia-trips.md §10 that concern trips and coverages, re-expressed on our
 * own fixtures (fixture.ts). Each test names its case number. Cases about the vehicle_journeys
 * collection are ported to trips as §10 suggests; realtime-only cases (28, 29) wait for realtime
 * sources; case 33 (filter grammar) lives in test/unit/filter-parser.test.ts.
 *
 * Correspondence with Navitia's datasets: `town` has 9 trips like main_routing_test; B1-0800 plays
 * vjA (trip headsign "Musée", stop headsign "Centre"), B2-1000 plays vjB; the Europe/Paris time
 * zone and the feed publisher play main_ptref_test's.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { COVERAGE_PARAMS } from '../../../../src/api/trips/trips-params.js';
import { get, ids, NOT_FOUND_MESSAGE, paramMessage, testServer, TOWN_TRIPS } from '../../../helpers/town-app.js';
import { navitiaError } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

const T = '/v1/coverage/town';

test('case 1: /trips lists the 9 trips, each with a non-empty id and name', async () => {
  const a = await get(`${T}/trips`);
  assert.equal(a.status, 200);
  assert.equal(a.json.trips.length, 9);
  for (const trip of a.json.trips) {
    assert.deepEqual(Object.keys(trip), ['id', 'name']);
    assert.ok(typeof trip.id === 'string' && trip.id && typeof trip.name === 'string' && trip.name, JSON.stringify(trip));
  }
});

test('case 2: /trips/{id} gives that one trip', async () => {
  assert.deepEqual(ids(await get(`${T}/trips/B1-0800`)), ['B1-0800']);
});

test('case 3: /vehicle_journeys/{vj}/trips gives the trip of that vehicle journey', async () => {
  assert.deepEqual(ids(await get(`${T}/vehicle_journeys/vehicle_journey:B2-1000/trips`)), ['B2-1000']);
});

test('cases 4 and 5: headsign finds the trip by its headsign', async () => {
  assert.deepEqual(ids(await get(`${T}/trips?headsign=Centre`)), ['B1-0800']);
  assert.deepEqual(ids(await get(`${T}/trips?headsign=Mus%C3%A9e`)), ['B1-0800', 'B1-0900']);
});

test('case 6: headsign with a {uri}', async () => {
  assert.deepEqual(ids(await get(`${T}/physical_modes/physical_mode:Bus/trips?headsign=Centre`)), ['B1-0800']);
});

test('case 7: headsign with a {uri} and a line code filter', async () => {
  assert.deepEqual(ids(await get(`${T}/physical_modes/physical_mode:Bus/trips?headsign=Centre&filter=line.code=1`)), ['B1-0800']);
  const other = await get(`${T}/physical_modes/physical_mode:Bus/trips?headsign=Centre&filter=line.code=2`);
  assert.equal(other.status, 400);
  assert.deepEqual(navitiaError(other.json.error), { id: 'bad_filter', message: NOT_FOUND_MESSAGE });
});

test('case 8: a quoted filter value on the vehicle journey name', async () => {
  assert.deepEqual(ids(await get(`${T}/trips?filter=vehicle_journey.name=%22Nuit%22`)), ['N1-2530']);
  assert.deepEqual(ids(await get(`${T}/trips?filter=vehicle_journey.name=%22%C3%89cole%22`)), ['B2-1000', 'B2-1100']);
});

test('case 9: pagination counts 25/9/9, 2/2/9 and 1000/9/9', async () => {
  const page = async (q: string) => {
    const p = (await get(`${T}/trips${q}`)).json.pagination;
    return [p.items_per_page, p.items_on_page, p.total_result];
  };
  assert.deepEqual(await page(''), [25, 9, 9]);
  assert.deepEqual(await page('?count=2'), [2, 2, 9]);
  assert.deepEqual(await page('?count=1200'), [1000, 9, 9]);
});

test('case 10: a line code that matches nothing: 400 bad_filter', async () => {
  const a = await get(`${T}/trips?filter=line.code=bob`);
  assert.equal(a.status, 400);
  assert.equal(a.json.error.id, 'bad_filter');
});

test('case 11: an unknown method in the filter: 400 unable_to_parse', async () => {
  const a = await get(`${T}/trips?filter=route.code=bob`);
  assert.equal(a.status, 400);
  assert.equal(a.json.error.id, 'unable_to_parse');
});

test('case 12: pairs whose intersection is empty: 404 unknown_object', async () => {
  const a = await get(`${T}/physical_modes/physical_mode:Tramway/lines/B1/trips`);
  assert.equal(a.status, 404);
  assert.equal(a.json.error.id, 'unknown_object');
});

test('case 13: an unknown type in {uri}: 400 "unknown type: …"', async () => {
  assert.deepEqual((await get(`${T}/AAAAAA/trips`)).json, { message: 'unknown type: AAAAAA' });
  assert.deepEqual((await get(`${T}/1.2;3.4/trips`)).json, { message: 'unknown type: 1.2;3.4' });
  assert.equal((await get(`${T}/AAAAAA/trips`)).status, 400);
});

test('case 14: coords with 200 m and 300 m radii, and a mode with a coordinate', async () => {
  // From ECOLE: 200 m reaches ECOLE and MARCHE, 300 m also GARE_2.
  assert.deepEqual(ids(await get(`${T}/coords/5.0;45.003/trips`)), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100']);
  assert.deepEqual(ids(await get(`${T}/coords/5.0;45.003/trips?distance=300`)), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(ids(await get(`${T}/physical_modes/physical_mode:Bus/lines/D1/coords/5.0;45.003/trips?distance=300`)), ['D1-ODT', 'D1-ZONE']);
});

test('case 15: since keeps a trip running after it; nothing after the period gives 404', async () => {
  assert.ok(ids(await get(`${T}/trips?since=20240131T080000`)).includes('B1-0800'));
  const a = await get(`${T}/trips?since=20240301T070000`);
  assert.equal(a.status, 404);
  assert.deepEqual(navitiaError(a.json.error), { id: 'unknown_object', message: NOT_FOUND_MESSAGE });
});

test('case 16: since and until with offsets', async () => {
  // B1-0800 leaves GARE_1 at 08:00 in Paris (07:00 UTC) on Monday 15 January.
  for (const [since, until] of [
    ['20240115T080000+0100', '20240115T080000+0100'],
    ['20240115T070000+0000', '20240115T070000+0000'],
    ['20240115T003000-0630', '20240115T151500+0815'],
  ]) {
    assert.deepEqual(ids(await get(`${T}/trips?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`)), ['B1-0800'], `${since} ${until}`);
  }
  assert.equal((await get(`${T}/trips?since=${encodeURIComponent('20240115T073000+0000')}&until=${encodeURIComponent('20240115T075000+0000')}`)).status, 404);
});

test('case 17: forbidding the only mode of a line gives 404 (both spellings), another mode 200', async () => {
  assert.equal((await get(`${T}/lines/T1/trips?forbidden_uris[]=physical_mode:Tramway`)).status, 404);
  assert.equal((await get(`${T}/lines/T1/trips?forbidden_id[]=physical_mode:Tramway`)).status, 404);
  assert.deepEqual(ids(await get(`${T}/lines/T1/trips?forbidden_uris[]=physical_mode:Bus`)), ['T1-FREQ']);
});

test('cases 18 and 19: every paging link keeps count and both allowed_id values, and names the collection', async () => {
  for (const q of ['count=2&start_page=2', 'count=2&start_page=1&allowed_id[]=toto&allowed_id[]=titi']) {
    const links = (await get(`${T}/trips?${q}`)).json.links.filter((l: { templated: boolean }) => !l.templated);
    assert.deepEqual(links.map((l: { type: string }) => l.type), ['previous', 'next', 'last', 'first']);
    const rest = new Set<string>();
    for (const l of links) {
      assert.ok(l.href.includes('trips'), l.href);
      const url = new URL(l.href);
      assert.equal(url.searchParams.get('count'), '2');
      if (q.includes('allowed_id')) assert.deepEqual(url.searchParams.getAll('allowed_id[]'), ['toto', 'titi']);
      url.searchParams.delete('start_page');
      rest.add(url.href);
    }
    assert.equal(rest.size, 1, 'paging links differ only in start_page');
  }
});

test('case 20: _current_datetime in UTC is shown in the coverage time zone', async () => {
  const a = await get(`${T}/stop_areas/GARE/trips?_current_datetime=20140115T235959`);
  assert.deepEqual(a.json.context, { current_datetime: '20140116T005959', timezone: 'Europe/Paris' });
});

test('case 21: /v1/coverage/lines?disable_geojson=12 gives the parameter message', async () => {
  const a = await get('/v1/coverage/lines?disable_geojson=12');
  assert.equal(a.status, 400);
  assert.deepEqual(a.json, { message: paramMessage('disable_geojson', 'Invalid literal for boolean(): 12', COVERAGE_PARAMS) });
});

test('case 22: /v1/coverage/lines/bob is not a route: 404', async () => {
  assert.equal((await get('/v1/coverage/lines/bob')).status, 404);
});

test('case 23: an unknown region', async () => {
  const a = await get('/v1/coverage/the_marvelous_unknown_region/trips');
  assert.equal(a.status, 404);
  assert.equal(a.json.error.message, "The region the_marvelous_unknown_region doesn't exists");
});

test('case 24: coordinates no coverage contains', async () => {
  const a = await get('/v1/coverage/20;15/trips');
  assert.equal(a.status, 404);
  assert.equal(a.json.error.message, 'No region available for the coordinates:20.0, 15.0');
});

test('case 25: a coverage without data, by id: one region, never-loaded dates, a name, the UTC context', async () => {
  const a = await get('/v1/coverage/pending');
  assert.equal(a.json.regions.length, 1);
  const r = a.json.regions[0];
  assert.equal(r.last_load_at, 'not-a-date-time');
  assert.equal(r.dataset_created_at, 'not-a-date-time');
  assert.ok('name' in r);
  assert.equal(a.json.context.timezone, 'Africa/Abidjan');
});

test('case 26: two loaded coverages with valid dates, statuses, ids and links', async () => {
  const a = await get('/v1/coverage');
  const running = a.json.regions.filter((r: { status: string }) => r.status === 'running');
  assert.deepEqual(running.map((r: { id: string }) => r.id), ['town', 'valley']);
  for (const r of running) {
    assert.match(r.start_production_date, /^\d{8}$/);
    assert.match(r.end_production_date, /^\d{8}$/);
    assert.ok(r.start_production_date <= r.end_production_date);
  }
  for (const l of a.json.links) {
    assert.ok(l.href.startsWith('http://localhost:80/v1/coverage/{regions.id}/'), l.href);
    assert.equal(l.templated, true);
    assert.equal(l.rel, l.type);
  }
});

test('case 27: a trip used as {uri}, and the source code of a vehicle journey', async () => {
  assert.deepEqual(ids(await get(`${T}/trips/B2-1000/trips`)), ['B2-1000']);
  assert.deepEqual(ids(await get(`${T}/trips?filter=vehicle_journey.has_code(source,%20B1-0800)`)), ['B1-0800']);
});

test('case 30: a filter on a mode the data does not have: 404, no trips key, the engine message', async () => {
  for (const url of [`${T}/commercial_modes/commercial_mode:Ferry/trips`, `${T}/lines/NOPE/trips`, `${T}/vehicle_journeys/vehicle_journey:NOPE/trips`]) {
    const a = await get(url);
    assert.equal(a.status, 404, url);
    assert.equal('trips' in a.json, false);
    assert.equal(a.json.error.message, NOT_FOUND_MESSAGE);
  }
});

test('case 31: trip ↔ vehicle journey conversions in filters', async () => {
  assert.deepEqual(ids(await get(`${T}/trips?filter=trip.uri=%22B1-0900%22`)), ['B1-0900']);
  assert.deepEqual(ids(await get(`${T}/trips?filter=vehicle_journey.uri=vehicle_journey:B1-0900`)), ['B1-0900']);
  assert.deepEqual(ids(await get(`${T}/vehicle_journeys/vehicle_journey:N1-2530/trips`)), ['N1-2530']);
});

test('case 32: has_disruption finds nothing without NO_SERVICE impacts', async () => {
  const a = await get(`${T}/trips?filter=vehicle_journey.has_disruption()`);
  assert.equal(a.status, 400);
  assert.deepEqual(navitiaError(a.json.error), { id: 'bad_filter', message: NOT_FOUND_MESSAGE });
});

test('extra: count=0 gives 200 without trips; past the end gives previous and first', async () => {
  const zero = await get(`${T}/trips?count=0`);
  assert.equal(zero.status, 200);
  assert.equal('trips' in zero.json, false);
  const past = await get(`${T}/trips?start_page=3`);
  assert.equal(past.status, 200);
  assert.deepEqual(past.json.links.map((l: { type: string }) => l.type), ['previous', 'first']);
});

test('extra: odt_level=zonal filters instead of refusing (decisions.md)', async () => {
  assert.deepEqual(ids(await get(`${T}/trips?odt_level=zonal`)), ['D1-ZONE']);
});

test('extra: tags[] gives 404 without disruptions carrying the tag', async () => {
  assert.equal((await get(`${T}/trips?tags[]=a`)).status, 404);
});

test('extra: /coverage/{lon};{lat}/trips has no paging links', async () => {
  const a = await get('/v1/coverage/5.0;45.003/trips?count=1');
  assert.deepEqual(a.json.links.map((l: { type: string }) => l.type), ['trips']);
  assert.equal(a.json.pagination.total_result, TOWN_TRIPS.length);
});
