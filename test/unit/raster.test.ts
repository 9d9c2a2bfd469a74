import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { heatMatrixJson } from '../../src/api/heat-map-json.js';
import { Layer, layerBits } from '../../src/osm/street-access.js';
import { BoxBuilder, fillCells, matchRadiusM, Rasterizer, toSeconds, type Grid } from '../../src/routing/raster.js';
import { StreetSearch } from '../../src/routing/street-search.js';
import { nearestSegment, projectX, projectY, segmentDistance2 } from '../../src/model/street-graph.js';
import { graphOf, latOfY, lonOfX } from '../helpers/street-fixture.js';
import { lcg } from '../helpers/random.js';

describe('heat matrix JSON', () => {
  test('a 3 × 3 grid: key order, bands, whole seconds and null (print_map_test)', () => {
    const grid: Grid = { minLon: 0, maxLon: 3, minLat: 4, maxLat: 7, resolution: 3 };
    const seconds = new Int32Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) seconds[i * 3 + j] = (3 * i + j) * 60;
    seconds[8] = -1;
    assert.equal(
      heatMatrixJson(grid, seconds),
      '{"line_headers":[{"cell_lat":{"min_lat":4,"center_lat":4.5,"max_lat":5}},' +
        '{"cell_lat":{"min_lat":5,"center_lat":5.5,"max_lat":6}},' +
        '{"cell_lat":{"min_lat":6,"center_lat":6.5,"max_lat":7}}],' +
        '"lines":[{"cell_lon":{"min_lon":0,"center_lon":0.5,"max_lon":1},"duration":[0,60,120]},' +
        '{"cell_lon":{"min_lon":1,"center_lon":1.5,"max_lon":2},"duration":[180,240,300]},' +
        '{"cell_lon":{"min_lon":2,"center_lon":2.5,"max_lon":3},"duration":[360,420,null]}]}',
    );
  });

  test('large durations are written digit by digit', () => {
    const grid: Grid = { minLon: 0, maxLon: 1, minLat: 0, maxLat: 1, resolution: 1 };
    assert.match(heatMatrixJson(grid, Int32Array.of(86399)), /"duration":\[86399\]/);
  });
});

