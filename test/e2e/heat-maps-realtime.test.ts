/**
 * Heat maps at the three freshness levels on rnv-mannheim (no realtime capture comes with a street
 * network, so the realtime runs are made here). Cancelling, on 2016-11-08, every run that leaves the
 * centre between 08:00 and 08:30 must give, at realtime, exactly the base map drawn with those trips
 * forbidden (an independent path: the forbidden_uris[] mask), while the base schedule stays as it was.
 * A planned NO_SERVICE disruption of the same trips that day does the same at adapted_schedule.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RealtimeRun } from '../../src/model/realtime-runs.js';
import type { RealtimeRuns } from '../../src/live/realtime/trip-updates.js';
import { runKey } from '../../src/model/realtime-runs.js';
import { Coverage } from '../../src/service/coverage-registry.js';
import { withDisruptions, withRealtime, type Generation } from '../../src/service/generation.js';
import { parseDisruptionFile } from '../../src/live/disruptions/disruption-file.js';
import { plannedRuns } from '../../src/live/disruptions/planned-runs.js';
import { ServiceDays } from '../../src/model/service-days.js';
import { serviceRunsOn } from '../../src/model/timetable.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { getOk, serveCoverages } from '../helpers/app.js';

const DIR = path.join(SHARED_DATA, 'rnv-mannheim');
const DATETIME = '20161108T080000';
const DAY = Date.UTC(2016, 10, 8) / 86_400_000;
const T0 = Date.UTC(2016, 10, 8, 7, 0, 0) / 1000; // 08:00 CET

let app: FastifyInstance;
let coverage: Coverage;
let base: Generation;
/** the stop with the most departures between 08:00 and 08:30, and the trips leaving it then */
let centre: string;
let leaving: number[];

before(async () => {
  const served = await serveCoverages([{ id: 'rnv', gtfs: [path.join(DIR, 'gtfs.zip')], osm: path.join(DIR, 'osm.pbf') }]);
  ({ app } = served);
  coverage = served.coverages.get('rnv')!;
  base = served.generations.get('rnv')!;
  const tt = base.tt;
  const days = new ServiceDays(tt);
  const byStop = new Map<number, number[]>();
  for (let t = 0; t < tt.trips.ids.length; t++) {
    if (!serviceRunsOn(tt, tt.trips.service[t]!, DAY)) continue;
    const origin = days.origin(tt.agencyTimezone[tt.trips.agency[t]!]!, DAY);
    const p = tt.trips.pattern[t]!;
    const o = tt.trips.stopTimeOffset[t]!;
    const n = tt.trips.stopTimeOffset[t + 1]! - o - 1; // not the last stop: nothing leaves it
    for (let k = 0; k < n; k++) {
      const at = origin + tt.stopTimes.departureSec[o + k]!;
      if (at < T0 || at > T0 + 1800) continue;
      const s = tt.patterns.stops[tt.patterns.stopOffset[p]! + k]!;
      byStop.set(s, [...(byStop.get(s) ?? []), t]);
    }
  }
  const [stop, trips] = [...byStop].sort((a, b) => b[1].length - a[1].length || a[0] - b[0])[0]!;
  centre = tt.stopPoints.ids[stop]!;
  leaving = [...new Set(trips)];
  assert.ok(leaving.length >= 4, `${leaving.length} trips leave ${centre} between 08:00 and 08:30`);
});

after(async () => {
  await app?.close();
});

/** The realtime runs of `trips` on 2016-11-08, each cancelled or delayed by `delaySec`. */
function runsOf(trips: number[], change: { cancelled: true } | { delaySec: number }): RealtimeRuns {
  const tt = base.tt;
  const runs = new Map<string, RealtimeRun>();
  for (const t of trips) {
    const o = tt.trips.stopTimeOffset[t]!;
    const e = tt.trips.stopTimeOffset[t + 1]!;
    const shift = 'delaySec' in change ? change.delaySec : 0;
    runs.set(runKey(t, DAY), {
      trip: t,
      day: DAY,
      cancelled: 'cancelled' in change,
      arrivalSec: tt.stopTimes.arrivalSec.slice(o, e).map((x) => x + shift),
      departureSec: tt.stopTimes.departureSec.slice(o, e).map((x) => x + shift),
      skipped: new Uint8Array(e - o),
    });
  }
  return { runs, added: [], problems: [] };
}

