/**
 * The filter language through `/trips?filter=` (navitia-trips.md §6, decisions.md): operators and
 * precedence, every predicate, conversions between types, and the engine errors with their
 * statuses (a filter key is present, so they stay 400, §8.3).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, NOT_FOUND_MESSAGE, testServer, TOWN_TRIPS, townTrips } from '../../../helpers/town-app.js';
import { navitiaError } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

const B1 = ['B1-0800', 'B1-0900', 'B1-1700'];
const B2 = ['B2-1000', 'B2-1100'];
const f = (expr: string) => townTrips(`filter=${encodeURIComponent(expr)}`);

async function filterError(expr: string, id: string, message: string): Promise<void> {
  const a = await get(`/v1/coverage/town/trips?filter=${encodeURIComponent(expr)}`);
  assert.equal(a.status, 400, `${expr}: ${a.body}`);
  assert.deepEqual(navitiaError(a.json.error), { id, message }, expr);
  assert.equal('trips' in a.json, false);
}

test('or, and, - and parentheses are set operations on trips', async () => {
  assert.deepEqual(await f('line.uri=B1 or line.uri=N1'), [...B1, 'N1-2530']);
  assert.deepEqual(await f('network.uri=RED and physical_mode.uri=physical_mode:Bus - line.uri=B1'), [...B2, 'N1-2530']);
  assert.deepEqual(await f('all - physical_mode.uri=physical_mode:Bus'), ['T1-FREQ']);
  assert.deepEqual(await f('(line.uri=N1 or line.uri=B1) and route.has_direction_type(backward)'), ['B1-1700']);
  assert.deepEqual(await f('line.uri=B1 OR line.uri=N1 AND all'), [...B1, 'N1-2530'], 'upper-case keywords');
});

test('and binds tighter than or', async () => {
  // N1 or (B1 and backward); left to right would give only B1-1700.
  assert.deepEqual(await f('line.uri=N1 or line.uri=B1 and route.has_direction_type(backward)'), ['B1-1700', 'N1-2530']);
});

test('- binds tighter than and', async () => {
  // (RED - B1) and (B2 - N1); with "and" first it would be RED - (B1 and B2) - N1 = B1 and B2.
  assert.deepEqual(await f('network.uri=RED - line.uri=B1 and line.uri=B2 - line.uri=N1'), B2);
});

test('all and empty; an empty filter means all', async () => {
  assert.deepEqual(await f('all'), TOWN_TRIPS);
  assert.deepEqual(await townTrips('filter='), TOWN_TRIPS);
  await filterError('empty', 'bad_filter', NOT_FOUND_MESSAGE);
});

test('uri and id predicates, bare or quoted, on every object type', async () => {
  assert.deepEqual(await f('trip.uri="B1-0800"'), ['B1-0800']);
  assert.deepEqual(await f('trip.id=B1-0800'), ['B1-0800']);
  assert.deepEqual(await f('trip.uri(B1-0800)'), ['B1-0800']);
  assert.deepEqual(await f('stop_area.uri=stop_area:MARCHE'), B1);
  assert.deepEqual(await f('stop_point.id=FERME'), ['D1-ODT']);
  assert.deepEqual(await f('route.uri=route:B1:1'), ['B1-1700']);
  assert.deepEqual(await f('company.uri=BLUE'), ['T1-FREQ', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await f('commercial_mode.uri=commercial_mode:Tramway'), ['T1-FREQ']);
  assert.deepEqual(await f('dataset.uri=town'), TOWN_TRIPS);
});

test('name predicates: trip.name matches the trip name (decisions.md), line.name and stop names too', async () => {
  assert.deepEqual(await f('trip.name="École"'), B2, 'non-ASCII values are quoted');
  assert.deepEqual(await f('trip.name=TAD1'), ['D1-ODT']);
  assert.deepEqual(await f('trip.name="Nuit"'), ['N1-2530']);
  assert.deepEqual(await f('line.name="Gare - École"'), B2);
  assert.deepEqual(await f('stop_point.name="Gare quai 2"'), [...B2, 'D1-ODT', 'D1-ZONE']);
  await filterError('trip.name=nuit', 'bad_filter', NOT_FOUND_MESSAGE);
});

test('line.code and line.odt_level', async () => {
  assert.deepEqual(await f('line.code=N'), ['N1-2530']);
  // The line D1 has a with_stops trip and a zonal one: both are trips of a zonal (and with_stops) line.
  assert.deepEqual(await f('line.odt_level=zonal'), ['D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await f('line.odt_level=with_stops'), ['D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await f('line.odt_level=scheduled'), TOWN_TRIPS.filter((t) => !t.startsWith('D1')));
  assert.deepEqual(await f('line.odt_level=anything'), TOWN_TRIPS, 'another value means all');
});

test('route.has_direction_type', async () => {
  assert.deepEqual(await f('route.has_direction_type(backward)'), ['B1-1700']);
  assert.deepEqual(await f('route.has_direction_type(forward)'), TOWN_TRIPS.filter((t) => t !== 'B1-1700'));
  assert.deepEqual(await f('route.has_direction_type(forward, backward)'), TOWN_TRIPS);
});

test('vehicle_journey.has_headsign and has_code', async () => {
  assert.deepEqual(await f('vehicle_journey.has_headsign(Centre)'), ['B1-0800']);
  assert.deepEqual(await f('vehicle_journey.has_headsign("Gare")'), ['B1-1700', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await f('trip.has_code(source, D1-ODT)'), ['D1-ODT']);
  assert.deepEqual(await f('line.has_code(source, N1)'), ['N1-2530']);
  assert.deepEqual(await f('line.has_code_type(source)'), TOWN_TRIPS);
  await filterError('line.has_code(other, N1)', 'bad_filter', NOT_FOUND_MESSAGE);
});

test('proximity: DWITHIN and within, in metres', async () => {
  assert.deepEqual(await f('stop_point.coord DWITHIN(5.0, 45.003, 100)'), B2);
  assert.deepEqual(await f('stop_point.coord DWITHIN(5.0, 45.003, 200)'), [...B1, ...B2]);
  assert.deepEqual(await f('stop_point.within(300, "5.0;45.003")'), [...B1, ...B2, 'D1-ODT', 'D1-ZONE']);
  // The station GARE sits at (5.0, 45.0); stop_area:MARCHE is 167 m away.
  assert.deepEqual(await f('stop_area.coord DWITHIN(5.0, 45.0, 100)'), TOWN_TRIPS.filter((t) => t !== 'N1-2530'));
  assert.deepEqual(await f('stop_area.coord DWITHIN(5.0, 45.0015, 10)'), B1);
});

test('period methods on vehicle journeys take UTC datetimes', async () => {
  // 07:00Z to 08:00Z is 08:00 to 09:00 in Paris.
  assert.deepEqual(await f('vehicle_journey.between("20240115T070000Z", "20240115T080000Z")'), ['B1-0800', 'B1-0900']);
  assert.deepEqual(await f('vehicle_journey.between(20240115T070000Z, 20240115T080000Z, realtime)'), ['B1-0800', 'B1-0900']);
  assert.deepEqual(await f('vehicle_journey.since("20240201T003001Z")'), ['B2-1100']);
  assert.deepEqual(await f('vehicle_journey.until("20240102T050500Z")'), ['T1-FREQ']);
  // B1-0800 runs from 08:00 to 08:20 in Paris: at 08:10 (07:10Z) it is the only one running.
  assert.deepEqual(await f('vehicle_journey.active_at("20240115T071000Z")'), ['B1-0800']);
});

test('get converts a set to another type before reaching trips', async () => {
  assert.deepEqual(await f('get line <- trip.uri=B2-1000'), B2);
  assert.deepEqual(await f('get stop_area <- trip.uri=N1-2530'), [...B1, 'N1-2530', 'T1-FREQ']);
});

test('the filter is combined with {uri}, headsign and forbidden ids', async () => {
  assert.deepEqual(await townTrips('filter=route.has_direction_type(forward)&headsign=Centre', 'lines/B1'), ['B1-0800']);
  assert.deepEqual(await townTrips('filter=network.uri=RED&forbidden_uris[]=B1', 'stop_areas/GARE'), B2);
});

test('parse errors quote the rewritten query or its unparsed rest', async () => {
  await filterError('line.code=1 and', 'unable_to_parse', 'Unable to parse :Filter: unable to parse (line.code=1 and)');
  await filterError('line.code>=1', 'unable_to_parse', 'Unable to parse :Filter: unable to parse (line.code>=1)');
  await filterError('all) x', 'unable_to_parse', 'Unable to parse :Filter: Unable to parse the whole string. Not parsed: >>x)<<');
  await filterError('trip.uri="B1-0800', 'unable_to_parse', 'Unable to parse :Filter: unable to parse (trip.uri="B1-0800)');
});

test('unknown types and functions, bad arguments', async () => {
  await filterError('bus.uri=1', 'unable_to_parse', 'Unable to parse :Filter Unknown object type: bus');
  await filterError('line.colour=red', 'unable_to_parse', 'Unable to parse :Unknown function: line.colour("red")');
  await filterError('line.within(100, "5.0;45.0")', 'unable_to_parse', "Unable to parse :line doesn't implement within");
  await filterError('trip.since("20240101T000000Z")', 'unable_to_parse', 'Unable to parse :cannot filter on validity period for this type');
  await filterError(
    'vehicle_journey.since("20240101T000000")',
    'unable_to_parse',
    "Unable to parse :only UTC datetime are allowed (must finish with 'Z'): 20240101T000000",
  );
  await filterError('vehicle_journey.since("2024-01-01Z")', 'unable_to_parse', 'Unable to parse :failed to parse datetime 2024-01-01Z');
});

test('a period whose end is before its start: bad_filter "invalid filtering period"', async () => {
  await filterError('vehicle_journey.between("20240115T080000Z", "20240115T070000Z")', 'bad_filter', 'ptref : invalid filtering period');
});

test('predicates that match nothing in our data: bad_filter', async () => {
  for (const expr of ['vehicle_journey.has_disruption()', 'disruption.tag(strike)', 'line.code=bob', 'line_group.uri=g1', 'poi.uri=p1']) {
    await filterError(expr, 'bad_filter', NOT_FOUND_MESSAGE);
  }
});
