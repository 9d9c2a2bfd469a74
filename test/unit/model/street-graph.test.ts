import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BIKE_BACKWARD, BIKE_FORWARD, CAR_BACKWARD, CAR_FORWARD, Layer, NO_PARKING, WALK_BACKWARD, WALK_FORWARD } from '../../../src/model/street-layers.js';
import { wayAccess } from '../../../src/osm/street-access.js';
import { nearestSegment, projectX, projectY, segmentDistance2, snapPoint } from '../../../src/model/street-graph.js';
import { UNREACHED } from '../../../src/routing/unreached.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { graphOf } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';

const WALK = WALK_FORWARD | WALK_BACKWARD;
const BIKE = BIKE_FORWARD | BIKE_BACKWARD;
const CAR = CAR_FORWARD | CAR_BACKWARD;

describe('street access from tags', () => {
  test('highway classes', () => {
    assert.equal(wayAccess({ highway: 'residential' }), WALK | BIKE | CAR);
    assert.equal(wayAccess({ highway: 'footway' }), WALK);
    assert.equal(wayAccess({ highway: 'cycleway' }), WALK | BIKE);
    assert.equal(wayAccess({ highway: 'motorway' }), CAR_FORWARD | NO_PARKING);
    assert.equal(wayAccess({ highway: 'motorway_link' }), CAR | NO_PARKING);
    assert.equal(wayAccess({ highway: 'steps' }), WALK);
    assert.equal(wayAccess({ highway: 'track' }), WALK | BIKE);
    assert.equal(wayAccess({ highway: 'proposed' }), 0);
    assert.equal(wayAccess({ building: 'yes' }), 0);
  });
  test('access tags: the most specific wins', () => {
    assert.equal(wayAccess({ highway: 'residential', access: 'private' }), 0);
    assert.equal(wayAccess({ highway: 'residential', access: 'private', foot: 'yes' }), WALK);
    assert.equal(wayAccess({ highway: 'residential', foot: 'no' }), BIKE | CAR);
    assert.equal(wayAccess({ highway: 'footway', bicycle: 'yes' }), WALK | BIKE);
    assert.equal(wayAccess({ highway: 'primary', motor_vehicle: 'no' }), WALK | BIKE);
    assert.equal(wayAccess({ highway: 'pedestrian', area: 'yes' }), WALK);
  });
  test('a motor road bars walkers and cyclists, unless their own tag lets them on', () => {
    assert.equal(wayAccess({ highway: 'trunk', motorroad: 'yes' }), CAR);
    assert.equal(wayAccess({ highway: 'primary', motorroad: 'yes', access: 'yes' }), CAR);
    assert.equal(wayAccess({ highway: 'trunk', motorroad: 'yes', foot: 'yes' }), WALK | CAR);
    assert.equal(wayAccess({ highway: 'trunk', motorroad: 'yes', bicycle: 'designated', oneway: 'yes' }), BIKE_FORWARD | CAR_FORWARD);
    assert.equal(wayAccess({ highway: 'trunk', motorroad: 'no' }), WALK | BIKE | CAR);
    // use_sidepath sends them beside it, not onto it
    assert.equal(wayAccess({ highway: 'trunk', motorroad: 'yes', foot: 'use_sidepath', bicycle: 'use_sidepath' }), CAR);
  });
  test('one-way streets', () => {
    assert.equal(wayAccess({ highway: 'residential', oneway: 'yes' }), WALK | BIKE_FORWARD | CAR_FORWARD);
    assert.equal(wayAccess({ highway: 'residential', oneway: '-1' }), WALK | BIKE_BACKWARD | CAR_BACKWARD);
    assert.equal(wayAccess({ highway: 'residential', junction: 'roundabout' }), WALK | BIKE_FORWARD | CAR_FORWARD);
    assert.equal(wayAccess({ highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' }), WALK | BIKE | CAR_FORWARD);
    assert.equal(wayAccess({ highway: 'residential', oneway: 'yes', cycleway: 'opposite_lane' }), WALK | BIKE | CAR_FORWARD);
  });
});

/**
 *   0 ---- 1 ---- 2          a street along y = 0 (nodes 0,1,2 at x = 0, 100, 200)
 *          |                 a footway from node 1 down to node 3 (x = 100, y = -100) through node 4 (y = -50)
 *          4
 *          |
 *          3
 */
const POINTS: [number, number][] = [
  [0, 0],
  [100, 0],
  [200, 0],
  [100, -100],
  [100, -50],
];

describe('street graph', () => {
  const { graph, stats, names } = graphOf(POINTS, [
    { nodes: [0, 1, 2], tags: { highway: 'residential', name: 'Main Street', oneway: 'yes' } },
    { nodes: [1, 4, 3], tags: { highway: 'footway' } },
  ]);

  test('vertices are way ends and shared nodes; degree-2 nodes are contracted', () => {
    assert.equal(stats.vertices, 4); // nodes 0, 1, 2, 3
    assert.equal(stats.edges, 3);
    assert.equal(stats.segments, 4);
    assert.deepEqual([...graph.vertexNodeId].sort(), [1, 2, 3, 4]);
    assert.deepEqual(names, ['Main Street']);
  });

  test('edge lengths follow the geometry (decimetres)', () => {
    const lengths = [...graph.edgeLengthDm].sort((a, b) => a - b);
    assert.deepEqual(lengths, [1000, 1000, 1000]);
    const footway = [...graph.edgeAccess].findIndex((bits) => bits === WALK);
    assert.equal(graph.geomOffset[footway + 1]! - graph.geomOffset[footway]!, 3, 'the contracted node stays in the geometry');
  });

  test('search: walking both ways, driving only along the one-way street', () => {
    const search = new StreetSearch(graph, 100_000);
    const vertexOf = (node: number) => [...graph.vertexNodeId].indexOf(node + 1);
    search.reset();
    search.seed(vertexOf(2), 0);
    search.run(Layer.Walk, 1, 100_000);
    assert.equal(search.costOf(vertexOf(1)), 1000);
    assert.equal(search.costOf(vertexOf(0)), 2000);
    assert.equal(search.costOf(vertexOf(3)), 2000);
    search.reset();
    search.seed(vertexOf(2), 0);
    search.run(Layer.Car, 10, 100_000);
    assert.equal(search.costOf(vertexOf(1)), UNREACHED, 'against the one-way street');
    search.reset();
    search.seed(vertexOf(0), 0);
    search.run(Layer.Car, 10, 100_000);
    assert.equal(search.costOf(vertexOf(2)), 200);
    assert.equal(search.costOf(vertexOf(3)), UNREACHED, 'no car on the footway');
    // reversed: who can drive to node 2? node 0 can, at 200
    search.reset();
    search.seed(vertexOf(2), 0);
    search.run(Layer.Car, 10, 100_000, true);
    assert.equal(search.costOf(vertexOf(0)), 200);
    // the limit stops the search (inclusive)
    search.reset();
    search.seed(vertexOf(0), 0);
    search.run(Layer.Walk, 1, 1000);
    assert.equal(search.costOf(vertexOf(1)), 1000);
    assert.equal(search.costOf(vertexOf(2)), UNREACHED);
  });

  test('snapping: nearest segment of the layer, with the position along its edge', () => {
    const p = graph.projection;
    const snap = snapPoint(graph, Layer.Walk, projectX(p, 60 / 111226.2991), projectY(p, -20 / 111226.2991), 500)!;
    assert.ok(snap);
    assert.ok(Math.abs(snap.offsetM - 20) < 0.01);
    assert.ok(Math.abs(snap.alongM - 60) < 0.01 || Math.abs(snap.alongM - 140) < 0.01);
    const car = snapPoint(graph, Layer.Car, projectX(p, 110 / 111226.2991), projectY(p, -90 / 111226.2991), 500)!;
    assert.ok(Math.abs(car.offsetM - 90) < 0.01, 'the car layer ignores the nearer footway');
    assert.equal(snapPoint(graph, Layer.Walk, projectX(p, 0), projectY(p, 900 / 111226.2991), 500), null);
  });
});

describe('nearest segment', () => {
  test('equals a brute-force scan on a random network', () => {
    const random = lcg(42);
    const points: [number, number][] = [];
    for (let i = 0; i < 400; i++) points.push([random() * 3000, random() * 3000]);
    const ways = [];
    for (let i = 0; i + 3 < points.length; i += 4) ways.push({ nodes: [i, i + 1, i + 2, i + 3], tags: { highway: i % 8 ? 'residential' : 'footway' } });
    const { graph } = graphOf(points, ways);
    for (let k = 0; k < 300; k++) {
      const x = random() * 3400 - 200;
      const y = random() * 3400 - 200;
      const px = projectX(graph.projection, x / 111226.2991);
      const py = projectY(graph.projection, y / 111226.2991);
      const mask = k % 2 ? CAR : WALK;
      let best = Infinity;
      for (let s = 0; s < graph.segmentCount; s++) {
        if ((graph.edgeAccess[graph.segmentEdge[s]!]! & mask) === 0) continue;
        best = Math.min(best, segmentDistance2(graph, s, px, py));
      }
      const found = nearestSegment(graph, px, py, 400, mask);
      if (best > 400 * 400) assert.equal(found, -1);
      else assert.ok(Math.abs(segmentDistance2(graph, found, px, py) - best) < 1e-6, `query ${k}`);
    }
  });
});
