/**
 * Every heat-map parameter with the effect decisions.md gives it, on a town built for it: a main
 * street west to east with a train and a bus along it, a footway, a one-way street and a motorway.
 *
 *   Z (1000, 800)          Q (2000, 1000)
 *   |  one-way P1 -> Z      |  footway
 *   |  (bend W at 1000,500) |
 *   P0 ------ P1 ------ P2 ------ P3 ------ P4      main street (residential)
 *   s0                  s2                  s4      stops; P4 -> M (4000, -1500): motorway
 *
 * Train T1: s0 08:05 -> s2 08:06 (not wheelchair accessible), s0 08:20 -> s2 08:21 (accessible).
 * Bus B: s2 08:08 -> s4 08:09. Station S0 is accessible; its platform s0 says nothing and inherits.
 *
 * Expected values are times along the streets; a cell's value may differ from the time at a point
 * inside it: its centre links to the street up to that distance along it (at the end speed) and
 * walks that distance off it (at walking speed), plus truncation, which `expectNear` allows.
 * The coverage's board slack is the default, 60 s: every change below leaves a minute or more.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { METRES_PER_DEGREE } from '../../../../src/util/geodesy.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { writeOsm, type OsmFixture } from '../../../helpers/osm-fixture.js';
import { cellAt, type HeatMatrix } from './fixture.js';
import { getOk, serveCoverages } from '../../../helpers/app.js';

const POINTS: Record<string, [number, number]> = {
  P0: [0, 0],
  P1: [1000, 0],
  P2: [2000, 0],
  P3: [3000, 0],
  P4: [4000, 0],
  C: [300, 0],
  Q: [2000, 1000],
  W: [1000, 500],
  Z: [1000, 800],
  M: [4000, -1500],
};
// near the equator (but not at 0;0, which feeds use for "no position"): degrees east are metres too
const LON0 = 1;
const LAT0 = 0.1;
const lon = (p: string) => LON0 + POINTS[p]![0] / (METRES_PER_DEGREE * Math.cos((LAT0 * Math.PI) / 180));
const lat = (p: string) => LAT0 + POINTS[p]![1] / METRES_PER_DEGREE;
const coord = (p: string) => `${lon(p)};${lat(p)}`;

const WALK = 1.12;
const BIKE = 4.1;
const CAR = 11.11;

/** The streets: node k + 1 is the k-th point (C, a stop's place, is no node), way 100 + k the k-th street. */
function streets(): OsmFixture {
  const names = Object.keys(POINTS);
  const id = (p: string) => names.indexOf(p) + 1;
  const ways: Array<[string[], Record<string, string>]> = [
    [['P0', 'P1', 'P2', 'P3', 'P4'], { highway: 'residential', name: 'Main street' }],
    [['P2', 'Q'], { highway: 'footway' }],
    [['P1', 'W', 'Z'], { highway: 'residential', oneway: 'yes' }],
    [['P4', 'M'], { highway: 'motorway' }],
  ];
  return {
    nodes: names.filter((p) => p !== 'C').map((p) => ({ id: id(p), lon: lon(p), lat: lat(p) })),
    ways: ways.map(([nodes, tags], k) => ({ id: 100 + k, refs: nodes.map(id), tags })),
  };
}

