/**
 * Walking transfers between stops (routing/footpaths.ts `walkingFootpaths`): along the streets from
 * one stop's link point to the other's, plus both off-street offsets, up to the horizon; no straight
 * line where the streets do not join two stops.
 *
 * The streets: one loop from (0, 20) east to (200, 20), south to (200, -20), west to (0, -20), so
 * that two points facing each other across it at x = 0 are 40 m apart straight and 440 m along it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { walkingFootpaths } from '../../../src/routing/footpaths.js';
import { snapStops } from '../../../src/model/stop-snaps.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';

function footpathsOf(stops: [number, number][], horizonM = 500) {
  const { graph } = graphOf(points, loop);
  const lon = Float64Array.from(stops, ([x]) => lonOfX(x));
  const lat = Float64Array.from(stops, ([, y]) => latOfY(y));
  const fp = walkingFootpaths(graph, snapStops(graph, lon, lat), horizonM);
  return (from: number, to: number): number | undefined => {
    for (let k = 0; k < fp.from.length; k++) if (fp.from[k] === from && fp.to[k] === to) return fp.lengthM[k]!;
    return undefined;
  };
}

// a loop street: from (0, 20) east to (200, 20), south to (200, -20), west to (0, -20)
const points: [number, number][] = [
  [0, 20],
  [200, 20],
  [200, -20],
  [0, -20],
];
const loop = [{ nodes: [0, 1, 2, 3], tags: { highway: 'residential' } }];

const near = (got: number | undefined, want: number) => assert.ok(got !== undefined && Math.abs(got - want) < 1e-2, `${got} ≠ ${want}`);

test('two platforms 30 m apart across the loop: the walk round it, 440 m plus both 5 m offsets', () => {
  const length = footpathsOf([
    [0, 15],
    [0, -15],
  ]);
  near(length(0, 1), 450);
  near(length(1, 0), 450);
});

test('stops on one street: the length along it plus the offsets', () => {
  const length = footpathsOf([
    [50, 15],
    [150, 15],
  ]);
  near(length(0, 1), 110);
});

test('the horizon counts the offsets: 450 m of walk is in at 450 m, out at 449 m', () => {
  const stops: [number, number][] = [
    [0, 15],
    [0, -15],
  ];
  near(footpathsOf(stops, 450)(0, 1), 450);
  assert.equal(footpathsOf(stops, 449)(0, 1), undefined);
});

test('a stop with no street within the link radius has no transfer, even to a stop 200 m away', () => {
  const length = footpathsOf([
    [0, 15],
    [0, 900],
    [0, 1100],
  ]);
  assert.equal(length(1, 2), undefined);
  assert.equal(length(0, 1), undefined);
  assert.equal(length(1, 0), undefined);
});
