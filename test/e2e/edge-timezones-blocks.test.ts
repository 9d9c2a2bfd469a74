/**
 * edge/two-agencies-two-timezones.zip: Sound Transit (America/Los_Angeles, the coverage's zone) plus
 * a test agency in America/New_York whose stop times count from New York's service day origin.
 * edge/trimet-2routes-blocks-after-midnight.zip: block_id on every trip, times up to 28:33:50.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, sharedFeed, sorted, tripCount, tripIds } from './coverage-app.js';
import { dayText, gtfsDay, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin } from './raw-gtfs.js';

test('two time zones: the New York agency\'s trips depart on New York time', async () => {
  const file = sharedFeed('edge', 'two-agencies-two-timezones.zip');
  const [served, raw] = await Promise.all([serve([file]), RawFeed.open(file)]);
  try {
    const tt = served.generation.tt;
    const trips = await rawTrips(raw);
    const days = await serviceDays(raw);
    assert.equal(tt.timezone, 'America/Los_Angeles');
    assert.equal(tt.trips.ids.length, trips.size);
    const ny = [...trips.values()].filter((t) => t.timezone === 'America/New_York');
    assert.deepEqual(sorted(ny.map((t) => t.id)), ['42347', '42350', '42363']);
    assert.deepEqual(ny.map((t) => t.frequencies.length), [1, 1, 1]);

    // Wednesday 2014-02-26 at 00:06 and 00:16 in New York is Tuesday 21:06 and 21:16 in Seattle.
    const day = gtfsDay('20140226');
    const since = localTime('America/Los_Angeles', day - 1, 21 * 3600);
    const until = localTime('America/Los_Angeles', day - 1, 21 * 3600 + 10 * 60);
    const want = tripsDepartingWithin(ny, days, since, until);
    assert.equal(want.size, 3);
    const naive = { since: naiveDatetime(day - 1, 21 * 3600), until: naiveDatetime(day - 1, 21 * 3600 + 10 * 60) };
    assert.deepEqual(sorted(await tripIds(served.app, ['networks', 'TEST'], naive)), sorted(want));
    // The same instants written with New York's offset.
    const offset = { since: `${dayText(day)}T000000-0500`, until: `${dayText(day)}T001000-0500` };
    assert.deepEqual(sorted(await tripIds(served.app, ['networks', 'TEST'], offset)), sorted(want));
    // Read as Seattle time, 00:00-00:10 is three hours later in New York: no run of the agency then…
    assert.equal(tripsDepartingWithin(ny, days, localTime('America/Los_Angeles', day, 0), localTime('America/Los_Angeles', day, 600)).size, 0);
    assert.equal(await tripCount(served.app, ['networks', 'TEST'], { since: naiveDatetime(day, 0), until: naiveDatetime(day, 600) }), 0);
    // …and over the whole coverage, the window holds exactly the runs computed for both agencies.
    for (const [from, to] of [[day - 1, 21 * 3600], [day, 7 * 3600]] as const) {
      const all = tripsDepartingWithin(trips.values(), days, localTime('America/Los_Angeles', from, to), localTime('America/Los_Angeles', from, to + 3600));
      const got = await tripIds(served.app, [], { since: naiveDatetime(from, to), until: naiveDatetime(from, to + 3600) });
      assert.deepEqual(sorted(got), sorted(all));
    }
  } finally {
    raw.close();
    await served.close();
  }
});

test('trimet: every trip keeps its block, and late runs are found after midnight', async () => {
  const file = sharedFeed('edge', 'trimet-2routes-blocks-after-midnight.zip');
  const [served, raw] = await Promise.all([serve([file]), RawFeed.open(file)]);
  try {
    const tt = served.generation.tt;
    const trips = await rawTrips(raw);
    const days = await serviceDays(raw);
    const stats = await timeStats(raw);
    assert.deepEqual([trips.size, stats.rows, stats.max], [2341, 43_813, 28 * 3600 + 33 * 60 + 50]);
    assert.equal(tt.stopTimes.arrivalSec.length, stats.rows);
    assert.equal(tt.stopTimes.arrivalSec.reduce((a, b) => Math.max(a, b), 0), stats.max);
    assert.deepEqual(served.problems, []);

    const blockOf = new Map(tt.trips.ids.map((id, i) => [id, tt.trips.blockIds[i]!]));
    assert.equal(blockOf.size, trips.size);
    for (const t of trips.values()) assert.equal(blockOf.get(t.id), t.blockId, t.id);
    assert.ok([...trips.values()].every((t) => t.blockId !== ''));
    assert.equal(new Set(tt.trips.blockIds).size, new Set([...trips.values()].map((t) => t.blockId)).size);

    // Wednesday 2021-11-03 00:30-04:59 (Portland): Tuesday's runs listed past 24:00 and the first
    // runs of Wednesday.
    const day = gtfsDay('20211103');
    const tz = 'America/Los_Angeles';
    const want = tripsDepartingWithin(trips.values(), days, localTime(tz, day, 1800), localTime(tz, day, 5 * 3600 - 1));
    const late = [...want].filter((id) => trips.get(id)!.firstDeparture! >= 86400);
    assert.ok(late.length > 0 && late.length < want.size);
    const got = await tripIds(served.app, [], { since: naiveDatetime(day, 1800), until: naiveDatetime(day, 5 * 3600 - 1) });
    assert.deepEqual(sorted(got), sorted(want));
  } finally {
    raw.close();
    await served.close();
  }
});
