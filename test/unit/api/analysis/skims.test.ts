/**
 * Skims: a travel-time matrix's breakdown (`breakdown=true`, `routes=true`) on the hand-made city
 * whose journeys are known (test/helpers/line-city.ts): the bus leaves the west end at 08:01 and
 * reaches the east end at 08:05, with 60 s of board slack. Its scenarios: `express` adds a line
 * whose one trip leaves the west end at 08:00:50 and reaches the east end at 08:02:50; `faster`
 * runs the bus twice as fast (08:01 → 08:03). Realtime trips added west → east are laid over it by
 * one test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getAnswer, getOk } from '../../../helpers/app.js';
import { duckRows, sqlText } from '../../../helpers/columnar-readers.js';
import { lineCity } from '../../../helpers/line-city.js';
import { PART_NAMES } from '../../../../src/queries/skim-parts.js';
import { readTripUpdates } from '../../../../src/live/realtime/trip-updates.js';
import { withRealtime } from '../../../../src/service/generation.js';
import type { FeedEntity } from '../../../../src/live/realtime/gtfs-rt.js';

const WEEK = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
const EXPRESS = JSON.stringify({
  modifications: [
    { type: 'add-trips', name: 'Express', stops: [{ id: 'west' }, { id: 'east' }], bidirectional: false, frequencies: [{ firstDepartures: [8 * 3600 + 50], hopTimes: [120], dwellTimes: [0, 0], ...WEEK }] },
  ],
});
const FASTER = JSON.stringify({ modifications: [{ type: 'adjust-speed', routes: ['bus'], scale: 2 }] });
const served = await lineCity({}, undefined, { express: EXPRESS, faster: FASTER });
const app = served.app;
const base = '/v1/coverage/line/travel_time_matrix?origins=places&walking_speed=1&max_duration=3600';

/** The breakdown of a matrix answer, as pairs: per percentile, origin id → destination id → its parts. */
function pairs(m: any, p: number, from: string, to: string): Record<string, any> {
  const o = m.origins.indexOf(from);
  const d = m.destinations.indexOf(to);
  const skim = m.breakdown[p];
  const parts = Object.fromEntries(PART_NAMES.map((name) => [name, skim[name][o][d]]));
  return { total: m.durations[p][o][d], ...parts, routes: skim.routes?.[o][d] };
}

test('from p100 at 07:58: to p2900 by the bus (walk, wait with the slack, ride 4 minutes, walk back), to p500 on foot; the parts add up', async () => {
  const m = (await getOk(app, `${base}&datetime=20240102T075800&breakdown=true&routes=true`)).travel_time_matrix;
  assert.equal(m.breakdown.length, 1);
  assert.equal(m.breakdown[0].percentile, 50);
  const bus = pairs(m, 0, 'p100', 'p2900');
  // at the west stop 07:58 + access, the bus leaves at 08:01 (07:58 + 180 s) and arrives 240 s later
  assert.ok(Math.abs(bus.access - 100) <= 1, `access ${bus.access}`);
  assert.equal(bus.wait, 180 - bus.access);
  assert.equal(bus.ride, 240);
  assert.equal(bus.transfer, 0);
  assert.ok(Math.abs(bus.egress - 100) <= 1, `egress ${bus.egress}`);
  assert.equal(bus.rides, 1);
  assert.deepEqual(bus.routes, ['bus']);
  assert.equal(bus.total, bus.access + bus.wait + bus.ride + bus.transfer + bus.egress);
  const walk = pairs(m, 0, 'p100', 'p500');
  assert.deepEqual({ ...walk, access: undefined, total: undefined }, { total: undefined, access: undefined, wait: 0, ride: 0, transfer: 0, egress: 0, rides: 0, routes: [] });
  assert.equal(walk.access, walk.total);
  // the far point, linked to nothing: null in every part
  const far = pairs(m, 0, 'p100', 'far');
  assert.deepEqual(far, { total: null, access: null, wait: null, ride: null, transfer: null, egress: null, rides: null, routes: null });
  // every pair: the parts add up to the travel time, to the second
  for (const from of m.origins) {
    for (const to of m.destinations) {
      const pair = pairs(m, 0, from, to);
      if (pair.total === null) continue;
      assert.equal(pair.access + pair.wait + pair.ride + pair.transfer + pair.egress, pair.total, `${from} → ${to}`);
      assert.ok(PART_NAMES.every((name) => pair[name] >= 0), `${from} → ${to}: ${JSON.stringify(pair)}`);
    }
  }
});

test('the breakdown leaves the travel times as they are, and is absent unless asked', async () => {
  const plain = (await getOk(app, `${base}&datetime=20240102T075800`)).travel_time_matrix;
  const skims = (await getOk(app, `${base}&datetime=20240102T075800&breakdown=true`)).travel_time_matrix;
  assert.equal(plain.breakdown, undefined);
  assert.deepEqual(skims.durations, plain.durations);
  // without routes=true, no lines
  assert.equal(skims.breakdown[0].routes, undefined);
});

test('over a window, each percentile is the journey of a minute that gives it: the bus at 07:58 only, on foot after', async () => {
  // 07:58 to 08:02: from p100 only the 07:58 departure catches the bus (at the stop by 08:00); later ones walk 2,800 m
  const m = (await getOk(app, `${base}&datetime=20240102T075800&departure_window=300&percentiles[]=5&percentiles[]=50&breakdown=true&routes=true&max_walking_duration_to_pt=3600`)).travel_time_matrix;
  assert.deepEqual(m.percentiles, [5, 50]);
  const early = pairs(m, 0, 'p100', 'p2900');
  assert.equal(early.rides, 1);
  assert.deepEqual(early.routes, ['bus']);
  assert.equal(early.ride, 240);
  const later = pairs(m, 1, 'p100', 'p2900');
  assert.equal(later.rides, 0);
  assert.equal(later.access, later.total);
  assert.ok(Math.abs(later.total - 2800) <= 1, `${later.total}`);
  const plain = (await getOk(app, `${base}&datetime=20240102T075800&departure_window=300&percentiles[]=5&percentiles[]=50&max_walking_duration_to_pt=3600`)).travel_time_matrix;
  assert.deepEqual(m.durations, plain.durations);
});

