/**
 * The reduction of travel times to accessibility (src/analysis/accessibility.ts and
 * travel-time-reducer.ts), on hand-made rows whose measures are known: the decayed sums, the dual
 * access, the rounding, the layout of the reducer's numbers and its one null rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cumulativeOpportunities, DualAccess, roundMeasure } from '../../../src/analysis/accessibility.js';
import { decayFunction } from '../../../src/analysis/decay.js';
import { measureCount, TravelTimeReducer } from '../../../src/analysis/travel-time-reducer.js';

const step = decayFunction({ name: 'step' });
/** travel times of five points (whole seconds, -1 unreached) and their opportunities */
const seconds = Int32Array.of(0, 600, 1799, 1800, -1);
const counts = Float64Array.of(1, 10, 100, 1000, 10000);

test('cumulative opportunities, step: the points whose whole minutes are under the cutoff\'s, unreached ones never', () => {
  // 1799 s is 29 whole minutes: it counts for a 30-minute cutoff; 1800 s does not
  assert.equal(cumulativeOpportunities(seconds, counts, 1800, step), 111);
  assert.equal(cumulativeOpportunities(seconds, counts, 1860, step), 1111);
  assert.equal(cumulativeOpportunities(seconds, counts, 600, step), 1);
  // a cutoff with spare seconds counts as its whole minutes
  assert.equal(cumulativeOpportunities(seconds, counts, 659, step), 1);
  assert.equal(cumulativeOpportunities(seconds, counts, 660, step), 11);
  assert.equal(cumulativeOpportunities(Int32Array.of(-1, -1), Float64Array.of(5, 5), 3600, step), 0);
});

test('cumulative opportunities, linear: each count weighted on the ramp centred on the cutoff', () => {
  const linear = decayFunction({ name: 'linear', widthSec: 600 });
  // 1800 ± 300: a straight fall from 1 to 0 across 1500..2100 (R5's table by whole seconds, in decay.test.ts): 1799 s just above half, 1800 s just below
  const w1799 = linear.weight(1799, 1800);
  const w1800 = linear.weight(1800, 1800);
  assert.ok(w1799 > 0.5 && w1799 < 0.502, String(w1799));
  assert.ok(w1800 < 0.5 && w1800 > 0.498, String(w1800));
  assert.equal(cumulativeOpportunities(seconds, counts, 1800, linear), 1 + 10 + 100 * w1799 + 1000 * w1800);
});

test('dual access: the least whole second reaching N, null when the points reached hold fewer', () => {
  const dual = new DualAccess();
  assert.equal(dual.nearest(seconds, counts, 1, 3600), 0);
  assert.equal(dual.nearest(seconds, counts, 2, 3600), 600);
  assert.equal(dual.nearest(seconds, counts, 111, 3600), 1799);
  assert.equal(dual.nearest(seconds, counts, 112, 3600), 1800);
  // the unreached point's 10,000 never count; points at or past the limit neither
  assert.equal(dual.nearest(seconds, counts, 1112, 3600), null);
  assert.equal(dual.nearest(seconds, counts, 112, 1800), null);
});

test('measures are rounded to 6 decimals', () => {
  assert.equal(roundMeasure(0.1 + 0.2), 0.3);
  assert.equal(roundMeasure(2 / 3), 0.666667);
  assert.equal(roundMeasure(-1e-9), -0);
});

test('a whole sum up to the bound of a point set (10^9 per point, 10^6 points) is not changed by the rounding', () => {
  // × 10^6 then ÷ 10^6 took 0.1 off this one
  assert.equal(roundMeasure(911_865_990_694_398), 911_865_990_694_398);
  assert.equal(roundMeasure(1e15), 1e15);
  assert.equal(roundMeasure(9_007_199_254.5), 9_007_199_254.5);
  assert.equal(roundMeasure(2 ** 53 / 1e6 - 0.1234567), 9_007_199_254.617535);
});

test('the reducer: per percentile, each cutoff then each N; the decay built once; a percentile reaching no point null (NaN), one reaching none under the cutoff 0', () => {
  const layout = { percentiles: 3, cutoffsSec: [600, 1860], nearest: [2] };
  assert.equal(measureCount(layout), 9);
  const reducer = new TravelTimeReducer(layout, { name: 'step' }, 3600);
  const late = Int32Array.of(3000, 3000, 3000, 3000, -1);
  const nowhere = Int32Array.of(-1, -1, -1, -1, -1);
  const out = new Float64Array(2 + 9).fill(-7);
  reducer.reduce([seconds, late, nowhere], counts, out, 2);
  assert.deepEqual(Array.from(out.subarray(0, 2)), [-7, -7], 'nothing written before `at`');
  assert.deepEqual(Array.from(out.subarray(2, 5)), [1, 1111, 600]);
  // reached, but nothing under either cutoff: 0; the dual access still finds its N
  assert.deepEqual(Array.from(out.subarray(5, 8)), [0, 0, 3000]);
  assert.ok(out.subarray(8, 11).every(Number.isNaN), 'a percentile that reaches no point has no measure');
});
