/**
 * How long a large realtime feed holds the event loop (issue 14, finding 3), on rnv-mannheim:
 *
 *   npm run bench:realtime-stall
 *
 * A TripUpdates feed delaying every stop of every run of 2016-11-08 (written here, served over
 * loopback HTTP), polled by a coverage's updater while the event loop's delay is sampled every
 * millisecond: the worst stall of the whole poll (download, decoding and reading of the updates a
 * slice at a time, then the swap of the new generation), against the decoding and the reading in one
 * go as they were before.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FeedSource } from '../src/live/realtime/feed-source.js';
import { decodeFeedMessage } from '../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../src/live/realtime/trip-updates.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { RealtimeUpdater } from '../src/service/realtime-updater.js';
import { serviceRunsOn } from '../src/model/timetable.js';
import { writeTripUpdates, type TripDelay } from './trip-updates-writer.js';

const rnvDir = path.resolve('../shared/data/rnv-mannheim');
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(rnvDir, 'gtfs.zip')] });
new CoverageRegistry().add(coverage);
await loadCoverage(coverage);
const tt = coverage.generation!.tt;

// every stop of every run of the day, delayed by a minute
const day = Date.UTC(2016, 10, 8) / 86_400_000;
const trips: TripDelay[] = [];
for (let t = 0; t < tt.trips.ids.length; t++) {
  if (!serviceRunsOn(tt, tt.trips.service[t]!, day)) continue;
  const stops = [];
  for (let k = tt.trips.stopTimeOffset[t]!; k < tt.trips.stopTimeOffset[t + 1]!; k++) stops.push({ stopSequence: tt.stopTimes.sequence[k]!, delaySec: 60 });
  trips.push({ tripId: tt.trips.ids[t]!, startDate: '20161108', stops });
}
const bytes = writeTripUpdates(Date.UTC(2016, 10, 8, 7) / 1000, trips);
const stopUpdates = trips.reduce((n, t) => n + t.stops.length, 0);
console.log(`feed: ${trips.length} trip updates, ${stopUpdates} stop time updates, ${(bytes.length / 1e6).toFixed(1)} MB`);

const server = createServer((_req, res) => res.writeHead(200).end(bytes));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rnv`;
const source = new FeedSource({ url, intervalSec: 3600 });
const quiet = { info: () => {}, warn: () => {} };
const updater = new RealtimeUpdater(coverage, [source], quiet);

// the decoding and the reading in one go, for comparison
let started = performance.now();
const decoded = decodeFeedMessage(bytes);
const decodeMs = performance.now() - started;
started = performance.now();
readTripUpdates(coverage.generation!.ref, decoded);
console.log(`in one go (before this version): decoding ${decodeMs.toFixed(0)} ms, reading the updates ${(performance.now() - started).toFixed(0)} ms, each holding the loop`);

for (let run = 0; run < 3; run++) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  started = performance.now();
  const before = coverage.generation;
  await updater.poll(source);
  const pollMs = performance.now() - started;
  h.disable();
  if (coverage.generation === before) throw new Error('the feed was not applied');
  console.log(
    `run ${run + 1}: poll (download, decoding, reading, swap) ${pollMs.toFixed(0)} ms, worst stall of the loop meanwhile ${(h.max / 1e6).toFixed(1)} ms ` +
      `(p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms), ${coverage.generation!.realtime!.runs.size} runs changed`,
  );
}
server.close();
