/**
 * Small islands (model/small-islands.ts): neither a centre nor a stop point links to a piece of
 * footway joined to nothing when the network is within reach.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer } from '../../../src/model/street-layers.js';
import { SMALL_ISLAND_EDGES } from '../../../src/model/small-islands.js';
import { snapStops } from '../../../src/model/stop-snaps.js';
import { projectX, projectY, segmentDistance2, snapPoint, type StreetGraph } from '../../../src/model/street-graph.js';
import { latticeSegment } from '../../../src/model/link-lattice.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';

/** A street of SMALL_ISLAND_EDGES + 10 edges along y = 0 (nodes every 20 m), and a 30 m footway along y = 100 joined to nothing. */
function network() {
  const points: [number, number][] = [];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  const n = SMALL_ISLAND_EDGES + 10;
  for (let k = 0; k <= n; k++) points.push([k * 20, 0]);
  for (let k = 0; k < n; k++) ways.push({ nodes: [k, k + 1], tags: { highway: 'residential' } });
  points.push([100, 100], [130, 100]);
  ways.push({ nodes: [n + 1, n + 2], tags: { highway: 'footway' } });
  return graphOf(points, ways, { removeSmallIslands: true });
}

/** The snap of the point (x, y) metres, on the walking layer within 500 m. */
const snapAt = (g: StreetGraph, x: number, y: number) => snapPoint(g, Layer.Walk, projectX(g.projection, lonOfX(x)), projectY(g.projection, latOfY(y)), 500)!;

/** The footway's one segment (the graph keeps it: only the points' links leave it). */
const footwaySegment = (g: StreetGraph) => g.segmentCount - 1;

test('a centre near a piece of footway joined to nothing attaches to the network, 90 m away', () => {
  const { graph: g, stats } = network();
  assert.deepEqual(stats.smallIslandEdges, [1, 0, 0], 'the footway is a small island of the walking layer');
  // (115, 90): 10 m from the footway, 90 m from the street
  const x = projectX(g.projection, lonOfX(115));
  const y = projectY(g.projection, latOfY(90));
  assert.equal(Math.round(Math.sqrt(segmentDistance2(g, footwaySegment(g), x, y))), 10, 'the footway is nearest');
  const snap = snapAt(g, 115, 90);
  assert.equal(Math.round(snap.offsetM), 90);
  assert.equal(g.edgeAccess[snap.edge]! & 3, 3, 'on the street');
});

test('no lattice point of the walking layer links to the small island; the car layer never had it', () => {
  const { graph: g } = network();
  for (const layer of [Layer.Walk, Layer.Car]) {
    const l = g.linkLattices[layer]!;
    for (let i = 0; i < l.cols; i++) for (let j = 0; j < l.rows; j++) assert.notEqual(latticeSegment(l, i, j), footwaySegment(g));
  }
});

test('a stop point beside a piece of footway joined to nothing links to the network, its offset walked', () => {
  const { graph: g } = network();
  // linked after the islands are removed: (120, 105) is 5 m from the footway, 105 m from the street
  const stops = snapStops(g, Float64Array.of(lonOfX(120)), Float64Array.of(latOfY(105)));
  assert.equal(Math.round(stops.offsetM[Layer.Walk]![0]!), 105);
  assert.equal(g.edgeAccess[stops.edge[Layer.Walk]![0]!]! & 3, 3, 'on the street');
});
