/**
 * `/trips?since=…&until=…&data_freshness=…` over the Caltrain capture (../shared/data/rt/caltrain):
 * a trip is kept when one of its runs at that level departs from its first stop inside the window
 * (decisions.md, trips table). The expected ids are computed here, from the raw GTFS and the decoded
 * capture, without the server's code: every run at its scheduled first departure, except, at the
 * realtime level, the runs of the capture's start_date, at the time its updates give their first
 * stop (or gone when cancelled). No planned disruption exists: adapted_schedule is the base schedule.
 *
 * The capture (header 2023-11-08 01:05 UTC) speaks of runs of 2023-11-07, the previous day in
 * Pacific time; the same trips run on 2023-11-08 too, untouched.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeFeedMessage, type FeedMessage } from '../../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../../src/live/realtime/trip-updates.js';
import { withRealtime } from '../../src/service/generation.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { getJson } from '../helpers/app.js';
import { serve, sorted, tripIds, tripsUrl, type Served } from './coverage-app.js';
import { dayText, gtfsDay, rawTrips, RawFeed, serviceDayOrigin, serviceDays, type RawTrip } from './raw-gtfs.js';

const DIR = path.join(SHARED_DATA, 'rt', 'caltrain');
const ZIP = path.join(DIR, 'gtfs.zip');
const TZ = 'America/Los_Angeles';
const LEVELS = ['base_schedule', 'adapted_schedule', 'realtime'] as const;
type Level = (typeof LEVELS)[number];
const CAPTURE: FeedMessage = decodeFeedMessage(readFileSync(path.join(DIR, 'trip-updates-2023-11-08.pb')));

/** `YYYYMMDDThhmmssZ` of an epoch second. */
const utc = (sec: number) => new Date(sec * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

interface FirstStop {
  seq: number;
  stopId: string;
}

/** What the test knows of the feed, read raw. */
interface Expectations {
  trips: Map<string, RawTrip>;
  days: Map<string, Set<number>>;
  first: Map<string, FirstStop>;
}

async function readRaw(): Promise<Expectations> {
  const raw = await RawFeed.open(ZIP);
  const st = await raw.table('stop_times.txt');
  const first = new Map<string, FirstStop>();
  for (const r of st.rows) {
    const seq = Number(st.get(r, 'stop_sequence'));
    const kept = first.get(st.get(r, 'trip_id'));
    if (!kept || seq < kept.seq) first.set(st.get(r, 'trip_id'), { seq, stopId: st.get(r, 'stop_id') });
  }
  const out = { trips: await rawTrips(raw), days: await serviceDays(raw), first };
  raw.close();
  for (const trip of out.trips.values()) assert.equal(trip.frequencies.length, 0, 'Caltrain has no frequency-based trip');
  return out;
}

/** Epoch second of a trip's scheduled first departure on service day `day`. */
function scheduledAt(x: Expectations, tripId: string, day: number): number {
  const trip = x.trips.get(tripId)!;
  return serviceDayOrigin(trip.timezone, day) + trip.firstDeparture!;
}

/**
 * The runs a message changes, `trip_id day` -> their first departure at realtime (epoch second), null
 * when cancelled: the time of the update naming the first stop (by stop_sequence, else by stop_id),
 * its departure or else its arrival, never before its arrival; the schedule when no update names it
 * (stops before the first update keep their times).
 */
function realtimeFirstDepartures(x: Expectations, message: FeedMessage): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const e of message.entities) {
    const u = e.tripUpdate!;
    const tripId = u.trip.tripId!;
    const day = gtfsDay(u.trip.startDate!);
    if (u.trip.scheduleRelationship === 'CANCELED') {
      out.set(`${tripId} ${day}`, null);
      continue;
    }
    const first = x.first.get(tripId)!;
    const named = u.stopTimeUpdates.find((s) => (s.stopSequence !== undefined ? s.stopSequence === first.seq : s.stopId === first.stopId));
    if (named?.stopId !== undefined) assert.equal(named.stopId, first.stopId, `the update at the first stop of ${tripId} names its stop`);
    const a = named?.arrival?.time ?? named?.departure?.time;
    const d = named?.departure?.time ?? named?.arrival?.time;
    out.set(`${tripId} ${day}`, a !== undefined && d !== undefined ? Math.max(a, d) : scheduledAt(x, tripId, day));
  }
  return out;
}

