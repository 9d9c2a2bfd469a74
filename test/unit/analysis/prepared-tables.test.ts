/**
 * The tables every origin of a matrix reads (queries/origin-rows.ts, PREPARED_FROM_ORIGINS): the
 * connections pruned at the request's walking speed and the egress tables, each made once by one
 * thread and adopted by the others, which then make neither; the rows are those of threads that each
 * make their own. Threads are simulated by engine caches of their own, on the line city.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineCity, lonAt } from '../../helpers/line-city.js';
import { EngineCache } from '../../../src/service/engine-cache.js';
import { computePoints, type PointsRequest } from '../../../src/maps/points.js';
import type { MapQuery } from '../../../src/maps/difference-map.js';
import type { HeatMapRunner } from '../../../src/maps/heat-map-runner.js';
import { originJob, originTimes, PREPARED_FROM_ORIGINS, type OriginRow } from '../../../src/queries/origin-rows.js';
import { parseParams } from '../../../src/queries/param-table.js';
import { matrixCommandParams } from '../../../src/queries/analysis-params.js';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';

const ORIGINS = PREPARED_FROM_ORIGINS + 8;
const csv = ['id,lon,lat,n', ...Array.from({ length: ORIGINS }, (_, k) => `o${k},${lonAt(k * 120)},0,1`)].join('\n') + '\n';
const served = await lineCity({ origins: csv });
const coverage = served.coverages.get('line')!;
const generation = coverage.generation!;
const streets = generation.streets!;
const set = streets.pointSets.findIndex((s) => s.name === 'origins');
const points = streets.data.pointSets![set]!;
// at 1 m/s: not the speed the snapshot's connections were pruned at, so the matrix prunes its own
const words: Record<string, string> = { datetime: '20240102T080000', walking_speed: '1' };
const params = parseParams(matrixCommandParams(DEFAULT_LIMITS), (spec) => (spec.name in words ? [words[spec.name]!] : []));
const job = originJob({ coverage, generation, params, t0: Date.UTC(2024, 0, 2, 8) / 1000, timeZone: 'UTC', maxDurationSec: 3600, destinations: set, originLon: points.lon, originLat: points.lat });

/** A runner of `threads` simulated threads (an engine cache each) taking the computations in turn, and what it was given. */
function threadsRunner(threads: number) {
  const caches = Array.from({ length: threads }, () => new EngineCache(DEFAULT_LIMITS));
  const given: { request: PointsRequest; query: MapQuery; thread: number }[] = [];
  const runner: HeatMapRunner = {
    grid: () => Promise.reject(new Error('no grid here')),
    points: async (_coverage, g, query, request) => {
      const thread = given.length % threads;
      given.push({ request, query, thread });
      return computePoints(caches[thread]!, 'line', g.streets!.id, g.streets!.data, query, request);
    },
    close: async () => {},
  };
  return { caches, given, runner };
}

/** The rows of origins [from, to) on `runner`, in order. */
async function rowsOf(runner: HeatMapRunner, from: number, to: number): Promise<OriginRow[]> {
  const rows: OriginRow[] = [];
  await originTimes(runner, job, from, to, 4, (row) => void rows.push(row));
  return rows;
}

test('a matrix of many origins prepares its tables first, a part on each of two threads; every origin carries them, and the other threads make neither', async () => {
  const { caches, given, runner } = threadsRunner(4);
  const rows = await rowsOf(runner, 0, ORIGINS);
  assert.equal(rows.length, ORIGINS);
  assert.deepEqual(
    given.slice(0, 2).map((g) => g.request),
    [
      { kind: 'prepare', part: 'transfers', sets: [set] },
      { kind: 'prepare', part: 'egress', sets: [set] },
    ],
  );
  const origins = given.slice(2);
  assert.equal(origins.length, ORIGINS);
  const prepared = (origins[0]!.request as { prepared?: unknown }).prepared as { transfers: unknown; egress: unknown[] };
  assert.ok(prepared.transfers !== null, 'connections pruned at 1 m/s');
  assert.equal(prepared.egress.length, 1, 'one egress table: one leg (walking) to one set');
  for (const { request } of origins) assert.equal((request as { prepared?: unknown }).prepared, prepared);
  // threads 2 and 3 made no table: theirs are the very ones prepared
  for (const thread of [2, 3]) {
    const engine = caches[thread]!.get('line', streets.id, streets.data);
    const query = origins.find((g) => g.thread === thread)!.query;
    assert.equal(engine.prepare(query, [points], 'transfers').transfers, prepared.transfers);
    assert.equal(engine.prepare(query, [points], 'egress').egress[0], prepared.egress[0]);
  }
});

test('the rows are those of threads that each make their own tables (fewer origins than PREPARED_FROM_ORIGINS at a time)', async () => {
  const shared = await rowsOf(threadsRunner(4).runner, 0, ORIGINS);
  const { given, runner } = threadsRunner(4);
  const own: OriginRow[] = [];
  const slice = PREPARED_FROM_ORIGINS / 2;
  for (let from = 0; from < ORIGINS; from += slice) own.push(...(await rowsOf(runner, from, Math.min(ORIGINS, from + slice))));
  assert.ok(given.every((g) => g.request.kind !== 'prepare' && !('prepared' in g.request && g.request.prepared)), 'nothing prepared below the threshold');
  assert.deepEqual(shared, own);
  // the bus is ridden: from the west end, the last origin (2,760 m east) is 300 s away by bus, then 240 m back on foot
  assert.equal(shared[0]!.seconds[0]![ORIGINS - 1], 540);
});
