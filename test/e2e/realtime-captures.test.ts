/**
 * Real GTFS-Realtime captures read against their static feeds (../shared/data/rt): the runs they
 * change, checked against times computed here from the raw stop_times.txt and the updates.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadTimetable } from '../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../src/gtfs/load-report.js';
import { ServiceDays } from '../../src/model/service-days.js';
import { decodeFeedMessage, type FeedMessage } from '../../src/live/realtime/gtfs-rt.js';
import { runKey } from '../../src/model/realtime-runs.js';
import { readTripUpdates } from '../../src/live/realtime/trip-updates.js';
import { Referential } from '../../src/ptref/referential.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { gtfsDay, gtfsTime, RawFeed, serviceDayOrigin } from './raw-gtfs.js';

const RT = path.join(SHARED_DATA, 'rt');

/** Scheduled stop times of every trip, by stop_sequence, straight from stop_times.txt. */
interface ScheduledStop {
  seq: number;
  stopId: string;
  arr: number;
  dep: number;
}

async function rawStopTimes(feed: RawFeed): Promise<Map<string, ScheduledStop[]>> {
  const st = await feed.table('stop_times.txt');
  const out = new Map<string, ScheduledStop[]>();
  for (const r of st.rows) {
    const list = out.get(st.get(r, 'trip_id')) ?? [];
    list.push({ seq: Number(st.get(r, 'stop_sequence')), stopId: st.get(r, 'stop_id'), arr: gtfsTime(st.get(r, 'arrival_time'))!, dep: gtfsTime(st.get(r, 'departure_time'))! });
    out.set(st.get(r, 'trip_id'), list);
  }
  for (const list of out.values()) list.sort((a, b) => a.seq - b.seq);
  return out;
}

async function setUp(dir: string, capture: string) {
  const zip = path.join(RT, dir, 'gtfs.zip');
  const tt = await loadTimetable([zip], { report: new LoadReport() });
  const days = new ServiceDays(tt);
  const ref = new Referential(tt);
  const message: FeedMessage = decodeFeedMessage(readFileSync(path.join(RT, dir, capture)));
  const raw = await RawFeed.open(zip);
  return { tt, days, ref, message, runs: readTripUpdates(ref, message), scheduled: await rawStopTimes(raw) };
}

/**
 * Expected times of a run whose updates all give absolute times: scheduled before the first
 * update, then each updated stop at its time, and the last time difference carried on. An update
 * is at the stop of its stop_sequence, or of its stop_id when that sequence is another stop's or
 * nobody's (the captures have both).
 */
function expectedTimes(
  scheduled: ScheduledStop[],
  updates: Array<{ stopSequence?: number; stopId?: string; arrival?: { time?: number }; departure?: { time?: number } }>,
  origin: number,
): { arr: number[]; dep: number[] } {
  const arr: number[] = [];
  const dep: number[] = [];
  let shift: number | null = null;
  const bySequence = (x: (typeof updates)[number]) => scheduled.find((s) => s.seq === x.stopSequence && (x.stopId === undefined || s.stopId === x.stopId));
  for (const s of scheduled) {
    const u = updates.find((x) => (bySequence(x) ? bySequence(x) === s : x.stopId === s.stopId));
    if (u) {
      const a = u.arrival?.time ?? u.departure?.time;
      const d = u.departure?.time ?? u.arrival?.time;
      arr.push(a! - origin);
      dep.push(Math.max(a! - origin, d! - origin));
      shift = d! - origin - s.dep;
    } else {
      arr.push(s.arr + (shift ?? 0));
      dep.push(s.dep + (shift ?? 0));
    }
  }
  return { arr, dep };
}

describe('BART trip updates, 2019-08-07', async () => {
  const { tt, ref, message, runs, scheduled } = await setUp('bart', 'trip-updates-2019-08-07.pb');
  const day = gtfsDay('20190807');
  const origin = serviceDayOrigin('America/Los_Angeles', day);
  const updates = message.entities.filter((e) => e.tripUpdate);

  test('65 known trips changed on the day of the feed, 7 added, 18 unknown trips and a one-stop addition reported', () => {
    const known = updates.filter((e) => ref.indexOf('trip', e.tripUpdate!.trip.tripId!) >= 0);
    assert.equal(known.length, 65);
    assert.equal(runs.runs.size, 65);
    for (const run of runs.runs.values()) assert.equal(run.day, day);
    // 8 trips are flagged ADDED; one of them has a single stop update
    const oneStop = updates.filter((e) => e.tripUpdate!.trip.scheduleRelationship === 'ADDED' && e.tripUpdate!.stopTimeUpdates.length < 2);
    assert.equal(oneStop.length, 1);
    assert.equal(runs.added.length, 7);
    assert.equal(runs.problems.filter((p) => /^unknown trip /.test(p.reason)).length, 18);
    assert.deepEqual(
      runs.problems.filter((p) => !/^unknown trip /.test(p.reason)),
      [{ entity: oneStop[0]!.id, reason: `added trip ${oneStop[0]!.tripUpdate!.trip.tripId}: fewer than two stops` }],
    );
  });

  test('each changed run has the times its updates give, the rest carried on from them', () => {
    let checked = 0;
    for (const e of updates) {
      const u = e.tripUpdate!;
      const trip = ref.indexOf('trip', u.trip.tripId!);
      if (trip < 0) continue;
      const run = runs.runs.get(runKey(trip, day))!;
      const expected = expectedTimes(scheduled.get(u.trip.tripId!)!, u.stopTimeUpdates, origin);
      assert.deepEqual([...run.arrivalSec], expected.arr, `arrivals of ${u.trip.tripId}`);
      assert.deepEqual([...run.departureSec], expected.dep, `departures of ${u.trip.tripId}`);
      checked++;
    }
    assert.equal(checked, 65);
  });

  test('added trips: their stops and absolute times, on the day of the feed', () => {
    for (const added of runs.added) {
      const e = updates.find((x) => x.tripUpdate!.trip.tripId === added.tripId)!;
      const served = e.tripUpdate!.stopTimeUpdates.filter((s) => s.scheduleRelationship !== 'SKIPPED');
      assert.deepEqual(
        [...added.stops].map((s) => tt.stopPoints.ids[s]),
        served.map((s) => s.stopId),
      );
      assert.equal(added.day, day);
      assert.deepEqual([...added.arrivalSec], served.map((s) => (s.arrival?.time ?? s.departure!.time!) - origin));
    }
  });
});

describe('Caltrain trip updates, 2023-11-08 01:05 UTC', async () => {
  const { ref, message, runs, scheduled } = await setUp('caltrain', 'trip-updates-2023-11-08.pb');
  // start_date 20231107: the evening before in Pacific time, not the UTC date of the feed
  const day = gtfsDay('20231107');
  const origin = serviceDayOrigin('America/Los_Angeles', day);

  test('every trip on its start_date, with the times of its updates', () => {
    assert.deepEqual(runs.problems, []);
    assert.equal(runs.runs.size, 19);
    for (const e of message.entities) {
      const u = e.tripUpdate!;
      const run = runs.runs.get(runKey(ref.indexOf('trip', u.trip.tripId!), day));
      assert.ok(run, `${u.trip.tripId} runs on 2023-11-07`);
      const expected = expectedTimes(scheduled.get(u.trip.tripId!)!, u.stopTimeUpdates, origin);
      assert.deepEqual([...run.arrivalSec], expected.arr, `arrivals of ${u.trip.tripId}`);
      assert.deepEqual([...run.departureSec], expected.dep, `departures of ${u.trip.tripId}`);
    }
  });
});
