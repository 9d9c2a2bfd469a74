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
import { walkingFootpaths, walkingFootpathsTo } from '../../../src/routing/footpaths.js';
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

test('the footpaths into a list of stops, found backwards, are those the search from each other stop finds, to the last bit', () => {
  // the loop, with its south side one-way westwards for walkers, and a spur north from its north-east corner
  const { graph } = graphOf(
    [...points, [200, 300]],
    [
      { nodes: [3, 0, 1, 2], tags: { highway: 'residential' } },
      { nodes: [2, 3], tags: { highway: 'footway', 'oneway:foot': 'yes' } },
      { nodes: [1, 4], tags: { highway: 'footway' } },
    ],
  );
  const stops: [number, number][] = [
    [37.3, 15],
    [153.7, -17],
    [191, 131.9],
    [63.1, -25],
    [0.6, -3.3],
    [121.9, 22.2],
    [195, -10],
  ];
  const snaps = snapStops(graph, Float64Array.from(stops, ([x]) => lonOfX(x)), Float64Array.from(stops, ([, y]) => latOfY(y)));
  const key = (fp: ReturnType<typeof walkingFootpaths>, k: number) => `${fp.from[k]}>${fp.to[k]}:${fp.lengthM[k]}`;
  const all = walkingFootpaths(graph, snaps, 500);
  for (const target of [1, 3, 5, 6]) {
    const into = walkingFootpathsTo(graph, snaps, 500, [target], 3);
    const expected = Array.from(all.from, (_, k) => k).filter((k) => all.to[k] === target && all.from[k]! < 3);
    assert.deepEqual(Array.from(into.from, (_, k) => key(into, k)).sort(), expected.map((k) => key(all, k)).sort());
    assert.ok(expected.length > 0);
  }
  // the one-way side: from stop 6 on the east side west along it to stop 4, back round the north
  const length = (from: number, to: number) => all.lengthM[Array.from(all.from, (_, k) => k).find((k) => all.from[k] === from && all.to[k] === to)!]!;
  assert.ok(length(4, 6) > length(6, 4) + 10, `${length(4, 6)} ${length(6, 4)}`);
  // from a list of stops: their rows of the whole table
  const some = walkingFootpaths(graph, snaps, 500, [2, 4]);
  assert.deepEqual(
    Array.from(some.from, (_, k) => key(some, k)).sort(),
    Array.from(all.from, (_, k) => k)
      .filter((k) => all.from[k] === 2 || all.from[k] === 4)
      .map((k) => key(all, k))
      .sort(),
  );
});
