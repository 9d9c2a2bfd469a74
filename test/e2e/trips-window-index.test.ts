/**
 * The period filter by first departure (src/ptref/departing-trips.ts over departure-index.ts) on
 * real feeds, against the old scan (every trip asked `departsWithin`): random windows over each
 * calendar and the days around it, from one instant to ten days, and open-ended ones, among every
 * trip and among a line's, and through the filter's `vehicle_journey.between(…)`:
 * - rnv-mannheim (departures up to 28:36), Bydgoszcz (32:41, calendar_dates only);
 * - two agencies in two time zones (Los Angeles and New York, frequency-based trips), Mexico City
 *   (every trip frequency-based), Helsinki (frequencies, one service day, 26:31);
 * - each freshness level over Caltrain's and BART's TripUpdates captures, and over rnv with runs
 *   made here: moved by minutes or days, cancelled, without their first stop, at the adapted and
 *   realtime levels.
 * And the work counted: a five-minute window asks a few of rnv's 20,636 trips, not all of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeFeedMessage } from '../../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../../src/live/realtime/trip-updates.js';
import { departingWithin } from '../../src/ptref/departing-trips.js';
import { evaluate } from '../../src/ptref/filter-eval.js';
import { parseFilter } from '../../src/ptref/filter-parser.js';
import { FRESHNESS_LEVELS, type Freshness, type FreshnessLevel } from '../../src/ptref/freshness.js';
import { LevelRuns, RealtimeFreshness } from '../../src/ptref/realtime-freshness.js';
import { loadGeneration } from '../../src/service/load-coverage.js';
import { withRealtime, type Generation } from '../../src/service/generation.js';
import { movedRuns, SHIFTS } from '../helpers/moved-runs.js';
import { mulberry32 } from '../helpers/random.js';
import { sharedFeed } from './coverage-app.js';

const WINDOWS = 150;
const LENGTHS = [0, 1, 60, 300, 3600, 4 * 3600, 86400, 2 * 86400, 10 * 86400];

const load = async (...feed: string[]) => (await loadGeneration({ id: 'window', gtfs: [sharedFeed(...feed)] })).generation;

/** The old scan: every trip of `among` asked. */
const scanned = (freshness: Freshness, level: FreshnessLevel, since: number, until: number, among: Uint32Array) => among.filter((t) => freshness.departsWithin(t, level, since, until));