/** Ids of the trips with a run departing inside [since, until] at `level`. */
function expectedIds(x: Expectations, changed: Map<string, number | null>, level: Level, since: number, until: number): Set<string> {
  const out = new Set<string>();
  for (const trip of x.trips.values()) {
    const active = x.days.get(trip.serviceId);
    if (!active || trip.firstDeparture === null) continue;
    for (let day = Math.floor(since / 86400) - 2; day <= Math.floor(until / 86400) + 1; day++) {
      if (!active.has(day)) continue;
      const key = `${trip.id} ${day}`;
      const at = level === 'realtime' && changed.has(key) ? changed.get(key)! : scheduledAt(x, trip.id, day);
      if (at !== null && at >= since && at <= until) out.add(trip.id);
    }
  }
  return out;
}

/** The ids the server lists at each level equal the expected ones (adapted_schedule: the base's). */
async function checkWindow(served: Served, x: Expectations, changed: Map<string, number | null>, since: number, until: number): Promise<Record<Level, Set<string>>> {
  const expected = {} as Record<Level, Set<string>>;
  for (const level of LEVELS) {
    expected[level] = expectedIds(x, changed, level === 'adapted_schedule' ? 'base_schedule' : level, since, until);
    const listed = await tripIds(served.app, [], { since: utc(since), until: utc(until), data_freshness: level });
    assert.deepEqual(sorted(listed), sorted(expected[level]), `${level} in [${utc(since)}, ${utc(until)}]`);
  }
  return expected;
}

/** The coverage with a message of TripUpdates applied, as the realtime updater applies it. */
async function servedWith(message: FeedMessage): Promise<Served> {
  const served = await serve([ZIP]);
  const g = served.generation;
  served.coverage.swap(withRealtime(g, readTripUpdates(g.ref, message)));
  return served;
}

const CAPTURE_DAY = gtfsDay('20231107');

