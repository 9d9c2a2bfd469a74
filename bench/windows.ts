/**
 * Departure windows on rnv-mannheim (issue 27's targets):
 *
 *   npm run bench:windows
 *
 * - compute p50 of a windowed map (resolution 500, max_duration 3600, window 3600 s, percentiles
 *   5/50/95) against a single-departure map of the same origins measured in the same run (target:
 *   at most 5× (issue 40; 8× before it), and at most 300 ms);
 * - a window of 7,200 s against 3,600 s (target: at most 2×);
 * - the scratch memory a worker keeps for windows, and the process's resident memory before and
 *   after 1,000 windowed maps (no growth).
 */
import path from 'node:path';
import { Coverage } from '../src/service/coverage-registry.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { HeatMapEngine } from '../src/routing/heat-map.js';
import { WindowEngine } from '../src/routing/window-heat-map.js';
import { DEFAULT_LIMITS, MAX_DEPARTURE_WINDOW_SEC } from '../src/service/limits.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { lcg } from '../test/helpers/random.js';
import { walkingQueryFrom } from '../test/helpers/heat-map-query.js';

const dir = path.resolve('../shared/data/rnv-mannheim');
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(dir, 'gtfs.zip')], osm: path.join(dir, 'osm.pbf') });
const { generation } = await loadCoverage(coverage);
const data = generation.streets!.data;
const random = lcg(20161108);
const stopCount = generation.tt.stopPoints.ids.length;
const origins = Array.from({ length: 30 }, () => Math.floor(random() * stopCount));
const t0 = zonedToEpoch(generation.tt.timezone, 2016, 11, 8, 8, 0, 0);
const PERCENTILES = [5, 50, 95];

const query = (stop: number) => walkingQueryFrom(data.stopLon, data.stopLat, stop, t0);

const engine = new HeatMapEngine(data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
const windows = new WindowEngine(engine, MAX_DEPARTURE_WINDOW_SEC);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const timed = (f: () => void) => {
  const started = performance.now();
  f();
  return performance.now() - started;
};

// warm up, then single and windowed maps of the same origins in turn (the machine's drift hits both)
for (const stop of origins.slice(0, 5)) {
  engine.compute(query(stop));
  windows.compute(query(stop), { windowSec: 3600, percentiles: PERCENTILES, selected: 0 });
}
const single: number[] = [];
const hour: number[] = [];
const twoHours: number[] = [];
for (const stop of origins) {
  single.push(timed(() => engine.compute(query(stop))));
  hour.push(timed(() => windows.compute(query(stop), { windowSec: 3600, percentiles: PERCENTILES, selected: 0 })));
  twoHours.push(timed(() => windows.compute(query(stop), { windowSec: 7200, percentiles: PERCENTILES, selected: 0 })));
}
const s = median(single);
const h = median(hour);
const t = median(twoHours);
console.log(`single departure, resolution 500, max_duration 3600      p50 ${s.toFixed(1)} ms`);
console.log(`window 3600 s, percentiles 5/50/95                      p50 ${h.toFixed(1)} ms = ${(h / s).toFixed(1)}× the single map (target <= 5×, <= 300 ms)`);
console.log(`window 7200 s                                           p50 ${t.toFixed(1)} ms = ${(t / h).toFixed(2)}× the 3600 s window (target <= 2×)`);
console.log(`a worker's scratch for windows: ${(windows.scratchBytes() / 1e6).toFixed(1)} MB`);

const rssBefore = process.memoryUsage().rss;
for (let k = 0; k < 1000; k++) windows.compute(query(origins[k % origins.length]!), { windowSec: 600, percentiles: PERCENTILES, selected: 0 });
const rssAfter = process.memoryUsage().rss;
console.log(`resident memory before and after 1,000 windowed maps (600 s): ${(rssBefore / 1e6).toFixed(0)} MB, ${(rssAfter / 1e6).toFixed(0)} MB`);
