/**
 * A coverage as tall as a country, through the API: two towns of streets, one at 47.3° N and one at
 * 55° N (so the network is projected conformally, model/street-graph.ts), built, written to a
 * snapshot and read back from it. A walking heat map in the northern town, far from the projection's
 * centre, is held cell by cell to a router written here on longitudes and latitudes alone: Dijkstra
 * over the extract's ways with great-circle lengths, each cell linked to its nearest segment on the
 * plane tangent at the cell. An equirectangular projection about the network's centre would make
 * that town's east-west streets 9 % long.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeOsm, type OsmFixture } from '../helpers/osm-fixture.js';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { offsetBy, tangentNearest } from '../helpers/ground.js';
import { getOk, serveCoverages, type ServedApp } from '../helpers/app.js';
import { crowFlyMetres } from '../../src/util/geodesy.js';
import { DEFAULT_WALKING_SPEED } from '../../src/routing/transfer-pruning.js';
import { loadGeneration } from '../../src/service/load-coverage.js';
import type { CoverageConfig } from '../../src/service/coverage-config.js';

const SOUTH: [number, number] = [8.5, 47.3];
const NORTH: [number, number] = [8.5, 55.0];
/** the towns' blocks, metres, and their streets a side */
const BLOCK_M = 200;
const SIDE = 6;

