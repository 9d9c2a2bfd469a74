/**
 * The street search's bucket queue against a plain Dijkstra written here, on hand-made graphs whose
 * edges are so short that many cost 0 tenths of a second at car speed: a zero-cost edge pushes into
 * the bucket being drained, which must be taken again, and nothing may be left queued for the next
 * search on the same scratch state.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backwardBit, forwardBit, Layer } from '../../../src/model/street-layers.js';
import type { StreetGraph } from '../../../src/model/street-graph.js';
import { UNREACHED } from '../../../src/routing/unreached.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { graphOf } from '../../helpers/street-fixture.js';
import { mulberry32 } from '../../helpers/random.js';

/** A `side` × `side` grid of streets whose blocks measure 0.5 to 30 m (at 50 m/s, an edge under 5 m costs 0). */
function tinyGrid(side: number, random: () => number): StreetGraph {
  const xs = [0];
  const ys = [0];
  for (let i = 1; i < side; i++) {
    xs.push(xs[i - 1]! + 0.5 + random() * 29.5);
    ys.push(ys[i - 1]! + 0.5 + random() * 29.5);
  }
  const points: [number, number][] = [];
  for (const y of ys) for (const x of xs) points.push([x, y]);
  const at = (i: number, j: number) => j * side + i;
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  const tags = (): Record<string, string> => (random() < 0.3 ? { highway: 'residential', oneway: random() < 0.5 ? 'yes' : '-1' } : { highway: 'residential' });
  // one way per block side, so that every grid node is a vertex and every block side an edge
  for (let j = 0; j < side; j++) for (let i = 0; i + 1 < side; i++) ways.push({ nodes: [at(i, j), at(i + 1, j)], tags: tags() });
  for (let i = 0; i < side; i++) for (let j = 0; j + 1 < side; j++) ways.push({ nodes: [at(i, j), at(i, j + 1)], tags: tags() });
  return graphOf(points, ways).graph;
}

/** Costs from `seeds` by Dijkstra with a linear scan for the minimum: slow, obviously right. */
function dijkstra(g: StreetGraph, seeds: [number, number][], layer: Layer, speed: number, limit: number, reverse: boolean): number[] {
  const cost = new Array<number>(g.vertexCount).fill(UNREACHED);
  const done = new Array<boolean>(g.vertexCount).fill(false);
  // a seed keeps its cost even above the limit; it is only never expanded
  for (const [v, c] of seeds) cost[v] = Math.min(cost[v]!, c);
  const bitFrom = reverse ? backwardBit(layer) : forwardBit(layer);
  const bitTo = reverse ? forwardBit(layer) : backwardBit(layer);
  for (;;) {
    let v = -1;
    for (let u = 0; u < g.vertexCount; u++) if (!done[u] && cost[u]! !== UNREACHED && (v < 0 || cost[u]! < cost[v]!)) v = u;
    if (v < 0) return cost;
    done[v] = true;
    for (let i = g.adjOffset[v]!; i < g.adjOffset[v + 1]!; i++) {
      const ref = g.adjEdge[i]!;
      const e = ref >>> 1;
      if ((g.edgeAccess[e]! & ((ref & 1) === 0 ? bitFrom : bitTo)) === 0) continue;
      const next = cost[v]! + Math.trunc(g.edgeLengthDm[e]! / speed);
      const w = g.adjTarget[i]!;
      if (next <= limit && next < cost[w]!) cost[w] = next;
    }
  }
}

