/**
 * The coverages every API test runs against, and the helpers that build the app and query it.
 *
 * Coverage `town` (Europe/Paris), one feed with two agencies. Stops on the meridian lon 5.0, so
 * distances are latitude differences (0.001° ≈ 111.2 m):
 *
 *   lat 45.0000  GARE_1 ┐ station GARE
 *   lat 45.0005  GARE_2 ┘                 (GARE_2 is 55.6 m north of GARE_1)
 *   lat 45.0015  MARCHE                   (167 m from GARE_1)
 *   lat 45.0030  ECOLE                    (334 m from GARE_1; from ECOLE: MARCHE 167 m, GARE_2 278 m, GARE_1 334 m)
 *   lat 45.0100  PARC
 *   lat 45.0200  MUSEE          FERME (5.02, 45.02), zone G_RURAL = {FERME}
 *
 *   network RED : line B1 (bus)  GARE_1 → MARCHE → PARC → MUSEE   B1-0800, B1-0900 (direction 0)
 *                                MUSEE → PARC → MARCHE → GARE_1   B1-1700          (direction 1)
 *                 line B2 (bus)  GARE_2 → ECOLE                    B2-1000 (weekends), B2-1100 (two days only)
 *                 line N1 (bus)  PARC 25:30 → MUSEE 25:50          N1-2530 (after midnight)
 *   network BLUE: line T1 (tram) GARE_1 → MUSEE                    T1-FREQ (every 10 min, 06:05 to 06:55)
 *                 line D1 (bus)  FERME → GARE_2 (pickup booked)    D1-ODT  (odt with_stops)
 *                                G_RURAL → GARE_2                  D1-ZONE (odt zonal)
 *
 * Calendars (January 2024; the 1st is a Monday): WK weekdays minus the 1st plus Saturday the 6th;
 * WE weekends minus Sunday the 7th; ALL every day from the 2nd; HOL only the 15th and 10 February.
 * So the production period runs from 20240102 to 20240210.
 *
 * Coverage `valley` (America/Toronto): line V, trips V-1 and V-2, every day of March 2024.
 * Coverage `pending` is never loaded (loading_data); coverage `broken` failed to load (dead).
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_LIMITS } from '../../src/service/limits.js';
import { tripsParams } from '../../src/api/trips/trips-params.js';
import type { CoverageRegistry } from '../../src/service/coverage-registry.js';
import { getAnswer, serveCoverages, type Answer } from './app.js';
import { writeFeed } from './gtfs-fixture.js';
import { navitiaError } from './http.js';
import type { ParamSpec } from '../../src/queries/param-table.js';

export const TOWN = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
RED,Red Buses,http://red.example,Europe/Paris
BLUE,Blue Trams,http://blue.example,Europe/Paris
# feed_info.txt
feed_publisher_name,feed_publisher_url,feed_lang
Town Open Data,https://data.town.example,fr
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
GARE,Gare,45.0,5.0,1,
GARE_1,Gare quai 1,45.0,5.0,0,GARE
GARE_2,Gare quai 2,45.0005,5.0,0,GARE
MARCHE,Marché,45.0015,5.0,0,
ECOLE,École,45.003,5.0,0,
PARC,Parc,45.01,5.0,0,
MUSEE,Musée,45.02,5.0,0,
FERME,Ferme,45.02,5.02,0,
# location_groups.txt
location_group_id,location_group_name
G_RURAL,Zone rurale
# location_group_stops.txt
location_group_id,stop_id
G_RURAL,FERME
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
B1,RED,1,Gare - Musée,3
B2,RED,2,Gare - École,3
N1,RED,N,Noctambus,3
T1,BLUE,T,Tram,0
D1,BLUE,D,Transport à la demande,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WK,1,1,1,1,1,0,0,20240101,20240131
WE,0,0,0,0,0,1,1,20240101,20240131
ALL,1,1,1,1,1,1,1,20240102,20240131
# calendar_dates.txt
service_id,date,exception_type
WK,20240101,2
WK,20240106,1
WE,20240107,2
HOL,20240115,1
HOL,20240210,1
# trips.txt
route_id,service_id,trip_id,trip_headsign,trip_short_name,direction_id
B1,WK,B1-0800,Musée,101,0
B1,WK,B1-0900,Musée,102,0
B1,WK,B1-1700,Gare,103,1
B2,WE,B2-1000,École,,0
B2,HOL,B2-1100,École,,0
N1,WK,N1-2530,Nuit,,0
T1,ALL,T1-FREQ,,,0
D1,WK,D1-ODT,Gare,TAD1,0
D1,WK,D1-ZONE,Gare,TAD2,0
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type
B1-0800,08:00:00,08:00:00,GARE_1,1,Centre,,
B1-0800,08:05:00,08:05:00,MARCHE,2,,,
B1-0800,08:10:00,08:10:00,PARC,3,,,
B1-0800,08:20:00,08:20:00,MUSEE,4,,,
B1-0900,09:00:00,09:00:00,GARE_1,1,,,
B1-0900,09:05:00,09:05:00,MARCHE,2,,,
B1-0900,09:10:00,09:10:00,PARC,3,,,
B1-0900,09:20:00,09:20:00,MUSEE,4,,,
B1-1700,17:00:00,17:00:00,MUSEE,1,,,
B1-1700,17:10:00,17:10:00,PARC,2,,,
B1-1700,17:15:00,17:15:00,MARCHE,3,,,
B1-1700,17:20:00,17:20:00,GARE_1,4,,,
B2-1000,10:00:00,10:00:00,GARE_2,1,,,
B2-1000,10:10:00,10:10:00,ECOLE,2,,,
B2-1100,11:00:00,11:00:00,GARE_2,1,,,
B2-1100,11:10:00,11:10:00,ECOLE,2,,,
N1-2530,25:30:00,25:30:00,PARC,1,,,
N1-2530,25:50:00,25:50:00,MUSEE,2,,,
T1-FREQ,06:05:00,06:05:00,GARE_1,1,,,
T1-FREQ,06:25:00,06:25:00,MUSEE,2,,,
D1-ODT,13:00:00,13:00:00,FERME,1,,2,
D1-ODT,13:30:00,13:30:00,GARE_2,2,,,
D1-ZONE,14:00:00,14:00:00,G_RURAL,1,,2,2
D1-ZONE,14:30:00,14:30:00,GARE_2,2,,,
# frequencies.txt
trip_id,start_time,end_time,headway_secs
T1-FREQ,06:05:00,07:05:00,600
`;

export const VALLEY = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
VT,Valley Transit,http://valley.example,America/Toronto
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
V1,Valley North,45.5,-73.5
V2,Valley South,45.49,-73.5
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
V,VT,V,Valley line,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
DAILY,1,1,1,1,1,1,1,20240301,20240331
# trips.txt
route_id,service_id,trip_id,trip_headsign,trip_short_name,direction_id
V,DAILY,V-1,South,,0
V,DAILY,V-2,South,,0
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
V-1,07:00:00,07:00:00,V1,1
V-1,07:20:00,07:20:00,V2,2
V-2,08:00:00,08:00:00,V1,1
V-2,08:20:00,08:20:00,V2,2
`;

/** Trip ids of `town`, in load (file) order: the order of every trips answer. */
export const TOWN_TRIPS = ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100', 'N1-2530', 'T1-FREQ', 'D1-ODT', 'D1-ZONE'];

