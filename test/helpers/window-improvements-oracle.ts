/**
 * A departure window's range RAPTOR (routing/window-transit.ts) against its minutes searched one by
 * one: at each minute, the stops whose arrival the window keeps as improved, and their arrivals from
 * the reference, are exactly those where that minute's own whole search (no range bounds) arrives
 * earlier than every later minute's.
 */
import assert from 'node:assert/strict';
import type { HeatMapEngine } from '../../src/routing/heat-map.js';
import type { HeatMapQuery } from '../../src/routing/heat-map-types.js';
import { WindowTransit, WINDOW_STEP_SEC } from '../../src/routing/window-transit.js';

/** Checks the window of `minutes` from q.t0 stop by stop, minute by minute; returns the improvements checked. */
export function assertImprovementsOfMinutes(engine: HeatMapEngine, stopCount: number, q: HeatMapQuery, minutes: number, what: string): number {
  const window = new WindowTransit(engine.transit, stopCount, minutes);
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
