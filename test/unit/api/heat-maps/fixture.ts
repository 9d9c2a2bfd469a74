/**
 * The routing fixture of Navitia's heat-map tests (navitia-heat-maps.md §6.1), rebuilt as a GTFS
 * feed plus an OpenStreetMap XML street extract: fourteen points laid out in metres, walking
 * streets between them, three stop areas and four one-stop-hop lines on 2012-06-14 (UTC).
 */
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { osmXml, writeOsm, type OsmFixture } from '../../../helpers/osm-fixture.js';
import { serveCoverages } from '../../../helpers/app.js';

/** Metres per degree used by the original fixture to place its points. */
const M = 111319.9;

/** The points, in metres east and north of the origin. */
export const POINTS_M: Record<string, [number, number]> = {
  A: [120, 80],
  G: [100, 80],
  H: [100, 100],
  I: [70, 100],
  J: [70, 120],
  K: [10, 120],
  B: [10, 30],
  C: [220, 30],
  F: [220, 50],
  E: [120, 50],
  R: [210, 80],
  S: [10, 10],
  D: [0, 30],
  T: [50, 10],
  // a bend that makes the A–B street 200 m long, as in the original (its length is not the straight one)
  X: [98, -17.6],
};

export const lonOf = (p: string) => POINTS_M[p]![0] / M;
export const latOf = (p: string) => POINTS_M[p]![1] / M;
/** `lon;lat` of a point. */
export const coordOf = (p: string) => `${lonOf(p)};${latOf(p)}`;

const STREETS: string[][] = [
  ['A', 'X', 'B'],
  ['A', 'R'],
  ['B', 'S'],
  ['B', 'D'],
  ['S', 'T'],
  ['A', 'G'],
  ['A', 'E'],
  ['E', 'F'],
  ['F', 'C'],
  ['C', 'B'],
  ['G', 'H'],
  ['H', 'I'],
  ['I', 'J'],
  ['J', 'K'],
  ['K', 'B'],
];

/** The streets: node k + 1 is the k-th point, way 100 + k the k-th street, footways named after their points. */
export function fixtureStreets(): OsmFixture {
  const names = Object.keys(POINTS_M);
  const id = (p: string) => names.indexOf(p) + 1;
  return {
    nodes: names.map((p) => ({ id: id(p), lon: lonOf(p), lat: latOf(p) })),
    ways: STREETS.map((way, k) => ({ id: 100 + k, refs: way.map(id), tags: { highway: 'footway', name: `Street ${way.join('')}` } })),
  };
}

/** The streets as an OSM XML file in a fresh temporary folder. */
export function writeFixtureOsm(): string {
  return writeOsm(fixtureStreets(), 'streets.osm');
}

/** The streets as OSM XML text, for a test that writes the file itself. */
export function fixtureOsmXml(): string {
  return osmXml(fixtureStreets());
}

export function fixtureGtfs(): string {
  const stop = (id: string, name: string, p: string, type: number, parent = '') => `${id},${name},${latOf(p)},${lonOf(p)},${type},${parent}`;
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Routing test,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
${stop('stopA', 'stopA', 'A', 1)}
${stop('stopB', 'stopB', 'B', 1)}
${stop('stopC', 'stopC', 'J', 1)}
${stop('stop_point:stopA', 'stopA', 'A', 0, 'stopA')}
${stop('stop_point:uselessA', 'uselessA', 'A', 0, 'stopA')}
${stop('stop_point:stopB', 'stopB', 'B', 0, 'stopB')}
${stop('stop_point:stopC', 'stopC', 'J', 0, 'stopC')}
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
A,N,A,Line A,3
M,N,M,Line M,3
C,N,C,Line C,3
D,N,D,Line D,1
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20120614,20130613
# trips.txt
route_id,service_id,trip_id
A,all,vjA
M,all,vjM
C,all,vjC
D,all,vjD
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
vjA,08:01:00,08:01:00,stop_point:stopB,1
vjA,08:01:02,08:01:02,stop_point:stopA,2
vjM,08:01:01,08:01:01,stop_point:stopB,1
vjM,08:01:03,08:01:03,stop_point:stopA,2
vjC,08:01:00,08:01:00,stop_point:stopA,1
vjC,08:01:02,08:01:02,stop_point:stopB,2
vjD,08:01:00,08:01:00,stop_point:stopA,1
vjD,08:01:02,08:01:02,stop_point:stopC,2
`;
}

/** An app serving the fixture as coverage `main_routing_test` (and `no_streets`, the same feed without OSM). */
export async function fixtureApp() {
  const gtfs = writeFeed(fixtureGtfs());
  const osm = writeFixtureOsm();
  // Navitia's own test cases know no board slack: the fixture's coverage sets none
  const { app } = await serveCoverages([
    { id: 'main_routing_test', gtfs: [gtfs], osm, timezone: 'UTC', boardSlackSec: 0 },
    { id: 'no_streets', gtfs: [gtfs], timezone: 'UTC', boardSlackSec: 0 },
  ]);
  return app;
}

interface HeatMatrix {
  line_headers: { cell_lat: { min_lat: number; center_lat: number; max_lat: number } }[];
  lines: { cell_lon: { min_lon: number; center_lon: number; max_lon: number }; duration: (number | null)[] }[];
}

/** The value of the cell holding (lon, lat), read as Navitia's tests read it (bounds inclusive). */
export function cellAt(matrix: HeatMatrix, lon: number, lat: number): number | null | undefined {
  const j = matrix.line_headers.findIndex((h) => h.cell_lat.min_lat <= lat && lat <= h.cell_lat.max_lat);
  const i = matrix.lines.findIndex((l) => l.cell_lon.min_lon <= lon && lon <= l.cell_lon.max_lon);
  if (i < 0 || j < 0) return undefined;
  return matrix.lines[i]!.duration[j];
}

export type { HeatMatrix };
