/**
 * The explorer's background on rnv-mannheim: `GET /v1/coverage/{region}/street_network`, its size
 * (plain and gzipped) and the time of its first answer (made and compressed once per network) and of
 * the next ones (from memory). `npm run bench:street-network`.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/api/app.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { streetLinesGeoJson } from '../src/formats/street-lines.js';
import { SHARED_DATA } from '../test/helpers/shared-data.js';

const dir = path.join(SHARED_DATA, 'rnv-mannheim');
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(dir, 'gtfs.zip')], osm: path.join(dir, 'osm.pbf') });
const registry = new CoverageRegistry();
registry.add(coverage);
const { generation } = await loadCoverage(coverage);
const graph = generation.streets!.data.graph;

const started = performance.now();
const text = streetLinesGeoJson(graph);
const buildMs = performance.now() - started;

const app = await buildApp({ registry });
const get = async () => {
  const t = performance.now();
  const res = await app.inject({ method: 'GET', url: '/v1/coverage/rnv/street_network', headers: { 'accept-encoding': 'gzip' } });
  return { ms: performance.now() - t, bytes: res.rawPayload.length, status: res.statusCode };
};
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const first = await get();
loop.disable();
const next: number[] = [];
for (let k = 0; k < 20; k++) next.push((await get()).ms);
next.sort((a, b) => a - b);
console.log(`street network: ${graph.edgeCount} streets, ${graph.geomX.length} points`);
console.log(`GeoJSON ${(text.length / 1e6).toFixed(2)} MB, gzipped ${(first.bytes / 1e6).toFixed(2)} MB; written in ${buildMs.toFixed(0)} ms in one go`);
console.log(`first answer (written in slices and gzipped) ${first.ms.toFixed(0)} ms, the event loop's longest stall meanwhile ${(loop.max / 1e6).toFixed(1)} ms; next answers p50 ${next[10]!.toFixed(1)} ms`);
await app.close();

