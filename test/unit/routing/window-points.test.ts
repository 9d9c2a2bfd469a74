/**
 * A departure window's percentiles at the points of a set (routing/window-heat-map.ts), against the
 * single departures of its minutes computed one by one (routing/heat-map.ts): each minute's value is
 * the single departure's (T when unreached), and the p-th percentile the value of rank
 * ceil(p / 100 × minutes). On a road walked and cycled, 3 km east, with a bus every 2 minutes from
 * its west end, and two end legs from the stops (walking and bike): the bike is faster, so the two
 * legs improve the points at different minutes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeatMapEngine } from '../../../src/routing/heat-map.js';
import { WindowEngine } from '../../../src/routing/window-heat-map.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { serveCoverages } from '../../helpers/app.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { writeOsm } from '../../helpers/osm-fixture.js';
import { walkingQueryFrom } from '../../helpers/heat-map-query.js';
import { lonAt } from '../../helpers/line-city.js';

const nodes = Array.from({ length: 31 }, (_, k) => ({ id: k + 1, lon: lonAt(k * 100), lat: 0 }));
const osm = writeOsm({ nodes, ways: [{ id: 1, refs: nodes.map((n) => n.id), tags: { highway: 'residential' } }] });
const runs = Array.from({ length: 8 }, (_, k) => {
  const at = (min: number) => `08:${String(min).padStart(2, '0')}:00`;
  return [`t${k},${at(1 + 2 * k)},${at(1 + 2 * k)},west,1`, `t${k},${at(5 + 2 * k)},${at(5 + 2 * k)},east,2`].join('\n');
});
const gtfs = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Road,http://example.org,UTC
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
${runs.map((_, k) => `bus,all,t${k}`).join('\n')}
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
${runs.join('\n')}
`);
const dir = mkdtempSync(path.join(tmpdir(), 'navette-window-points-'));
const csv = path.join(dir, 'road.csv');
writeFileSync(csv, ['id,lon,lat,n', ...Array.from({ length: 30 }, (_, k) => `r${k},${lonAt(50 + k * 100)},0,1`)].join('\n') + '\n');
const served = await serveCoverages([{ id: 'road', gtfs: [gtfs], osm, timezone: 'UTC', pointSets: [{ name: 'road', file: csv }] }]);
const data = served.generations.get('road')!.streets!.data;
const points = data.pointSets![0]!;

test('a window at points, walking and cycling from the stops: each percentile the single departures\' of its rank', () => {
  const engine = new HeatMapEngine(data, 3600, 500);
  const windowEngine = new WindowEngine(engine, 3600);
  const T = 1800;
  const minutes = 9;
  // from the west end at 07:58, walking there, then walking or cycling from the east stop; no direct path
  const query = walkingQueryFrom(data.stopLon, data.stopLat, 0, zonedToEpoch('UTC', 2024, 1, 2, 7, 58, 0), { endModes: ['walking', 'bike'], directPath: false, maxDurationSec: T });
  const window = { windowSec: minutes * 60, percentiles: [5, 50, 95], selected: 1 };
  const got = windowEngine.computePoints(query, window, points).percentiles!.map((m) => Array.from(m.seconds));
  // each minute alone
  const perMinute = Array.from({ length: minutes }, (_, k) => Array.from(engine.computePoints({ ...query, t0: query.t0 + 60 * k }, points).seconds, (s) => (s < 0 ? T : s)));
  const expected = window.percentiles.map((p) =>
    Array.from({ length: points.lon.length }, (_, c) => {
      const values = perMinute.map((row) => row[c]!).sort((a, b) => a - b);
      const sec = values[Math.max(1, Math.ceil((p / 100) * minutes)) - 1]!;
      return sec < T ? sec : -1;
    }),
  );
  got.forEach((row, p) => row.forEach((sec, c) => assert.ok(Math.abs(sec - expected[p]![c]!) <= 1, `p${window.percentiles[p]}, point ${c}: window ${sec}, minutes ${expected[p]![c]}`)));
  // the case is one where the minutes differ and the bike carries farther than walking
  assert.ok(expected[0]!.some((sec, c) => sec !== expected[2]![c]), 'the percentiles differ somewhere');
  assert.ok(expected[1]!.filter((sec) => sec >= 0).length >= 20, `${expected[1]!.filter((sec) => sec >= 0).length} points reached at p50`);
});

test('the work a window does is counted (bench/floor.ts prints it): a search a minute, each point once, changes among the egress entries read', () => {
  const engine = new HeatMapEngine(data, 3600, 500);
  const windowEngine = new WindowEngine(engine, 3600);
  const minutes = 9;
  const query = walkingQueryFrom(data.stopLon, data.stopLat, 0, zonedToEpoch('UTC', 2024, 1, 2, 7, 58, 0), { endModes: ['walking', 'bike'], directPath: false, maxDurationSec: 1800 });
  windowEngine.computePoints(query, { windowSec: minutes * 60, percentiles: [50], selected: 0 }, points);
  const raptor = engine.raptor.work;
  const own = windowEngine.work;
  assert.equal(raptor.searches, minutes, 'one RAPTOR search per minute');
  // the one route, scanned from the west stop (2 stops) in the first round of the first minute
  // searched (08:06, for the 08:07 bus), and of each minute a new bus leaves within reach (08:05,
  // 08:03, 08:01): 4 scans, where scanning it in every minute's first round would make 9. Marked at
  // the east stop (a later round), its last, it is not scanned: boarded there, it goes nowhere
  assert.equal(raptor.routesScanned, 4, `${raptor.routesScanned} routes scanned in ${raptor.rounds} rounds`);
  assert.ok(raptor.rounds >= minutes, `${raptor.rounds} rounds`);
  assert.equal(raptor.visits, 2 * raptor.routesScanned, 'each scan visits both stops');
  assert.equal(own.targets, points.lon.length, 'each point selected once');
  assert.ok(own.improvedStops >= 1 && own.changes >= 1 && own.changes <= own.egressEntries, `${own.changes} changes of ${own.egressEntries} egress entries from ${own.improvedStops} improved stops`);
  // a second window adds the same work again: the counts are sums, never reset by a search
  const before = { ...raptor };
  windowEngine.computePoints(query, { windowSec: minutes * 60, percentiles: [50], selected: 0 }, points);
  assert.equal(raptor.searches, 2 * minutes);
  assert.equal(raptor.visits, 2 * before.visits);
});
