/**
 * The street oracle (street-transit-oracle.ts) and its pgRouting network
 * (test/helpers/pgrouting-walk-network.ts) on a tiny written town, against values computed by hand.
 *
 * The town lies on the equator, where WGS 84's ellipsoid gives 111,319.49 m per degree of longitude
 * (along the equator) and 110,574.27 m per degree of latitude (along a meridian): pgRouting's
 * lengths and PostGIS's geography distances are on the ellipsoid. One street runs east along the
 * equator from 0° to 0.1°; every stop and cell sits 0.0001° (11.06 m) north or south of it, so each
 * end of a walk adds 11.06 m. Side ways leave the street northwards: a private one at 0.07°, a
 * `foot=no` one at 0.075°, a motor road at 0.085°, a motorway at 0.088°, and a footway lies alone
 * near 0.06° (an island; a second extract without it maps no walkway at all). Walking speed 1 m/s;
 * Tuesday 2024-03-05, Africa/Abidjan (UTC), from 08:00:
 *
 *   O (0°) centre · A 0.001° · M 0.01° · N 0.02° · B 0.03° · C 0.032° · F 0.039° · D 0.055° · E 0.08° · H 0.099°
 *   T1 A 08:03 → B 08:10   missed: O → A is 133.4 s, + 60 s slack = 08:03:13
 *   T2 A 08:04 → B 08:11   caught
 *   T3 B 08:11:30 → E 08:20  missed: same stop, 08:11 + 60 s
 *   T4 B 08:12 → E 08:21   caught (08:11 + 60 s = 08:12:00, just in time)
 *   T5 C 08:16 → D 08:25   missed: B → C is 244.8 s (08:15:04.8), + 60 s
 *   T6 C 08:16:30 → D 08:26  caught
 *   T7 F 08:40 → H 08:45   out of reach: F is 1,024 m from B (over 1,000 m), and 801 m from C, which
 *                          only a walk reaches (no walk after a walk)
 *   T8 A 08:30 → M → N → B 08:37, M and N untimed (times by distance); T9 the same by shape_dist_traveled
 *
 * A cell 552.9 m north of the street is linked to it (within the 600 m link radius), one 718.7 m north is not.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { writeOsm, type OsmNode, type OsmWay } from '../helpers/osm-fixture.js';
import { closeWalkNetworks, openWalkNetwork, type LinkedPoint, type PgRoutingWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import { pgRoutingMissing } from '../helpers/pgrouting-tools.js';
import { FeedConnections } from './interpolated-connections.js';
import { RULES, type City } from './street-check-settings.js';
import { instantOf, StreetTransitOracle } from './street-transit-oracle.js';

const skip = pgRoutingMissing();
if (skip) process.stdout.write(`# street-transit-oracle skipped: ${skip}\n`);

/** WGS 84 at the equator: metres per degree along it, and along a meridian. */
const EAST_M = 111_319.4908;
const NORTH_M = 110_574.2727;
/** every stop and cell is this far from the street */
const SIDE_DEG = 0.0001;
const OFFSET_M = SIDE_DEG * NORTH_M;
/** tolerance of a distance (the ellipsoid's figures above, to 1e-4, over 11 km) */
const EPS_M = 0.05;

/** folders written by this file, removed at the end */
const written: string[] = [];

