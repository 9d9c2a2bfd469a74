/**
 * Egress tables (egress-table.ts) on a hand-made street: which points a stop reaches within the
 * leg's limit, the exact tenths of a second, both directions of a one-way street, and the values a
 * search's reached stops give the points.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer } from '../../../src/model/street-layers.js';
import { emptySnaps, snapRange } from '../../../src/model/stop-snaps.js';
import { linkPointRange, unlinkedPoints } from '../../../src/model/linked-points.js';
import { buildEgressTable, valueFromStops, type EgressKey } from '../../../src/routing/egress-table.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';

/*
 *   x:   0 ──────────────────────────── 1000     one street, one-way east for cars
 *   stop at 500; points at 200, 800 (30 m north of the street) and 950
 */
const { graph } = graphOf(
  [
    [0, 0],
    [1000, 0],
  ],
  [{ nodes: [0, 1], tags: { highway: 'residential', oneway: 'yes' } }],
);
const snaps = emptySnaps(1);
snapRange(graph, Float64Array.of(lonOfX(500)), Float64Array.of(latOfY(0)), snaps, 0, 1);
const points = unlinkedPoints('places', Float64Array.of(lonOfX(200), lonOfX(800), lonOfX(950)), Float64Array.of(latOfY(0), latOfY(30), latOfY(0)), []);
linkPointRange(graph, points, 0, 3);

function rows(key: Omit<EgressKey, 'points'>): Map<number, number> {
  const table = buildEgressTable(graph, snaps, { points, ...key }, new StreetSearch(graph, 100_000));
  assert.equal(table.offset.length, 2);
  const out = new Map<number, number>();
  for (let x = table.offset[0]!; x < table.offset[1]!; x++) out.set(table.point[x]!, table.costDs[x]!);
  return out;
}

test('on foot: the points within the limit, each at the street walk plus its offset, in tenths of a second', () => {
  const walk = rows({ layer: Layer.Walk, speed: 1, walkSpeed: 1, limitDs: 4000, reverse: false });
  // 300 m west; 300 m east then 30 m off the street; 450 m east is past 400 s
  assert.deepEqual([...walk.keys()].sort(), [0, 1]);
  assert.ok(Math.abs(walk.get(0)! - 3000) <= 1, `${walk.get(0)}`);
  assert.ok(Math.abs(walk.get(1)! - 3300) <= 1, `${walk.get(1)}`);
  // the limit counts the offset: 330 s is out of a 320 s leg
  assert.deepEqual([...rows({ layer: Layer.Walk, speed: 1, walkSpeed: 1, limitDs: 3200, reverse: false }).keys()], [0]);
  // twice the speed: half the street time, the offset still walked at 1 m/s
  const faster = rows({ layer: Layer.Walk, speed: 2, walkSpeed: 1, limitDs: 4000, reverse: false });
  assert.ok(Math.abs(faster.get(1)! - (1500 + 300)) <= 1, `${faster.get(1)}`);
  assert.ok(Math.abs(faster.get(2)! - 2250) <= 1, `${faster.get(2)}`);
});

test('a one-way street: from the stop the car goes east only; to the stop (arrival maps), from the west only', () => {
  const from = rows({ layer: Layer.Car, speed: 10, walkSpeed: 1, limitDs: 10_000, reverse: false });
  assert.deepEqual([...from.keys()].sort(), [1, 2]);
  assert.ok(Math.abs(from.get(2)! - 450) <= 1, `${from.get(2)}`);
  const to = rows({ layer: Layer.Car, speed: 10, walkSpeed: 1, limitDs: 10_000, reverse: true });
  assert.deepEqual([...to.keys()], [0]);
  assert.ok(Math.abs(to.get(0)! - 300) <= 1, `${to.get(0)}`);
});

test('values from the stops reached: the arrival plus the leg, below the limit, the least kept', () => {
  const table = buildEgressTable(graph, snaps, { points, layer: Layer.Walk, speed: 1, walkSpeed: 1, limitDs: 4000, reverse: false }, new StreetSearch(graph, 100_000));
  const out = new Float64Array(3).fill(Infinity);
  out[0] = 3500;
  // the stop reached 60 s after the start, and 20 s of extra time on the leg
  valueFromStops(table, Uint32Array.of(0), 1, Int32Array.of(60), 200, 4000, out);
  // point 0: 600 + 200 + 3000 = 3800 is no better than 3500; point 1: 600 + 200 + 3300 = 4100 is past 4000
  assert.deepEqual(Array.from(out), [3500, Infinity, Infinity]);
  valueFromStops(table, Uint32Array.of(0), 1, Int32Array.of(10), 0, 4000, out);
  assert.ok(Math.abs(out[0]! - 3100) <= 1 && Math.abs(out[1]! - 3400) <= 1, `${Array.from(out)}`);
});
