/**
 * Travel times to several point sets off one transit search (routing/heat-map.ts
 * `computePointSets`, routing/window-heat-map.ts the same over a window): on the line city
 * (test/helpers/line-city.ts), the times equal those of each set computed alone, and RAPTOR runs
 * once for them all (once per minute of a window), not once per set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeatMapEngine, type PointTimes } from '../../../src/routing/heat-map.js';
import { WindowEngine } from '../../../src/routing/window-heat-map.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { lineCity } from '../../helpers/line-city.js';
import { walkingQueryFrom } from '../../helpers/heat-map-query.js';

const csv = ['id,lon,lat,n', ...Array.from({ length: 50 }, (_, k) => `m${k},${0.01 + (k * 60) / 111_320},0,1`)].join('\n') + '\n';
const served = await lineCity({ extra: csv });
const data = served.generations.get('line')!.streets!.data;
const [places, extra] = [data.pointSets![0]!, data.pointSets![1]!];

/** An engine whose RAPTOR searches are counted. */
function countedEngine(): { engine: HeatMapEngine; searches: () => number } {
  const engine = new HeatMapEngine(data, 3600, 500);
  const raptor = (engine as unknown as { raptor: { search: (...a: unknown[]) => unknown } }).raptor;
  const search = raptor.search.bind(raptor);
  let count = 0;
  raptor.search = (...a: unknown[]) => {
    count++;
    return search(...a);
  };
  return { engine, searches: () => count };
}

// from the west stop at 07:59: the bus at 08:01 east (walking 1.12 m/s)
const t0 = zonedToEpoch('UTC', 2024, 1, 2, 7, 59, 0);
const query = walkingQueryFrom(data.stopLon, data.stopLat, 0, t0);
const copy = (t: PointTimes) => ({ seconds: Array.from(t.seconds), reachedPoints: t.reachedPoints, percentiles: t.percentiles?.map((m) => ({ percentile: m.percentile, seconds: Array.from(m.seconds) })) });

test('one departure: both sets off one RAPTOR search, each as computed alone', () => {
  const { engine, searches } = countedEngine();
  const alone = [copy(engine.computePoints(query, places)), copy(engine.computePoints(query, extra))];
  assert.equal(searches(), 2);
  const together: ReturnType<typeof copy>[] = [];
  engine.computePointSets(query, [places, extra], (k, t) => (together[k] = copy(t)));
  assert.equal(searches(), 3, 'one search for the two sets');
  assert.deepEqual(together, alone);
  // the bus carries some: a point of the extra set near the east end is reached sooner than on foot
  assert.ok(together[1]!.reachedPoints > 0 && together[0]!.reachedPoints > 0);
});

test('a window of 5 minutes: both sets off one search per minute, each as computed alone', () => {
  const { engine, searches } = countedEngine();
  const windowEngine = new WindowEngine(engine, 3600);
  const window = { windowSec: 300, percentiles: [5, 50, 95], selected: 1 };
  const alone = [copy(windowEngine.computePoints(query, window, places)), copy(windowEngine.computePoints(query, window, extra))];
  const perWindow = searches() / 2;
  assert.equal(perWindow, 5, 'a search per minute');
  const together: ReturnType<typeof copy>[] = [];
  windowEngine.computePointSets(query, window, [places, extra], (k, t) => (together[k] = copy(t)));
  assert.equal(searches(), 3 * perWindow, 'one search per minute for the two sets');
  assert.deepEqual(together, alone);
});
