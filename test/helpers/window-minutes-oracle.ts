/**
 * A departure window against its minutes computed one by one:
 * - its range RAPTOR (routing/window-transit.ts): at each minute, the stops whose arrival the window
 *   keeps as improved, and their arrivals from the reference, are exactly those where that minute's
 *   own whole search (no range bounds) arrives earlier than every later minute's;
 * - its maps (routing/window-heat-map.ts): each cell's percentile p is the value of rank
 *   ceil(p × n / 100) among its minutes' single-map values on the window's grid, unreached last
 *   (R5's rule).
 */
import assert from 'node:assert/strict';
import type { HeatMapEngine } from '../../src/routing/heat-map.js';
import type { HeatMapQuery } from '../../src/routing/heat-map-types.js';
import type { Grid } from '../../src/routing/grid.js';
import { WindowTransit, WINDOW_STEP_SEC } from '../../src/routing/window-transit.js';

/**
 * Checks the window of `minutes` from q.t0 stop by stop, minute by minute, run on `window` (a new
 * one by default; one that ran other windows before); returns the improvements checked.
 */
export function assertImprovementsOfMinutes(engine: HeatMapEngine, stopCount: number, q: HeatMapQuery, minutes: number, what: string, window = new WindowTransit(engine.transit, stopCount, minutes)): number {
  window.run(q, minutes);
  const best = new Int32Array(stopCount).fill(0x7fffffff);
  const accessCount = engine.transit.accessFrom(q);
  let improvements = 0;
  // each minute a whole search, latest first; a stop's best arrival from the reference over the later minutes
  for (let k = minutes - 1; k >= 0; k--) {
    const { vehicleSec, reached, reachedCount } = engine.transit.from(q, q.t0 + (q.direction === 'departure' ? 1 : -1) * k * WINDOW_STEP_SEC, accessCount);
    const expected: string[] = [];
    for (let r = 0; r < reachedCount; r++) {
      const s = reached[r]!;
      const fromReference = k * WINDOW_STEP_SEC + vehicleSec[s]!;
      if (fromReference < best[s]!) {
        best[s] = fromReference;
        expected.push(`${s}@${fromReference}`);
      }
    }
    const got: string[] = [];
    for (let j = window.minuteFrom[k]!; j < window.minuteTo[k]!; j++) got.push(`${window.improvedStop[j]}@${window.improvedSec[j]}`);
    assert.deepEqual(got.sort(), expected.sort(), `${what}, minute ${k}`);
    improvements += got.length;
  }
  return improvements;
}

/** Checks a window's percentile maps (in the order of `percentiles`, on `grid`) cell by cell; returns the cells checked and those reached. */
export function assertPercentilesOfMinutes(engine: HeatMapEngine, q: HeatMapQuery, grid: Grid, maps: ArrayLike<number>[], minutes: number, percentiles: number[], what: string): { checked: number; reached: number } {
  const singles: Int32Array[] = [];
  for (let k = 0; k < minutes; k++) {
    const shift = (q.direction === 'departure' ? 1 : -1) * k * WINDOW_STEP_SEC;
    singles.push(Int32Array.from(engine.compute({ ...q, t0: q.t0 + shift }, grid).seconds));
  }
  let checked = 0;
  let reached = 0;
  for (let c = 0; c < grid.resolution * grid.resolution; c++) {
    const sorted = singles.map((s) => (s[c]! < 0 ? Infinity : s[c]!)).sort((a, b) => a - b);
    percentiles.forEach((p, k) => {
      const v = sorted[Math.ceil((p / 100) * minutes) - 1]!;
      const expected = v === Infinity ? -1 : v;
      assert.equal(maps[k]![c], expected, `${what}, cell ${c}, p${p}: ${sorted.join(' ')}`);
      checked++;
      if (expected >= 0) reached++;
    });
  }
  return { checked, reached };
}
