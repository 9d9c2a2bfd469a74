/**
 * The error table of navitia-trips.md §8.4, as adjusted by decisions.md: exact status and exact body
 * for every row, plus the order in which errors win (§2) and the 400 → 404 rewrite (§8.3).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, NOT_FOUND_MESSAGE, NOW, paramMessage, testServer, townEngineError } from '../../../helpers/town-app.js';
import { navitiaError, withoutDetails } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

/** Family A: 400 `{"message": "parameter \"<name>\" invalid: <reason>\n<name> description: <help>"}`. */
async function parameterError(url: string, name: string, reason: string): Promise<void> {
  const a = await get(url);
  assert.equal(a.status, 400, `${url}: ${a.body}`);
  assert.deepEqual(a.json, { message: paramMessage(name, reason) }, url);
}

/** Family C for `town` at the fixed now. */
async function engineError(url: string, status: number, id: string, message: string): Promise<void> {
  const a = await get(`${url}${url.includes('?') ? '&' : '?'}${NOW}`);
  assert.equal(a.status, status, `${url}: ${a.body}`);
  assert.deepEqual(withoutDetails(a.json), townEngineError(id, message), url);
}

/** Family B: `{"error": {"id", "message"}, "message"}`. */
async function httpError(url: string, status: number, id: string, message: string): Promise<void> {
  const a = await get(url);
  assert.equal(a.status, status, `${url}: ${a.body}`);
  assert.deepEqual(withoutDetails(a.json), { error: { id, message }, message }, url);
}

/** Family D: `{"message": "<text>"}`. */
async function plainError(url: string, status: number, message: string): Promise<void> {
  const a = await get(url);
  assert.equal(a.status, status, `${url}: ${a.body}`);
  assert.deepEqual(a.json, { message }, url);
}

const NOT_FOUND_ROUTE = 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';
const int = (v: string) => `invalid literal for int() with base 10: '${v}'`;

// Parameter validation (family A) --------------------------------------------------------------

test('count=abc: 400 with the int conversion message', async () => {
  await parameterError('/v1/coverage/town/trips?count=abc', 'count', int('abc'));
});

test('count=-1: 400 (decisions.md: negative counts are refused)', async () => {
  await parameterError('/v1/coverage/town/trips?count=-1', 'count', 'The count argument has to be >= 0, you gave : -1');
});

test('count=5000: 200 with items_per_page lowered to 1000', async () => {
  const a = await get('/v1/coverage/town/trips?count=5000');
  assert.equal(a.status, 200);
  assert.equal(a.json.pagination.items_per_page, 1000);
});

test('start_page=x and start_page=-1: 400', async () => {
  await parameterError('/v1/coverage/town/trips?start_page=x', 'start_page', int('x'));
  await parameterError('/v1/coverage/town/trips?start_page=-1', 'start_page', 'The start_page argument has to be >= 0, you gave : -1');
  await parameterError('/v1/coverage/town/trips?start_page=1.5', 'start_page', int('1.5'));
});

test('depth=4, depth=-1 and depth=x: 400', async () => {
  await parameterError('/v1/coverage/town/trips?depth=4', 'depth', 'The depth argument has to be <= 3, you gave : 4');
  await parameterError('/v1/coverage/town/trips?depth=-1', 'depth', 'The depth argument has to be >= 0, you gave : -1');
  await parameterError('/v1/coverage/town/trips/B1-0800?depth=x', 'depth', int('x'));
});

test('odt_level=foo: 400 listing the allowed values', async () => {
  await parameterError('/v1/coverage/town/trips?odt_level=foo', 'odt_level', "The odt_level argument must be in list ['all', 'scheduled', 'with_stops', 'zonal'], you gave foo");
});

test('odt_level=scheduled: 200 (decisions.md: a filter, not Navitia\'s 404)', async () => {
  const a = await get('/v1/coverage/town/trips?odt_level=scheduled');
  assert.equal(a.status, 200);
  assert.equal(a.json.pagination.total_result, 7);
});

test('data_freshness=foo: 400 listing the allowed values', async () => {
  await parameterError(
    '/v1/coverage/town/trips?data_freshness=foo',
    'data_freshness',
    "The data_freshness argument must be in list ['base_schedule', 'adapted_schedule', 'realtime'], you gave foo",
  );
});

