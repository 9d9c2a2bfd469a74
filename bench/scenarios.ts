/**
 * Scenarios on rnv-mannheim (issue 39's targets), with test/fixtures/scenarios/rnv-plan.json (one
 * added line through a new stop, one removed route, one speed change):
 *
 *   npm run bench:scenarios
 *
 * - applying it (reading the file, the modifications, the overlay, the new stop linked): target
 *   at most 100 ms; and the longest slice the event loop waits while a server applies it;
 * - a heat map (resolution 500, max_duration 3600) and a matrix row (the travel times to 1,600
 *   places) with the scenario against the same without, measured in turns in the same run: target
 *   at most 1.1×;
 * - the bytes the scenario adds (its overlay) against the timetable's (the compiled feed and its
 *   RAPTOR data): target at most 5 %; and the resident memory of 20 such scenarios loaded: target at
 *   most 20 % more.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Coverage } from '../src/service/coverage-registry.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { HeatMapEngine } from '../src/routing/heat-map.js';
import { raptorDataBytes } from '../src/routing/raptor-data.js';
import type { RaptorOverlay } from '../src/routing/raptor-overlay.js';
import { DEFAULT_LIMITS } from '../src/service/limits.js';
import { zonedToEpoch } from '../src/util/time-zones.js';
import { linkPointRange, unlinkedPoints } from '../src/model/linked-points.js';
import { readScenarioFile } from '../src/scenarios/scenario-file.js';
import { ScenarioLibrary } from '../src/service/scenario-library.js';
import { lcg } from '../test/helpers/random.js';
import { walkingQueryFrom } from '../test/helpers/heat-map-query.js';
import { compileScenario } from '../src/service/scenario-compile.js';

const dir = path.resolve('../shared/data/rnv-mannheim');
const PLAN = path.resolve('test/fixtures/scenarios/rnv-plan.json');
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(dir, 'gtfs.zip')], osm: path.join(dir, 'osm.pbf') });
const { generation } = await loadCoverage(coverage);
const streets = generation.streets!;
const data = streets.data;
const text = readFileSync(PLAN, 'utf8');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const timed = (f: () => void) => {
  const started = performance.now();
  f();
  return performance.now() - started;
};

// 1. applying it, in one piece (as a command does), then as a server does, in slices
let overlay: RaptorOverlay | null = null;
const applying = Array.from({ length: 7 }, () =>
  timed(() => {
    overlay = compileScenario(generation, 'plan', readScenarioFile(text).scenario).overlay;
  }),
);
console.log(`apply rnv-plan (read, modifications, overlay, new stop linked)   p50 ${median(applying).toFixed(1)} ms (target <= 100 ms)`);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const library = new ScenarioLibrary({ id: 'rnv', generation }, [{ name: 'plan', path: PLAN }], { info: () => {}, warn: (_, line) => console.log(line) });
const started = performance.now();
await library.check();
delay.disable();
console.log(`the same in a server, in slices: ${(performance.now() - started).toFixed(0)} ms, the event loop waiting at most ${(delay.max / 1e6).toFixed(1)} ms`);

// 2. a heat map and a matrix row with the scenario against the same without
const random = lcg(20161114);
const stopCount = generation.tt.stopPoints.ids.length;
const origins = Array.from({ length: 30 }, () => Math.floor(random() * stopCount));
const t0 = zonedToEpoch(generation.tt.timezone, 2016, 11, 14, 8, 0, 0);
const engine = new HeatMapEngine(data, DEFAULT_LIMITS.maxDurationSec, DEFAULT_LIMITS.maxResolution);
const query = (stop: number, withPlan: boolean) => ({ ...walkingQueryFrom(data.stopLon, data.stopLat, stop, t0), overlay: withPlan ? overlay : null });
const N = 40;
const lon = new Float64Array(N * N);
const lat = new Float64Array(N * N);
for (let i = 0; i < N; i++) {
  for (let j = 0; j < N; j++) {
    lon[i * N + j] = 8.44 + (0.08 * (i + 0.5)) / N;
    lat[i * N + j] = 49.46 + (0.05 * (j + 0.5)) / N;
  }
}
const places = unlinkedPoints('places', lon, lat, []);
linkPointRange(data.graph, places, 0, N * N);
for (const stop of origins.slice(0, 5)) for (const plan of [false, true]) engine.compute(query(stop, plan));
const maps = { base: [] as number[], plan: [] as number[] };
const rows = { base: [] as number[], plan: [] as number[] };
for (const stop of origins) for (const plan of [false, true]) maps[plan ? 'plan' : 'base'].push(timed(() => engine.compute(query(stop, plan))));
// a row takes a couple of milliseconds: many more of them, for a median the machine's noise does not sway
const rowOrigins = Array.from({ length: 600 }, () => Math.floor(random() * stopCount));
for (const stop of rowOrigins) for (const plan of [false, true]) rows[plan ? 'plan' : 'base'].push(timed(() => engine.computePoints({ ...query(stop, plan), maxDurationSec: 3600 }, places)));
const ratio = (x: { base: number[]; plan: number[] }) => median(x.plan) / median(x.base);
console.log(`heat map, resolution 500, max_duration 3600: p50 ${median(maps.base).toFixed(1)} ms without, ${median(maps.plan).toFixed(1)} ms with the scenario = ${ratio(maps).toFixed(2)}× (target <= 1.1×)`);
console.log(`matrix row to ${N * N} places: p50 ${median(rows.base).toFixed(1)} ms without, ${median(rows.plan).toFixed(1)} ms with the scenario = ${ratio(rows).toFixed(2)}× (target <= 1.1×)`);

// 3. memory
const bytesOf = (o: object): number => {
  let n = 0;
  for (const v of Object.values(o)) {
    if (ArrayBuffer.isView(v)) n += v.byteLength;
    else if (v && typeof v === 'object') n += bytesOf(v);
  }
  return n;
};
const raptorBytes = raptorDataBytes(data.raptor);
const timetableBytes = bytesOf(generation.tt) + raptorBytes;
const own = bytesOf(overlay!);
console.log(
  `the scenario's overlay ${(own / 1e6).toFixed(2)} MB against the timetable's ${(timetableBytes / 1e6).toFixed(1)} MB (compiled feed ${((timetableBytes - raptorBytes) / 1e6).toFixed(1)} MB ` +
    `and its RAPTOR data ${(raptorBytes / 1e6).toFixed(1)} MB) = ${((100 * own) / timetableBytes).toFixed(2)} % (target <= 5 %; ${((100 * own) / raptorBytes).toFixed(2)} % of the RAPTOR data alone)`,
);
global.gc?.();
const rssBefore = process.memoryUsage().rss;
const kept = Array.from({ length: 20 }, (_, k) => compileScenario(generation, `plan${k}`, readScenarioFile(text.replace('"scale": 1.25', `"scale": ${1.05 + k / 100}`)).scenario));
global.gc?.();
const rssAfter = process.memoryUsage().rss;
console.log(`resident memory with 20 such scenarios: ${(rssBefore / 1e6).toFixed(0)} MB → ${(rssAfter / 1e6).toFixed(0)} MB = +${((100 * (rssAfter - rssBefore)) / rssBefore).toFixed(1)} % (target <= 20 %; ${kept.length} kept)`);
library.stop();
