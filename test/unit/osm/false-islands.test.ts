/**
 * Reading `foot=no` against the walking network: a road closed to walkers by its own tag is opened
 * when no walkway is mapped beside it (osm/unmapped-sidewalks.ts), and a chain of such ways when it
 * alone joins two parts of the walking network (osm/false-islands.ts); only then.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer } from '../../../src/model/street-layers.js';
import { MAX_LINK_M } from '../../../src/osm/false-islands.js';
import { canTraverse, type StreetGraph } from '../../../src/model/street-graph.js';
import { graphOf } from '../../helpers/street-fixture.js';

/** Whether walkers can go from OSM node `a` to OSM node `b` (ids are point indexes + 1). */
function walkable(g: StreetGraph, a: number, b: number): boolean {
  const start = [...g.vertexNodeId].indexOf(a + 1);
  const goal = [...g.vertexNodeId].indexOf(b + 1);
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === goal) return true;
    for (let i = g.adjOffset[v]!; i < g.adjOffset[v + 1]!; i++) {
      const e = g.adjEdge[i]! >>> 1;
      if (!canTraverse(g, e, g.adjEdge[i]! & 1, Layer.Walk) || seen.has(g.adjTarget[i]!)) continue;
      seen.add(g.adjTarget[i]!);
      stack.push(g.adjTarget[i]!);
    }
  }
  return false;
}

/**
 * Two sidewalk networks (footways 0-1 and 4-5), `gapM` apart, joined (when `bridge`) by a
 * carriageway in two ways 1-2-3 and 3-4 tagged `tags`; its sidewalk (6-7-8, 10 m north) is mapped
 * but joined to nothing, as when a crossing is left out.
 */
function town(tags: Record<string, string>, gapM = 300, bridge = true) {
  const points: [number, number][] = [
    [0, 0],
    [100, 0],
    [100 + gapM / 2, 0],
    [100 + gapM, 0],
    [200 + gapM, 0],
    [300 + gapM, 0],
    [110, 10],
    [100 + gapM / 2, 10],
    [190 + gapM, 10],
  ];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [
    { nodes: [0, 1], tags: { highway: 'footway' } },
    { nodes: [4, 5], tags: { highway: 'footway' } },
    { nodes: [6, 7, 8], tags: { highway: 'footway' } },
  ];
  if (bridge) {
    ways.push({ nodes: [1, 2, 3], tags: { highway: 'secondary', ...tags } });
    ways.push({ nodes: [3, 4], tags: { highway: 'secondary', ...tags } });
  }
  return { points, ways };
}

test('a chain of foot=no ways that alone joins two parts of the walking network is opened to walkers', () => {
  const { points, ways } = town({ foot: 'no' });
  const built = graphOf(points, ways);
  assert.equal(walkable(built.graph, 0, 5), true);
  assert.equal(built.stats.waysOpenedToWalk, 2);
});

test('foot=no holds where the network is joined anyway: beside a sidewalk, the carriageway stays closed', () => {
  const { points, ways } = town({ foot: 'no' });
  // the sidewalk joined to both parts
  ways.push({ nodes: [1, 6], tags: { highway: 'footway' } }, { nodes: [8, 4], tags: { highway: 'footway' } });
  const built = graphOf(points, ways);
  assert.equal(walkable(built.graph, 0, 5), true);
  assert.equal(built.stats.waysOpenedToWalk, 0);
  const carriageway = [...built.graph.edgeAccess].filter((bits, e) => bits !== 0 && !canTraverse(built.graph, e, 0, Layer.Walk));
  assert.equal(carriageway.length, 2, 'the carriageway (an edge per way) is still closed to walkers');
});

test('a motor road (motorroad=yes), a motorway, and a chain longer than MAX_LINK_M stay closed', () => {
  for (const [tags, gap] of [
    [{ foot: 'no', motorroad: 'yes' }, 300],
    [{ foot: 'no' }, MAX_LINK_M + 100],
  ] as const) {
    const { points, ways } = town(tags, gap);
    const built = graphOf(points, ways);
    assert.equal(walkable(built.graph, 0, 5), false, JSON.stringify(tags));
    assert.equal(built.stats.waysOpenedToWalk, 0);
  }
  const { points, ways } = town({}, 300, false);
  ways.push({ nodes: [1, 2, 3, 4], tags: { highway: 'motorway' } });
  const built = graphOf(points, ways);
  assert.equal(walkable(built.graph, 0, 5), false, 'motorway');
});

test('bicycle=no: opened to cyclists in the directions cars may take', () => {
  const { points, ways } = town({ bicycle: 'no', oneway: 'yes' });
  const built = graphOf(points, ways);
  assert.equal(built.stats.waysOpenedToBike, 0, 'footways carry no bikes: no parts of the bike network to join');
  const withPaths = town({ bicycle: 'no', oneway: 'yes' });
  for (const w of withPaths.ways) if (w.tags.highway === 'footway') w.tags.highway = 'cycleway';
  const g = graphOf(withPaths.points, withPaths.ways);
  assert.equal(g.stats.waysOpenedToBike, 2);
  const opened = [...g.graph.edgeAccess.keys()].filter((e) => g.graph.edgeAccess[e]! & (1 << 4));
  assert.ok(opened.length > 0);
  for (const e of opened) {
    assert.equal(canTraverse(g.graph, e, 0, Layer.Bike), true);
    assert.equal(canTraverse(g.graph, e, 1, Layer.Bike), false, 'one-way for bikes too');
  }
});

test('foot=no on a road with no walkway mapped beside it: opened to walkers (its sidewalks are not in the extract)', () => {
  // a secondary road from (0, 0) to (1000, 0) with foot=no, and streets on both ends: walkers go along it
  const points: [number, number][] = [
    [-100, 0],
    [0, 0],
    [500, 0],
    [1000, 0],
    [1100, 0],
  ];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [
    { nodes: [0, 1], tags: { highway: 'residential' } },
    { nodes: [1, 2, 3], tags: { highway: 'secondary', foot: 'no' } },
    { nodes: [3, 4], tags: { highway: 'residential' } },
  ];
  const built = graphOf(points, ways);
  assert.equal(built.stats.unmappedSidewalks, 1);
  assert.equal(walkable(built.graph, 0, 4), true);
  // the same road with its sidewalk mapped 10 m beside it (joined at both ends): the tag holds
  points.push([0, 10], [500, 10], [1000, 10]);
  ways.push({ nodes: [1, 5, 6, 7, 3], tags: { highway: 'footway' } });
  const withSidewalk = graphOf(points, ways);
  assert.equal(withSidewalk.stats.unmappedSidewalks, 0);
  assert.equal(withSidewalk.stats.waysOpenedToWalk, 0, 'the sidewalk joins the two ends: no island');
  assert.equal(walkable(withSidewalk.graph, 0, 4), true, 'along the sidewalk');
  const road = [...withSidewalk.graph.edgeAccess.keys()].filter((e) => withSidewalk.graph.edgeAccess[e]! !== 0 && !canTraverse(withSidewalk.graph, e, 0, Layer.Walk));
  assert.equal(road.length, 1, 'the carriageway stays closed to walkers');
});