test('since=foo, since=19700101T000000 and bad fields: 400 "Unable to parse datetime, …"', async () => {
  await parameterError('/v1/coverage/town/trips?since=foo', 'since', 'Unable to parse datetime, unknown string format');
  await parameterError('/v1/coverage/town/trips?since=19700101T000000', 'since', 'Unable to parse datetime, date is too early!');
  await parameterError('/v1/coverage/town/trips?until=20240115T250000', 'until', 'Unable to parse datetime, hour must be in 0..23');
  await parameterError('/v1/coverage/town/trips?until=20241315', 'until', 'Unable to parse datetime, month must be in 1..12');
  await parameterError('/v1/coverage/town/trips?_current_datetime=soon', '_current_datetime', 'Unable to parse datetime, unknown string format');
});

test('since later than until: the engine\'s invalid period (404 without a filter key, 400 with one)', async () => {
  await engineError('/v1/coverage/town/trips?since=20240116T000000&until=20240115T000000', 404, 'unknown_object', 'ptref : invalid filtering period');
  await engineError('/v1/coverage/town/trips?since=20240116T000000&until=20240115T000000&filter=all', 400, 'bad_filter', 'ptref : invalid filtering period');
});

test('distance=1.5: 400', async () => {
  await parameterError('/v1/coverage/town/coord/5.0;45.0/trips?distance=1.5', 'distance', int('1.5'));
});

test('disable_geojson=maybe, an empty boolean, disable_disruption=2: 400', async () => {
  await parameterError('/v1/coverage/town/trips?disable_geojson=maybe', 'disable_geojson', 'Invalid literal for boolean(): maybe');
  await parameterError('/v1/coverage/town/trips?disable_geojson=MAYBE', 'disable_geojson', 'Invalid literal for boolean(): maybe');
  await parameterError('/v1/coverage/town/trips?disable_geojson=', 'disable_geojson', 'boolean type must be non-null');
  await parameterError('/v1/coverage/town/trips?disable_disruption=2', 'disable_disruption', 'Invalid literal for boolean(): 2');
});

test('every occurrence of a repeated scalar is validated', async () => {
  await parameterError('/v1/coverage/town/trips?count=2&count=x', 'count', int('x'));
});

// external_code (decisions.md: matches trip codes; none gives 404 unknown_object) --------------

test('external_code matching no trip: 404 unknown_object naming the code', async () => {
  await engineError('/v1/coverage/town/trips?external_code=nope', 404, 'unknown_object', 'Unable to find an object for the external_code nope');
  await engineError('/v1/coverage/town/trips?external_code=nope&filter=all', 404, 'unknown_object', 'Unable to find an object for the external_code nope');
});

// Coverage resolution (family B) ---------------------------------------------------------------

test('unknown region: 404 "The region <r> doesn\'t exists"', async () => {
  await httpError('/v1/coverage/nowhere/trips', 404, 'unknown_object', "The region nowhere doesn't exists");
  await httpError('/v1/coverage/nowhere/trips/B1-0800', 404, 'unknown_object', "The region nowhere doesn't exists");
  await httpError('/v1/coverage/nowhere/lines/B1/trips', 404, 'unknown_object', "The region nowhere doesn't exists");
});

test('a point no coverage contains: 404 with the coordinates printed as floats', async () => {
  await httpError('/v1/coverage/20;15/trips', 404, 'unknown_object', 'No region available for the coordinates:20.0, 15.0');
  await httpError('/v1/coverage/20.5;-15.25/trips/B1-0800', 404, 'unknown_object', 'No region available for the coordinates:20.5, -15.25');
});

test('a point with lon 0 is still tested against the shapes (decisions.md)', async () => {
  await httpError('/v1/coverage/0;45.003/trips', 404, 'unknown_object', 'No region available for the coordinates:0.0, 45.003');
});

