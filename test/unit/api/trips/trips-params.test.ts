/**
 * Every query parameter of the trips operations (interface.md §4.1, decisions.md "Trips"), each
 * checked on the `town` fixture (see fixture.ts for the drawing) with exact ids.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../../src/api/app.js';
import type { FreshnessLevel, Freshness } from '../../../../src/ptref/freshness.js';
import { Coverage, CoverageRegistry } from '../../../../src/service/coverage-registry.js';
import { get, ids, NOT_FOUND_MESSAGE, notFound, testServer, TOWN_TRIPS, townTrips } from '../../../helpers/town-app.js';
import { navitiaError } from '../../../helpers/http.js';

after(async () => (await testServer()).app.close());

const without = (...gone: string[]) => TOWN_TRIPS.filter((t) => !gone.includes(t));

// start_page and count -------------------------------------------------------------------------

test('count sets the page size and start_page picks the page', async () => {
  const p0 = await get('/v1/coverage/town/trips?count=4');
  assert.deepEqual(ids(p0), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000']);
  assert.deepEqual(p0.json.pagination, { total_result: 9, start_page: 0, items_per_page: 4, items_on_page: 4 });
  const p1 = await get('/v1/coverage/town/trips?count=4&start_page=1');
  assert.deepEqual(ids(p1), ['B2-1100', 'N1-2530', 'T1-FREQ', 'D1-ODT']);
  assert.deepEqual(p1.json.pagination, { total_result: 9, start_page: 1, items_per_page: 4, items_on_page: 4 });
  const p2 = await get('/v1/coverage/town/trips?count=4&start_page=2');
  assert.deepEqual(ids(p2), ['D1-ZONE']);
  assert.deepEqual(p2.json.pagination, { total_result: 9, start_page: 2, items_per_page: 4, items_on_page: 1 });
});

test('count defaults to 25 and start_page to 0', async () => {
  const a = await get('/v1/coverage/town/trips');
  assert.deepEqual(ids(a), TOWN_TRIPS);
  assert.deepEqual(a.json.pagination, { total_result: 9, start_page: 0, items_per_page: 25, items_on_page: 9 });
});

test('count above 1000 is lowered to 1000', async () => {
  const a = await get('/v1/coverage/town/trips?count=5000');
  assert.deepEqual(a.json.pagination, { total_result: 9, start_page: 0, items_per_page: 1000, items_on_page: 9 });
});

test('count=0 gives a 200 page without a trips key', async () => {
  const a = await get('/v1/coverage/town/trips?count=0');
  assert.equal(a.status, 200);
  assert.equal('trips' in a.json, false);
  assert.deepEqual(a.json.pagination, { total_result: 9, start_page: 0, items_per_page: 0, items_on_page: 0 });
});

test('a repeated scalar parameter uses its first value', async () => {
  const a = await get('/v1/coverage/town/trips?count=2&count=3');
  assert.deepEqual(ids(a), ['B1-0800', 'B1-0900']);
});

// depth ----------------------------------------------------------------------------------------

test('depth 0 and 1 give exactly {id, name}', async () => {
  const names = { 'B1-0800': '101', 'B1-0900': '102', 'B1-1700': '103', 'B2-1000': 'École', 'B2-1100': 'École', 'N1-2530': 'Nuit', 'T1-FREQ': 'T', 'D1-ODT': 'TAD1', 'D1-ZONE': 'TAD2' };
  const expected = Object.entries(names).map(([id, name]) => ({ id, name }));
  for (const depth of ['', '&depth=0', '&depth=1']) {
    const a = await get(`/v1/coverage/town/trips?count=9${depth}`);
    assert.deepEqual(a.json.trips, expected, `depth ${depth || 'default'}`);
  }
});

test('depth 2 adds headsign, route, line, network, modes and the first and last stop times', async () => {
  const a = await get('/v1/coverage/town/trips/B1-1700?depth=2');
  assert.deepEqual(a.json.trips, [
    {
      id: 'B1-1700',
      name: '103',
      headsign: 'Gare',
      short_name: '103',
      odt_level: 'scheduled',
      route: { id: 'route:B1:1', name: 'Gare', direction_id: 1 },
      line: { id: 'B1', code: '1', name: 'Gare - Musée', color: '', text_color: '' },
      network: { id: 'RED', name: 'Red Buses' },
      physical_mode: { id: 'physical_mode:Bus', name: 'Bus' },
      commercial_mode: { id: 'commercial_mode:Bus', name: 'Bus' },
      first_stop_time: { stop_point: { id: 'MUSEE', name: 'Musée' }, departure_time: '170000' },
      last_stop_time: { stop_point: { id: 'GARE_1', name: 'Gare quai 1' }, arrival_time: '172000' },
    },
  ]);
  const night = (await get('/v1/coverage/town/trips/N1-2530?depth=2')).json.trips[0];
  assert.deepEqual([night.first_stop_time.departure_time, night.last_stop_time.arrival_time], ['253000', '255000'], 'times past midnight are kept');
  const tram = (await get('/v1/coverage/town/trips/T1-FREQ?depth=2')).json.trips[0];
  assert.deepEqual([tram.name, tram.headsign, tram.physical_mode.id, tram.network.id], ['T', '', 'physical_mode:Tramway', 'BLUE']);
  const zone = (await get('/v1/coverage/town/trips/D1-ZONE?depth=2')).json.trips[0];
  assert.deepEqual([zone.odt_level, zone.first_stop_time.stop_point], ['zonal', { id: 'G_RURAL', name: 'Zone rurale' }]);
  assert.equal('geojson' in zone, false, 'no geometry before depth 3');
});

test('depth 3 adds the geometry through the stops', async () => {
  const a = await get('/v1/coverage/town/trips/B1-1700?depth=3');
  assert.deepEqual(a.json.trips[0].geojson, { type: 'LineString', coordinates: [[5, 45.02], [5, 45.01], [5, 45.0015], [5, 45]] });
});

// disable_geojson ------------------------------------------------------------------------------

test('disable_geojson removes the depth-3 geometry and nothing else', async () => {
  const withGeo = (await get('/v1/coverage/town/trips/B2-1000?depth=3&disable_geojson=false')).json.trips[0];
  const noGeo = (await get('/v1/coverage/town/trips/B2-1000?depth=3&disable_geojson=true')).json.trips[0];
  assert.deepEqual(withGeo.geojson.coordinates, [[5, 45.0005], [5, 45.003]]);
  const { geojson: _dropped, ...rest } = withGeo;
  assert.deepEqual(noGeo, rest);
});

// forbidden_uris[] and forbidden_id[] ----------------------------------------------------------

test('forbidden_uris[] leaves out the trips of lines, networks, modes, stop areas, routes and trips', async () => {
  assert.deepEqual(await townTrips('forbidden_uris[]=B1'), without('B1-0800', 'B1-0900', 'B1-1700'));
  assert.deepEqual(await townTrips('forbidden_uris[]=RED&forbidden_uris[]=D1'), ['T1-FREQ']);
  assert.deepEqual(await townTrips('forbidden_uris[]=physical_mode:Bus'), ['T1-FREQ']);
  assert.deepEqual(await townTrips('forbidden_uris[]=GARE'), ['N1-2530'], 'every trip but the night bus serves the station');
  assert.deepEqual(await townTrips('forbidden_uris[]=stop_area:MARCHE'), without('B1-0800', 'B1-0900', 'B1-1700'));
  assert.deepEqual(await townTrips('forbidden_uris[]=route:B1:0'), without('B1-0800', 'B1-0900'));
  assert.deepEqual(await townTrips('forbidden_uris[]=B2-1000'), without('B2-1000'), 'a trip id removes that trip');
});

test('forbidden_id[] is merged with forbidden_uris[], and the bare form works too', async () => {
  assert.deepEqual(await townTrips('forbidden_id[]=B1&forbidden_uris[]=B2'), ['N1-2530', 'T1-FREQ', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await townTrips('forbidden_id[]=BLUE'), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100', 'N1-2530']);
  assert.deepEqual(await townTrips('forbidden_uris=N1'), without('N1-2530'));
});

test('an unknown forbidden id is ignored', async () => {
  assert.deepEqual(await townTrips('forbidden_uris[]=NOPE'), TOWN_TRIPS);
});

test('forbidding every trip gives the not-found answer', async () => {
  await notFound('/v1/coverage/town/trips?forbidden_uris[]=RED&forbidden_uris[]=BLUE');
});

// external_code --------------------------------------------------------------------------------

test('external_code matches a trip_id or a trip_short_name exactly', async () => {
  assert.deepEqual(await townTrips('external_code=102'), ['B1-0900']);
  assert.deepEqual(await townTrips('external_code=B2-1000'), ['B2-1000']);
  assert.deepEqual(await townTrips('external_code=TAD2'), ['D1-ZONE']);
});

test('external_code of a trip that the path leaves out gives the not-found answer', async () => {
  await notFound('/v1/coverage/town/lines/B2/trips?external_code=101');
});

// headsign -------------------------------------------------------------------------------------

test('headsign matches a trip headsign or a stop headsign, exactly and case-sensitively', async () => {
  assert.deepEqual(await townTrips('headsign=Gare'), ['B1-1700', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await townTrips('headsign=Centre'), ['B1-0800'], 'a stop headsign of B1-0800');
  assert.deepEqual(await townTrips(`headsign=${encodeURIComponent('École')}`), ['B2-1000', 'B2-1100']);
  await notFound('/v1/coverage/town/trips?headsign=gare');
  await notFound('/v1/coverage/town/trips?headsign=Mus');
});

test('an empty headsign is ignored', async () => {
  assert.deepEqual(await townTrips('headsign='), TOWN_TRIPS);
});

// odt_level ------------------------------------------------------------------------------------

test('odt_level selects trips by on-demand level', async () => {
  assert.deepEqual(await townTrips('odt_level=all'), TOWN_TRIPS);
  assert.deepEqual(await townTrips('odt_level=scheduled'), without('D1-ODT', 'D1-ZONE'));
  assert.deepEqual(await townTrips('odt_level=with_stops'), ['D1-ODT'], 'pickup_type 2 at FERME');
  assert.deepEqual(await townTrips('odt_level=zonal'), ['D1-ZONE'], 'serves the location group G_RURAL');
  await notFound('/v1/coverage/town/lines/B1/trips?odt_level=zonal');
});

// since, until ---------------------------------------------------------------------------------

test('since and until keep trips with a first departure inside the window, both bounds inclusive', async () => {
  assert.deepEqual(await townTrips('since=20240115T080000&until=20240115T080000'), ['B1-0800']);
  assert.deepEqual(await townTrips('since=20240115T080000&until=20240115T090000'), ['B1-0800', 'B1-0900']);
  await notFound('/v1/coverage/town/trips?since=20240115T080001&until=20240115T085959');
});

test('since alone keeps trips departing from then on, until alone up to then', async () => {
  // Wednesday 31 January's night bus leaves on 1 February at 01:30; then only HOL runs (on the 10th).
  assert.deepEqual(await townTrips('since=20240201T000000'), ['B2-1100', 'N1-2530']);
  assert.deepEqual(await townTrips('since=20240201T013001'), ['B2-1100']);
  assert.deepEqual(await townTrips('until=20240102T060500'), ['T1-FREQ'], 'the first departure of the period: the tram on the 2nd at 06:05');
  await notFound('/v1/coverage/town/trips?until=20240102T060459');
  await notFound('/v1/coverage/town/trips?since=20240210T110001');
});

test('an after-midnight run departs on the next calendar day of its service day', async () => {
  // N1-2530 runs on weekdays at 25:30: Monday the 15th's run leaves on the 16th at 01:30.
  assert.deepEqual(await townTrips('since=20240116T013000&until=20240116T013000'), ['N1-2530']);
  // Sunday the 14th has no run, so nothing leaves on the 15th at 01:30.
  await notFound('/v1/coverage/town/trips?since=20240115T013000&until=20240115T013000');
});

test('calendar_dates add and remove days', async () => {
  // Monday 1 January is removed from WK (and ALL starts on the 2nd): nothing runs.
  await notFound('/v1/coverage/town/trips?since=20240101T000000&until=20240101T235959');
  // Saturday the 6th is added to WK.
  assert.deepEqual(await townTrips('since=20240106T080000&until=20240106T080000'), ['B1-0800']);
  // Sunday the 7th is removed from WE, but Saturday's added WK run of the night bus leaves at 01:30.
  assert.deepEqual(await townTrips('since=20240107T000000&until=20240107T235959'), ['N1-2530', 'T1-FREQ']);
  assert.deepEqual(await townTrips('since=20240114T000000&until=20240114T235959'), ['B2-1000', 'T1-FREQ']);
  // HOL runs only on Monday the 15th and on 10 February.
  assert.deepEqual(await townTrips('since=20240115T110000&until=20240115T110000'), ['B2-1100']);
  await notFound('/v1/coverage/town/trips?since=20240116T110000&until=20240116T110000');
});

test('a frequency trip departs every headway from start_time, before end_time', async () => {
  assert.deepEqual(await townTrips('since=20240115T063500&until=20240115T063500'), ['T1-FREQ']);
  assert.deepEqual(await townTrips('since=20240115T065500&until=20240115T065500'), ['T1-FREQ'], 'the last departure');
  await notFound('/v1/coverage/town/trips?since=20240115T064000&until=20240115T064000');
  await notFound('/v1/coverage/town/trips?since=20240115T065600&until=20240115T070400');
});

test('since and until with an offset or Z are read in that offset, naive ones in the coverage time zone', async () => {
  assert.deepEqual(await townTrips('since=20240115T070000Z&until=20240115T070000Z'), ['B1-0800']);
  assert.deepEqual(await townTrips(`since=${encodeURIComponent('2024-01-15T08:00:00+01:00')}&until=${encodeURIComponent('2024-01-15T08:00:00+01:00')}`), ['B1-0800']);
  assert.deepEqual(await townTrips('since=20240115T080000Z&until=20240115T080000Z'), ['B1-0900'], '08:00 UTC is 09:00 in Paris');
  await notFound('/v1/coverage/town/trips?since=20240115T073000Z&until=20240115T073000Z');
});

// data_freshness -------------------------------------------------------------------------------

test('data_freshness: every level sees the static timetable when no realtime source is configured', async () => {
  for (const level of ['', '&data_freshness=base_schedule', '&data_freshness=adapted_schedule', '&data_freshness=realtime']) {
    assert.deepEqual(await townTrips(`since=20240115T080000&until=20240115T090000${level}`), ['B1-0800', 'B1-0900'], level);
  }
});

/** The town data, where realtime has cancelled B1-0800 (base and adapted levels keep it). */
class CancelledAtRealtime implements Freshness {
  constructor(
    private readonly base: Freshness,
    private readonly cancelled: number,
  ) {}
  changedTrips(level: FreshnessLevel): Uint32Array {
    return level === 'realtime' ? Uint32Array.of(this.cancelled) : new Uint32Array(0);
  }
  departsWithin(trip: number, level: FreshnessLevel, sinceSec: number, untilSec: number): boolean {
    return !(level === 'realtime' && trip === this.cancelled) && this.base.departsWithin(trip, level, sinceSec, untilSec);
  }
  activeAt(trip: number, level: FreshnessLevel, atSec: number): boolean {
    return !(level === 'realtime' && trip === this.cancelled) && this.base.activeAt(trip, level, atSec);
  }
}

