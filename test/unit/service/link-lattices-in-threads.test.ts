/**
 * The link lattices computed in worker threads (service/link-lattices-in-threads.ts): the same
 * arrays as computed here, whether in strips (then in a thread each) or in one piece.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLinkLattice } from '../../../src/model/link-lattice-build.js';
import { LINK_RADIUS_M } from '../../../src/model/street-graph.js';
import { LAYER_NAMES, type Layer } from '../../../src/model/street-layers.js';
import { linkLatticesInThreads } from '../../../src/service/link-lattices-in-threads.js';
import { graphOf } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';

/** 60 winding streets over 4 km, every fourth a motorway. */
function streets() {
  const random = lcg(41);
  const points: [number, number][] = [];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  for (let k = 0; k < 60; k++) {
    const first = points.length;
    let x = random() * 4000;
    let y = random() * 4000;
    for (let n = 0; n < 5; n++, x += (random() - 0.5) * 300, y += (random() - 0.5) * 300) points.push([x, y]);
    ways.push({ nodes: [first, first + 1, first + 2, first + 3, first + 4], tags: { highway: k % 4 === 0 ? 'motorway' : 'tertiary' } });
  }
  return graphOf(points, ways).graph;
}

test('lattices computed in strips in worker threads are the arrays computed here, layer by layer', async () => {
  const g = streets();
  const pieces = { densePoints: 0, stripTiles: 2 };
  const threaded = await linkLatticesInThreads(g, pieces);
  assert.equal(threaded.length, LAYER_NAMES.length);
  threaded.forEach((lattice, layer) => {
    const here = buildLinkLattice(g, layer as Layer, LINK_RADIUS_M, pieces);
    assert.ok(lattice.place.buffer instanceof SharedArrayBuffer, 'on shared memory');
    for (const key of Object.keys(here) as (keyof typeof here)[]) {
      const a = here[key];
      const b = lattice[key];
      if (ArrayBuffer.isView(a)) assert.deepEqual([...(b as Int32Array)], [...(a as Int32Array)], `${LAYER_NAMES[layer]}: ${key}`);
      else assert.equal(b, a, `${LAYER_NAMES[layer]}: ${key}`);
    }
  });
  // a city's lattices, in one piece here: the graph's own
  const own = await linkLatticesInThreads(g);
  own.forEach((lattice, layer) => assert.deepEqual([...lattice.place], [...g.linkLattices[layer]!.place], `${LAYER_NAMES[layer]}: one piece`));
});