/** Stop coordinates of `town` (lon, lat), as written in stops.txt. */
export const TOWN_STOPS: Record<string, [number, number]> = {
  GARE_1: [5.0, 45.0],
  GARE_2: [5.0, 45.0005],
  MARCHE: [5.0, 45.0015],
  ECOLE: [5.0, 45.003],
  PARC: [5.0, 45.01],
  MUSEE: [5.0, 45.02],
  FERME: [5.02, 45.02],
  G_RURAL: [5.02, 45.02],
};

export interface TestServer {
  app: FastifyInstance;
  registry: CoverageRegistry;
  /** Folder of the town feed (its modification time is the dataset creation time). */
  townFeed: string;
  /** Epoch seconds around the load of the coverages. */
  loadedFrom: number;
  loadedTo: number;
}

let server: Promise<TestServer> | undefined;

/** The app over the four coverages, built once per test file. */
export function testServer(): Promise<TestServer> {
  server ??= build();
  return server;
}

async function build(): Promise<TestServer> {
  const townFeed = writeFeed(TOWN, 'town');
  const valleyFeed = writeFeed(VALLEY, 'valley');
  const loadedFrom = Math.floor(Date.now() / 1000);
  const { app, registry } = await serveCoverages(
    [
      { id: 'town', gtfs: [townFeed] },
      { id: 'valley', gtfs: [valleyFeed] },
      { id: 'pending', gtfs: [] },
      { id: 'broken', gtfs: [`${townFeed}-missing`] },
    ],
    { unloaded: ['pending'], failing: ['broken'] },
  );
  const loadedTo = Math.ceil(Date.now() / 1000);
  return { app, registry, townFeed, loadedFrom, loadedTo };
}

