/**
 * The decay functions of accessibility against values worked out by hand from R5's definitions: the
 * step's whole minutes, the linear ramp's half-second offsets, the logistic curve scaled to 1 at 0,
 * the exponential half-life, the fixed constant, where each reaches zero, and the refused settings.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DECAY_NAMES, decayFunction, type DecaySettings } from '../../../src/analysis/decay.js';

/** `actual` within 1e-12 of the hand-computed `expected` (values of e^x are written to 12+ digits). */
function near(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual}, expected ${expected}`);
}

describe('step', () => {
  const step = decayFunction({ name: 'step' });

  test('counts travel times strictly under the cutoff', () => {
    // cutoff 30 min = 1800 s: 30 min 0 s is not under it, 29 min 59 s is
    assert.equal(step.weight(1800, 1800), 0);
    assert.equal(step.weight(1799, 1800), 1);
    assert.equal(step.weight(0, 1800), 1);
    assert.equal(step.weight(7200, 1800), 0);
  });

  test('works on whole minutes, truncated', () => {
    // 29 min 59.9 s truncates to 29 min, under 30
    assert.equal(step.weight(1799.9, 1800), 1);
    // a cutoff of 30 min 30 s (1830 s) counts as 30 min: 30 min 5 s (30 whole minutes) is not under it,
    // though 1805 < 1830
    assert.equal(step.weight(1805, 1830), 0);
    assert.equal(step.weight(1799, 1830), 1);
    // 59 s is 0 whole minutes, under a 1-minute cutoff; under a 59-second cutoff (0 minutes) nothing counts
    assert.equal(step.weight(59, 60), 1);
    assert.equal(step.weight(0, 59), 0);
  });

  test('reaches zero at the cutoff in whole minutes', () => {
    assert.equal(step.zeroAtSec(1800), 1800);
    assert.equal(step.zeroAtSec(1830), 1800); // 30 min 30 s → 30 min
    assert.equal(step.zeroAtSec(1859), 1800);
    assert.equal(step.zeroAtSec(1860), 1860);
  });
});

describe('linear', () => {
  // width 600 s, cutoff 1800 s: the ramp starts at 1800 − 300 = 1500 and has 600 seconds; at second s of
  // it the weight is 1 − (s + ½) / 600
  const linear = decayFunction({ name: 'linear', widthSec: 600 });

  test('1 before the ramp, 0 after it, the half-second offsets along it', () => {
    assert.equal(linear.weight(1499, 1800), 1);
    near(linear.weight(1500, 1800), 1199 / 1200, 'first second: 1 − 0.5/600'); // 0.99916…
    near(linear.weight(1800, 1800), 599 / 1200, 'at the cutoff, s = 300: 1 − 300.5/600'); // 0.49916…
    near(linear.weight(1800.7, 1800), 599 / 1200, 'truncated to 1800 s');
    near(linear.weight(1650, 1800), 899 / 1200, 'a quarter in, s = 150: 1 − 150.5/600');
    near(linear.weight(2099, 1800), 1 / 1200, 'last second, s = 599: 1 − 599.5/600');
    assert.equal(linear.weight(2100, 1800), 0);
    assert.equal(linear.zeroAtSec(1800), 2100); // cutoff + width/2
  });

  test('a width of 0 is the step on whole seconds', () => {
    const sharp = decayFunction({ name: 'linear', widthSec: 0 });
    assert.equal(sharp.weight(1799, 1800), 1);
    assert.equal(sharp.weight(1800, 1800), 0);
    assert.equal(sharp.zeroAtSec(1800), 1800);
  });

  test('an odd width starts half a width (rounded down) before the cutoff', () => {
    // width 3, cutoff 10: the ramp is seconds 9, 10, 11 with weights 1 − 0.5/3, 1 − 1.5/3, 1 − 2.5/3
    const odd = decayFunction({ name: 'linear', widthSec: 3 });
    assert.equal(odd.weight(8, 10), 1);
    near(odd.weight(9, 10), 5 / 6, 'second 9');
    near(odd.weight(10, 10), 1 / 2, 'second 10');
    near(odd.weight(11, 10), 1 / 6, 'second 11');
    assert.equal(odd.weight(12, 10), 0);
    assert.equal(odd.zeroAtSec(10), 12);
  });
});

describe('logistic', () => {
  // σ = 600 s, cutoff c = 1800 s: the exponent is (t − c)·π / (600·√3), π / √3 = 1.8137993642342178 per σ.
  // g(0) = 1 + e^(−3·π/√3) = 1 + e^(−5.441398092702653) = 1 + 0.0043334205099832 = 1.0043334205099832
  const logistic = decayFunction({ name: 'logistic', standardDeviationSec: 600 });

  test('1 at t = 0, g(0)/2 (just over ½) at the cutoff', () => {
    assert.equal(logistic.weight(0, 1800), 1);
    near(logistic.weight(1800, 1800), 0.5021667102549916, 'g(0) / (1 + e^0) = 1.0043334205099832 / 2');
    near(logistic.weight(1800.9, 1800), 0.5021667102549916, 'truncated to 1800 s');
  });

  test('one standard deviation either side', () => {
    // t = 2400: g(0) / (1 + e^1.8137993642342178) = 1.0043334205099832 / 7.133707406236228
    near(logistic.weight(2400, 1800), 0.14078702185514413, 'c + σ');
    // t = 1200: g(0) / (1 + e^−1.8137993642342178) = 1.0043334205099832 / 1.16303353482158045
    near(logistic.weight(1200, 1800), 0.8635463986548391, 'c − σ');
  });

  test('reaches zero at the first second under 0.001', () => {
    // weight < 0.001 ⇔ e^((t − c)·π/(σ√3)) > 1000·g(0) − 1 = 1003.3334205099832
    // ⇔ t − c > 330.7973372530752 × ln 1003.3334205099832 = 330.7973372530752 × 6.911083155961834 = 2286.168
    // ⇔ t > 4086.168: the first whole second is 4087
    assert.equal(logistic.zeroAtSec(1800), 4087);
    assert.ok(logistic.weight(4086, 1800) >= 0.001);
    assert.ok(logistic.weight(4087, 1800) < 0.001);
  });
});

describe('exponential', () => {
  const exponential = decayFunction({ name: 'exponential' });

  test('the cutoff is the half-life', () => {
    assert.equal(exponential.weight(0, 1800), 1);
    assert.equal(exponential.weight(-5, 1800), 1);
    near(exponential.weight(1800, 1800), 0.5, 'one half-life');
    near(exponential.weight(3600, 1800), 0.25, 'two half-lives');
    near(exponential.weight(900, 1800), Math.SQRT1_2, 'half a half-life: 1/√2');
    // 0.5^(7199/1800) = 2^−3.99944… = 0.06252407224502997, the last second before two hours
    near(exponential.weight(7199, 1800), 0.06252407224502997, 'just under two hours');
    assert.equal(exponential.weight(7200, 1800), 0);
  });

  test('reaches zero at the first second under 0.001, or at two hours', () => {
    // half-life 600: 0.5^(t/600) < 0.001 ⇔ t > 600·log2 1000 = 5979.47: the first whole second is 5980
    assert.equal(exponential.zeroAtSec(600), 5980);
    // half-life 1800: 1800·log2 1000 = 17938 is past two hours, where the weight drops to 0
    assert.equal(exponential.zeroAtSec(1800), 7200);
  });
});

describe('fixed_exponential', () => {
  // k = 0.001 per second
  const fixed = decayFunction({ name: 'fixed_exponential', constantPerSec: 0.001 });

  test('e^(−k·t), whatever the cutoff', () => {
    assert.equal(fixed.weight(0, 1800), 1);
    near(fixed.weight(600, 1800), 0.548811636094026, 'e^−0.6');
    near(fixed.weight(600, 60), 0.548811636094026, 'the cutoff does not matter');
    assert.equal(fixed.weight(7200, 1800), 0);
    // k = ln 2 / 600 is the exponential of half-life 600 s
    near(decayFunction({ name: 'fixed_exponential', constantPerSec: Math.LN2 / 600 }).weight(600, 1800), 0.5, 'ln 2 / 600');
  });

  test('reaches zero at the same second for every cutoff, even before the cutoff', () => {
    // e^(−0.001·t) < 0.001 ⇔ t > ln 1000 / 0.001 = 6907.755: the first whole second is 6908
    assert.equal(fixed.zeroAtSec(600), 6908);
    assert.equal(fixed.zeroAtSec(7200), 6908);
  });
});

describe('settings', () => {
  test('every name builds with its parameter', () => {
    const settings: Record<string, DecaySettings> = {
      step: { name: 'step' },
      linear: { name: 'linear', widthSec: 3599 },
      logistic: { name: 'logistic', standardDeviationSec: 7199.5 },
      exponential: { name: 'exponential' },
      fixed_exponential: { name: 'fixed_exponential', constantPerSec: 0.999 },
    };
    assert.deepEqual([...DECAY_NAMES], Object.keys(settings));
    for (const name of DECAY_NAMES) assert.equal(decayFunction(settings[name]!).name, name);
  });

  const refused: [DecaySettings, RegExp][] = [
    [{ name: 'gravity' as never }, /^unknown decay function "gravity": it is one of step, linear, logistic, exponential, fixed_exponential$/],
    [{ name: 'linear' }, /^linear decay needs widthSec$/],
    [{ name: 'linear', widthSec: 3600 }, /^linear decay width must be a whole number of seconds from 0 to under 3600 \(one hour\): got 3600$/],
    [{ name: 'linear', widthSec: -60 }, /got -60$/],
    [{ name: 'linear', widthSec: 90.5 }, /got 90.5$/],
    [{ name: 'linear', widthSec: NaN }, /got NaN$/],
    [{ name: 'logistic' }, /^logistic decay needs standardDeviationSec$/],
    [{ name: 'logistic', standardDeviationSec: 0 }, /^logistic decay standard deviation must be over 0 and under 7200 seconds \(two hours\): got 0$/],
    [{ name: 'logistic', standardDeviationSec: 7200 }, /got 7200$/],
    [{ name: 'logistic', standardDeviationSec: NaN }, /got NaN$/],
    [{ name: 'fixed_exponential', constantPerSec: 0 }, /^fixed_exponential decay constant must be over 0 and under 1 per second: got 0$/],
    [{ name: 'fixed_exponential', constantPerSec: 1 }, /got 1$/],
    [{ name: 'fixed_exponential' }, /^fixed_exponential decay needs constantPerSec$/],
    [{ name: 'step', widthSec: 600 }, /^step decay takes no parameter, not widthSec$/],
    [{ name: 'exponential', constantPerSec: 0.01 }, /^exponential decay takes no parameter, not constantPerSec$/],
    [{ name: 'linear', widthSec: 600, standardDeviationSec: 300 }, /^linear decay takes only widthSec, not standardDeviationSec$/],
  ];
  for (const [settings, message] of refused) {
    test(`refuses ${JSON.stringify(settings)}`, () => {
      assert.throws(() => decayFunction(settings), (e: unknown) => e instanceof RangeError && message.test(e.message));
    });
  }
});
