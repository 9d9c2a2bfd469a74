/**
 * Heat-map benchmark on rnv-mannheim with its OSM extract (issue 3's targets):
 *
 *   npm run bench:heat-maps
 *
 * - compute p50 (access + RAPTOR + street search + grid) for 100 random stop origins, walking,
 *   Tuesday 2016-11-08 08:00, resolution 500, max_duration 3600 and 10800;
 * - resolution 1000 against resolution 500;
 * - end to end over loopback HTTP with gzip (a real server with its worker pool), max_duration 3600;
 * - memory of the street graph and its indexes per OSM node read.
 */
import path from 'node:path';
import { buildApp } from '../src/api/app.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { HeatMapPool } from '../src/maps/heat-map-pool.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { HeatMapEngine } from '../src/routing/heat-map.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { lcg } from '../test/helpers/random.js';
import { walkingQueryFrom } from '../test/helpers/heat-map-query.js';

const dir = path.resolve('../shared/data/rnv-mannheim');
const registry = new CoverageRegistry();
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(dir, 'gtfs.zip')], osm: path.join(dir, 'osm.pbf') });
registry.add(coverage);
const loadStarted = performance.now();
const { generation } = await loadCoverage(coverage);
console.log(`loaded in ${((performance.now() - loadStarted) / 1000).toFixed(2)} s`);
const streets = generation.streets!;
const stats = streets.stats;
console.log(
  `street graph: ${stats['street_vertices']} vertices, ${stats['street_edges']} edges, ${stats['street_segments']} segments, ` +
    `${(stats['street_graph_bytes']! / 1e6).toFixed(1)} MB = ${(stats['street_graph_bytes']! / stats['osm_nodes']!).toFixed(1)} bytes per OSM node read (target <= 100)`,
);
// the stops' links to each layer and the walking transfers between stops, beside the graph
const { snaps, raptor } = streets.data;
const arraysBytes = (arrays: ArrayBufferView[]) => arrays.reduce((total, a) => total + a.byteLength, 0);
const linkBytes = arraysBytes([...snaps.edge, ...snaps.alongM, ...snaps.offsetM]);
const transferBytes = arraysBytes([raptor.transferOffset, raptor.transferTo, raptor.transferFixedSec, raptor.transferLengthM, raptor.transferInOffset, raptor.transferInEdge, raptor.transferInFrom]);
const latticeBytes = stats['link_lattice_bytes']!;
const streetSideBytes = stats['street_graph_bytes']! + latticeBytes + linkBytes + transferBytes;
console.log(
  `link lattices ${(latticeBytes / 1e6).toFixed(2)} MB, stop links ${(linkBytes / 1e6).toFixed(2)} MB, transfers ${(transferBytes / 1e6).toFixed(2)} MB (${stats['footpaths']} walking transfers): ` +
    `with the graph ${(streetSideBytes / 1e6).toFixed(1)} MB = ${(streetSideBytes / stats['osm_nodes']!).toFixed(1)} bytes per OSM node read (target <= 100)`,
);

// 100 random stop points (seeded)
const random = lcg(20161108);
const stopCount = generation.tt.stopPoints.ids.length;
const origins = Array.from({ length: 100 }, () => Math.floor(random() * stopCount));
const t0 = zonedToEpoch(generation.tt.timezone, 2016, 11, 8, 8, 0, 0);

function query(stop: number, maxDurationSec: number, resolution: number) {
  return walkingQueryFrom(generation.tt.stopPoints.lon, generation.tt.stopPoints.lat, stop, t0, { maxDurationSec, resolution });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const engine = new HeatMapEngine(streets.data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
function measure(title: string, maxDurationSec: number, resolution: number): number {
  for (const stop of origins.slice(0, 20)) engine.compute(query(stop, maxDurationSec, resolution)); // warm up: the JIT settles
  const times: number[] = [];
  for (const stop of origins) {
    const started = performance.now();
    engine.compute(query(stop, maxDurationSec, resolution));
    times.push(performance.now() - started);
  }
  const p50 = percentile(times, 50);
  console.log(`${title.padEnd(44)} p50 ${p50.toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms`);
  return p50;
}

const p3600 = measure('compute, max_duration 3600, resolution 500', 3600, 500);
measure('compute, max_duration 10800, resolution 500', 10800, 500);
const p1000 = measure('compute, max_duration 3600, resolution 1000', 3600, 1000);
console.log(`resolution 1000 / resolution 500: ${(p1000 / p3600).toFixed(2)} (target < 4)`);

// end to end: a real server on loopback with its worker pool, gzip
const pool = new HeatMapPool({ maxDurationSec: DEFAULT_LIMITS.maxDurationSec, maxResolution: DEFAULT_LIMITS.maxResolution });
const app = await buildApp({ registry, heatMaps: pool });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const url = (stop: number) =>
  `http://127.0.0.1:${address.port}/v1/coverage/rnv/heat_maps?from=${encodeURIComponent(generation.tt.stopPoints.ids[stop]!)}` +
  `&datetime=20161108T080000&max_duration=3600`;
const times: number[] = [];
let bytes = 0;
for (const [k, stop] of origins.entries()) {
  const started = performance.now();
  const res = await fetch(url(stop), { headers: { 'accept-encoding': 'gzip' } });
  await res.arrayBuffer(); // the whole body, decompressed, is part of the time
  if (k >= 5) times.push(performance.now() - started);
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  if (res.headers.get('content-encoding') !== 'gzip') throw new Error('not compressed');
  bytes += Number(res.headers.get('content-length'));
}
console.log(
  `${'HTTP + gzip, max_duration 3600, resolution 500'.padEnd(44)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  ` +
    `(about ${Math.round(bytes / origins.length / 1000)} kB compressed per map)`,
);
await app.close();
await pool.close();
