/**
 * Skims: a travel-time matrix's breakdown (`breakdown=true`, `routes=true`) on the hand-made city
 * whose journeys are known (test/helpers/line-city.ts): the bus leaves the west end at 08:01 and
 * reaches the east end at 08:05, with 60 s of board slack.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getOk } from '../../../helpers/app.js';
import { lineCity } from '../../../helpers/line-city.js';
import { PART_NAMES } from '../../../../src/queries/skim-parts.js';

const served = await lineCity();
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