/** The town's streets as OSM XML; `withFootway`: with the lone footway (then the extract maps walkways). */
function writeTown(withFootway: boolean): string {
  const nodes: OsmNode[] = [];
  const ways: OsmWay[] = [];
  // coordinates to 1e-7°, as OSM keeps them
  const node = (lon: number, lat: number) => {
    nodes.push({ id: nodes.length + 1, lon: Number(lon.toFixed(7)), lat: Number(lat.toFixed(7)) });
    return nodes.length;
  };
  const street: number[] = [];
  const junction = new Map<number, number>();
  for (let k = 0; k <= 100; k++) {
    const lon = k / 1000;
    street.push(node(lon, 0));
    junction.set(k, street[street.length - 1]!);
  }
  ways.push({ id: ways.length + 1, refs: street, tags: { highway: 'residential', name: 'Equator street' } });
  const side = (k: number, tags: Record<string, string>) => ways.push({ id: ways.length + 1, refs: [junction.get(k)!, node(k / 1000, 0.002)], tags });
  side(70, { highway: 'service', access: 'private' });
  side(75, { highway: 'primary', foot: 'no' });
  side(85, { highway: 'trunk', motorroad: 'yes' });
  side(88, { highway: 'motorway' });
  if (withFootway) {
    const ends = [node(0.0595, 0.0004), node(0.0605, 0.0004)];
    ways.push({ id: ways.length + 1, refs: ends, tags: { highway: 'footway' } });
  }
  const file = writeOsm({ nodes, ways }, 'town.osm');
  written.push(path.dirname(file));
  return file;
}