test('data_freshness picks the level since and until look at', async () => {
  const town = (await testServer()).registry.get('town')!.generation!;
  const registry = new CoverageRegistry();
  const rt = new Coverage({ id: 'rt', gtfs: [] });
  rt.swap({ ...town, freshness: new CancelledAtRealtime(town.freshness, town.tt.trips.ids.indexOf('B1-0800')) });
  registry.add(rt);
  const app = await buildApp({ registry });
  const tripsAt = async (level: string) => {
    const res = await app.inject(`/v1/coverage/rt/trips?since=20240115T080000&until=20240115T090000${level}`);
    return JSON.parse(res.body).trips.map((t: { id: string }) => t.id);
  };
  assert.deepEqual(await tripsAt(''), ['B1-0800', 'B1-0900'], 'base_schedule by default');
  assert.deepEqual(await tripsAt('&data_freshness=base_schedule'), ['B1-0800', 'B1-0900']);
  assert.deepEqual(await tripsAt('&data_freshness=adapted_schedule'), ['B1-0800', 'B1-0900']);
  assert.deepEqual(await tripsAt('&data_freshness=realtime'), ['B1-0900']);
  const all = await app.inject('/v1/coverage/rt/trips?data_freshness=realtime&count=100');
  assert.equal(JSON.parse(all.body).pagination.total_result, 9, 'without since/until the level changes nothing');
  await app.close();
});

