/**
 * The memory a large realtime feed holds while it is polled (issue 30, finding 4), on rnv-mannheim:
 *
 *   npm run bench:realtime-memory [-- days (default 4)]
 *
 * A TripUpdates feed delaying every stop of every run of `days` days from 2016-11-07 (written here,
 * served over loopback HTTP) is polled by the coverage's updater once a second, 20 times, first as
 * a feed that changes at each poll (its header's time), then as one that does not; the resident
 * memory is sampled every 20 ms. Prints the feed's size and, for each, the resident memory before
 * the first poll, its peak and its level after the polls, and the peak over the baseline per MB of
 * feed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FeedSource } from '../src/live/realtime/feed-source.js';
import { Coverage, CoverageRegistry } from '../src/service/coverage-registry.js';
import { loadCoverage } from '../src/service/load-coverage.js';
import { RealtimeUpdater } from '../src/service/realtime-updater.js';
import { serviceRunsOn } from '../src/model/timetable.js';
import { formatDayNumber } from '../src/util/calendar.js';
import { writeTripUpdates, type TripDelay } from './trip-updates-writer.js';

const dayCount = Number(process.argv[2] ?? 4);
const POLLS = 20;
const rnvDir = path.resolve('../shared/data/rnv-mannheim');
const coverage = new Coverage({ id: 'rnv', gtfs: [path.join(rnvDir, 'gtfs.zip')] });
new CoverageRegistry().add(coverage);
await loadCoverage(coverage);
const tt = coverage.generation!.tt;

const firstDay = Date.UTC(2016, 10, 7) / 86_400_000;
const trips: TripDelay[] = [];
for (let day = firstDay; day < firstDay + dayCount; day++) {
  for (let t = 0; t < tt.trips.ids.length; t++) {
    if (!serviceRunsOn(tt, tt.trips.service[t]!, day)) continue;
    const stops = [];
    for (let k = tt.trips.stopTimeOffset[t]!; k < tt.trips.stopTimeOffset[t + 1]!; k++) stops.push({ stopSequence: tt.stopTimes.sequence[k]!, delaySec: 60 });
    trips.push({ tripId: tt.trips.ids[t]!, startDate: formatDayNumber(day), stops });
  }
}
// two versions of the feed, a second apart: served in turn, every poll gets a new message
const versions = [writeTripUpdates(firstDay * 86400 + 7 * 3600, trips), writeTripUpdates(firstDay * 86400 + 7 * 3600 + 1, trips)];
const bytes = versions[0]!;
trips.length = 0;
const feedMb = bytes.length / 1e6;
console.log(`feed: every stop of every run of ${dayCount} days, ${feedMb.toFixed(1)} MB`);

let changing = true;
let served = 0;
const server = createServer((_req, res) => res.writeHead(200).end(versions[changing ? served++ % 2 : 0]));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rnv`;
const mb = (b: number) => b / 1e6;

for (const mode of ['changing', 'unchanged'] as const) {
  changing = mode === 'changing';
  const source = new FeedSource({ url, intervalSec: 3600 });
  const updater = new RealtimeUpdater(coverage, [source], { info: () => {}, warn: () => {} });
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  for (let poll = 0; poll < POLLS; poll++) {
    const started = Date.now();
    await updater.poll(source);
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
  }
  clearInterval(sampler);
  const after = process.memoryUsage().rss;
  console.log(`${mode} feed: resident memory ${mb(baseline).toFixed(0)} MB before, peak ${mb(peak).toFixed(0)} MB, ${mb(after).toFixed(0)} MB after ${POLLS} polls a second apart`);
  console.log(`${' '.repeat(mode.length)}       peak over the baseline ${mb(peak - baseline).toFixed(0)} MB = ${((peak - baseline) / bytes.length).toFixed(1)} MB per MB of feed`);
}
server.close();
