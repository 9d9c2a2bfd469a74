/**
 * A thread's engine cache (service/engine-cache.ts) bounded in bytes, counted, never timed: engines
 * of the coverages used longest ago dropped first, then the egress tables of the engine just used
 * (its latest kept), on the line city (test/helpers/line-city.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineCache } from '../../../src/service/engine-cache.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { lineCity } from '../../helpers/line-city.js';
import { walkingQueryFrom } from '../../helpers/heat-map-query.js';

const csv = ['id,lon,lat,n', ...Array.from({ length: 50 }, (_, k) => `m${k},${0.01 + (k * 60) / 111_320},0,1`)].join('\n') + '\n';
const served = await lineCity({ extra: csv });
const streets = served.generations.get('line')!.streets!;
const data = streets.data;
const [places, extra] = [data.pointSets![0]!, data.pointSets![1]!];
const query = walkingQueryFrom(data.stopLon, data.stopLat, 0, zonedToEpoch('UTC', 2024, 1, 2, 7, 59, 0));
const LIMITS = { maxDurationSec: 3600, maxResolution: 500 };

/** A cache bounded at `bytes`, and one map computed on `coverage`'s engine. */
function cacheOf(bytes: number) {
  const cache = new EngineCache({ ...LIMITS, engineCacheBytes: bytes });
  const map = (coverage: string) => cache.get(coverage, streets.id, data).compute(query);
  const points = (coverage: string, set = places) => cache.get(coverage, streets.id, data).computePoints(query, set);
  return { cache, map, points };
}

/** What one engine holds after one map: every engine of these tests is sized alike. */
const one = (() => {
  const { cache, map } = cacheOf(Infinity);
  map('a');
  return cache.settle();
})();

test('an engine\'s bytes are its scratch, measured: a second coverage\'s engine holds as much again', () => {
  assert.ok(one.engines > 0);
  assert.equal(one.egressTables, 0);
  const { cache, map } = cacheOf(Infinity);
  map('a');
  map('b');
  assert.deepEqual(cache.settle(), { engines: 2 * one.engines, egressTables: 0 });
  assert.deepEqual(cache.coverages, ['a', 'b']);
});

test('past the bound, the engines of the coverages used longest ago are dropped: the cache holds the bound', () => {
  const { cache, map } = cacheOf(2 * one.engines);
  for (const coverage of ['a', 'b', 'a', 'c']) map(coverage);
  // b was used longest ago
  assert.deepEqual(cache.settle(), { engines: 2 * one.engines, egressTables: 0 });
  assert.deepEqual(cache.coverages, ['a', 'c']);
});

test('a bound below one engine keeps the engine just used, alone', () => {
  const { cache, map } = cacheOf(1);
  map('a');
  map('b');
  assert.deepEqual(cache.settle(), { engines: one.engines, egressTables: 0 });
  assert.deepEqual(cache.coverages, ['b']);
});

test('then the egress tables used longest ago go, the latest kept', () => {
  const tablesOf = (sets: (typeof places)[], bound: number) => {
    const { cache, points } = cacheOf(bound);
    for (const set of sets) points('a', set);
    return cache.settle();
  };
  const placesTable = tablesOf([places], Infinity).egressTables;
  const extraTable = tablesOf([extra], Infinity).egressTables;
  assert.ok(placesTable > 0 && extraTable > 0);
  const both = tablesOf([places, extra], Infinity);
  assert.equal(both.egressTables, placesTable + extraTable);
  // room for the engine's scratch and one table: the older table (places') is dropped
  assert.deepEqual(tablesOf([places, extra], both.engines + extraTable), { engines: both.engines, egressTables: extraTable });
  // no room for any table: the latest is kept still
  assert.deepEqual(tablesOf([places, extra], 1), { engines: both.engines, egressTables: extraTable });
});