/** Two towns: in each a grid of streets, a little askew, and a footway across it. Node ids: town × 1000 + i × SIDE + j. */
function towns(): OsmFixture {
  const fixture: OsmFixture = { nodes: [], ways: [] };
  [SOUTH, NORTH].forEach((centre, t) => {
    const id = (i: number, j: number) => t * 1000 + i * SIDE + j + 1;
    for (let i = 0; i < SIDE; i++) {
      for (let j = 0; j < SIDE; j++) {
        const [lon, lat] = offsetBy(centre[0], centre[1], i * BLOCK_M + (j % 2) * 15, j * BLOCK_M + (i % 3) * 10);
        fixture.nodes.push({ id: id(i, j), lon, lat });
      }
    }
    const line = (ids: number[], k: number, highway: string) => fixture.ways.push({ id: t * 1000 + k, refs: ids, tags: { highway } });
    const range = [...Array(SIDE).keys()];
    range.forEach((i) => line(range.map((j) => id(i, j)), i, 'residential'));
    range.forEach((j) => line(range.map((i) => id(i, j)), SIDE + j, 'residential'));
    line(range.map((k) => id(k, k)), 2 * SIDE, 'footway');
  });
  return fixture;
}

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Far Rail,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
S,South,${SOUTH[1]},${SOUTH[0]}
N,North,${NORTH[1]},${NORTH[0]}
# routes.txt
route_id,agency_id,route_short_name,route_type
R,A,R,2
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
R,all,R1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
R1,08:00:00,08:00:00,S,1
R1,18:00:00,18:00:00,N,2
`;

/** Shortest walks from `from` over the fixture's ways, metres on the great circle (Dijkstra, a plain list: a few dozen nodes). */
function groundDistances(fixture: OsmFixture, from: number): Map<number, number> {
  const at = new Map(fixture.nodes.map((n) => [n.id, n]));
  const next = new Map<number, { to: number; m: number }[]>();
  for (const way of fixture.ways) {
    for (let k = 1; k < way.refs.length; k++) {
      const a = at.get(way.refs[k - 1]!)!;
      const b = at.get(way.refs[k]!)!;
      const m = crowFlyMetres(a.lon, a.lat, b.lon, b.lat);
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        if (!next.has(x.id)) next.set(x.id, []);
        next.get(x.id)!.push({ to: y.id, m });
      }
    }
  }
  const dist = new Map<number, number>([[from, 0]]);
  const done = new Set<number>();
  for (;;) {
    let u = -1;
    for (const [v, d] of dist) if (!done.has(v) && (u < 0 || d < dist.get(u)!)) u = v;
    if (u < 0) return dist;
    done.add(u);
    for (const { to, m } of next.get(u) ?? []) if (dist.get(u)! + m < (dist.get(to) ?? Infinity)) dist.set(to, dist.get(u)! + m);
  }
}

/**
 * The walk to a cell's centre on the ground: to the nearest point of the nearest segment (on the
 * plane tangent at the centre), along that segment from whichever end is nearer by the streets,
 * then straight to the centre; metres, Infinity past `radiusM` from every street.
 */
function groundWalk(fixture: OsmFixture, dist: Map<number, number>, lon: number, lat: number, radiusM: number): number {
  const at = new Map(fixture.nodes.map((n) => [n.id, n]));
  let best = { offset: Infinity, walk: Infinity };
  for (const way of fixture.ways) {
    for (let s = 1; s < way.refs.length; s++) {
      const a = at.get(way.refs[s - 1]!)!;
      const b = at.get(way.refs[s]!)!;
      const { offsetM: offset, t, lengthM: length } = tangentNearest(lon, lat, [a.lon, a.lat], [b.lon, b.lat]);
      if (offset >= best.offset) continue;
      const along = Math.min((dist.get(a.id) ?? Infinity) + t * length, (dist.get(b.id) ?? Infinity) + (1 - t) * length);
      best = { offset, walk: along + offset };
    }
  }
  return best.offset <= radiusM ? best.walk : Infinity;
}

let dir: string;
let served: ServedApp;
let config: CoverageConfig;
const fixture = towns();

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'navette-tall-'));
  config = { id: 'tall', gtfs: [writeFeed(FEED)], osm: writeOsm(fixture, 'streets.osm.pbf'), timezone: 'UTC' };
  // built once and written, then served from the snapshot
  await (await serveCoverages([config], { load: { snapshotDir: dir } })).close();
  served = await serveCoverages([config], { load: { snapshotDir: dir } });
});

after(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the tall coverage is projected conformally, and its snapshot reads back so', async () => {
  assert.equal(served.generations.get('tall')!.streets!.data.graph.projection.conformal, true);
  const again = await loadGeneration(config, { snapshotDir: dir });
  assert.equal(again.from, 'snapshot');
  assert.deepEqual(again.generation.streets!.data.graph.projection, served.generations.get('tall')!.streets!.data.graph.projection);
});

test("a walking heat map in the far north: each cell within 2 s of the walk on the ground, both ways", async () => {
  const from = fixture.nodes.find((n) => n.id === 1000 + 1)!;
  const maxSec = 1200;
  const body = await getOk(served.app, `/v1/coverage/tall/heat_maps?from=${from.lon};${from.lat}&datetime=20240110T080000&max_duration=${maxSec}&resolution=60&first_section_mode[]=walking&last_section_mode[]=walking`);
  const matrix = body.heat_maps[0].heat_matrix as { line_headers: { cell_lat: { center_lat: number } }[]; lines: { cell_lon: { center_lon: number }; duration: (number | null)[] }[] };
  const dist = groundDistances(fixture, from.id);
  let compared = 0;
  let worst = 0;
  let nulls = 0;
  for (const line of matrix.lines) {
    line.duration.forEach((value, j) => {
      const lat = matrix.line_headers[j]!.cell_lat.center_lat;
      const expected = groundWalk(fixture, dist, line.cell_lon.center_lon, lat, 600) / DEFAULT_WALKING_SPEED;
      // the rim, where a second either way decides null
      if (Math.abs(expected - maxSec) < 3) return;
      if (expected >= maxSec) {
        assert.equal(value, null, `cell at ${line.cell_lon.center_lon};${lat}: ${value} s where the ground walk takes ${expected.toFixed(1)} s`);
        nulls++;
        return;
      }
      assert.notEqual(value, null, `cell at ${line.cell_lon.center_lon};${lat}: null where the ground walk takes ${expected.toFixed(1)} s`);
      // whole seconds truncated: the value is at most 1 s below the walk; 1 s more for rounding the streets to decimetres
      const off = value! - expected;
      assert.ok(off > -2 && off < 1, `cell at ${line.cell_lon.center_lon};${lat}: ${value} s where the ground walk takes ${expected.toFixed(1)} s`);
      worst = Math.max(worst, Math.abs(off));
      compared++;
    });
  }
  assert.ok(compared > 500 && nulls > 100, `${compared} cells compared, ${nulls} null`);
});