describe('street search with zero-cost edges', () => {
  const random = mulberry32(2024);
  const graph = tinyGrid(12, random);

  test('the grid has edges that cost 0 at car speed, and others that do not', () => {
    let zero = 0;
    for (let e = 0; e < graph.edgeLengthDm.length; e++) if (Math.trunc(graph.edgeLengthDm[e]! / 50) === 0) zero++;
    assert.ok(zero >= 10, `${zero} zero-cost edges`);
    assert.ok(zero < graph.edgeLengthDm.length / 2);
  });

  test('2,000 searches in a row on one scratch state give Dijkstra’s costs', () => {
    const search = new StreetSearch(graph, 2000);
    const layers = [Layer.Car, Layer.Bike, Layer.Walk];
    for (let n = 0; n < 2000; n++) {
      const layer = layers[n % 3]!;
      const speed = layer === Layer.Car ? 20 + random() * 30 : 0.5 + random() * 5;
      const limit = Math.floor(random() * 2200); // sometimes above the search's largest limit
      const reverse = random() < 0.5;
      const seeds: [number, number][] = [];
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) seeds.push([Math.floor(random() * graph.vertexCount), Math.floor(random() * 60)]);
      search.reset();
      for (const [v, c] of seeds) search.seed(v, c);
      search.run(layer, speed, limit, reverse);
      const expected = dijkstra(graph, seeds, layer, speed, Math.min(limit, 2000), reverse);
      for (let v = 0; v < graph.vertexCount; v++) {
        if (search.costOf(v) !== expected[v]) assert.fail(`search ${n}: vertex ${v} costs ${search.costOf(v)}, Dijkstra says ${expected[v]}`);
      }
      assert.equal(search.queuedEntries(), 0, `search ${n} left entries queued`);
    }
  });

  test('a search of only zero-cost edges settles every vertex at its seed’s cost', () => {
    // a chain of 40 nodes 2 m apart: every edge costs 0 at 50 m/s
    const points: [number, number][] = Array.from({ length: 40 }, (_, i) => [i * 2, 0]);
    const ways = points.slice(1).map((_, i) => ({ nodes: [i, i + 1], tags: { highway: 'residential' } }));
    const chain = graphOf(points, ways).graph;
    const search = new StreetSearch(chain, 100);
    for (let n = 0; n < 50; n++) {
      search.reset();
      search.seed(0, 7);
      search.run(Layer.Car, 50, 100);
      for (let v = 0; v < chain.vertexCount; v++) assert.equal(search.costOf(v), 7);
      assert.equal(search.queuedEntries(), 0);
    }
  });
});

describe('a search that holds a run already (holds)', () => {
  const g = tinyGrid(6, mulberry32(7));
  const snap = { edge: 3, alongM: 2.5, offsetM: 0 } as unknown as Parameters<StreetSearch['seedSnap']>[0];
  const other = { edge: 4, alongM: 1, offsetM: 0 } as unknown as Parameters<StreetSearch['seedSnap']>[0];
  const ran = (more?: (s: StreetSearch) => void) => {
    const s = new StreetSearch(g, 20_000);
    s.seedSnap(snap, Layer.Walk, 1.12, 30, false);
    more?.(s);
    s.run(Layer.Walk, 1.12, 9_000, false);
    return s;
  };

  test('one point seed and one run: held as asked, and not for another seed, speed, limit, layer or direction', () => {
    const s = ran();
    assert.equal(s.holds(snap, Layer.Walk, 1.12, 30, 9_000, false), true);
    assert.equal(s.holds(other, Layer.Walk, 1.12, 30, 9_000, false), false);
    assert.equal(s.holds(snap, Layer.Walk, 1.12, 31, 9_000, false), false);
    assert.equal(s.holds(snap, Layer.Walk, 1, 30, 9_000, false), false);
    assert.equal(s.holds(snap, Layer.Walk, 1.12, 30, 8_000, false), false);
    assert.equal(s.holds(snap, Layer.Bike, 1.12, 30, 9_000, false), false);
    assert.equal(s.holds(snap, Layer.Walk, 1.12, 30, 9_000, true), false);
    // a limit past the search's largest is the largest
    assert.equal(new StreetSearch(g, 9_000).holds(snap, Layer.Walk, 1.12, 30, 9_000, false), false);
  });

  test('more seeds, a second run or a reset: not held', () => {
    assert.equal(ran((s) => s.seedSnap(other, Layer.Walk, 1.12, 0, false)).holds(snap, Layer.Walk, 1.12, 30, 9_000, false), false);
    assert.equal(ran((s) => s.seed(0, 0)).holds(snap, Layer.Walk, 1.12, 30, 9_000, false), false);
    const twice = ran();
    twice.run(Layer.Walk, 1.12, 9_000, false);
    assert.equal(twice.holds(snap, Layer.Walk, 1.12, 30, 9_000, false), false);
    const reset = ran();
    reset.reset();
    assert.equal(reset.holds(snap, Layer.Walk, 1.12, 30, 9_000, false), false);
  });
});
