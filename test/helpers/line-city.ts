/**
 * A hand-made city whose travel times are known, for the accessibility tests: one straight footway
 * 3 km long, east along the equator, walked at 1 m/s, and one bus from its west end (08:01) to its
 * east end (08:05), with the coverage's 60 s board slack. From the west end at 08:00 a point x
 * metres east is x seconds away on foot; the east end's stop is 300 s away by the bus (at the stop
 * by 08:00, it leaves at 08:01, arrives at 08:05), so the point at 2,900 m is 400 s away (300 s,
 * then 100 m back on foot). Its point set `places` holds six points on the footway (POINTS), a bad
 * row (line 8) and a point 5 km north of the footway, linked to nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFeed } from './gtfs-fixture.js';
import { writeOsm } from './osm-fixture.js';
import { serveCoverages, type ServeOptions } from './app.js';
import { METRES_PER_DEGREE } from '../../src/util/geodesy.js';

/** a hundredth of a degree east of the null island, which a feed may not name */
export const lonAt = (x: number) => 0.01 + x / METRES_PER_DEGREE;
export const coord = (x: number) => `${lonAt(x)};0`;

/** The points: metres east on the footway, their schools and jobs. */
export const POINTS: [string, number, number, number][] = [
  ['p100', 100, 1, 10],
  ['p500', 500, 1, 20],
  ['p1000', 1000, 1, 30],
  ['p1750', 1750, 1, 40],
  ['p1850', 1850, 1, 50],
  ['p2900', 2900, 1, 60],
];

/**
 * The city served as the coverage `line`; `extraSets`: more point sets, as name and CSV text; `app`:
 * the app's options; `scenarios`: scenarios, as name and the text of their file.
 */
export async function lineCity(extraSets: Record<string, string> = {}, app?: ServeOptions['app'], scenarios: Record<string, string> = {}) {
  const nodes = [0, ...POINTS.map((p) => p[1]), 3000].map((x, k) => ({ id: k + 1, lon: lonAt(x), lat: 0 }));
  const osm = writeOsm({ nodes, ways: [{ id: 1, refs: nodes.map((n) => n.id), tags: { highway: 'footway', name: 'Long walk' } }] });
  const gtfs = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Line,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
west,West,0,${lonAt(0)}
east,East,0,${lonAt(3000)}
# routes.txt
route_id,agency_id,route_short_name,route_type
bus,N,B,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
bus,all,t1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
t1,08:01:00,08:01:00,west,1
t1,08:05:00,08:05:00,east,2
`);
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-points-'));
  const csv = path.join(dir, 'places.csv');
  writeFileSync(
    csv,
    [
      'id,lon,lat,schools,jobs',
      ...POINTS.map(([id, x, schools, jobs]) => `${id},${lonAt(x)},0,${schools},${jobs}`),
      'bad,east,0,1,1',
      // 5 km north of the footway: linked to nothing, never reached
      `far,${lonAt(1000)},${5000 / METRES_PER_DEGREE},1,1000`,
    ].join('\n') + '\n',
  );
  const extra = Object.entries(extraSets).map(([name, text]) => {
    const file = path.join(dir, `${name}.csv`);
    writeFileSync(file, text);
    return { name, file };
  });
  const scenarioFiles = Object.entries(scenarios).map(([name, text]) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, text);
    return { name, path: file };
  });
  return serveCoverages([{ id: 'line', gtfs: [gtfs], osm, timezone: 'UTC', pointSets: [{ name: 'places', file: csv }, ...extra], ...(scenarioFiles.length > 0 ? { scenarios: scenarioFiles } : {}) }], { app });
}

