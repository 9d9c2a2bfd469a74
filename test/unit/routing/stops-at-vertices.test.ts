/**
 * The stops an access reads (routing/stops-at-vertices.ts): every stop a street search reaches
 * within its limit is listed, as a scan of every stop finds them, ascending and once each; and a
 * short search lists a few stops of many.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer } from '../../../src/model/street-layers.js';
import { LINK_RADIUS_M, projectX, projectY, snapPoint } from '../../../src/model/street-graph.js';
import { snapStops } from '../../../src/model/stop-snaps.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { StopsAtVertices } from '../../../src/routing/stops-at-vertices.js';
import { UNREACHED } from '../../../src/routing/unreached.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';

/** A 40 × 40 street grid, 100 m apart (every other street one-way for cars), and 600 stops strewn over it. */
function city() {
  const points: [number, number][] = [];
  for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) points.push([i * 100, j * 100]);
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  for (let i = 0; i < 40; i++) {
    ways.push({ nodes: Array.from({ length: 40 }, (_, j) => i * 40 + j), tags: { highway: 'residential', ...(i % 2 ? { oneway: 'yes' } : {}) } });
    ways.push({ nodes: Array.from({ length: 40 }, (_, j) => j * 40 + i), tags: { highway: 'residential' } });
  }
  const g = graphOf(points, ways).graph;
  const random = lcg(11);
  const lon = new Float64Array(600);
  const lat = new Float64Array(600);
  for (let s = 0; s < 600; s++) {
    lon[s] = lonOfX(random() * 3900);
    lat[s] = latOfY(random() * 3900);
  }
  return { g, snaps: snapStops(g, lon, lat) };
}

test('a search lists every stop on an edge it reached, ascending and once, and a short one few of them', () => {
  const { g, snaps } = city();
  const atVertices = new StopsAtVertices(g, snaps);
  const search = new StreetSearch(g, 36_000);
  const out = new Uint32Array(600);
  const random = lcg(5);
  let listedShort = 0;
  for (let run = 0; run < 40; run++) {
    const layer = run % 2 ? Layer.Car : Layer.Walk;
    const reverse = run % 4 >= 2;
    const limitDs = run < 20 ? 3000 : 60_000;
    const speed = layer === Layer.Car ? 8 : 1.3;
    const snap = snapPoint(g, layer, projectX(g.projection, lonOfX(random() * 3900)), projectY(g.projection, latOfY(random() * 3900)), LINK_RADIUS_M)!;
    search.reset();
    search.seedSnap(snap, layer, speed, 0, reverse);
    search.run(layer, speed, limitDs, reverse);
    const count = atVertices.reachedBy(search, layer, out);
    const listed = [...out.subarray(0, count)];
    assert.deepEqual(listed, [...new Set(listed)].sort((a, b) => a - b), 'ascending, each once');
    // the scan: every stop of the layer whose link point the search reached
    const edges = snaps.edge[layer]!;
    for (let s = 0; s < edges.length; s++) {
      if (edges[s]! < 0) continue;
      const cost = search.costAlong(edges[s]!, snaps.alongM[layer]![s]!, layer, 10 / speed, reverse);
      if (cost < UNREACHED && cost <= limitDs) assert.ok(listed.includes(s), `run ${run}: stop ${s} reached (${cost} ds) but not listed`);
    }
    if (run < 20 && layer === Layer.Walk) listedShort += count;
  }
  // five minutes on foot (390 m) from a point: a few of the 600 stops over 15 km² each time
  assert.ok(listedShort / 10 < 30, `${listedShort / 10} stops listed per short walk`);
  assert.ok(listedShort > 0, 'short searches list stops');
});
