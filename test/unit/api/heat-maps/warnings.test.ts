/**
 * The warnings of heat maps and isochrones (maps/map-warnings.ts): why a map is empty or partial,
 * and what of the request was ignored, in Navitia's `warnings` list of a 200 answer, their ids in
 * the `navette-warnings` header for every format. On Navitia's routing fixture (fixture.ts: streets
 * within 220 m of the origin, its four trips at 08:01 on weekdays only, from Thursday 2012-06-14 to
 * 2013-06-13; and a copy with stopC moved 3.2 km north of every street) and on the demo town
 * (data/demo, around 4.84;45.73).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { getAnswer, getOk, serveCoverages } from '../../../helpers/app.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { fixtureGtfs, latOf, writeFixtureOsm } from './fixture.js';

/** Metres per degree at the equator, as the fixture places its points. */
const M = 111319.9;
const WEEKDAYS = 'all,1,1,1,1,1,0,0,20120614,20130613';
const MAP = 'max_duration=600&resolution=10';
/** A second feed: one shuttle between two stops near the fixture's, weekdays of the week of 2013-01-07 at 08:01. */
const JANUARY_SHUTTLE = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
shuttle,Shuttle,https://shuttle.example,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
S1,Shuttle one,${latOf('A')},0.0009
S2,Shuttle two,${latOf('B')},0.0001
# routes.txt
route_id,agency_id,route_short_name,route_type
SH,shuttle,SH,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
jan,1,1,1,1,1,0,0,20130107,20130111
# trips.txt
route_id,service_id,trip_id
SH,jan,SH-1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
SH-1,08:01:00,08:01:00,S1,1
SH-1,08:05:00,08:05:00,S2,2
`;

describe("Navitia's routing fixture, weekdays only", () => {
  let app: FastifyInstance;
  before(async () => {
    const weekdays = fixtureGtfs().replace('all,1,1,1,1,1,1,1,20120614,20130613', WEEKDAYS);
    // the same, with stopC (reached from stopA by line D at 08:01:02) 3.2 km north of every street
    const farStop = weekdays.replace(`stop_point:stopC,stopC,${latOf('J')},`, `stop_point:stopC,stopC,${3200 / M},`);
    assert.notEqual(farStop, weekdays);
    const osm = writeFixtureOsm();
    ({ app } = await serveCoverages([
      { id: 'fixture', gtfs: [writeFeed(weekdays)], osm, timezone: 'UTC', boardSlackSec: 0 },
      { id: 'far_stop', gtfs: [writeFeed(farStop)], osm, timezone: 'UTC', boardSlackSec: 0 },
      // the fixture and a feed of one shuttle running the week of 2013-01-07 only, at 08:01
      { id: 'two_feeds', gtfs: [writeFeed(weekdays), writeFeed(JANUARY_SHUTTLE, 'gtfs-2')], osm, timezone: 'UTC', boardSlackSec: 0 },
    ]));
  });
  after(async () => app.close());
  const map = (query: string) => getOk(app, `/v1/coverage/fixture/heat_maps?${MAP}&${query}`);

  test('a map on a weekday from a stop: no warning', async () => {
    assert.deepEqual((await map('from=stopA&datetime=20120614T080000')).warnings, []);
  });

  test('a Saturday: no trip runs in the window, with the production period', async () => {
    assert.deepEqual((await map('from=stopA&datetime=20120616T080000')).warnings, [
      { id: 'no_service', message: 'no trip runs between 2012-06-16 08:00 and 2012-06-16 08:10; the production period is 2012-06-14 to 2013-06-13' },
    ]);
  });

  test('a weekday at night: the trips of the day run at 08:01 only, none in the window', async () => {
    assert.deepEqual((await map('from=stopA&datetime=20120614T030000')).warnings.map((w: { id: string }) => w.id), ['no_service']);
    // an arrival map's window ends at its datetime: 08:05 back to 07:55 holds the 08:01 runs
    assert.deepEqual((await map('to=stopB&datetime=20120614T080500')).warnings, []);
  });

  test('a centre 3.2 km north of the streets: its distance, outside the data, nothing reached', async () => {
    const answer = await getAnswer(app, `/v1/coverage/fixture/heat_maps?${MAP}&from=0.0001;${3200 / M}&datetime=20120614T080000`);
    assert.equal(answer.status, 200);
    // the northernmost street point is 120 m north of the origin: 3,080 m away
    assert.deepEqual(answer.json.warnings, [
      { id: 'centre_off_street_network', message: 'the centre is 3.1 km from the nearest street; a place farther than 600 m from the streets reaches none of them' },
      { id: 'centre_outside_data', message: `the centre 0.0001;${3200 / M} lies outside the coverage's data` },
      { id: 'nothing_reached', message: 'no place is reached within max_duration=600' },
    ]);
    assert.equal(answer.headers['navette-warnings'], 'centre_off_street_network, centre_outside_data, nothing_reached');
  });

  test('a stop reached by public transport 3.2 km from the streets: the map is partial, and says so', async () => {
    const json = await getOk(app, `/v1/coverage/far_stop/heat_maps?${MAP}&from=stopA&datetime=20120614T080000`);
    assert.deepEqual(json.warnings, [
      { id: 'stops_off_street_network', message: '1 of the 2 stops reached by public transport are farther than 600 m from a street: the places around them have no value' },
    ]);
  });

  test('a second feed with no trip on the day: the map is partial, and says which feed and when it runs', async () => {
    const json = await getOk(app, `/v1/coverage/two_feeds/heat_maps?${MAP}&from=stopA&datetime=20120614T080000`);
    assert.deepEqual(json.warnings, [
      {
        id: 'no_service_in_feed',
        message: 'no trip of the feed gtfs-2 runs between 2012-06-14 08:00 and 2012-06-14 08:10: the map leaves it out; its trips run from 2013-01-07 to 2013-01-11',
      },
    ]);
    // on a day both run, nothing to say
    assert.deepEqual((await getOk(app, `/v1/coverage/two_feeds/heat_maps?${MAP}&from=stopA&datetime=20130107T080000`)).warnings, []);
  });

  test('the GeoTIFF and PNG carry the ids in the header; GeoJSON bands as a foreign member', async () => {
    const query = `/v1/coverage/fixture/heat_maps?${MAP}&from=stopA&datetime=20120616T080000`;
    assert.equal((await getAnswer(app, `${query}&format=tiff`)).headers['navette-warnings'], 'no_service');
    assert.equal((await getAnswer(app, `${query}&format=png`)).headers['navette-warnings'], 'no_service');
    assert.deepEqual((await getAnswer(app, `${query}&format=geojson`)).json.warnings.map((w: { id: string }) => w.id), ['no_service']);
  });
});

