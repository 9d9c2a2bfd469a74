/**
 * Frequency-based feeds of edge/: Mexico City (8 agencies, every trip a frequencies.txt template with
 * exact_times=0), the Buenos Aires subway (exact_times=1, transfers) and the cropped Helsinki feed
 * (one service date, times past 24:00). A run of a frequency-based trip departs at
 * start_time + k × headway_secs, before end_time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceRunsOn, type Timetable } from '../../src/model/timetable.js';
import { serve, sharedFeed, sorted, tripCount, tripIds, type Served } from './coverage-app.js';
import { dayText, gtfsDay, localTime, naiveDatetime, rawTrips, RawFeed, serviceDays, timeStats, tripsDepartingWithin } from './raw-gtfs.js';

async function open(name: string): Promise<[Served, RawFeed]> {
  const file = sharedFeed('edge', name);
  return Promise.all([serve([file]), RawFeed.open(file)]);
}

/** Frequency rows of each loaded trip, as text, to compare with the raw rows. */
function loadedFrequencies(tt: Timetable): string[] {
  const out: string[] = [];
  for (let t = 0; t < tt.trips.ids.length; t++) {
    for (let f = tt.trips.frequencyOffset[t]!; f < tt.trips.frequencyOffset[t + 1]!; f++) {
      out.push(`${tt.trips.ids[t]} ${tt.frequencies.startSec[f]}-${tt.frequencies.endSec[f]}/${tt.frequencies.headwaySec[f]} exact=${tt.frequencies.exactTimes[f]}`);
    }
  }
  return out.sort();
}

function rawFrequencies(trips: Iterable<{ id: string; frequencies: { start: number; end: number; headway: number; exact: boolean }[] }>): string[] {
  const out: string[] = [];
  for (const t of trips) for (const f of t.frequencies) out.push(`${t.id} ${f.start}-${f.end}/${f.headway} exact=${f.exact ? 1 : 0}`);
  return out.sort();
}

test('mexico city: eight agencies of frequency-based trips (exact_times=0)', async () => {
  const [served, raw] = await open('mexico-city-multiagency-frequencies.zip');
  try {
    const tt = served.generation.tt;
    const trips = await rawTrips(raw);
    const days = await serviceDays(raw);
    assert.equal(trips.size, 1741);
    assert.equal(tt.trips.ids.length, trips.size);
    assert.ok([...trips.values()].every((t) => t.frequencies.length > 0 && t.frequencies.every((f) => !f.exact)));
    assert.deepEqual(loadedFrequencies(tt), rawFrequencies(trips.values()));
    assert.equal(tt.stopTimes.arrivalSec.length, (await timeStats(raw)).rows);
    assert.deepEqual(served.problems, []);

    // Trips per agency (network).
    const agencies = await raw.table('agency.txt');
    assert.equal(agencies.rows.length, 8);
    assert.equal(tt.agencies.length, 8);
    for (const r of agencies.rows) {
      const id = agencies.get(r, 'agency_id');
      const n = [...trips.values()].filter((t) => t.agencyId === id).length;
      assert.equal(await tripCount(served.app, ['networks', id]), n, id);
    }

    // A five-minute window: trips with a headway over five minutes may have no run in it.
    const day = gtfsDay('20190312');
    const tz = 'America/Mexico_City';
    for (const [from, to] of [[10 * 3600, 10 * 3600 + 300], [5 * 3600, 5 * 3600 + 59], [23 * 3600, 23 * 3600 + 3599]] as const) {
      const want = tripsDepartingWithin(trips.values(), days, localTime(tz, day, from), localTime(tz, day, to));
      const got = await tripIds(served.app, [], { since: naiveDatetime(day, from), until: naiveDatetime(day, to) });
      assert.deepEqual(sorted(got), sorted(want), `${naiveDatetime(day, from)} to ${naiveDatetime(day, to)}`);
    }
    const morning = tripsDepartingWithin(trips.values(), days, localTime(tz, day, 10 * 3600), localTime(tz, day, 10 * 3600 + 300));
    const running = [...trips.values()].filter((t) => days.get(t.serviceId)?.has(day) && t.frequencies.some((f) => f.start <= 10 * 3600 && f.end > 10 * 3600 + 300));
    assert.ok(morning.size > 0 && morning.size < running.length, 'some running trips have no departure in those five minutes');
  } finally {
    raw.close();
    await served.close();
  }
});