test('a coverage still loading: 503 service_unavailable in the engine envelope', async () => {
  const a = await get(`/v1/coverage/pending/trips?${NOW}`);
  assert.equal(a.status, 503);
  assert.deepEqual(a.json, {
    error: { id: 'service_unavailable', message: 'The service is loading data' },
    pagination: { total_result: 0, start_page: 0, items_per_page: 0, items_on_page: 0 },
    disruptions: [],
    feed_publishers: [],
    // No data yet, so no time zone from the data: Navitia's default, Europe/Paris (§3.6).
    context: { current_datetime: '20240115T130000', timezone: 'Europe/Paris' },
  });
  const withFilter = await get(`/v1/coverage/pending/trips?filter=all&${NOW}`);
  assert.equal(withFilter.status, 503, 'not a 400: the rewrite only concerns 400s');
});

test('a dead coverage: 503 dead_socket', async () => {
  await httpError('/v1/coverage/broken/trips', 503, 'dead_socket', 'The region broken is dead');
});

// {uri} and {id} -------------------------------------------------------------------------------

test('{uri} with an unknown collection: 400 "unknown type: <segment>"', async () => {
  await plainError('/v1/coverage/town/foo/1/trips', 400, 'unknown type: foo');
  await plainError('/v1/coverage/town/AAAAAA/x/trips', 400, 'unknown type: AAAAAA');
  await plainError('/v1/coverage/town/1.2;3.4/x/trips', 400, 'unknown type: 1.2;3.4');
  await plainError('/v1/coverage/town/lines/B1/foo/1/trips/B1-0800', 400, 'unknown type: foo');
});