const stop = (id: string, lon: number) => `${id},${id},${SIDE_DEG},${lon}`;
const FEED = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Agency,http://a.example,Africa/Abidjan
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
${stop('A', 0.001)}
${stop('M', 0.01)}
${stop('N', 0.02)}
${stop('B', 0.03)}
${stop('C', 0.032)}
${stop('F', 0.039)}
${stop('D', 0.055)}
${stop('E', 0.08)}
${stop('H', 0.099)}
# routes.txt
route_id,agency_id,route_short_name,route_type
R,A,1,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WEEK,1,1,1,1,1,0,0,20240101,20241231
# trips.txt
route_id,service_id,trip_id
R,WEEK,T1
R,WEEK,T2
R,WEEK,T3
R,WEEK,T4
R,WEEK,T5
R,WEEK,T6
R,WEEK,T7
R,WEEK,T8
R,WEEK,T9
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
T1,08:03:00,08:03:00,A,1,
T1,08:10:00,08:10:00,B,2,
T2,08:04:00,08:04:00,A,1,
T2,08:11:00,08:11:00,B,2,
T3,08:11:30,08:11:30,B,1,
T3,08:20:00,08:20:00,E,2,
T4,08:12:00,08:12:00,B,1,
T4,08:21:00,08:21:00,E,2,
T5,08:16:00,08:16:00,C,1,
T5,08:25:00,08:25:00,D,2,
T6,08:16:30,08:16:30,C,1,
T6,08:26:00,08:26:00,D,2,
T7,08:40:00,08:40:00,F,1,
T7,08:45:00,08:45:00,H,2,
T8,08:30:00,08:30:00,A,1,
T8,,,M,2,
T8,,,N,3,
T8,08:37:00,08:37:00,B,4,
T9,09:00:00,09:00:00,A,1,0
T9,,,M,2,100
T9,09:04:00,09:04:00,B,3,400
`);

const TOWN: City = { id: 'town', gtfs: [FEED], osm: writeTown(true), datetime: '20240305T080000', walkingSpeed: 1 };
/** the same streets without a walkway */
const CAR_ROADS_ONLY = writeTown(false);
const T0 = Date.UTC(2024, 2, 5, 8, 0, 0) / 1000;

let network: PgRoutingWalkNetwork;
let carRoadsOnly: PgRoutingWalkNetwork;
let oracle: StreetTransitOracle;

before(async () => {
  if (skip) return;
  network = await openWalkNetwork(TOWN.osm);
  carRoadsOnly = await openWalkNetwork(CAR_ROADS_ONLY);
  oracle = await StreetTransitOracle.open(TOWN, network);
});

after(async () => {
  await closeWalkNetworks();
  for (const folder of [...written, path.dirname(FEED)]) rmSync(folder, { recursive: true, force: true });
});

/** A walk along the street between longitudes, with both ends' offsets. */
const walkM = (lonA: number, lonB: number) => OFFSET_M + Math.abs(lonB - lonA) * EAST_M + OFFSET_M;
const near = (got: number | null | undefined, want: number, what: string) => assert.ok(got !== null && got !== undefined && Math.abs(got - want) <= EPS_M, `${what}: ${got} m, ${want.toFixed(3)} m wanted`);

test('interpolated connections: untimed stop times by distance, or by shape_dist_traveled', async () => {
  const feed = await FeedConnections.load([FEED]);
  assert.equal(feed.interpolated, 3);
  assert.equal(feed.timezone, 'Africa/Abidjan');
  assert.equal(instantOf(TOWN.datetime, feed.timezone), T0);
  const c = feed.departingWithin(T0 + 30 * 60, T0 + 30 * 60 + 599);
  const times = [...c.dep.keys()].map((k) => `${feed.stops[c.from[k]!]!.id} ${c.dep[k]! - T0} → ${feed.stops[c.to[k]!]!.id} ${c.arr[k]! - T0}`);
  // T8: A (0.001°) → M (0.01°) → N (0.02°) → B (0.03°), 9 : 10 : 10 of 420 s: M at 130.34 → 130 s, N at 275.17 → 275 s
  assert.deepEqual(times, ['0/A 1800 → 0/M 1930', '0/M 1930 → 0/N 2075', '0/N 2075 → 0/B 2220']);
  // T9: shape_dist_traveled 0, 100, 400 over 240 s: M at 60 s
  const t9 = feed.departingWithin(T0 + 3600, T0 + 3600 + 600);
  assert.deepEqual([...t9.dep].map((t) => t - T0), [3600, 3660]);
});

test('walking network: the ways closed to walkers and the islands are left out', { skip }, async () => {
  const at = (n: PgRoutingWalkNetwork, lon: number, lat: number) => n.link([{ lon, lat }]).then((l) => l[0]!);
  // a point by a side way: linked to it when walkers may use it, else to the street 0.0015° south
  assert.equal(network.mapsWalkways, true);
  near((await at(network, 0.0751, 0.0015)).offsetM, 0.0015 * NORTH_M, 'by the foot=no road, the extract mapping walkways (removed)');
  near((await at(network, 0.0701, 0.0015)).offsetM, 0.0015 * NORTH_M, 'by the private service road (removed)');
  near((await at(network, 0.0851, 0.0015)).offsetM, 0.0015 * NORTH_M, 'by the motor road (removed)');
  near((await at(network, 0.0881, 0.0015)).offsetM, 0.0015 * NORTH_M, 'by the motorway (not imported)');
  near((await at(network, 0.06, 0.0004)).offsetM, 0.0004 * NORTH_M, 'on the lone footway (an island: removed)');
  // without any walkway in the extract, the foot=no road stands for its sidewalk
  assert.equal(carRoadsOnly.mapsWalkways, false);
  near((await at(carRoadsOnly, 0.0751, 0.0015)).offsetM, 0.0001 * EAST_M, 'by the foot=no road, no walkway mapped (kept)');
  near((await at(carRoadsOnly, 0.0701, 0.0015)).offsetM, 0.0015 * NORTH_M, 'by the private service road, no walkway mapped (removed)');
});

test('walking network: walks are offset + pgRouting distance + offset, from one point or many', { skip }, async () => {
  const [o, a, b, nearJunction, h] = await network.link([
    { lon: 0, lat: SIDE_DEG },
    { lon: 0.001, lat: SIDE_DEG },
    { lon: 0.03, lat: -SIDE_DEG },
    { lon: 0.07, lat: -SIDE_DEG },
    { lon: 0.099, lat: SIDE_DEG },
  ]) as LinkedPoint[];
  // by a junction (where the private way met the street): at an edge's end, exactly (pgRouting's special case)
  assert.ok(Math.abs(nearJunction!.fraction - Math.round(nearJunction!.fraction)) < 1e-6, `fraction ${nearJunction!.fraction}`);
  const junction: LinkedPoint = { ...nearJunction!, fraction: Math.round(nearJunction!.fraction) };
  const from = await network.walkFrom(o!, [a!, b!, junction, h!, o!]);
  near(from[0], walkM(0, 0.001), 'O → A');
  near(from[1], walkM(0, 0.03), 'O → B');
  near(from[2], walkM(0, 0.07), 'O → the junction');
  near(from[3], walkM(0, 0.099), 'O → H');
  near(from[4], 2 * OFFSET_M, 'O → O');
  // bounded: the same walks up to 3,500 m, none beyond
  const within = (await network.walksWithin([o!], [a!, b!, junction, h!], 3500)).sort((x, y) => x.target - y.target);
  assert.deepEqual(within.map((w) => w.target), [0, 1]);
  near(within[0]!.metres, walkM(0, 0.001), 'O → A, bounded');
  near(within[1]!.metres, walkM(0, 0.03), 'O → B, bounded');
});

test('street oracle: board slack, transfers of at most 1,000 m, one walk between vehicles, egress limit', { skip }, async () => {
  const cell = (lon: number) => ({ lon, lat: -SIDE_DEG });
  const { values, stopsWalkedTo, stopsRidden } = await oracle.values({ lon: 0, lat: SIDE_DEG }, [
    cell(0.001), // A: the direct walk
    cell(0.03), // B: T2 (T1 is missed by the slack), 08:11 + 22.1 m
    cell(0.08), // E: T4 (T3 is missed by the slack at the same stop), 08:21 + 22.1 m
    cell(0.055), // D: T6 (T5 is missed by the slack after the walk from B to C), 08:26 + 22.1 m
    cell(0.099), // H: only by T7 from F, which no allowed walk reaches: null
    cell(0.0953), // 1,725.3 m from E: 08:21 + 1,725.3 s
    cell(0.0965), // 1,858.9 m from E, over the 1,800 s of egress: null
    { lon: 0.01, lat: 0.005 }, // 552.9 m from the street, within the 600 m link radius: walked from O
    { lon: 0.01, lat: 0.0065 }, // 718.7 m from the street, beyond the link radius: null
  ], 3600);
  assert.deepEqual(values, [
    Math.floor(walkM(0, 0.001)),
    Math.floor(660 + 2 * OFFSET_M),
    Math.floor(1260 + 2 * OFFSET_M),
    Math.floor(1560 + 2 * OFFSET_M),
    null,
    Math.floor(1260 + walkM(0.08, 0.0953)),
    null,
    Math.floor(OFFSET_M + 0.01 * EAST_M + 0.005 * NORTH_M),
    null,
  ]);
  assert.equal(RULES.linkRadiusM, 600);
  // on foot within 1,800 s of O (at most 0.0159°): A and M
  assert.equal(stopsWalkedTo, 2);
  // by a vehicle: B (T2, T8), E (T4), D (T6), M and N (T8)
  assert.equal(stopsRidden, 5);
  assert.ok(oracle.transferCount > 0);
});

test('street oracle: a centre that is a stop is at that stop at once; a heat map\'s cells walk from the stop up to the horizon', { skip }, async () => {
  const a = oracle.stopIndex('A');
  assert.ok(a >= 0);
  const stopA = oracle.timetable.stops[a]!;
  const { values } = await oracle.values(stopA, [
    { lon: 0.03, lat: -SIDE_DEG }, // B: T1 now caught (at A at 08:00, + 60 s ≤ 08:03), 08:10 + 22.1 m
    { lon: 0.0965, lat: -SIDE_DEG }, // 1,858.9 m from E, a cell's walk up to the horizon: T3 now caught at B (08:10 + 60 s), 08:20 + 1,858.9 s
  ], 3600, { atStop: a, cells: true });
  assert.deepEqual(values, [Math.floor(600 + 2 * OFFSET_M), Math.floor(1200 + walkM(0.08, 0.0965))]);
  assert.equal(oracle.stopIndex('nowhere'), -1);
});
