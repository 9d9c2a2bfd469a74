/**
 * A reloaded coverage keeps its disruptions and realtime data: the disruptions file's last good
 * read and the realtime messages in force are read again against the new timetable and applied
 * before the new generation is swapped in (BART, its TripUpdates capture, a planned closure).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FeedSource } from '../../src/live/realtime/feed-source.js';
import { Coverage } from '../../src/service/coverage-registry.js';
import { DisruptionSource } from '../../src/service/disruption-source.js';
import { loadCoverage } from '../../src/service/load-coverage.js';
import { RealtimeUpdater } from '../../src/service/realtime-updater.js';
import { SHARED_DATA } from '../helpers/shared-data.js';

const BART = path.join(SHARED_DATA, 'rt', 'bart');
const quiet = { info: () => {}, warn: () => {} };

test('a reload applies the disruptions file and the realtime messages in force to the new data before swapping it in', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-carry-')), 'disruptions.json');
  const coverage = new Coverage({ id: 'bart', gtfs: [path.join(BART, 'gtfs.zip')], disruptions: { path: file, intervalSec: 60 } });
  await loadCoverage(coverage);
  const line = coverage.generation!.tt.lines[0]!.id;
  writeFileSync(
    file,
    JSON.stringify({
      disruptions: [
        {
          id: 'closure',
          tags: ['works'],
          severity: { effect: 'NO_SERVICE' },
          application_periods: [{ begin: '20190807T000000', end: '20190807T235959' }],
          impacted_objects: [{ type: 'line', id: line }],
        },
      ],
    }),
  );
  coverage.disruptionSource = new DisruptionSource(coverage, coverage.config.disruptions!, quiet);
  assert.equal(await coverage.disruptionSource.load(), true);
  const source = new FeedSource({ url: path.join(BART, 'trip-updates-2019-08-07.pb'), intervalSec: 60 });
  coverage.realtime = new RealtimeUpdater(coverage, [source], quiet);
  assert.equal(await coverage.realtime.poll(source), true);
  const before = coverage.generation!;
  assert.equal(before.realtime!.runs.size, 65);
  assert.ok(before.adaptedRuns.length > 0, 'the closure changes runs at the adapted level');

  // the file turns bad: its last good read stays in force, on the reloaded data too
  writeFileSync(file, '{ "disruptions": [ broken');
  assert.equal(await coverage.disruptionSource.load(), false);

  const swapped: number[] = [];
  const swap = coverage.swap.bind(coverage);
  coverage.swap = (g) => {
    swapped.push(g.number);
    swap(g);
  };
  await loadCoverage(coverage);
  const after = coverage.generation!;
  assert.equal(swapped.length, 1, 'one swap: requests never see the reloaded data without its disruptions and realtime runs');
  assert.notEqual(after.tt, before.tt, 'the timetable was loaded again');
  assert.equal(after.realtime!.runs.size, 65);
  assert.deepEqual([...after.realtime!.runs.keys()].sort(), [...before.realtime!.runs.keys()].sort());
  assert.deepEqual(
    after.disruptions.file.map((d) => d.id),
    ['closure'],
  );
  assert.equal(after.adaptedRuns.length, before.adaptedRuns.length);
  assert.deepEqual(
    after.adaptedRuns.map((r) => after.tt.trips.ids[r.trip]),
    before.adaptedRuns.map((r) => before.tt.trips.ids[r.trip]),
  );
});
