/**
 * TripUpdates read against a timetable: delays carried on, absolute times, skipped stops, NO_DATA,
 * cancellations, added trips, service days given or inferred, and what is reported; then the
 * freshness levels that see the runs they change.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import type { Timetable } from '../../../src/model/timetable.js';
import type { FeedMessage, StopTimeUpdate, TripDescriptor } from '../../../src/live/realtime/gtfs-rt.js';
import { NO_LINE, NO_ROUTE, runKey } from '../../../src/model/realtime-runs.js';
import { readTripUpdates, readTripUpdatesInSlices } from '../../../src/live/realtime/trip-updates.js';
import { LevelRuns, RealtimeFreshness } from '../../../src/ptref/realtime-freshness.js';
import { Referential } from '../../../src/ptref/referential.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

// T1 runs every day A 10:00 -> B 10:10 -> C 10:20 -> D 10:30 (stop_sequence 5, 10, 15, 20);
// N1 runs at night, 23:50 -> 00:20 (24:20 on its service day).
const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Agency,http://a.example,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,45.0,4.80
B,B,45.0,4.81
C,C,45.0,4.82
D,D,45.0,4.83
# routes.txt
route_id,agency_id,route_short_name,route_type
R,A,1,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
ALL,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
R,ALL,T1
R,ALL,N1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
T1,10:00:00,10:00:00,A,5
T1,10:10:00,10:10:00,B,10
T1,10:20:00,10:21:00,C,15
T1,10:30:00,10:30:00,D,20
N1,23:50:00,23:50:00,D,1
N1,24:20:00,24:20:00,A,2
`;

let tt: Timetable;
let ref: Referential;
const DAY = dayNumber(2024, 3, 5);
const at = (h: number, m: number, s = 0) => zonedToEpoch('Europe/Paris', 2024, 3, 5, h, m, s);
const hms = (h: number, m: number, s = 0) => h * 3600 + m * 60 + s;

before(async () => {
  tt = await loadTimetable([writeFeed(FEED)], { report: new LoadReport() });
  ref = new Referential(tt);
});

function feed(timestamp: number, ...updates: Array<{ trip: TripDescriptor; stopTimeUpdates?: StopTimeUpdate[] }>): FeedMessage {
  return {
    header: { gtfsRealtimeVersion: '2.0', incrementality: 'FULL_DATASET', timestamp },
    entities: updates.map((u, i) => ({ id: `e${i}`, isDeleted: false, tripUpdate: { trip: u.trip, stopTimeUpdates: u.stopTimeUpdates ?? [] } })),
  };
}

function t1(stopTimeUpdates: StopTimeUpdate[]) {
  const out = readTripUpdates(ref, feed(at(9, 0), { trip: { tripId: 'T1', startDate: '20240305' }, stopTimeUpdates }));
  assert.deepEqual(out.problems, []);
  const run = out.runs.get(runKey(ref.indexOf('trip', 'T1'), DAY));
  assert.ok(run, 'a run for T1 on 2024-03-05');
  return { arrivals: [...run.arrivalSec], departures: [...run.departureSec], skipped: [...run.skipped], cancelled: run.cancelled };
}

describe('trip updates', () => {
  test('a delay carries on to the following stops; earlier ones keep their schedule', () => {
    const r = t1([{ stopSequence: 10, arrival: { delay: 120 } }]);
    assert.deepEqual(r.arrivals, [hms(10, 0), hms(10, 12), hms(10, 22), hms(10, 32)]);
    assert.deepEqual(r.departures, [hms(10, 0), hms(10, 12), hms(10, 23), hms(10, 32)]);
    assert.equal(r.cancelled, false);
  });

  test('absolute times, a later update overriding the delay, an early departure', () => {
    const r = t1([
      { stopSequence: 10, departure: { time: at(10, 13) } },
      { stopSequence: 15, arrival: { delay: -60 } },
    ]);
    assert.deepEqual(r.arrivals, [hms(10, 0), hms(10, 13), hms(10, 19), hms(10, 29)]);
    assert.deepEqual(r.departures, [hms(10, 0), hms(10, 13), hms(10, 20), hms(10, 29)]);
  });

  test('stops named by stop_id; an update with no time says on time', () => {
    const r = t1([{ stopId: 'B', arrival: { delay: 300 } }, { stopId: 'D' }]);
    assert.deepEqual(r.arrivals, [hms(10, 0), hms(10, 15), hms(10, 25), hms(10, 30)]);
  });

  test('updates out of the trip\'s order, and a stop_sequence that contradicts the stop_id', () => {
    const r = t1([
      { stopSequence: 15, arrival: { delay: 60 } },
      { stopSequence: 10, arrival: { delay: 30 } },
      // sequence 5 is stop A, not D: the stop_id wins
      { stopSequence: 5, stopId: 'D', arrival: { delay: 0 } },
    ]);
    assert.deepEqual(r.arrivals, [hms(10, 0), hms(10, 10, 30), hms(10, 21), hms(10, 30)]);
  });

  test('SKIPPED marks the stop and the delay goes on; NO_DATA returns to the schedule', () => {
    let r = t1([{ stopSequence: 5, departure: { delay: 60 } }, { stopSequence: 10, scheduleRelationship: 'SKIPPED' }]);
    assert.deepEqual(r.skipped, [0, 1, 0, 0]);
    assert.deepEqual(r.arrivals, [hms(10, 1), hms(10, 11), hms(10, 21), hms(10, 31)]);
    r = t1([{ stopSequence: 5, departure: { delay: 60 } }, { stopSequence: 15, scheduleRelationship: 'NO_DATA' }]);
    assert.deepEqual(r.arrivals, [hms(10, 1), hms(10, 11), hms(10, 20), hms(10, 30)]);
  });

  test('a cancelled trip, an added trip, an unknown trip', () => {
    const out = readTripUpdates(
      ref,
      feed(
        at(9, 0),
        { trip: { tripId: 'T1', startDate: '20240305', scheduleRelationship: 'CANCELED' } },
        {
          trip: { tripId: 'X9', routeId: 'R', scheduleRelationship: 'ADDED' },
          stopTimeUpdates: [
            { stopId: 'D', departure: { time: at(11, 0) } },
            { stopId: 'B', arrival: { time: at(11, 20) }, departure: { time: at(11, 21) } },
            { stopId: 'A', arrival: { time: at(11, 30) } },
          ],
        },
        { trip: { tripId: 'NOPE', startDate: '20240305' } },
      ),
    );
    assert.equal(out.runs.get(runKey(ref.indexOf('trip', 'T1'), DAY))?.cancelled, true);
    assert.equal(out.added.length, 1);
    const added = out.added[0]!;
    assert.deepEqual(
      { tripId: added.tripId, routeId: added.routeId, day: added.day, stops: [...added.stops].map((s) => tt.stopPoints.ids[s]) },
      { tripId: 'X9', routeId: 'R', day: DAY, stops: ['D', 'B', 'A'] },
    );
    assert.deepEqual([...added.arrivalSec], [hms(11, 0), hms(11, 20), hms(11, 30)]);
    assert.deepEqual([...added.departureSec], [hms(11, 0), hms(11, 21), hms(11, 30)]);
    assert.deepEqual(out.problems, [{ entity: 'e2', reason: 'unknown trip NOPE' }]);
    // route_id R is line R; no direction_id: the line's first (and only) route
    assert.deepEqual([tt.lines[added.line]!.id, tt.routes[added.route]!.id], ['R', 'route:R:0']);
  });

  test('added trips: without route_id on no line; an unknown route_id or a static trip id reported and skipped', () => {
    const stops: StopTimeUpdate[] = [
      { stopId: 'A', departure: { time: at(12, 0) } },
      { stopId: 'B', arrival: { time: at(12, 10) } },
    ];
    const out = readTripUpdates(
      ref,
      feed(
        at(9, 0),
        { trip: { tripId: 'X1', scheduleRelationship: 'ADDED' }, stopTimeUpdates: stops },
        { trip: { tripId: 'X2', routeId: 'NOPE', scheduleRelationship: 'ADDED' }, stopTimeUpdates: stops },
        { trip: { tripId: 'T1', routeId: 'R', scheduleRelationship: 'ADDED' }, stopTimeUpdates: stops },
      ),
    );
    assert.deepEqual(
      out.added.map((a) => [a.tripId, a.line, a.route]),
      [['X1', NO_LINE, NO_ROUTE]],
    );
    assert.deepEqual(out.problems, [
      { entity: 'e1', reason: 'added trip X2: unknown route_id NOPE' },
      { entity: 'e2', reason: 'added trip T1: a static trip has this id, ignored' },
    ]);
  });

  test('without start_date, the day of the run nearest the feed time', () => {
    const n1 = ref.indexOf('trip', 'N1');
    // 00:05 on 6 March: the night run of the 5th is under way
    let out = readTripUpdates(ref, feed(at(24, 5), { trip: { tripId: 'N1' }, stopTimeUpdates: [{ stopSequence: 2, arrival: { delay: 60 } }] }));
    assert.deepEqual([...out.runs.keys()], [runKey(n1, DAY)]);
    assert.deepEqual([...out.runs.get(runKey(n1, DAY))!.arrivalSec], [hms(23, 50), hms(24, 21)]);
    // 22:00 on the 5th: that day's run, not yet left
    out = readTripUpdates(ref, feed(at(22, 0), { trip: { tripId: 'N1' } }));
    assert.deepEqual([...out.runs.keys()], [runKey(n1, DAY)]);
    // 03:00 on the 6th: the run of the 5th, ended at 00:20, is nearer than the 6th's at 23:50
    out = readTripUpdates(ref, feed(at(27, 0), { trip: { tripId: 'N1' } }));
    assert.deepEqual([...out.runs.keys()], [runKey(n1, DAY)]);
    out = readTripUpdates(ref, feed(at(40, 0), { trip: { tripId: 'N1' } }));
    assert.deepEqual([...out.runs.keys()], [runKey(n1, DAY + 1)]);
  });

  test('updates that match no stop, a day the trip does not run: reported', () => {
    const out = readTripUpdates(
      ref,
      feed(
        at(9, 0),
        { trip: { tripId: 'T1', startDate: '20240305' }, stopTimeUpdates: [{ stopSequence: 99, arrival: { delay: 5 } }, { stopId: 'C', arrival: { delay: 30 } }] },
        { trip: { tripId: 'T1', startDate: '20250101' } },
      ),
    );
    assert.deepEqual(out.problems, [
      { entity: 'e0', reason: 'trip T1: no stop with sequence 99' },
      { entity: 'e1', reason: 'trip T1 does not run on 20250101' },
    ]);
    assert.deepEqual([...out.runs.get(runKey(ref.indexOf('trip', 'T1'), DAY))!.arrivalSec], [hms(10, 0), hms(10, 10), hms(10, 20, 30), hms(10, 30, 30)]);
  });
});

describe('freshness levels with realtime runs', () => {
  const freshness = (...updates: Array<{ trip: TripDescriptor; stopTimeUpdates?: StopTimeUpdate[] }>) => {
    const runs = readTripUpdates(ref, feed(at(9, 0), ...updates));
    assert.deepEqual(runs.problems, []);
    return new RealtimeFreshness(ref, new LevelRuns([]), new LevelRuns(runs.runs.values()));
  };
  const T1 = () => ref.indexOf('trip', 'T1');

  test('a delayed run departs at its new time at realtime only; the other days keep their schedule', () => {
    const f = freshness({ trip: { tripId: 'T1', startDate: '20240305' }, stopTimeUpdates: [{ stopSequence: 5, departure: { delay: 600 } }] });
    const scheduled = at(10, 0);
    const delayed = at(10, 10);
    assert.equal(f.departsWithin(T1(), 'base_schedule', scheduled, scheduled), true);
    assert.equal(f.departsWithin(T1(), 'realtime', scheduled, scheduled), false);
    assert.equal(f.departsWithin(T1(), 'realtime', delayed, delayed), true);
    assert.equal(f.departsWithin(T1(), 'base_schedule', delayed, delayed), false);
    // no planned disruption: adapted_schedule is the base schedule
    assert.equal(f.departsWithin(T1(), 'adapted_schedule', scheduled, scheduled), true);
    // the next day is untouched
    assert.equal(f.departsWithin(T1(), 'realtime', scheduled + 86400, scheduled + 86400), true);
    // running: at 10:35 the delayed run is still on its way (arrival 10:40), the scheduled one is not
    assert.equal(f.activeAt(T1(), 'realtime', at(10, 35)), true);
    assert.equal(f.activeAt(T1(), 'base_schedule', at(10, 35)), false);
  });

  test('a cancelled run is gone at realtime', () => {
    const f = freshness({ trip: { tripId: 'T1', startDate: '20240305', scheduleRelationship: 'CANCELED' } });
    const whole = [at(0, 0), at(23, 59)] as const;
    assert.equal(f.departsWithin(T1(), 'base_schedule', ...whole), true);
    assert.equal(f.departsWithin(T1(), 'realtime', ...whole), false);
    assert.equal(f.activeAt(T1(), 'realtime', at(10, 5)), false);
  });

  test('a run whose first stop is skipped departs from the next one', () => {
    const f = freshness({ trip: { tripId: 'T1', startDate: '20240305' }, stopTimeUpdates: [{ stopSequence: 5, scheduleRelationship: 'SKIPPED' }] });
    assert.equal(f.departsWithin(T1(), 'realtime', at(10, 0), at(10, 9)), false);
    assert.equal(f.departsWithin(T1(), 'realtime', at(10, 10), at(10, 10)), true);
  });
});

describe('reading a slice at a time', () => {
  test('the same runs, added trips and problems as in one go, on a feed of thousands of updates', async () => {
    // every trip on its day and on a day it does not run, an unknown trip, delays carried on
    const updates = [];
    for (let k = 0; k < 3000; k++) {
      const tripId = k % 7 === 0 ? `ghost-${k}` : tt.trips.ids[k % tt.trips.ids.length]!;
      updates.push({ trip: { tripId, startDate: k % 3 === 0 ? '20240305' : '20240306' }, stopTimeUpdates: [{ stopSequence: 1 + (k % 2), arrival: { delay: 60 * (k % 5) } }] });
    }
    const message = feed(at(9, 0), ...updates);
    const inOneGo = readTripUpdates(ref, message);
    const sliced = await readTripUpdatesInSlices(ref, message);
    assert.deepEqual(sliced, inOneGo);
    assert.ok(inOneGo.runs.size > 0 && inOneGo.problems.length > 0, 'runs and problems both');
  });
});