async function matrix(extra: string): Promise<(number | null)[][]> {
  const url = `/v1/coverage/rnv/heat_maps?from=${encodeURIComponent(centre)}&datetime=${DATETIME}&max_duration=1800&resolution=60${extra}`;
  const m = (await getOk(app, url)).heat_maps[0].heat_matrix;
  return [m.line_headers.map((h: { cell_lat: { center_lat: number } }) => h.cell_lat.center_lat), ...m.lines.map((l: { duration: (number | null)[] }) => l.duration)];
}

const reachedCells = (m: (number | null)[][]) => m.slice(1).flat().filter((v) => v !== null).length;

test('heat maps: cancelled runs at realtime give the base map without those trips; base and adapted stay', async () => {
  const before = await matrix('');
  coverage.swap(withRealtime(base, runsOf(leaving, { cancelled: true })));
  try {
    const forbidden = leaving.map((t) => `&forbidden_uris[]=${encodeURIComponent(base.tt.trips.ids[t]!)}`).join('');
    const expected = await matrix(`&data_freshness=base_schedule${forbidden}`);
    assert.notDeepEqual(expected, before, 'the cancelled trips mattered');
    assert.ok(reachedCells(expected) < reachedCells(before), 'fewer cells within 30 minutes without them');
    assert.deepEqual(await matrix('&data_freshness=realtime'), expected);
    // the deprecated disruption_active=true is realtime; an explicit data_freshness wins over it
    assert.deepEqual(await matrix('&disruption_active=true'), expected);
    assert.deepEqual(await matrix('&disruption_active=true&data_freshness=base_schedule'), before);
    // the default is the base schedule, and no planned disruption makes adapted differ
    assert.deepEqual(await matrix(''), before);
    assert.deepEqual(await matrix('&data_freshness=adapted_schedule'), before);
  } finally {
    coverage.swap(base);
  }
});

test('heat maps: delayed runs at realtime move the map; a delay of a whole day elsewhere changes nothing', async () => {
  const before = await matrix('');
  coverage.swap(withRealtime(base, runsOf(leaving, { delaySec: 600 })));
  try {
    const delayed = await matrix('&data_freshness=realtime');
    assert.notDeepEqual(delayed, before);
    assert.deepEqual(await matrix('&data_freshness=base_schedule'), before);
  } finally {
    coverage.swap(base);
  }
  // the same trips changed on another day leave the 2016-11-08 map alone
  const otherDay = runsOf(leaving, { cancelled: true });
  const moved: RealtimeRuns = { runs: new Map([...otherDay.runs.values()].map((r) => [runKey(r.trip, DAY + 7), { ...r, day: DAY + 7 }])), added: [], problems: [] };
  coverage.swap(withRealtime(base, moved));
  try {
    assert.deepEqual(await matrix('&data_freshness=realtime'), before);
  } finally {
    coverage.swap(base);
  }
});

test('heat maps: a planned NO_SERVICE disruption of those trips is the adapted (and realtime) map', async () => {
  const before = await matrix('');
  const file = JSON.stringify({
    disruptions: [
      {
        id: 'no-service',
        severity: { name: 'no service', effect: 'NO_SERVICE' },
        application_periods: [{ begin: '20161108T000000', end: '20161108T235959' }],
        impacted_objects: leaving.map((t) => ({ type: 'trip', id: base.tt.trips.ids[t] })),
      },
    ],
  });
  const { disruptions, problems } = parseDisruptionFile(file, 'disruptions.json', base.ref, base.tt.timezone);
  assert.deepEqual(problems, []);
  const planned = plannedRuns(base.ref, disruptions, base.productionStartDay, base.productionEndDay);
  assert.equal(planned.runs.filter((r) => r.cancelled && r.day === DAY).length, leaving.length, 'each trip loses its run of 2016-11-08');
  coverage.swap(withDisruptions(base, disruptions, [], planned.runs));
  try {
    const forbidden = leaving.map((t) => `&forbidden_uris[]=${encodeURIComponent(base.tt.trips.ids[t]!)}`).join('');
    const expected = await matrix(`&data_freshness=base_schedule${forbidden}`);
    assert.notDeepEqual(expected, before);
    assert.deepEqual(await matrix('&data_freshness=adapted_schedule'), expected);
    assert.deepEqual(await matrix('&data_freshness=realtime'), expected);
    assert.deepEqual(await matrix('&data_freshness=base_schedule'), before);
  } finally {
    coverage.swap(base);
  }
});