describe('raster', () => {
  // one straight street from (0, 0) to (100, 0) metres; the grid's cell centres are at x = 0, 100 and y = -50, 50
  const { graph } = graphOf(
    [
      [0, 0],
      [100, 0],
    ],
    [{ nodes: [0, 1], tags: { highway: 'residential' } }],
  );
  const grid: Grid = { minLon: lonOfX(-50), maxLon: lonOfX(150), minLat: latOfY(-100), maxLat: latOfY(100), resolution: 2 };
  const vertexAt = (node: number) => [...graph.vertexNodeId].indexOf(node + 1);

  function raster(layer: Layer, speed: number, seedNode: number, reverse: boolean, maxSec: number): number[][] {
    const search = new StreetSearch(graph, 10_000);
    search.reset();
    search.seed(vertexAt(seedNode), 0);
    search.run(layer, speed, 10_000, reverse);
    const nearest = new Rasterizer(graph, 4).nearestSegments(grid, layer);
    const values = new Float64Array(4).fill(Infinity);
    fillCells(graph, grid, nearest, layer, speed, reverse, search, values);
    const out = new Int32Array(4);
    toSeconds(values, maxSec, out);
    return [
      [out[0]!, out[1]!],
      [out[2]!, out[3]!],
    ];
  }

  test('each cell: the better end of its nearest segment plus the straight distance, truncated', () => {
    // from (0,0) walking at 1 m/s: the far end is at 100 s; the cell at (100, ±50) is 111.8 m from (0,0), 50 m from (100,0)
    assert.deepEqual(raster(Layer.Walk, 1, 0, false, 3600), [
      [50, 50],
      [111, 111],
    ]);
  });

  test('null at the maximum duration and beyond', () => {
    assert.deepEqual(raster(Layer.Walk, 1, 0, false, 111), [
      [50, 50],
      [-1, -1],
    ]);
  });

  test('one-way edges and contracted points: values along a street travelled one way only', () => {
    // a street from (0,0) to (200,0) through a contracted node at (100,0), open to cars only from x=200 to x=0;
    // cells of the middle row have their centres on the street at x = 25, 125, 225
    const { graph: street } = graphOf(
      [
        [0, 0],
        [100, 0],
        [200, 0],
      ],
      [{ nodes: [0, 1, 2], tags: { highway: 'residential', oneway: '-1' } }],
    );
    const g3: Grid = { minLon: lonOfX(-25), maxLon: lonOfX(275), minLat: latOfY(-150), maxLat: latOfY(150), resolution: 3 };
    const at = (node: number) => [...street.vertexNodeId].indexOf(node + 1);
    const middleRow = (layer: Layer, seedNode: number, reverse: boolean) => {
      const search = new StreetSearch(street, 10_000);
      search.reset();
      search.seed(at(seedNode), 0);
      search.run(layer, 1, 10_000, reverse);
      const nearest = new Rasterizer(street, 3).nearestSegments(g3, layer);
      const values = new Float64Array(9).fill(Infinity);
      fillCells(street, g3, nearest, layer, 1, reverse, search, values);
      const out = new Int32Array(9);
      toSeconds(values, 3600, out);
      return [out[1]!, out[4]!, out[7]!];
    };
    assert.deepEqual(middleRow(Layer.Walk, 0, false), [25, 125, 225]);
    assert.deepEqual(middleRow(Layer.Car, 0, false), [25, -1, -1], 'no car from x=0 along the street');
    assert.deepEqual(middleRow(Layer.Car, 2, false), [175, 75, 25]);
    assert.deepEqual(middleRow(Layer.Car, 0, true), [25, 125, 225], 'reaching x=0 by car works from anywhere on the street');
    // to reach x=200 by car: only from x=200 itself; the cell at x=125 joins it straight, off the street
    assert.deepEqual(middleRow(Layer.Car, 2, true), [-1, 75, 25]);
  });

  test('no street within the matching radius: null', () => {
    const far: Grid = { minLon: lonOfX(2000), maxLon: lonOfX(2100), minLat: latOfY(2000), maxLat: latOfY(2100), resolution: 2 };
    const nearest = new Rasterizer(graph, 4).nearestSegments(far, Layer.Walk);
    assert.deepEqual([...nearest], [-1, -1, -1, -1]);
    assert.equal(matchRadiusM(far), 500);
  });

  test('cells the lower bound leaves out are null anyway: the same seconds as searching every cell', () => {
    const random = lcg(11);
    // a jittered lattice of streets 100 m apart, some of them missing: detours and dead ends
    const points: [number, number][] = [];
    const N = 16;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) points.push([i * 100 + random() * 40, j * 100 + random() * 40]);
    const ways = [];
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) {
        if (i + 1 < N && random() < 0.8) ways.push({ nodes: [i * N + j, (i + 1) * N + j], tags: { highway: 'residential' } });
        if (j + 1 < N && random() < 0.8) ways.push({ nodes: [i * N + j, i * N + j + 1], tags: { highway: 'residential' } });
      }
    }
    const lattice = graphOf(points, ways).graph;
    // straight streets every 15° from one point, a node every 20 m: values there are the bound itself
    // plus a few metres, so a bound that overshoots in any direction would lose cells at the fringe
    const starPoints: [number, number][] = [[750, 750]];
    const starWays = [];
    for (let k = 0; k < 24; k++) {
      const nodes = [0];
      for (let r = 20; r <= 1000; r += 20) {
        nodes.push(starPoints.length);
        starPoints.push([750 + r * Math.cos((k * Math.PI) / 12), 750 + r * Math.sin((k * Math.PI) / 12)]);
      }
      starWays.push({ nodes, tags: { highway: 'footway' } });
    }
    const star = graphOf(starPoints, starWays).graph;
    const speed = 1.12;
    const box = new BoxBuilder();
    box.addSquare(lonOfX(750), latOfY(750), 1100);
    let nulls = 0;
    let valued = 0;
    const cases = [
      [lattice, 97, 600],
      [lattice, 60, 900],
      [lattice, 41, 300],
      [lattice, 150, 1200],
      [star, 150, 700],
      [star, 149, 500],
    ] as const;
    for (const [g, R, limitSec] of cases) {
      const grid = box.grid(R);
      const search = new StreetSearch(g, 20_000);
      search.reset();
      if (g === star) search.seed(0, 0);
      else {
        search.seed(Math.floor(random() * g.vertexCount), 0);
        search.seed(Math.floor(random() * g.vertexCount), Math.floor(random() * 3000));
      }
      search.run(Layer.Walk, speed, limitSec * 10, false);
      const rasterizer = new Rasterizer(g, 150);
      const seconds = (onlyNeeded: boolean) => {
        if (onlyNeeded) rasterizer.boundCells(grid, speed, limitSec * 10, search);
        const values = new Float64Array(R * R).fill(Infinity);
        fillCells(g, grid, rasterizer.nearestSegments(grid, Layer.Walk, onlyNeeded), Layer.Walk, speed, false, search, values);
        const out = new Int32Array(R * R);
        toSeconds(values, limitSec, out);
        return out;
      };
      const all = seconds(false);
      assert.deepEqual(seconds(true), all, `resolution ${R}, ${limitSec} s`);
      for (const v of all) v < 0 ? nulls++ : valued++;
    }
    assert.ok(nulls > 1000 && valued > 1000, `${valued} cells valued, ${nulls} null`);
  });

  test('the batched cell search answers what the single-point search answers, on every cell', () => {
    const random = lcg(7);
    const points: [number, number][] = [];
    for (let i = 0; i < 300; i++) points.push([random() * 2000, random() * 2000]);
    const ways = [];
    for (let i = 0; i + 2 < points.length; i += 3) ways.push({ nodes: [i, i + 1, i + 2], tags: { highway: i % 2 ? 'residential' : 'motorway' } });
    const { graph: g } = graphOf(points, ways);
    // a box wider than the network: cells outside the segment grid too
    const box = new BoxBuilder();
    box.addSquare(lonOfX(1000), latOfY(1000), 1800);
    for (const R of [60, 7]) {
      const big = box.grid(R);
      for (const layer of [Layer.Walk, Layer.Car]) {
        const nearest = new Rasterizer(g, 60).nearestSegments(big, layer);
        const p = g.projection;
        const x0 = projectX(p, big.minLon);
        const y0 = projectY(p, big.minLat);
        const dx = (projectX(p, big.maxLon) - x0) / R;
        const dy = (projectY(p, big.maxLat) - y0) / R;
        const radius = matchRadiusM(big);
        let found = 0;
        for (let i = 0; i < R; i++) {
          for (let j = 0; j < R; j++) {
            const cx = x0 + (i + 0.5) * dx;
            const cy = y0 + (j + 0.5) * dy;
            // brute force over every segment, ties to the lowest number
            let best = -1;
            let best2 = radius * radius;
            for (let s = 0; s < g.segmentCount; s++) {
              if ((g.edgeAccess[g.segmentEdge[s]!]! & layerBits(layer)) === 0) continue;
              const d2 = segmentDistance2(g, s, cx, cy);
              if (d2 < best2 || (d2 === best2 && best < 0)) {
                best2 = d2;
                best = s;
              }
            }
            assert.equal(nearest[i * R + j], best, `cell ${i},${j} of ${R}`);
            assert.equal(nearestSegment(g, cx, cy, radius, layerBits(layer)), best, `point search, cell ${i},${j} of ${R}`);
            if (best >= 0) found++;
          }
        }
        assert.ok(found > 0 && found < R * R, 'some cells near a street, some beyond the radius');
      }
    }
  });
});