describe('Caltrain: since/until at each freshness level, with the capture applied', () => {
  let served: Served;
  let x: Expectations;
  let changed: Map<string, number | null>;
  /** runs whose first departure the capture moves: [trip_id, scheduled, realtime] */
  let moved: Array<[string, number, number]>;

  before(async () => {
    served = await servedWith(CAPTURE);
    x = await readRaw();
    changed = realtimeFirstDepartures(x, CAPTURE);
    moved = [];
    for (const [key, at] of changed) {
      const [tripId, day] = key.split(' ') as [string, string];
      const scheduled = scheduledAt(x, tripId, Number(day));
      if (at !== null && at !== scheduled) moved.push([tripId, scheduled, at]);
    }
  });
  after(() => served.close());

  test('the capture speaks of the previous local day: start_date 20231107 under a header of 2023-11-08 UTC', () => {
    assert.equal(dayText(Math.floor(CAPTURE.header.timestamp! / 86400)), '20231108');
    assert.equal(changed.size, 19);
    for (const e of CAPTURE.entities) assert.equal(e.tripUpdate!.trip.startDate, '20231107');
    assert.ok(moved.length >= 1, 'some run departs from its first stop at another time than scheduled');
  });

  test('a run whose new first departure alone is inside the window is listed at realtime only, and the reverse', async () => {
    for (const [tripId, scheduled, actual] of moved) {
      const lo = Math.min(scheduled, actual);
      const hi = Math.max(scheduled, actual);
      // [lo + 1, hi] holds the later of the two times only, [lo, hi - 1] the earlier only
      for (const [since, until, holdsActual] of [
        [lo + 1, hi, actual > scheduled],
        [lo, hi - 1, actual < scheduled],
      ] as const) {
        const expected = await checkWindow(served, x, changed, since, until);
        assert.equal(expected.realtime.has(tripId), holdsActual, `${tripId} at realtime in [${utc(since)}, ${utc(until)}]`);
        assert.equal(expected.base_schedule.has(tripId), !holdsActual, `${tripId} at base_schedule in [${utc(since)}, ${utc(until)}]`);
      }
      // the exact times, one second wide
      for (const [at, level] of [
        [scheduled, 'base_schedule'],
        [actual, 'realtime'],
      ] as const) {
        const found = (await served.app.inject({ method: 'GET', url: `/v1/coverage/e2e/trips/${tripId}?since=${utc(at)}&until=${utc(at)}&data_freshness=${level}` })).statusCode;
        assert.equal(found, 200, `${tripId} departs at ${utc(at)} at ${level}`);
      }
    }
  });

  test('the changed runs are those of 2023-11-07: the next day, the same trips depart as scheduled at every level', async () => {
    for (const [tripId, scheduled, actual] of moved) {
      const next = CAPTURE_DAY + 1;
      assert.ok(x.days.get(x.trips.get(tripId)!.serviceId)!.has(CAPTURE_DAY) && x.days.get(x.trips.get(tripId)!.serviceId)!.has(next), `${tripId} runs on both days`);
      const shift = serviceDayOrigin(TZ, next) - serviceDayOrigin(TZ, CAPTURE_DAY);
      // the scheduled time of the next day: listed at every level
      const atScheduled = await checkWindow(served, x, changed, scheduled + shift, scheduled + shift);
      for (const level of LEVELS) assert.ok(atScheduled[level].has(tripId), `${tripId} on ${dayText(next)} at ${level}`);
      // the realtime time moved to the next day: nobody departs then from the trip's first stop
      const lo = Math.min(scheduled, actual) + shift;
      const hi = Math.max(scheduled, actual) + shift;
      const moved = await checkWindow(served, x, changed, actual > scheduled ? lo + 1 : lo, actual > scheduled ? hi : hi - 1);
      for (const level of LEVELS) assert.ok(!moved[level].has(tripId), `${tripId} keeps its schedule on ${dayText(next)} at ${level}`);
    }
  });

  test('over the whole evening of the capture, each level lists its own runs, adapted_schedule the base ones', async () => {
    const at = CAPTURE.header.timestamp!;
    for (const [since, until] of [
      [at - 3 * 3600, at + 3 * 3600],
      [at, at + 3600],
      [at + 1800, at + 5400],
    ] as const) {
      await checkWindow(served, x, changed, since, until);
    }
    // the same through the filter language
    const [, scheduled, actual] = moved[0]!;
    const between = (level: Level) => `vehicle_journey.between("${utc(Math.min(scheduled, actual) + 1)}", "${utc(Math.max(scheduled, actual))}", ${level})`;
    for (const level of LEVELS) {
      const expected = expectedIds(x, changed, level === 'adapted_schedule' ? 'base_schedule' : level, Math.min(scheduled, actual) + 1, Math.max(scheduled, actual));
      const { status, json } = await getJson(served.app, tripsUrl([], { filter: between(level), count: 1000 }));
      // nothing found under a `filter` key: 400 bad_filter (navitia-trips.md §8.3)
      assert.equal(status, expected.size === 0 ? 400 : 200, between(level));
      assert.deepEqual(sorted((json.trips ?? []).map((t: { id: string }) => t.id)), sorted(expected), between(level));
    }
  });
});

describe('Caltrain: a cancelled run', () => {
  let served: Served;
  let x: Expectations;
  let changed: Map<string, number | null>;
  let cancelled: string;

  before(async () => {
    // the capture has no cancellation: its last trip update made one
    const message = structuredClone(CAPTURE);
    const last = message.entities[message.entities.length - 1]!.tripUpdate!;
    last.trip.scheduleRelationship = 'CANCELED';
    cancelled = last.trip.tripId!;
    served = await servedWith(message);
    x = await readRaw();
    changed = realtimeFirstDepartures(x, message);
  });
  after(() => served.close());

  test('disappears at realtime only, on its start_date only', async () => {
    const scheduled = scheduledAt(x, cancelled, CAPTURE_DAY);
    const onDay = await checkWindow(served, x, changed, scheduled - 60, scheduled + 60);
    assert.deepEqual(
      LEVELS.map((level) => onDay[level].has(cancelled)),
      [true, true, false],
    );
    const nextDay = scheduledAt(x, cancelled, CAPTURE_DAY + 1);
    const onNext = await checkWindow(served, x, changed, nextDay - 60, nextDay + 60);
    assert.deepEqual(
      LEVELS.map((level) => onNext[level].has(cancelled)),
      [true, true, true],
    );
    // by its id: found at base_schedule, 404 at realtime
    const status = async (level: Level) =>
      (await served.app.inject({ method: 'GET', url: `/v1/coverage/e2e/trips/${cancelled}?since=${utc(scheduled)}&until=${utc(scheduled)}&data_freshness=${level}` })).statusCode;
    assert.deepEqual([await status('base_schedule'), await status('adapted_schedule'), await status('realtime')], [200, 200, 404]);
  });
});
