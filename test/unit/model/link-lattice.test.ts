/**
 * The link lattice (model/link-lattice.ts): each lattice point holds its nearest segment of the
 * layer, checked against a scan of every segment; columns read as points do; a vast extract gets
 * a coarser step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer, layerBits } from '../../../src/model/street-layers.js';
import { LINK_RADIUS_M, segmentDistance2 } from '../../../src/model/street-graph.js';
import { latticeColumn, latticeSegment, latticeStep, LINK_LATTICE_STEP_M, MAX_LATTICE_POINTS, TILE_SIDE } from '../../../src/model/link-lattice.js';
import { graphOf } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';

/** 150 random streets over 3 km, a third of them motorways (not walked). */
function network() {
  const random = lcg(23);
  const points: [number, number][] = [];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  for (let k = 0; k < 150; k++) {
    const n = points.length;
    const x = random() * 3000;
    const y = random() * 3000;
    points.push([x, y], [x + (random() - 0.5) * 400, y + (random() - 0.5) * 400], [x + (random() - 0.5) * 600, y + (random() - 0.5) * 600]);
    ways.push({ nodes: [n, n + 1, n + 2], tags: { highway: k % 3 === 0 ? 'motorway' : 'residential' } });
  }
  return graphOf(points, ways).graph;
}

test('each lattice point holds its nearest segment of the layer within the radius and a step, as a scan of every segment finds it', () => {
  const g = network();
  for (const layer of [Layer.Walk, Layer.Car]) {
    const l = g.linkLattices[layer]!;
    assert.equal(l.stepM, LINK_LATTICE_STEP_M[layer]);
    const reach = LINK_RADIUS_M + l.stepM;
    let points = 0;
    let exact = 0;
    let linked = 0;
    for (let i = 0; i < l.cols; i++) {
      for (let j = 0; j < l.rows; j++) {
        const x = l.x0 + i * l.stepM;
        const y = l.y0 + j * l.stepM;
        let nearest = Infinity;
        for (let s = 0; s < g.segmentCount; s++) {
          if ((g.edgeAccess[g.segmentEdge[s]!]! & layerBits(layer)) === 0) continue;
          nearest = Math.min(nearest, Math.sqrt(segmentDistance2(g, s, x, y)));
        }
        const s = latticeSegment(l, i, j);
        points++;
        if (nearest > reach + 1e-6) {
          assert.equal(s, -1, `point ${i},${j}: ${nearest.toFixed(1)} m from any street, beyond reach`);
          exact++;
          continue;
        }
        // a point just inside reach may miss its street only where the sweep settled on one a little farther
        if (s < 0) {
          assert.ok(nearest > reach - l.stepM, `point ${i},${j}: ${nearest.toFixed(1)} m from a street and linked to none`);
          continue;
        }
        linked++;
        assert.ok(g.edgeAccess[g.segmentEdge[s]!]! & layerBits(layer), `point ${i},${j}: a segment of the layer`);
        const got = Math.sqrt(segmentDistance2(g, s, x, y));
        assert.ok(got <= nearest + l.stepM, `point ${i},${j}: ${got.toFixed(1)} m against the nearest ${nearest.toFixed(1)} m`);
        if (got <= nearest + 1e-6) exact++;
      }
    }
    assert.ok(exact / points >= 0.995, `${exact} of ${points} points exact`);
    assert.ok(linked > 1000 && linked < points, `${linked} of ${points} points linked`);
  }
});

test('a column reads as its points, across tiles', () => {
  const g = network();
  const l = g.linkLattices[Layer.Walk]!;
  assert.ok(l.rows > 2 * TILE_SIDE, 'the column crosses tiles');
  const column = new Int32Array(l.rows);
  for (const i of [0, 17, l.cols - 1]) {
    latticeColumn(l, i, 3, l.rows - 1, column);
    for (let j = 3; j < l.rows; j++) assert.equal(column[j], latticeSegment(l, i, j), `point ${i},${j}`);
  }
});

test('a vast extract gets a coarser step, so that the lattice holds at most MAX_LATTICE_POINTS', () => {
  assert.equal(latticeStep(Layer.Walk, 50_000, 35_000), LINK_LATTICE_STEP_M[Layer.Walk]);
  assert.equal(latticeStep(Layer.Car, 50_000, 35_000), LINK_LATTICE_STEP_M[Layer.Car]);
  const side = 400_000;
  const step = latticeStep(Layer.Walk, side, side);
  assert.equal(step, Math.sqrt((side * side) / MAX_LATTICE_POINTS));
  assert.equal(Math.round((side / step) ** 2), MAX_LATTICE_POINTS);
});