/** Modification time of a folder, epoch seconds. */
export function mtimeSec(folder: string): number {
  return Math.floor(statSync(folder).mtimeMs / 1000);
}

export type { Answer };

/** GET `url` from the app over the four coverages. */
export async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return getAnswer((await testServer()).app, url, headers);
}

/** Ids of the trips of a 200 answer (fails when the answer is not a page of trips). */
export function ids(a: Answer): string[] {
  if (a.status !== 200) throw new Error(`expected 200, got ${a.status}: ${a.body}`);
  return (a.json.trips ?? []).map((t: { id: string }) => t.id);
}

/** Trips of `town` for a query string (and an optional `{uri}` prefix), as ids. */
export async function townTrips(query = '', uri = ''): Promise<string[]> {
  const q = query ? `${query}&count=100` : 'count=100';
  return ids(await get(`/v1/coverage/town/${uri ? `${uri}/` : ''}trips?${q}`));
}

/** The engine's message for an empty result (navitia-trips.md §4.1). */
export const NOT_FOUND_MESSAGE = 'ptref : Filters: Unable to find object';

/** GET `url` answers the engine's empty result: 404 `unknown_object`, and no trips. */
export async function notFound(url: string): Promise<void> {
  const a = await get(url);
  assert.equal(a.status, 404, `${url}: ${a.body}`);
  assert.deepEqual(navitiaError(a.json.error), { id: 'unknown_object', message: NOT_FOUND_MESSAGE }, url);
  assert.equal('trips' in a.json, false, url);
}

/** Family A body text of a bad trips parameter: the reason, then the help text of the parameter table. */
export function paramMessage(name: string, reason: string, specs: readonly ParamSpec[] = tripsParams(DEFAULT_LIMITS, true)): string {
  const bare = name.replace(/\[\]$/, '');
  const spec = specs.find((s) => s.name === bare);
  if (!spec) throw new Error(`no parameter ${name}`);
  return `parameter "${name}" invalid: ${reason}\n${name} description: ${spec.description}`;
}

/** Family C body (navitia-trips.md §4.1, §8.1) of `town` at `_current_datetime=20240115T120000` (13:00 in Paris). */
export function townEngineError(id: string, message: string): unknown {
  return {
    error: { id, message },
    pagination: { total_result: 0, start_page: 0, items_per_page: 0, items_on_page: 0 },
    disruptions: [],
    feed_publishers: [TOWN_PUBLISHER],
    context: { current_datetime: '20240115T130000', timezone: 'Europe/Paris' },
  };
}

/** The publisher of `town`, from its feed_info.txt (the feed's key is its folder name). */
export const TOWN_PUBLISHER = { id: 'town', name: 'Town Open Data', url: 'https://data.town.example', license: '' };

/** A fixed "now" for answers compared whole: 12:00 UTC on Monday 15 January 2024. */
export const NOW = '_current_datetime=20240115T120000';
