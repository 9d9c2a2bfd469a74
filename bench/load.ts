/**
 * Load benchmark: a large GTFS zip to query-ready (timetable + referential), with time and memory
 * per million stop times.
 *
 *   npm run bench:load [-- path/to/feed.zip]      (default: nyc/bus-brooklyn-gtfs.zip)
 *
 * Targets (issue 2): at most 2.5 s and 64 MB per million stop_times, indexes included.
 * Memory is the growth of V8 heap plus array buffers after a full garbage collection.
 */
import path from 'node:path';
import { loadTimetable } from '../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../src/gtfs/load-report.js';
import { makeGeneration } from '../src/service/generation.js';

const feed = process.argv[2] ?? path.resolve('../shared/data/nyc/bus-brooklyn-gtfs.zip');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc (npm run bench:load does)');
  process.exit(2);
}

async function settle(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage();
}

const before = await settle();
const t0 = process.hrtime.bigint();
const report = new LoadReport();
const tt = await loadTimetable([feed], { report });
const t1 = process.hrtime.bigint();
const generation = await makeGeneration(tt, report);
// Touch the lazily built id maps the API uses, so they count in memory.
generation.ref.indexOf('trip', '');
generation.ref.indexOf('line', '');
const t2 = process.hrtime.bigint();
const after = await settle();

const stopTimes = tt.stopTimes.arrivalSec.length;
const millions = stopTimes / 1e6;
const seconds = Number(t2 - t0) / 1e9;
const memoryMB = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1e6;
console.log(`feed                 ${feed}`);
console.log(`stop_times           ${stopTimes} (${tt.trips.ids.length} trips, ${report.problemCount} problems)`);
console.log(`load (GTFS)          ${(Number(t1 - t0) / 1e9).toFixed(2)} s`);
console.log(`indexes              ${(Number(t2 - t1) / 1e9).toFixed(2)} s`);
console.log(`query-ready          ${seconds.toFixed(2)} s = ${(seconds / millions).toFixed(2)} s per million stop_times (target <= 2.5)`);
console.log(`memory               ${memoryMB.toFixed(1)} MB = ${(memoryMB / millions).toFixed(1)} MB per million stop_times (target <= 64)`);
console.log(`rss                  ${(after.rss / 1e6).toFixed(0)} MB`);
void generation;