function gtfs(): string {
  const stop = (id: string, p: string, type: number, parent: string, wheelchair: string) => `${id},${id},${lat(p)},${lon(p)},${type},${parent},${wheelchair}`;
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Town,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
${stop('S0', 'P0', 1, '', '1')}
${stop('s0', 'P0', 0, 'S0', '')}
${stop('s2', 'P2', 0, '', '1')}
${stop('s4', 'P4', 0, '', '1')}
# routes.txt
route_id,agency_id,route_short_name,route_type
T1,N,T1,2
B,N,B,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id,wheelchair_accessible
T1,all,t1,2
T1,all,t1b,1
B,all,b,1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
t1,08:05:00,08:05:00,s0,1
t1,08:06:00,08:06:00,s2,2
t1b,08:20:00,08:20:00,s0,1
t1b,08:21:00,08:21:00,s2,2
b,08:08:00,08:08:00,s2,1
b,08:09:00,08:09:00,s4,2
`;
}

let app: FastifyInstance;
before(async () => {
  const osm = writeOsm(streets(), 'town.osm');
  ({ app } = await serveCoverages([{ id: 'town', gtfs: [writeFeed(gtfs())], osm, timezone: 'UTC' }]));
});

/** The matrix of a heat map on the town, 2024-01-02; `query` adds to or overrides the defaults. */
async function heatMap(query: string, centre = `from=${coord('P0')}&datetime=20240102T080000`): Promise<HeatMatrix> {
  return (await getOk(app, `/v1/coverage/town/heat_maps?${centre}&max_duration=3600&resolution=400&${query}`)).heat_maps[0].heat_matrix as HeatMatrix;
}

/** The cell holding point p is worth `expected` seconds, within the distance to its centre at `speed` along the street and on foot off it. */
function expectNear(m: HeatMatrix, p: string, expected: number, speed: number, walkSpeed = WALK): void {
  const v = cellAt(m, lon(p), lat(p));
  assert.equal(typeof v, 'number', `cell at ${p} has a value`);
  const j = m.line_headers.findIndex((h) => h.cell_lat.min_lat <= lat(p) && lat(p) <= h.cell_lat.max_lat);
  const i = m.lines.findIndex((l) => l.cell_lon.min_lon <= lon(p) && lon(p) <= l.cell_lon.max_lon);
  const { cell_lon } = m.lines[i]!;
  const { cell_lat } = m.line_headers[j]!;
  const offsetM = Math.hypot((cell_lon.center_lon - lon(p)) * METRES_PER_DEGREE * Math.cos((LAT0 * Math.PI) / 180), (cell_lat.center_lat - lat(p)) * METRES_PER_DEGREE);
  const tolerance = offsetM / speed + offsetM / walkSpeed + 1.01;
  assert.ok(Math.abs((v as number) - expected) <= tolerance, `cell at ${p}: ${v} s, expected ${expected.toFixed(1)} ± ${tolerance.toFixed(1)}`);
}

function expectNull(m: HeatMatrix, p: string): void {
  assert.equal(cellAt(m, lon(p), lat(p)), null, `cell at ${p} is unreachable`);
}

const walk = (metres: number) => metres / WALK;

describe('heat-map parameters', () => {
  test('walking, the default: train then bus, the footway, the one-way street, not the motorway', async () => {
    const m = await heatMap('');
    expectNear(m, 'P0', 0, WALK);
    expectNear(m, 'P1', walk(1000), WALK);
    expectNear(m, 'P2', 360, WALK); // train 08:05 -> 08:06
    expectNear(m, 'P4', 540, WALK); // bus 08:08 -> 08:09
    expectNear(m, 'P3', 360 + walk(1000), WALK);
    expectNear(m, 'Q', 360 + walk(1000), WALK);
    expectNear(m, 'Z', walk(1800), WALK); // walkers ignore oneway
    expectNull(m, 'M');
  });

  test('the centre as lon;lat, coord:lon:lat, a stop point or a stop area at the same place', async () => {
    const base = await heatMap('');
    const at = (centre: string) => heatMap('', `from=${centre}&datetime=20240102T080000`);
    assert.deepEqual(await at(`coord:${lon('P0')}:${lat('P0')}`), base);
    assert.deepEqual(await at('s0'), base);
    assert.deepEqual(await at('S0'), base);
    // and another place gives another map
    assert.notDeepEqual(await at('s2'), base);
  });

  test('walking_speed, and the traveller profiles with explicit parameters winning', async () => {
    expectNear(await heatMap('walking_speed=2.24'), 'P1', 1000 / 2.24, 2.24, 2.24);
    // luggage: 1.11 m/s, walking only, wheelchair: the accessible train at 08:20
    let m = await heatMap('traveler_type=luggage');
    expectNear(m, 'P1', 1000 / 1.11, 1.11, 1.11);
    expectNear(m, 'P2', 1260, 1.11, 1.11);
    m = await heatMap('traveler_type=luggage&wheelchair=false&walking_speed=2.24');
    expectNear(m, 'P1', 1000 / 2.24, 2.24, 2.24);
    expectNear(m, 'P2', 360, 2.24, 2.24);
    // standard: walking, bss and bike at its end
    expectNear(await heatMap('traveler_type=standard'), 'P1', 1000 / 3.33, 3.33, 1.11);
  });

  test('bike at the end: its own layer and speed, no footway, oneway respected forwards', async () => {
    const m = await heatMap('last_section_mode[]=bike');
    expectNear(m, 'P1', 1000 / BIKE, BIKE);
    expectNear(m, 'P2', 360, BIKE);
    expectNear(m, 'Z', 1800 / BIKE, BIKE);
    expectNull(m, 'Q');
    expectNear(await heatMap('last_section_mode[]=bike&bike_speed=8.2'), 'P1', 1000 / 8.2, 8.2);
  });

  test('car at the end: the motorway, not the footway', async () => {
    const m = await heatMap('last_section_mode[]=car');
    expectNear(m, 'P1', 1000 / CAR, CAR);
    expectNear(m, 'M', 5500 / CAR, CAR);
    expectNull(m, 'Q');
    expectNear(await heatMap('last_section_mode[]=car_no_park&car_no_park_speed=5'), 'P1', 1000 / 5, 5);
  });

  test('several end modes: the fastest for each cell; bss is a bike or a walk', async () => {
    for (const modes of ['last_section_mode[]=walking&last_section_mode[]=bike', 'last_section_mode[]=bss']) {
      const m = await heatMap(modes);
      expectNear(m, 'P1', 1000 / BIKE, BIKE);
      expectNear(m, 'Q', 360 + walk(1000), WALK);
    }
  });

  test('taxi at the end, with its additional time', async () => {
    const m = await heatMap('last_section_mode[]=taxi&additional_time_before_last_section_taxi=100');
    expectNear(m, 'P1', 100 + 1000 / CAR, CAR);
    expectNear(await heatMap('last_section_mode[]=taxi&taxi_speed=5'), 'P1', 1000 / 5, 5);
  });

  test('arrival maps search the reversed graph: no driving out of a one-way dead end', async () => {
    const centre = `to=${coord('P0')}&datetime=20240102T090000`;
    const car = await heatMap('first_section_mode[]=car', centre);
    expectNear(car, 'P3', 3000 / CAR, CAR);
    // Z's cell links to the one-way street, which no car drives out of: null (not the straight line from the main street)
    expectNull(car, 'Z');
    expectNear(await heatMap('last_section_mode[]=car', `from=${coord('P0')}&datetime=20240102T080000`), 'Z', 1800 / CAR, CAR);
    expectNear(await heatMap('', centre), 'Z', walk(1800), WALK);
  });

  test('an arrival map by public transport', async () => {
    const m = await heatMap('', `to=${coord('P4')}&datetime=20240102T081000`);
    expectNear(m, 'P4', 0, WALK);
    expectNear(m, 'P2', 180, WALK); // bus 08:08 -> 08:09, at s2 a minute before (the board slack)
    expectNear(m, 'P0', 360, WALK); // train 08:05 (at s0 by 08:04) to s2 at 08:06, a minute to spare for the bus
    expectNear(m, 'P1', 180 + walk(1000), WALK);
    expectNear(m, 'P3', walk(1000), WALK);
  });

  test('direct_path: none leaves out the street alone, only leaves out public transport', async () => {
    let m = await heatMap('direct_path=none');
    expectNear(m, 'P1', 360 + walk(1000), WALK);
    expectNear(m, 'P4', 540, WALK);
    m = await heatMap('direct_path=only&max_duration=4000');
    expectNear(m, 'P2', walk(2000), WALK);
    expectNear(m, 'P4', walk(4000), WALK);
  });

  test('direct_path_mode: the street-only part from the centre in its own mode', async () => {
    const m = await heatMap('direct_path_mode[]=bike');
    expectNear(m, 'P1', 1000 / BIKE, BIKE);
    expectNear(m, 'P3', 3000 / BIKE, BIKE);
    // the stops' side stays on foot: the footway, and the cell of s2 itself
    expectNear(m, 'Q', 360 + walk(1000), WALK);
    expectNear(m, 'P2', 360, WALK);
  });

  test('free_radius_from: nearby stops reached at no cost', async () => {
    const centre = `from=${coord('C')}&datetime=20240102T080400`;
    // walking 300 m to s0 misses the 08:05 train; the 08:20 one reaches s2 at 08:21
    let m = await heatMap('', centre);
    expectNear(m, 'P2', 1020, WALK);
    m = await heatMap('free_radius_from=400', centre);
    expectNear(m, 'P2', 120, WALK);
    expectNear(m, 'P4', 300, WALK);
    expectNear(await heatMap('free_radius_from=200', centre), 'P2', 1020, WALK);
  });

  test('max_walking_duration_to_pt and max_duration_to_pt bound the walk to the first stop', async () => {
    // 300 m (268 s) to s0, a minute to board: the 08:05 train, at s2 at 08:06
    const centre = `from=${coord('C')}&datetime=20240102T075900`;
    expectNear(await heatMap('', centre), 'P2', 420, WALK);
    expectNear(await heatMap('max_walking_duration_to_pt=200', centre), 'P2', walk(1700), WALK);
    expectNear(await heatMap('max_duration_to_pt=200', centre), 'P2', walk(1700), WALK);
    expectNear(await heatMap('max_walking_duration_to_pt=300', centre), 'P2', 420, WALK);
  });

  test('max_nb_transfers and min_nb_transfers', async () => {
    let m = await heatMap('max_nb_transfers=0');
    expectNear(m, 'P2', 360, WALK);
    expectNear(m, 'P4', 360 + walk(2000), WALK);
    m = await heatMap('min_nb_transfers=1');
    expectNear(m, 'P4', 540, WALK);
    expectNear(m, 'P2', walk(2000), WALK); // s2 is reached without a transfer only
  });

  test('wheelchair: accessible trips and stops only (the platform inherits its station)', async () => {
    const m = await heatMap('wheelchair=true');
    expectNear(m, 'P2', 1260, WALK);
    expectNear(m, 'P4', Math.min(walk(4000), 1260 + walk(2000)), WALK);
  });

  test('forbidden_uris[] and allowed_id[]', async () => {
    for (const q of ['forbidden_uris[]=T1', 'allowed_id[]=B', 'forbidden_uris[]=s2', 'forbidden_uris[]=physical_mode:Train', 'allowed_id[]=s0&allowed_id[]=s4']) {
      expectNear(await heatMap(q), 'P2', walk(2000), WALK);
    }
    expectNear(await heatMap('forbidden_uris[]=B'), 'P4', 360 + walk(2000), WALK);
    expectNear(await heatMap('allowed_id[]=T1&allowed_id[]=B'), 'P4', 540, WALK);
  });

  test('data_freshness and disruption_active: the same timetable until realtime sources exist', async () => {
    const base = await heatMap('');
    assert.deepEqual(await heatMap('data_freshness=realtime'), base);
    assert.deepEqual(await heatMap('data_freshness=adapted_schedule'), base);
    assert.deepEqual(await heatMap('disruption_active=true'), base);
  });

  test('datetime_represents and partner_services are validated, without effect', async () => {
    const base = await heatMap('');
    assert.deepEqual(await heatMap('datetime_represents=arrival'), base);
    assert.deepEqual(await heatMap('partner_services[]=ridesharing'), base);
    const res = await app.inject({ method: 'GET', url: `/v1/coverage/town/heat_maps?from=${coord('P0')}&max_duration=60&datetime_represents=sideways` });
    assert.equal(res.statusCode, 400);
    assert.match(JSON.parse(res.body).message, /^parameter "datetime_represents" invalid/);
  });

  test('ridesharing is refused in any mode list', async () => {
    for (const name of ['first_section_mode[]', 'last_section_mode[]', 'direct_path_mode[]']) {
      const res = await app.inject({ method: 'GET', url: `/v1/coverage/town/heat_maps?from=${coord('P0')}&max_duration=60&${name}=ridesharing` });
      assert.equal(res.statusCode, 400);
      assert.equal(JSON.parse(res.body).message, "ridesharing isn't available on heatmaps");
    }
  });

  test('a centre far outside the coverage, at a pole or on the antimeridian: an all-null grid within valid coordinates', async () => {
    for (const [lonC, latC] of [[-180, -90], [180, 90], [179.9999, 0], [12, 89.999]]) {
      const m = await heatMap('', `from=${lonC};${latC}&datetime=20240102T080000`);
      for (const h of m.line_headers) {
        assert.ok(h.cell_lat.min_lat >= -90 && h.cell_lat.max_lat <= 90 && h.cell_lat.min_lat < h.cell_lat.max_lat, `${lonC};${latC}: latitude ${JSON.stringify(h.cell_lat)}`);
      }
      for (const l of m.lines) {
        assert.ok(l.cell_lon.min_lon >= -180 && l.cell_lon.max_lon <= 180 && l.cell_lon.min_lon < l.cell_lon.max_lon, `${lonC};${latC}: longitude ${JSON.stringify(l.cell_lon)}`);
        assert.ok(l.duration.every((d) => d === null));
      }
    }
  });
});
