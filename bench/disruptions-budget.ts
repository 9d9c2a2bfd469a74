/**
 * How long a disruptions file that changes every run of a year takes to apply, and how long it
 * holds the event loop (issue 30, finding 1), on the BART feed:
 *
 *   npm run bench:disruptions-budget
 *
 * Files of 500, 2,000 and 50,000 NO_SERVICE disruptions on the whole network for all of 2019, and
 * one disruption with 560,000 application periods, each read by the coverage's disruptions source
 * while the event loop's delay is sampled: the time to apply (or refuse) and the longest stall.
 * The milliseconds depend on the machine and its load, so they are printed here and asserted
 * nowhere; test/e2e/disruptions-budget.test.ts checks the slicing itself (the work counted between
 * turns of the event loop).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { DisruptionSource } from '../src/service/disruption-source.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { networkClosures, periodFlood } from './disruption-files.js';

const feed = process.argv[2] ?? path.resolve('../shared/data/rt/bart/gtfs.zip');
const coverage = new Coverage({ id: 'bart', gtfs: [feed] });
new CoverageRegistry().add(coverage);
await loadCoverage(coverage);
const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-bench-')), 'disruptions.json');
writeFileSync(file, '{"disruptions":[]}');
const messages: string[] = [];
const log = { info: (_: object, m: string) => void messages.push(m), warn: (_: object, m: string) => void messages.push(m) };
const source = new DisruptionSource(coverage, { path: file }, log);
await source.load();

console.log(`feed: ${feed}, ${coverage.generation!.tt.trips.ids.length} trips`);
const cases: [string, string][] = [
  ['500 closures of the network, all of 2019', networkClosures(500)],
  ['2,000 closures', networkClosures(2000)],
  ['50,000 closures', networkClosures(50_000)],
  ['one closure with 560,000 periods', periodFlood(560_000)],
];
for (const [what, text] of cases) {
  writeFileSync(file, text);
  messages.length = 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  // the longest gap between two timers, the stall a request would see
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  delay.enable();
  const t0 = performance.now();
  const applied = await source.load();
  const elapsed = performance.now() - t0;
  delay.disable();
  clearInterval(tick);
  const runs = coverage.generation!.adaptedRuns.length;
  console.log(
    `${what.padEnd(42)} ${(text.length / 1e6).toFixed(1).padStart(5)} MB  ${applied ? 'applied' : 'refused'} in ${elapsed.toFixed(0).padStart(5)} ms` +
      `  longest stall ${(delay.max / 1e6).toFixed(0).padStart(4)} ms (timer gap ${longest.toFixed(0)} ms)  adapted runs ${runs}`,
  );
  for (const m of messages) console.log(`    ${m.slice(0, 200)}`);
}