/** `YYYYMMDDThhmmssZ`, the filter's datetimes. */
const filterDatetime = (sec: number) => new Date(sec * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** Random windows over the calendar of `g` and two days on each side (whole seconds, the filter's), and open-ended ones. */
function windows(g: Generation, seed: number): [number, number][] {
  const random = mulberry32(seed);
  const { days } = g.ref;
  const first = days.origin(0, days.firstDay - 2);
  const span = days.origin(0, days.firstDay + days.dayCount + 2) - first;
  const out: [number, number][] = [[-Infinity, Infinity]];
  for (let k = 0; k < WINDOWS; k++) {
    const since = first + Math.floor(random() * span);
    const until = since + LENGTHS[Math.floor(random() * LENGTHS.length)]! + (random() < 0.5 ? Math.floor(random() * 600) : 0);
    out.push(random() < 0.05 ? [-Infinity, until] : random() < 0.05 ? [since, Infinity] : [since, until]);
  }
  return out;
}

/** Every window, at every level: the period filter as the scan, among all trips, among a line's, and through the filter language. */
function checkWindows(g: Generation, freshness: Freshness, seed: number): void {
  const { ref } = g;
  const all = ref.all('trip');
  const random = mulberry32(seed + 1);
  for (const [since, until] of windows(g, seed)) {
    for (const level of FRESHNESS_LEVELS) {
      const what = `${level} [${since}, ${until}]`;
      const want = scanned(freshness, level, since, until, all);
      assert.deepEqual(departingWithin(ref, freshness, level, since, until, all), want, what);
      const line = Math.floor(random() * g.tt.lines.length);
      const ofLine = ref.toTrips('line', Uint32Array.of(line));
      assert.deepEqual(departingWithin(ref, freshness, level, since, until, ofLine), scanned(freshness, level, since, until, ofLine), `${what}, line ${line}`);
      if (Number.isFinite(since) && Number.isFinite(until)) {
        const filter = parseFilter(`vehicle_journey.between(${filterDatetime(since)}, ${filterDatetime(until)}, ${level})`);
        assert.deepEqual(evaluate(filter, 'trip', { ref, freshness }), want, `${what}, the filter`);
      }
    }
  }
}

for (const [feed, seed] of [
  [['rnv-mannheim', 'gtfs.zip'], 1],
  [['medium', 'bydgoszcz-gtfs.zip'], 2],
  [['edge', 'two-agencies-two-timezones.zip'], 3],
  [['edge', 'mexico-city-multiagency-frequencies.zip'], 4],
  [['edge', 'helsinki-cropped-frequencies.zip'], 5],
] as const) {
  test(`${feed.join('/')}: random windows give the trips the scan gives`, async () => {
    const g = await load(...feed);
    checkWindows(g, g.freshness, seed);
  });
}

for (const [dir, capture, seed] of [
  ['caltrain', 'trip-updates-2023-11-08.pb', 6],
  ['bart', 'trip-updates-2019-08-07.pb', 7],
] as const) {
  test(`rt/${dir} with its capture applied: each level as the scan, around the capture and anywhere`, async () => {
    const base = await load('rt', dir, 'gtfs.zip');
    const message = decodeFeedMessage(readFileSync(sharedFeed('rt', dir, capture)));
    const g = withRealtime(base, readTripUpdates(base.ref, message));
    assert.ok(g.freshness.changedTrips('realtime').length > 0, 'the capture changes runs');
    checkWindows(g, g.freshness, seed);
    // the evening of the capture, in short windows
    const at = message.header.timestamp!;
    for (let since = at - 6 * 3600; since < at + 6 * 3600; since += 600) {
      for (const level of FRESHNESS_LEVELS) {
        assert.deepEqual(departingWithin(g.ref, g.freshness, level, since, since + 900, g.ref.all('trip')), scanned(g.freshness, level, since, since + 900, g.ref.all('trip')), `${level} at ${since}`);
      }
    }
  });
}

test('rnv with runs moved by minutes or days, cancelled or without their first stop: each level as the scan', async () => {
  const g = await load('rnv-mannheim', 'gtfs.zip');
  const { tt, ref } = g;
  const random = mulberry32(8);
  const runs = (count: number) => movedRuns(tt, random, count, ref.days.firstDay, ref.days.dayCount);
  const freshness = new RealtimeFreshness(ref, new LevelRuns(runs(300)), new LevelRuns(runs(300)));
  checkWindows(g, freshness, 9);
  // the moved runs' own new departures, one second wide
  for (const level of ['adapted_schedule', 'realtime'] as const) {
    for (const t of freshness.changedTrips(level).subarray(0, 25)) {
      for (let day = ref.days.firstDay; day < ref.days.firstDay + ref.days.dayCount; day += 10) {
        const at = ref.days.origin(0, day) + tt.stopTimes.departureSec[tt.trips.stopTimeOffset[t]!]!;
        for (const shift of SHIFTS) {
          assert.deepEqual(departingWithin(ref, freshness, level, at + shift, at + shift, ref.all('trip')), scanned(freshness, level, at + shift, at + shift, ref.all('trip')), `${level}, trip ${t}`);
        }
      }
    }
  }
});

test("rnv: the trips leaving in five minutes ask a few hundred of the timetable's trips, not every one", async () => {
  const g = await load('rnv-mannheim', 'gtfs.zip');
  let asked = 0;
  const counting: Freshness = {
    changedTrips: (level) => g.freshness.changedTrips(level),
    departsWithin: (t, level, since, until) => (asked++, g.freshness.departsWithin(t, level, since, until)),
    activeAt: (t, level, at) => g.freshness.activeAt(t, level, at),
  };
  // Tuesday 2016-11-08, 08:00 to 08:05 in Mannheim
  const since = Date.UTC(2016, 10, 8, 7, 0) / 1000;
  const found = departingWithin(g.ref, counting, 'base_schedule', since, since + 300, g.ref.all('trip'));
  const trips = g.tt.trips.ids.length;
  assert.ok(found.length >= 10, `${found.length} trips leave`);
  assert.ok(asked >= found.length && asked * 50 < trips, `${asked} of ${trips} trips asked`);
});