// distance -------------------------------------------------------------------------------------

test('distance sets the radius around a coordinate in the path (200 m by default)', async () => {
  // From ECOLE (5.0;45.003): ECOLE 0 m, MARCHE 167 m, GARE_2 278 m, GARE_1 334 m, PARC 779 m.
  const around = (q: string) => townTrips(q, 'coord/5.0;45.003');
  assert.deepEqual(await around('distance=100'), ['B2-1000', 'B2-1100']);
  assert.deepEqual(await around(''), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100']);
  assert.deepEqual(await around('distance=200'), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100']);
  assert.deepEqual(await around('distance=300'), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100', 'D1-ODT', 'D1-ZONE']);
  assert.deepEqual(await around('distance=400'), without('N1-2530'));
});

test('distance has no effect without a coordinate in the path', async () => {
  assert.deepEqual(await townTrips('distance=1'), TOWN_TRIPS);
});

test('a zero or negative distance finds no stop', async () => {
  await notFound('/v1/coverage/town/coord/5.0;45.0031/trips?distance=0');
  await notFound('/v1/coverage/town/coord/5.0;45.003/trips?distance=-5');
});

// disable_disruption ---------------------------------------------------------------------------

test('disable_disruption is accepted either way; disruptions stays a list (no disruption source)', async () => {
  for (const v of ['true', 'false', '1', '0', 'TRUE']) {
    const a = await get(`/v1/coverage/town/trips?disable_disruption=${v}`);
    assert.equal(a.status, 200, v);
    assert.deepEqual(a.json.disruptions, []);
    assert.equal(a.json.pagination.total_result, 9);
  }
});

// filter ---------------------------------------------------------------------------------------

test('filter narrows the list forms', async () => {
  assert.deepEqual(await townTrips('filter=line.code=2'), ['B2-1000', 'B2-1100']);
  assert.deepEqual(await townTrips('filter=line.code=2', 'networks/RED'), ['B2-1000', 'B2-1100']);
  assert.deepEqual(await townTrips('filter=line.code=2', 'coord/5.0;45.003'), ['B2-1000', 'B2-1100']);
});

test('the id forms have no filter: it is ignored', async () => {
  assert.deepEqual(ids(await get('/v1/coverage/town/trips/B1-0800?filter=line.code=2')), ['B1-0800']);
  assert.deepEqual(ids(await get('/v1/coverage/town/lines/B1/trips/B1-0800?filter=line.code=2')), ['B1-0800']);
  assert.deepEqual(ids(await get('/v1/coverage/5.0;45.003/trips/B1-0800?filter=(((')), ['B1-0800']);
});

// tags[] ---------------------------------------------------------------------------------------

test('tags[] keeps only trips impacted by a disruption with one of the tags: none without disruptions', async () => {
  await notFound('/v1/coverage/town/trips?tags[]=strike');
  await notFound('/v1/coverage/town/trips?tags[]=strike&tags[]=works');
  await notFound('/v1/coverage/town/trips?tags=strike');
  const withFilter = await get('/v1/coverage/town/trips?tags[]=strike&filter=all');
  assert.equal(withFilter.status, 400);
  assert.deepEqual(navitiaError(withFilter.json.error), { id: 'bad_filter', message: NOT_FOUND_MESSAGE });
});

// _current_datetime ----------------------------------------------------------------------------

test('_current_datetime is the "now" of the request, shown in the coverage time zone', async () => {
  const winter = await get('/v1/coverage/town/trips?_current_datetime=20240115T235959');
  assert.deepEqual(winter.json.context, { current_datetime: '20240116T005959', timezone: 'Europe/Paris' });
  const summer = await get('/v1/coverage/town/trips?_current_datetime=20240715T120000');
  assert.deepEqual(summer.json.context, { current_datetime: '20240715T140000', timezone: 'Europe/Paris' });
  const valley = await get('/v1/coverage/valley/trips?_current_datetime=20240115T235959');
  assert.deepEqual(valley.json.context, { current_datetime: '20240115T185959', timezone: 'America/Toronto' });
});

test('without _current_datetime the context shows the present time', async () => {
  const before = Date.now();
  const a = await get('/v1/coverage/town/trips');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(a.json.context.current_datetime);
  assert.ok(m, a.json.context.current_datetime);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  // Paris is 1 or 2 hours ahead of UTC.
  const shownAsUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsetH = Math.round((shownAsUtc - before) / 3_600_000);
  assert.ok(offsetH === 1 || offsetH === 2, `offset ${offsetH}`);
});
