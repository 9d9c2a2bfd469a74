/**
 * Hostile numbers in a point set must never reach an answer as Infinity or NaN, which JSON cannot
 * hold: counts of 10^308 (two of them sum to Infinity), `Infinity`, `NaN`, `1e999`, `0x10` are load
 * problems at their lines, and counts at MAX_OPPORTUNITY_COUNT sum exactly. Every body is parsed
 * with JSON.parse; the place answer's writer is also given non-finite measures directly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnswer } from '../../../helpers/app.js';
import { coord, lineCity, lonAt } from '../../../helpers/line-city.js';
import { placeAccessibilityJson } from '../../../../src/api/analysis/accessibility-json.js';
import { MAX_OPPORTUNITY_COUNT } from '../../../../src/analysis/point-set-reader.js';

const BOUND = MAX_OPPORTUNITY_COUNT;
const hostile = [
  'id,lon,lat,jobs', // 1
  `m100,${lonAt(100)},0,${BOUND}`, // 2: kept
  `big1,${lonAt(200)},0,1e308`, // 3
  `big2,${lonAt(300)},0,1e308`, // 4
  `m500,${lonAt(500)},0,${BOUND}`, // 5: kept
  `inf,${lonAt(600)},0,Infinity`, // 6
  `nan,${lonAt(700)},0,NaN`, // 7
  `over,${lonAt(800)},0,1e999`, // 8
  `hex,${lonAt(900)},0,0x10`, // 9
  `m1000,${lonAt(1000)},0,${BOUND}`, // 10: kept
].join('\n') + '\n';

const served = await lineCity({ hostile });
const app = served.app;
const base = '/v1/coverage/line';
const at0800 = 'datetime=20240102T080000&walking_speed=1';

/** The answer to `url`: 200, a body JSON.parse reads, with no Infinity or NaN in it. */
async function strictJson(url: string): Promise<any> {
  const answer = await getAnswer(app, url);
  assert.equal(answer.status, 200, `${url}: ${answer.body.slice(0, 300)}`);
  assert.doesNotMatch(answer.body, /Infinity|NaN/, url);
  return JSON.parse(answer.body);
}

test('the hostile rows are load problems at their lines; the others are kept', () => {
  const lines = served.problems.filter((p) => p.file.endsWith('hostile.csv')).map((p) => [p.line, p.reason.split(', row skipped')[0]]);
  assert.deepEqual(lines, [
    [3, `opportunity count over ${BOUND}, the most a point may hold`],
    [4, `opportunity count over ${BOUND}, the most a point may hold`],
    [6, 'opportunity count not a finite decimal number'],
    [7, 'opportunity count not a finite decimal number'],
    [8, 'opportunity count not a finite decimal number'],
    [9, 'opportunity count not a finite decimal number'],
  ]);
});

test('point_sets: the total is finite and exact', async () => {
  const body = await strictJson(`${base}/point_sets`);
  const set = body.point_sets.find((s: any) => s.name === 'hostile');
  assert.equal(set.points, 3);
  assert.deepEqual(set.columns, [{ name: 'jobs', total: 3 * BOUND, opportunities: 'hostile:jobs' }]);
});

test('accessibility from a place, by every decay function, and dual access: finite values', async () => {
  const body = await strictJson(`${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=hostile:jobs&cutoffs[]=600&cutoffs[]=1800&nearest[]=${2 * BOUND}&nearest[]=${4 * BOUND}`);
  // m100 at 100 s and m500 at 500 s under 10 minutes, m1000 at 1,000 s under 30
  assert.deepEqual(body.accessibility.map((a: any) => a.value), [2 * BOUND, 3 * BOUND]);
  assert.ok(Math.abs(body.nearest[0].duration - 500) <= 1, `${body.nearest[0].duration}`);
  assert.equal(body.nearest[1].duration, null);
  for (const decay of ['linear&decay_width=600', 'logistic&decay_standard_deviation=600', 'exponential', 'fixed_exponential&decay_constant=0.001']) {
    const decayed = await strictJson(`${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=hostile:jobs&cutoffs[]=1800&decay_function=${decay}`);
    const value = decayed.accessibility[0].value;
    assert.ok(Number.isFinite(value) && value > 0 && value <= 3 * BOUND, `${decay}: ${value}`);
  }
});

test('regional accessibility and the matrix over the set: finite values, null only where unreached', async () => {
  const regional = (await strictJson(`${base}/accessibility?origins=hostile&${at0800}&opportunities[]=hostile:jobs&cutoffs[]=1800&nearest[]=${BOUND}`)).accessibility_by_origin;
  assert.deepEqual(regional.origins, ['m100', 'm500', 'm1000']);
  // from each, the three points within 900 s on foot
  assert.deepEqual(regional.measures[0].values, [3 * BOUND, 3 * BOUND, 3 * BOUND]);
  assert.deepEqual(regional.nearest[0].durations, [0, 0, 0]);
  const matrix = (await strictJson(`${base}/travel_time_matrix?origins=hostile&${at0800}`)).travel_time_matrix;
  assert.equal(matrix.durations[0].length, 3);
});

test('the place answer writes non-finite measures null, never Infinity or NaN', () => {
  const measures = Float64Array.from([Infinity, -Infinity, NaN, 1e308, Number.MAX_VALUE, 3 * BOUND]);
  const compared = Float64Array.from([1, Infinity, 2, -1e308, -Number.MAX_VALUE, 0]);
  const body = placeAccessibilityJson(
    { labels: ['s:c'], percentiles: [50], layout: { percentiles: 1, cutoffsSec: [600, 1200, 1800, 2400, 3000, 3600], nearest: [] }, decayName: 'step', measures, compared: { param: 'compare_data_freshness', name: 'base_schedule', measures: compared } },
    { placeKey: 'from', placeJson: '{}', requestedDateTime: '20240102T080000', publishersJson: '[]', contextJson: '{}', warnings: [] },
  );
  assert.doesNotMatch(body, /Infinity|NaN/);
  const parsed = JSON.parse(body);
  assert.deepEqual(
    parsed.accessibility.map((a: any) => [a.value, a.compared_value, a.difference]),
    [
      [null, 1, null],
      [null, null, null],
      [null, 2, null],
      // 10^308 − (−10^308) overflows: null
      [1e308, -1e308, null],
      [Number.MAX_VALUE, -Number.MAX_VALUE, null],
      [3 * BOUND, 0, 3 * BOUND],
    ],
  );
});
