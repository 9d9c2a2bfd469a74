/**
 * Every feed of edge/, medium/, terre-haute/ and the gtfs.zip of each rt/ folder loads through the
 * loader. Whatever is wrong in a feed is reported as a problem of one row (file, line, reason) and
 * skipped, never as a failure of the whole load: each reported line is checked against the raw file,
 * and every trip of trips.txt is either loaded or counted among the skipped ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadTimetable } from '../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../src/gtfs/load-report.js';
import { sharedFeed } from './coverage-app.js';
import { RawFeed } from './raw-gtfs.js';

const zipsIn = (dir: string) => readdirSync(sharedFeed(dir)).filter((f) => f.endsWith('.zip')).sort().map((f) => sharedFeed(dir, f));
const FEEDS = [
  ...zipsIn('edge'),
  ...zipsIn('medium'),
  ...readdirSync(sharedFeed('rt')).sort().map((d) => sharedFeed('rt', d, 'gtfs.zip')),
  sharedFeed('terre-haute', 'gtfs.zip'),
];

/** Reasons that drop a whole trip of trips.txt. */
const TRIP_SKIPPED = /(, trip skipped|^trip without stop times, skipped|^trip with a single stop time, skipped)$/;

test('all feeds: the list covers edge/, medium/, rt/ and terre-haute/', () => {
  assert.equal(FEEDS.length, 14 + 3 + 3 + 1);
});

for (const file of FEEDS) {
  const name = path.relative(sharedFeed(), file);
  test(`all feeds: ${name} loads, with problems reported row by row`, async () => {
    const report = new LoadReport();
    const tt = await loadTimetable([file], { report });
    const raw = await RawFeed.open(file);
    try {
      const trips = await raw.table('trips.txt');
      const rawTripIds = new Set(trips.rows.map((r) => trips.get(r, 'trip_id')));
      const stopTimes = await raw.table('stop_times.txt');

      // Every trip is loaded or counted as skipped.
      let skipped = 0;
      for (const [reason, n] of report.counts) if (TRIP_SKIPPED.test(reason)) skipped += n;
      assert.equal(tt.trips.ids.length + skipped, rawTripIds.size, `${report.summary().join('; ')}`);
      assert.ok(tt.trips.ids.every((id) => rawTripIds.has(id)));
      assert.ok(tt.trips.ids.length > 0);
      if (report.problemCount === 0) assert.equal(tt.stopTimes.arrivalSec.length, stopTimes.rows.length, 'no problem: every stop time is loaded');
      else assert.ok(tt.stopTimes.arrivalSec.length <= stopTimes.rows.length);

      // Each example names its file and a data line of it; the row at that line holds the value quoted.
      const base = path.basename(file);
      assert.equal(report.examples.length > 0, report.problemCount > 0);
      for (const p of report.examples) {
        const where = `${p.file}:${p.line} ${p.reason}`;
        assert.ok(p.file.startsWith(`${base}/`), where);
        const table = await raw.table(p.file.slice(base.length + 1));
        assert.ok(p.line >= 2 && p.line <= table.rows.length + 1, where);
        const detail = /^[^:]*: (.*)$/.exec(p.reason)?.[1];
        if (detail !== undefined) assert.ok(table.rows[p.line - 2]!.includes(detail), where);
      }
    } finally {
      raw.close();
    }
  });
}
