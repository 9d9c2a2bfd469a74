/**
 * Planned-disruption benchmark: a NO_SERVICE on the busiest stop areas of nyc/bus-brooklyn for the
 * whole production period, the worst case of the adapted level (one run per trip through them and
 * service day, each skipping a stop).
 *
 *   npm run bench:planned-runs [-- feed.zip] [-- stop areas (default 5)]
 *
 * Prints the runs made, the time to make them and to build the generation that uses them, and the
 * memory they take (V8 heap plus array buffers, after a full garbage collection).
 */
import path from 'node:path';
import { parseDisruptionFile } from '../src/live/disruptions/disruption-file.js';
import { plannedRuns } from '../src/live/disruptions/planned-runs.js';
import { Coverage } from '../src/service/coverage-registry.js';
import { withDisruptions } from '../src/service/generation.js';
import { loadCoverage } from '../src/service/load-coverage.js';

const feed = process.argv[2] ?? path.resolve('../shared/data/nyc/bus-brooklyn-gtfs.zip');
const areaCount = Number(process.argv[3] ?? 5);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc (npm run bench:planned-runs does)');
  process.exit(2);
}

async function settledBytes(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const coverage = new Coverage({ id: 'bench', gtfs: [feed] });
const { generation } = await loadCoverage(coverage);
const { tt, ref } = generation;

// the stop areas with the most stop times
const perArea = new Float64Array(tt.stopAreas.length);
for (let t = 0; t < tt.trips.ids.length; t++) {
  const p = tt.trips.pattern[t]!;
  for (let k = tt.patterns.stopOffset[p]!; k < tt.patterns.stopOffset[p + 1]!; k++) perArea[tt.stopPoints.area[tt.patterns.stops[k]!]!]!++;
}
const busiest = [...perArea.keys()].sort((a, b) => perArea[b]! - perArea[a]!).slice(0, areaCount);
const file = JSON.stringify({
  disruptions: [
    {
      id: 'closure',
      severity: { effect: 'NO_SERVICE' },
      impacted_objects: busiest.map((a) => ({ type: 'stop_area', id: tt.stopAreas[a]!.id })),
    },
  ],
});
const parsed = parseDisruptionFile(file, 'bench.json', ref, tt.timezone);
const days = generation.productionEndDay - generation.productionStartDay + 1;

const before = await settledBytes();
const t0 = performance.now();
const planned = plannedRuns(ref, parsed.disruptions, generation.productionStartDay, generation.productionEndDay);
const t1 = performance.now();
const adapted = withDisruptions(generation, parsed.disruptions, [], planned.runs);
const t2 = performance.now();
const after = await settledBytes();

const runs = planned.runs.length;
const stopTimes = planned.runs.reduce((n, r) => n + r.skipped.length, 0);
console.log(`feed                 ${feed}: ${tt.stopTimes.arrivalSec.length} stop_times, ${days} days of production`);
console.log(`closure              the ${areaCount} busiest stop areas (${busiest.map((a) => Math.round(perArea[a]! / 1)).join(', ')} scheduled stop times each), the whole period`);
console.log(`runs changed         ${runs} (${planned.runs.filter((r) => r.cancelled).length} cancelled), ${stopTimes} stop times in them${planned.problems.length ? `; ${planned.problems.join('; ')}` : ''}`);
console.log(`planned runs         ${(t1 - t0).toFixed(0)} ms`);
console.log(`adapted generation   ${(t2 - t1).toFixed(0)} ms (the adapted level's indexes)`);
console.log(`memory               ${((after - before) / 1e6).toFixed(1)} MB = ${runs ? ((after - before) / runs).toFixed(0) : 0} bytes per run`);
void adapted;
