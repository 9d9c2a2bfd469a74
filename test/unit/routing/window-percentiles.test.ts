/**
 * A departure window's percentiles (routing/window-percentiles.ts), selected from each target's
 * runs of minutes, against the minutes listed one by one and sorted (test/helpers/
 * window-percentiles-oracle.ts) on changes drawn at random as a window makes them: minutes latest
 * first, each change an improvement, some targets improved several times in one minute. The draws
 * make ties (arrivals on a few seconds past the minute, direct paths equal to transit values),
 * targets unreached at some or every minute, arrivals past the bound, direct paths below, at and
 * past it, and percentiles in any order; with a breakdown, the parts and trips of each percentile's
 * journey as well. The real windows of Porto Alegre are held to the same reference in
 * test/e2e/window-percentiles-porto-alegre.test.ts.
 */
import { test } from 'node:test';
import { WindowChanges } from '../../../src/routing/window-changes.js';
import { WindowJourneys } from '../../../src/routing/window-journeys.js';
import { WindowPercentiles } from '../../../src/routing/window-percentiles.js';
import { mulberry32 } from '../../helpers/random.js';
import { assertReference, referencePercentiles } from '../../helpers/window-percentiles-oracle.js';

interface Draw {
  n: number;
  T: number;
  cells: number;
  of: number[];
  changes: WindowChanges;
  directSec: Int32Array;
  improvedSec: Int32Array;
}

/** A window drawn from `seed`: its changes kept as the propagation keeps them, each from an improvement of its own. */
function draw(seed: number): Draw {
  const random = mulberry32(seed);
  const int = (below: number) => Math.floor(random() * below);
  const n = [1, 2, 7, 60, 120, 180][int(6)]!;
  const T = [600, 1800, 3600, 7200][int(4)]!;
  const cells = 1 + int(300);
  const of = Array.from({ length: 1 + int(6) }, () => [0, 1, 5, 25, 50, 75, 95, 99, 100][int(9)]!);
  // few seconds past the minute: values of different runs tie
  const seconds = Array.from({ length: 1 + int(4) }, () => int(60));
  const changes = new WindowChanges(cells);
  changes.reset(cells, true);
  const improvedSec: number[] = [];
  // per target how often it changes, and how far past the bound its arrivals may start
  const rate = Array.from({ length: cells }, () => [0, 0.05, 0.3, 0.9][int(4)]!);
  for (let k = n - 1; k >= 0; k--) {
    for (let c = 0; c < cells; c++) {
      // improved twice in a minute at times: the later change covers the minute
      for (let again = 0; again < 3 && random() < rate[c]!; again++) {
        const whole = 60 * k + int(T / 60 + 10) * 60 + seconds[int(seconds.length)]!;
        const tenths = 10 * whole + int(10);
        const x = improvedSec.length;
        improvedSec.push(whole - int(300));
        changes.keepFrom(c, k, tenths, x);
      }
    }
  }
  changes.groupChanges(cells);
  // the direct path: none, within the bound, at it or past it; at times a transit minute's value
  const directSec = Int32Array.from({ length: cells }, () => {
    const kind = int(5);
    if (kind === 0) return -1;
    if (kind === 1) return T;
    if (kind === 2) return T + int(100);
    if (kind === 3) return 60 * int(T / 60) + seconds[int(seconds.length)]!;
    return int(T);
  });
  return { n, T, cells, of, changes, directSec, improvedSec: Int32Array.from(improvedSec) };
}

/** Improvement x's journey: parts and trips made from x, so that a wrong improvement shows. */
function journeysOf(improvedSec: Int32Array): WindowJourneys {
  const journeys = new WindowJourneys((path, arrival, out) => {
    out.accessSec = path % 97;
    out.rideSec = arrival % 1000;
    out.transferSec = path % 13;
    out.rides = path % 3;
    for (let r = 0; r < out.rides; r++) out.trips[r] = path * 10 + r;
  });
  for (let x = 0; x < improvedSec.length; x++) journeys.keep(x, x, improvedSec[x]! + x);
  return journeys;
}

test('percentiles from runs of minutes are the sorted minutes\': random windows, with and without a breakdown', () => {
  const percentiles = new WindowPercentiles(16);
  for (let seed = 1; seed <= 120; seed++) {
    const { n, T, cells, of, changes, directSec, improvedSec } = draw(seed);
    percentiles.ensureCapacity(cells);
    const got = percentiles.select(of, n, T, changes, directSec, cells);
    assertReference(got, referencePercentiles(of, n, T, changes, directSec, cells, null), `seed ${seed}`);
    const journeys = { improvedSec, journeys: journeysOf(improvedSec) };
    const withParts = percentiles.select(of, n, T, changes, directSec, cells, journeys);
    assertReference(withParts, referencePercentiles(of, n, T, changes, directSec, cells, journeys), `seed ${seed}, breakdown`);
  }
});

test('a window whose every minute ties: one value repeated, the earliest minute\'s journey', () => {
  // a target reached at minute 9 only, 1,000 s after the reference, no direct path: 10 minutes at
  // 1000 − 60 k, then unreached; a second one whose direct path equals its transit value at minute 4
  const n = 20;
  const T = 3600;
  const changes = new WindowChanges(2);
  changes.reset(2, true);
  changes.keepFrom(0, 9, 10_000, 0);
  changes.keepFrom(1, 9, 10_005, 1);
  changes.groupChanges(2);
  const directSec = Int32Array.from([-1, 1000 - 240]);
  const improvedSec = Int32Array.from([900, 900]);
  const journeys = { improvedSec, journeys: journeysOf(improvedSec) };
  const of = [5, 25, 50, 51, 75, 100];
  const got = new WindowPercentiles(2).select(of, n, T, changes, directSec, 2, journeys);
  assertReference(got, referencePercentiles(of, n, T, changes, directSec, 2, journeys), 'ties');
});
