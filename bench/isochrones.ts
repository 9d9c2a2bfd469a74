/**
 * Isochrones and the heat map's raster formats on rnv-mannheim at 08:00, walking.
 *
 * Targets (issue "Isochrones that follow the streets"):
 * - isochrones, 4 bands up to 3600 s, resolution chosen by the endpoint, end to end with gzip:
 *   p50 ≤ 60 ms; the GeoJSON ≤ 150 kB gzipped;
 * - GeoTIFF and PNG at resolution 500: ≤ 15 ms on top of the heat-map computation.
 */
import path from 'node:path';
import { buildApp } from '../src/api/app.js';
import { HeatMapPool } from '../src/maps/heat-map-pool.js';
import { isoband } from '../src/formats/contours.js';
import { writeGeoTiff } from '../src/formats/geotiff.js';
import { writePng } from '../src/formats/png.js';
import { HeatMapEngine } from '../src/routing/heat-map.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { ISOCHRONE_RESOLUTION, DEFAULT_SIMPLIFY_M } from '../src/api/heat-maps/heat-maps-params.js';
import { lcg } from '../test/helpers/random.js';
import { walkingQueryFrom } from '../test/helpers/heat-map-query.js';

const dir = path.resolve('../shared/data/rnv-mannheim');
const registry = new CoverageRegistry();
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(dir, 'gtfs.zip')], osm: path.join(dir, 'osm.pbf') });
registry.add(coverage);
const { generation } = await loadCoverage(coverage);
const random = lcg(20161108);
const stopCount = generation.tt.stopPoints.ids.length;
const origins = Array.from({ length: 60 }, () => Math.floor(random() * stopCount));
const t0 = zonedToEpoch(generation.tt.timezone, 2016, 11, 8, 8, 0, 0);
const BOUNDS = [0, 900, 1800, 2700, 3600];

const query = (stop: number, resolution: number) => walkingQueryFrom(generation.tt.stopPoints.lon, generation.tt.stopPoints.lat, stop, t0, { resolution });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const line = (title: string, times: number[], extra = '') =>
  console.log(`${title.padEnd(48)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms${extra}`);

// in-process: each part on its own, the JIT warmed up first
const engine = new HeatMapEngine(generation.streets!.data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
const parts = { compute: [] as number[], tiff: [] as number[], png: [] as number[], contours: [] as number[] };
let tiffBytes = 0;
let pngBytes = 0;
for (const [k, stop] of origins.entries()) {
  let started = performance.now();
  const { grid, seconds } = engine.compute(query(stop, 500));
  const computeMs = performance.now() - started;
  started = performance.now();
  tiffBytes += writeGeoTiff(grid, [{ seconds }]).length;
  const tiffMs = performance.now() - started;
  started = performance.now();
  pngBytes += writePng(grid, seconds, 3600).length;
  const pngMs = performance.now() - started;
  const iso = engine.compute(query(stop, ISOCHRONE_RESOLUTION));
  started = performance.now();
  for (let b = 0; b + 1 < BOUNDS.length; b++) isoband(iso.grid, iso.seconds, BOUNDS[b]!, BOUNDS[b + 1]!, { simplifyM: DEFAULT_SIMPLIFY_M });
  const contourMs = performance.now() - started;
  if (k < 10) continue;
  parts.compute.push(computeMs);
  parts.tiff.push(tiffMs);
  parts.png.push(pngMs);
  parts.contours.push(contourMs);
}
const n = origins.length;
line('heat map compute, resolution 500', parts.compute);
line('GeoTIFF on top, resolution 500 (target ≤ 15)', parts.tiff, `  ${(tiffBytes / n / 1024).toFixed(0)} kB per map`);
line('PNG on top, resolution 500 (target ≤ 15)', parts.png, `  ${(pngBytes / n / 1024).toFixed(0)} kB per map`);
line(`contours, 4 bands, resolution ${ISOCHRONE_RESOLUTION}`, parts.contours);

// end to end: a real server on loopback with its worker pool, gzip
const pool = new HeatMapPool({ maxDurationSec: DEFAULT_LIMITS.maxDurationSec, maxResolution: DEFAULT_LIMITS.maxResolution });
const app = await buildApp({ registry, heatMaps: pool });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const times: number[] = [];
const sizes: number[] = [];
for (const [k, stop] of origins.entries()) {
  const url =
    `http://127.0.0.1:${port}/v1/coverage/rnv/isochrones?from=${encodeURIComponent(generation.tt.stopPoints.ids[stop]!)}` +
    `&datetime=20161108T080000&boundary_duration[]=900&boundary_duration[]=1800&boundary_duration[]=2700&max_duration=3600`;
  const started = performance.now();
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  await res.arrayBuffer(); // the whole body, decompressed, is part of the time
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  if (res.headers.get('content-encoding') !== 'gzip') throw new Error('not compressed');
  if (k < 5) continue;
  times.push(performance.now() - started);
  sizes.push(Number(res.headers.get('content-length')));
}
line('isochrones end to end, HTTP + gzip (target p50 ≤ 60)', times);
console.log(`isochrones GeoJSON gzipped: p50 ${(percentile(sizes, 50) / 1024).toFixed(0)} kB, max ${(Math.max(...sizes) / 1024).toFixed(0)} kB (target ≤ 150)`);
await app.close();
await pool.close();