describe('the demo town', () => {
  let app: FastifyInstance;
  before(async () => {
    const demo = path.resolve('data/demo');
    ({ app } = await serveCoverages([{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris' }]));
  });
  after(async () => app.close());
  const DAY = 'datetime=20261124T080000';

  test('lon and lat swapped: outside the data, the swapped point inside, nothing reached', async () => {
    const { warnings } = await getOk(app, `/v1/coverage/demo/heat_maps?${MAP}&${DAY}&from=45.7327;4.8423`);
    assert.deepEqual(
      warnings.map((w: { id: string }) => w.id),
      ['centre_off_street_network', 'centre_outside_data', 'nothing_reached'],
    );
    assert.equal(warnings[1].message, "the centre 45.7327;4.8423 lies outside the coverage's data; 4.8423;45.7327 lies inside: longitude comes first, then latitude");
  });

  test('unknown parameters are listed, once each, and ignored', async () => {
    const json = await getOk(app, `/v1/coverage/demo/heat_maps?${MAP}&${DAY}&from=GARE&resoluton=3&cont=2&cont=3`);
    assert.deepEqual(json.warnings, [
      { id: 'unknown_parameter', message: 'unknown parameter resoluton: ignored' },
      { id: 'unknown_parameter', message: 'unknown parameter cont: ignored' },
    ]);
    assert.equal(json.heat_maps[0].heat_matrix.lines.length, 10);
  });

  test('isochrones: a boundary_duration[] above max_duration is dropped, and said', async () => {
    const json = await getOk(app, `/v1/coverage/demo/isochrones?from=GARE&${DAY}&boundary_duration[]=600&boundary_duration[]=1800&max_duration=1200&resolution=20`);
    assert.deepEqual(json.warnings, [{ id: 'boundary_duration_dropped', message: 'boundary_duration[]=1800 is above max_duration=1200: dropped' }]);
    assert.deepEqual(
      json.isochrones.map((i: { min_duration: number; max_duration: number }) => [i.min_duration, i.max_duration]),
      [
        [0, 600],
        [600, 1200],
      ],
    );
  });

  test('max_duration=0: the standard parameter message, which says what is wrong', async () => {
    for (const endpoint of ['heat_maps', 'isochrones']) {
      const a = await getAnswer(app, `/v1/coverage/demo/${endpoint}?from=GARE&max_duration=0`);
      assert.equal(a.status, 400);
      assert.match(a.json.message, /^parameter "max_duration" invalid: The max_duration argument has to be >= 1, you gave : 0\nmax_duration description: /);
    }
  });
});