test('{uri} naming an object that does not exist: 404 not found in the engine envelope', async () => {
  await engineError('/v1/coverage/town/lines/NOPE/trips', 404, 'unknown_object', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/stop_areas/NOPE/trips/B1-0800', 404, 'unknown_object', NOT_FOUND_MESSAGE);
});

test('/trips/{id} not found (or cut out by the path): 404', async () => {
  await engineError('/v1/coverage/town/trips/NOPE', 404, 'unknown_object', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/trips/b1-0800', 404, 'unknown_object', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/lines/B2/trips/B1-0800', 404, 'unknown_object', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/trips/B1-0800?headsign=Gare', 404, 'unknown_object', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/trips/B1-0800?forbidden_uris[]=B1', 404, 'unknown_object', NOT_FOUND_MESSAGE);
});

test('a filter key anywhere in the query string turns those 404s into 400 bad_filter, even on /trips/{id}', async () => {
  await engineError('/v1/coverage/town/trips/NOPE?filter=', 400, 'bad_filter', NOT_FOUND_MESSAGE);
  await engineError('/v1/coverage/town/lines/NOPE/trips?filter=all', 400, 'bad_filter', NOT_FOUND_MESSAGE);
});

test('a coordinate in {uri} without a lon;lat pair: 404 unknown object type', async () => {
  await engineError('/v1/coverage/town/coord/abc/trips', 404, 'unknown_object', 'Unable to parse :Filter Unknown object type: coord');
  await engineError('/v1/coverage/town/addresses/abc/trips', 404, 'unknown_object', 'Unable to parse :Filter Unknown object type: address');
});

test('a forbidden id whose type cannot be named (coordinate, address, admin): 404, or 400 with a filter key', async () => {
  await engineError('/v1/coverage/town/trips?forbidden_uris[]=5.0;45.0', 404, 'unknown_object', 'Unable to parse :Filter Unknown object type: 5.0;45.0');
  await engineError('/v1/coverage/town/trips?forbidden_id[]=address:1', 404, 'unknown_object', 'Unable to parse :Filter Unknown object type: address:1');
  await engineError('/v1/coverage/town/trips?forbidden_uris[]=admin:fr:75&filter=all', 400, 'unable_to_parse', 'Unable to parse :Filter Unknown object type: admin:fr:75');
});

// filter (family C, status by §8.3) ------------------------------------------------------------

test('a filter without matches: 400 bad_filter', async () => {
  await engineError('/v1/coverage/town/trips?filter=line.code=bob', 400, 'bad_filter', NOT_FOUND_MESSAGE);
});

test('a malformed filter: 400 unable_to_parse quoting the rewritten query', async () => {
  await engineError('/v1/coverage/town/trips?filter=line.uri=B1%20and', 400, 'unable_to_parse', 'Unable to parse :Filter: unable to parse (line.uri=B1 and)');
  await engineError('/v1/coverage/town/lines/B1/trips?filter=(line.code=1', 400, 'unable_to_parse', 'Unable to parse :Filter: unable to parse ((line.code=1) and line.uri="B1"');
  await engineError('/v1/coverage/town/trips?filter=line.code=1)x', 400, 'unable_to_parse', 'Unable to parse :Filter: Unable to parse the whole string. Not parsed: >>x)<<');
  await engineError('/v1/coverage/town/trips?filter=route.code=bob', 400, 'unable_to_parse', 'Unable to parse :Unknown function: route.code("bob")');
  await engineError('/v1/coverage/town/trips?filter=foo.uri=1', 400, 'unable_to_parse', 'Unable to parse :Filter Unknown object type: foo');
});

test('tags[] without matching disruptions: 404 (no filter key)', async () => {
  await engineError('/v1/coverage/town/trips?tags[]=strike', 404, 'unknown_object', NOT_FOUND_MESSAGE);
});

// Which error wins (§2) ------------------------------------------------------------------------

test('a bad parameter wins over an unknown region, a dead or a loading coverage', async () => {
  await parameterError('/v1/coverage/nowhere/trips?count=abc', 'count', int('abc'));
  await parameterError('/v1/coverage/20;15/trips?depth=9', 'depth', 'The depth argument has to be <= 3, you gave : 9');
  await parameterError('/v1/coverage/broken/trips?since=foo', 'since', 'Unable to parse datetime, unknown string format');
  await parameterError('/v1/coverage/pending/trips?odt_level=x', 'odt_level', "The odt_level argument must be in list ['all', 'scheduled', 'with_stops', 'zonal'], you gave x");
});

test('an unknown region wins over an unknown type in {uri}', async () => {
  await httpError('/v1/coverage/nowhere/foo/1/trips', 404, 'unknown_object', "The region nowhere doesn't exists");
});

test('the first invalid parameter in table order is reported', async () => {
  await parameterError('/v1/coverage/town/trips?depth=9&count=x', 'count', int('x'));
});

// Paths and methods (family D) -----------------------------------------------------------------

test('an unknown path: 404 with the stock message', async () => {
  await plainError('/v1/nothing', 404, NOT_FOUND_ROUTE);
  await plainError('/v2/coverage/town/trips', 404, NOT_FOUND_ROUTE);
  await plainError('/v1/coverage/town/line_groups', 404, NOT_FOUND_ROUTE);
  await plainError('/v1/coverage/town/trips/B1-0800/stop_times', 404, NOT_FOUND_ROUTE);
  await plainError('/v1/coverage/town/lines/B1/journeys', 404, NOT_FOUND_ROUTE);
});

test('/coverage/{r}/lines/trips names the line "trips", not a trips collection: no such line', async () => {
  for (const url of ['/v1/coverage/town/lines/trips', '/v1/coverage/town/networks/RED/lines/trips']) {
    const a = await get(url);
    assert.equal(a.status, 404, url);
    assert.deepEqual(navitiaError(a.json.error), { id: 'unknown_object', message: 'ptref : Filters: Unable to find object' }, url);
    assert.equal(a.json.lines, undefined);
  }
});

test('another method on a trips path: 405', async () => {
  const { app } = await testServer();
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
    const res = await app.inject({ method, url: '/v1/coverage/town/trips' });
    assert.equal(res.statusCode, 405, method);
    assert.deepEqual(JSON.parse(res.body), { message: 'The method is not allowed for the requested URL.' });
    assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  }
  const unknown = await app.inject({ method: 'POST', url: '/v1/nothing' });
  assert.equal(unknown.statusCode, 404);
});

test('error answers carry no links and no trips', async () => {
  for (const url of ['/v1/coverage/town/trips/NOPE', '/v1/coverage/town/trips?count=x', '/v1/coverage/nowhere/trips', '/v1/coverage/town/foo/1/trips']) {
    const a = await get(url);
    assert.equal('links' in a.json, false, url);
    assert.equal('trips' in a.json, false, url);
  }
});
