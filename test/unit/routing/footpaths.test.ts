/**
 * Walking footpaths between stops (model/stop-snaps.ts `walkingFootpaths`): along the streets, but
 * never more than the straight line × TRANSFER_DETOUR between stops closer than CLOSE_STOPS_M, and
 * the straight line × TRANSFER_DETOUR where the streets do not join two stops within the horizon.
 *
 * The streets: one loop from (0, 20) east to (200, 20), south to (200, -20), west to (0, -20), so
 * that two points facing each other across it at x = 0 are 40 m apart straight and 440 m along it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOSE_STOPS_M, TRANSFER_DETOUR, walkingFootpaths } from '../../../src/routing/footpaths.js';
import { snapStops } from '../../../src/model/stop-snaps.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';

function footpathsOf(stops: [number, number][], points: [number, number][], ways: { nodes: number[]; tags: Record<string, string> }[]) {
  const { graph } = graphOf(points, ways);
  const lon = Float64Array.from(stops, ([x]) => lonOfX(x));
  const lat = Float64Array.from(stops, ([, y]) => latOfY(y));
  const fp = walkingFootpaths(graph, snapStops(graph, lon, lat), lon, lat, 500);
  const length = (from: number, to: number): number | undefined => {
    for (let k = 0; k < fp.from.length; k++) if (fp.from[k] === from && fp.to[k] === to) return fp.lengthM[k]!;
    return undefined;
  };
  return length;
}

// a loop street: from (0, 20) east to (200, 20), south to (200, -20), west to (0, -20)
const points: [number, number][] = [
  [0, 20],
  [200, 20],
  [200, -20],
  [0, -20],
];
const loop = [{ nodes: [0, 1, 2, 3], tags: { highway: 'residential' } }];

test('two platforms 30 m apart, 440 m apart along the streets: the straight line × the detour factor', () => {
  const length = footpathsOf(
    [
      [0, 15],
      [0, -15],
    ],
    points,
    loop,
  );
  // along the streets: 200 + 40 + 200 = 440 m; straight: 30 m
  assert.ok(30 < CLOSE_STOPS_M);
  assert.ok(Math.abs(length(0, 1)! - 30 * TRANSFER_DETOUR) < 1e-3, `${length(0, 1)}`);
  assert.ok(Math.abs(length(1, 0)! - 30 * TRANSFER_DETOUR) < 1e-3);
});

test('stops farther apart than CLOSE_STOPS_M keep the streets’ length, even when longer than the straight line', () => {
  const length = footpathsOf(
    [
      [0, 15],
      [120, -15],
    ],
    points,
    loop,
  );
  // along the streets: 200 + 40 + 80 = 320 m (each stop attached to its street 5 m away)
  assert.ok(Math.abs(length(0, 1)! - 320) < 1e-3, `${length(0, 1)}`);
});

test('a stop with no street near it: the straight line × the detour factor to stops within the horizon', () => {
  const length = footpathsOf(
    [
      [0, 15],
      [0, 900],
      [0, 1100],
    ],
    points,
    loop,
  );
  // stops 1 and 2 are more than 500 m from any street: no street path
  assert.ok(Math.abs(length(1, 2)! - 200 * TRANSFER_DETOUR) < 1e-3, `${length(1, 2)}`);
  assert.equal(length(0, 1), undefined, '885 m × 1.3 is beyond the 500 m horizon');
});

test('stops on one street: the length along it, when shorter than the straight line × the detour factor', () => {
  const length = footpathsOf(
    [
      [50, 15],
      [150, 15],
    ],
    points,
    loop,
  );
  assert.ok(Math.abs(length(0, 1)! - 100) < 1e-3, 'along the street: 100 m, shorter than 100 × 1.3');
});