test('buenos aires subte: exact frequencies and platform-to-platform transfers', async () => {
  const [served, raw] = await open('buenos-aires-subte-frequencies.zip');
  try {
    const tt = served.generation.tt;
    const trips = await rawTrips(raw);
    const days = await serviceDays(raw);
    assert.equal(trips.size, 48);
    assert.equal(tt.trips.ids.length, 48);
    const rows = rawFrequencies(trips.values());
    assert.equal(rows.length, 172);
    assert.deepEqual(loadedFrequencies(tt), rows);
    assert.ok(rows.every((r) => r.endsWith('exact=1')));

    const transfers = await raw.table('transfers.txt');
    const want = transfers.rows.map((r) => `${transfers.get(r, 'from_stop_id')}>${transfers.get(r, 'to_stop_id')} ${transfers.get(r, 'min_transfer_time')}`).sort();
    const got: string[] = [];
    for (let i = 0; i < tt.transfers.fromStop.length; i++) {
      got.push(`${tt.stopPoints.ids[tt.transfers.fromStop[i]!]}>${tt.stopPoints.ids[tt.transfers.toStop[i]!]} ${tt.transfers.minTimeSec[i]}`);
    }
    assert.equal(want.length, 104);
    assert.deepEqual(got.sort(), want);
    const stops = await raw.table('stops.txt');
    const stations = stops.rows.filter((r) => stops.get(r, 'location_type') === '1').length;
    assert.equal(tt.stopAreas.length, stations);
    assert.equal(tt.stopPoints.ids.length, stops.rows.length - stations);

    // Weekday, Saturday and Sunday services through the API.
    for (const date of ['20150310', '20150314', '20150315']) {
      const day = gtfsDay(date);
      const tz = 'America/Argentina/Buenos_Aires';
      const want = tripsDepartingWithin(trips.values(), days, localTime(tz, day, 8 * 3600), localTime(tz, day, 8 * 3600 + 180));
      assert.ok(want.size > 0, date);
      const got = await tripIds(served.app, [], { since: naiveDatetime(day, 8 * 3600), until: naiveDatetime(day, 8 * 3600 + 180) });
      assert.deepEqual(sorted(got), sorted(want), date);
    }
  } finally {
    raw.close();
    await served.close();
  }
});

test('helsinki: a single service date, runs past midnight, and trips too short to load', async () => {
  const [served, raw] = await open('helsinki-cropped-frequencies.zip');
  try {
    const tt = served.generation.tt;
    const trips = await rawTrips(raw);
    const days = await serviceDays(raw);
    const day = gtfsDay('20220222');
    const used = new Set([...trips.values()].map((t) => t.serviceId));
    assert.ok([...used].every((s) => days.get(s)!.size === 1 && days.get(s)!.has(day)), 'every service runs on 2022-02-22 only');
    for (let s = 0; s < tt.services.ids.length; s++) {
      for (let d = day - 3; d <= day + 3; d++) assert.equal(serviceRunsOn(tt, s, d), d === day, `${tt.services.ids[s]} ${dayText(d)}`);
    }
    const stats = await timeStats(raw);
    assert.equal(stats.max, 26 * 3600 + 31 * 60);

    // Trips with a single stop time cannot be loaded: each is reported at its line of trips.txt.
    const short = [...trips.values()].filter((t) => t.stopTimes < 2).map((t) => t.id);
    assert.equal(short.length, 8);
    assert.deepEqual(sorted(tt.trips.ids), sorted([...trips.keys()].filter((id) => !short.includes(id))));
    const tripsTxt = await raw.table('trips.txt');
    const lineOf = new Map(tripsTxt.rows.map((r, i) => [tripsTxt.get(r, 'trip_id'), i + 2]));
    assert.equal(served.generation.report.counts.get('trip with a single stop time, skipped'), 8);
    assert.equal(served.generation.report.problemCount, 8);
    assert.ok(served.problems.length > 0);
    for (const p of served.problems) {
      const id = p.reason.replace('trip with a single stop time, skipped: ', '');
      assert.ok(short.includes(id), p.reason);
      assert.deepEqual({ file: p.file, line: p.line }, { file: 'helsinki-cropped-frequencies.zip/trips.txt', line: lineOf.get(id) });
    }
    const loaded = [...trips.values()].filter((t) => t.stopTimes >= 2);
    assert.equal(tt.stopTimes.arrivalSec.length, loaded.reduce((n, t) => n + t.stopTimes, 0));

    // Over the service day and the night after it, every loaded trip departs.
    const tz = 'Europe/Helsinki';
    assert.equal(await tripCount(served.app, [], { since: naiveDatetime(day, 0), until: naiveDatetime(day + 1, 6 * 3600) }), loaded.length);
    // After midnight, only the runs listed past 24:00 depart.
    const night = tripsDepartingWithin(loaded, days, localTime(tz, day + 1, 0), localTime(tz, day + 1, 3 * 3600));
    assert.ok(night.size > 0);
    const got = await tripIds(served.app, [], { since: naiveDatetime(day + 1, 0), until: naiveDatetime(day + 1, 3 * 3600) });
    assert.deepEqual(sorted(got), sorted(night));
    // Nothing the day before.
    assert.equal(await tripCount(served.app, [], { since: naiveDatetime(day - 1, 0), until: naiveDatetime(day - 1, 86399) }), 0);
    // Only one bound: from then on, or up to then (the only service day bounds the other side).
    const fromMidnight = tripsDepartingWithin(loaded, days, localTime(tz, day + 1, 0), localTime(tz, day + 2, 0));
    assert.ok(fromMidnight.size >= night.size);
    assert.deepEqual(sorted(await tripIds(served.app, [], { since: naiveDatetime(day + 1, 0) })), sorted(fromMidnight));
    const early = tripsDepartingWithin(loaded, days, localTime(tz, day - 1, 0), localTime(tz, day, 5 * 3600 + 1800));
    assert.ok(early.size > 0 && early.size < loaded.length);
    assert.deepEqual(sorted(await tripIds(served.app, [], { until: naiveDatetime(day, 5 * 3600 + 1800) })), sorted(early));
  } finally {
    raw.close();
    await served.close();
  }
});