test('routes without breakdown is refused, naming both', async () => {
  const r = await app.inject(`${base}&datetime=20240102T075800&routes=true`);
  assert.equal(r.statusCode, 400);
  assert.match(r.body, /'routes' names the lines of the journeys 'breakdown' gives: ask for 'breakdown' too/);
});

/** p100 → p2900 at `datetime`, with breakdown and routes, and `more` parameters. */
async function acrossTown(datetime: string, more = ''): Promise<Record<string, any>> {
  const m = (await getOk(app, `${base}&datetime=${datetime}&breakdown=true&routes=true${more}`)).travel_time_matrix;
  return pairs(m, 0, 'p100', 'p2900');
}

test('routes names a line a scenario adds by its id, scenario:NAME:M; a trip a scenario changes keeps its line', async () => {
  // at the west stop by 07:59:40, the express leaves at 08:00:50 and rides 120 s: 100 + 70 + 120 + 100 s
  const express = await acrossTown('20240102T075800', '&scenario=express');
  assert.deepEqual([express.rides, express.ride, express.routes], [1, 120, ['scenario:express:0']]);
  assert.ok(Math.abs(express.total - 390) <= 1, `${express.total}`);
  // the id /scenarios gives the new line on the scenario's map
  const report = (await getOk(app, '/v1/coverage/line/scenarios')).scenarios.find((s: any) => s.name === 'express');
  assert.deepEqual(report.geojson.features.map((f: any) => f.properties.line), ['scenario:express:0']);
  // the Parquet answer's routes column, as DuckDB reads it, names it too
  const answer = await getAnswer(app, `${base}&datetime=20240102T075800&breakdown=true&routes=true&scenario=express&origin_ids[]=p100&destination_ids[]=p2900&format=parquet`);
  assert.equal(answer.status, 200);
  const parquet = path.join(mkdtempSync(path.join(tmpdir(), 'navette-skims-')), 'express.parquet');
  writeFileSync(parquet, answer.raw);
  assert.deepEqual(await duckRows(`SELECT from_id, to_id, rides, routes FROM read_parquet(${sqlText(parquet)})`), [{ from_id: 'p100', to_id: 'p2900', rides: 1, routes: 'scenario:express:0' }]);
  // the faster bus is a changed copy of t1: its ride is 120 s, on the bus's line
  const faster = await acrossTown('20240102T075800', '&scenario=faster');
  assert.deepEqual([faster.rides, faster.ride, faster.routes], [1, 120, ['bus']]);
  // without the scenario, the timetable's bus
  const today = await acrossTown('20240102T075800');
  assert.deepEqual([today.rides, today.ride, today.routes], [1, 240, ['bus']]);
});

test('routes names a trip realtime adds by its route\'s line, and with an empty id when its update names no route', async () => {
  const g = served.generations.get('line')!;
  const at = (hhmmss: string) => Date.UTC(2024, 0, 2, ...(hhmmss.split(':').map(Number) as [number, number, number])) / 1000;
  /** an ADDED trip west → east, 120 s, leaving at `leaves` (UTC), on `routeId` when given */
  const added = (id: string, leaves: string, arrives: string, routeId?: string): FeedEntity => ({
    id,
    tripUpdate: {
      trip: { tripId: id, startDate: '20240102', scheduleRelationship: 'ADDED', ...(routeId ? { routeId } : {}) },
      stopTimeUpdates: [
        { stopId: 'west', departure: { time: at(leaves) } },
        { stopId: 'east', arrival: { time: at(arrives) } },
      ],
    },
  });
  const realtime = readTripUpdates(g.ref, {
    header: { gtfsRealtimeVersion: '2.0', timestamp: at('07:55:00') },
    entities: [added('x1', '08:00:50', '08:02:50', 'bus'), added('x2', '08:10:50', '08:12:50')],
  });
  assert.deepEqual([realtime.problems, realtime.added.map((r) => r.tripId)], [[], ['x1', 'x2']]);
  const coverage = served.coverages.get('line')!;
  coverage.swap(withRealtime(g, realtime));
  try {
    // from 07:58, x1 (120 s) before the bus (240 s): on the bus's line, as its update says
    const early = await acrossTown('20240102T075800', '&data_freshness=realtime');
    assert.deepEqual([early.rides, early.ride, early.routes], [1, 120, ['bus']]);
    assert.ok(Math.abs(early.total - 390) <= 1, `${early.total}`);
    // from 08:08, the bus gone: x2, which names no route, has no line
    const late = await acrossTown('20240102T080800', '&data_freshness=realtime');
    assert.deepEqual([late.rides, late.ride, late.routes], [1, 120, ['']]);
    assert.ok(Math.abs(late.total - 390) <= 1, `${late.total}`);
    // the base schedule has neither: the bus, or nothing within the walk's 30 minutes
    assert.deepEqual((await acrossTown('20240102T075800')).routes, ['bus']);
    assert.equal((await acrossTown('20240102T080800')).routes, null);
  } finally {
    coverage.swap(g);
  }
});
