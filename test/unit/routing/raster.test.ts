import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { heatMatrixJson } from '../../../src/api/heat-maps/heat-map-json.js';
import { Layer, layerBits } from '../../../src/model/street-layers.js';
import { BoxBuilder, cellSizeM, matchRadiusM, nearbyRadiusM, Rasterizer, SHORTCUT_M, toSeconds, type Grid } from '../../../src/routing/raster.js';
import { UNREACHED } from '../../../src/routing/unreached.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { nearestSegment, projectX, projectY, segmentDistance2, type StreetGraph } from '../../../src/model/street-graph.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';

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
    const values = new Float64Array(4).fill(Infinity);
    new Rasterizer(graph, 4).valueCells(grid, layer, speed, reverse, 10_000, search, values);
    const out = new Int32Array(4);
    toSeconds(values, maxSec, out);
    return [
      [out[0]!, out[1]!],
      [out[2]!, out[3]!],
    ];
  }

  test('each cell near the street: the better end of the segment plus the straight distance, truncated', () => {
    // from (0,0) walking at 1 m/s: the far end is at 100 s; the cell at (100, ±50) is 111.8 m from (0,0), 50 m from (100,0)
    assert.deepEqual(raster(Layer.Walk, 1, 0, false, 3600), [
      [50, 50],
      [111, 111],
    ]);
  });

  test('a cell on a street reached late takes the straight walk from a street within 1 km (SHORTCUT_M), on foot only', () => {
    // two parallel streets along x from 0 to 2000 m, `gap` metres apart, joined only at x = 2000;
    // 100 m cells with centres on both streets; the search starts at (0, 0) at 1 m/s
    const valueAt = (gap: number, layer: Layer): number => {
      const { graph: g } = graphOf(
        [
          [0, 0],
          [2000, 0],
          [2000, gap],
          [0, gap],
        ],
        [{ nodes: [0, 1, 2, 3], tags: { highway: 'residential' } }],
      );
      const R = 21;
      const box: Grid = { minLon: lonOfX(-50), maxLon: lonOfX(2050), minLat: latOfY(-50), maxLat: latOfY(2050), resolution: R };
      const search = new StreetSearch(g, 100_000);
      search.reset();
      search.seed([...g.vertexNodeId].indexOf(1), 0);
      search.run(layer, 1, 100_000, false);
      const values = new Float64Array(R * R).fill(Infinity);
      new Rasterizer(g, R).valueCells(box, layer, 1, false, 100_000, search, values);
      const out = new Int32Array(R * R);
      toSeconds(values, 10_000, out);
      return out[0 * R + gap / 100]!; // the cell of (0, gap): on the second street
    };
    assert.ok(SHORTCUT_M === 1000);
    // 300 m apart: walked straight across (300 s), not round by the streets (2000 + 300 + 2000 s)
    assert.equal(valueAt(300, Layer.Walk), 300);
    // 1,500 m apart: beyond SHORTCUT_M, the streets' way round stands (5500 s, truncated from float metres)
    assert.ok([5499, 5500].includes(valueAt(1500, Layer.Walk)));
    // a bike keeps to its streets (4300 s, likewise)
    assert.ok([4299, 4300].includes(valueAt(300, Layer.Bike)));
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
      const values = new Float64Array(9).fill(Infinity);
      new Rasterizer(street, 3).valueCells(g3, layer, 1, reverse, 10_000, search, values);
      const out = new Int32Array(9);
      toSeconds(values, 3600, out);
      return [out[1]!, out[4]!, out[7]!];
    };
    assert.deepEqual(middleRow(Layer.Walk, 0, false), [25, 125, 225]);
    // no car from x=0 along the street: the cell at x=125 is valued straight from x=0 (the segment
    // from x=0 to x=100 lies 25 m away), the one at x=225 (only the unreached segment near it) by
    // the walk between cells, 100 m from the cell at x=125
    assert.deepEqual(middleRow(Layer.Car, 0, false), [25, 125, 225]);
    assert.deepEqual(middleRow(Layer.Car, 2, false), [175, 75, 25]);
    assert.deepEqual(middleRow(Layer.Car, 0, true), [25, 125, 225], 'reaching x=0 by car works from anywhere on the street');
    // to reach x=200 by car: only from x=200 itself; the cell at x=125 joins it straight, off the
    // street, and the cell at x=25 by the walk between cells
    assert.deepEqual(middleRow(Layer.Car, 2, true), [175, 75, 25]);
  });

  test('no street within the matching radius: null', () => {
    const far: Grid = { minLon: lonOfX(2000), maxLon: lonOfX(2100), minLat: latOfY(2000), maxLat: latOfY(2100), resolution: 2 };
    const search = new StreetSearch(graph, 10_000);
    search.reset();
    search.seed(vertexAt(0), 0);
    search.run(Layer.Walk, 1, 10_000, false);
    const values = new Float64Array(4).fill(Infinity);
    new Rasterizer(graph, 4).valueCells(far, Layer.Walk, 1, false, 10_000, search, values);
    assert.deepEqual([...values], [Infinity, Infinity, Infinity, Infinity]);
    assert.equal(matchRadiusM(far), 500);
  });

  test('every cell as the rule says, by brute force: the best street within the nearby radius, improved by the grid walk from the others within SHORTCUT_M; elsewhere the grid walk, up to the matching radius and its notches', () => {
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
    // straight streets every 15° from one point, a node every 20 m: wide wedges between them that
    // only the grid walk values
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
      [lattice, 71, 600],
      [lattice, 60, 900],
      [lattice, 41, 300],
      [lattice, 90, 1200],
      [star, 90, 700],
      [star, 89, 500],
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
      const values = new Float64Array(R * R).fill(Infinity);
      new Rasterizer(g, 150).valueCells(grid, Layer.Walk, speed, false, limitSec * 10, search, values);
      const actual = new Int32Array(R * R);
      toSeconds(values, limitSec, actual);
      const expected = bruteForce(g, grid, search, speed, limitSec * 10);
      for (let c = 0; c < R * R; c++) {
        const e = expected[c]!;
        // a value within float noise of a whole second may truncate either way
        const accepted = [e - 1e-6, e + 1e-6].map((v) => (v < limitSec * 10 ? Math.floor(v / 10) : -1));
        assert.ok(accepted.includes(actual[c]!), `resolution ${R}, ${limitSec} s, cell ${Math.floor(c / R)},${c % R}: ${actual[c]} s, expected ${accepted.join(' or ')}`);
        if (actual[c]! < 0) nulls++;
        else valued++;
      }
    }
    assert.ok(nulls > 1000 && valued > 1000, `${valued} cells valued, ${nulls} null`);
  });

  test('the nearest-segment search (snapping) answers what a scan of every segment answers', () => {
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
            assert.equal(nearestSegment(g, cx, cy, radius, layerBits(layer)), best, `point search, cell ${i},${j} of ${R}`);
            if (best >= 0) found++;
          }
        }
        assert.ok(found > 0 && found < R * R, 'some cells near a street, some beyond the radius');
      }
    }
  });
});

/**
 * The cell values of `Rasterizer.valueCells` (tenths of a second), written from the rule rather
 * than from the code: every segment against every cell, and the grid walk in closed form (k
 * diagonal steps and the rest straight, the shortest 8-neighbour walk between two cells).
 */
function bruteForce(g: StreetGraph, grid: Grid, search: StreetSearch, speed: number, limitDs: number): Float64Array {
  const R = grid.resolution;
  const p = g.projection;
  const x0 = projectX(p, grid.minLon);
  const y0 = projectY(p, grid.minLat);
  const dx = (projectX(p, grid.maxLon) - x0) / R;
  const dy = (projectY(p, grid.maxLat) - y0) / R;
  const perMetre = 10 / speed;
  // the value of each geometry point: a vertex's cost, or along the edge from its ends
  const pointValue = (s: number, end: 0 | 1): number => {
    const e = g.segmentEdge[s]!;
    const point = g.segmentPoint[s]! + end;
    if (point === g.geomOffset[e]) return search.costOf(g.edgeFrom[e]!) === UNREACHED ? Infinity : search.costOf(g.edgeFrom[e]!);
    if (point === g.geomOffset[e + 1]! - 1) return search.costOf(g.edgeTo[e]!) === UNREACHED ? Infinity : search.costOf(g.edgeTo[e]!);
    return search.costAlong(e, g.geomAlongM[point]!, Layer.Walk, perMetre, false);
  };
  const edgeReached = new Uint8Array(g.edgeCount);
  for (let s = 0; s < g.segmentCount; s++) if (pointValue(s, 0) < limitDs || pointValue(s, 1) < limitDs) edgeReached[g.segmentEdge[s]!] = 1;
  const own = new Float64Array(R * R).fill(Infinity);
  const settled = new Uint8Array(R * R);
  for (let i = 0; i < R; i++) {
    for (let j = 0; j < R; j++) {
      const cx = x0 + (i + 0.5) * dx;
      const cy = y0 + (j + 0.5) * dy;
      for (let s = 0; s < g.segmentCount; s++) {
        if (!edgeReached[g.segmentEdge[s]!] || segmentDistance2(g, s, cx, cy) > nearbyRadiusM(grid) ** 2) continue;
        const a = g.segmentPoint[s]!;
        const v = Math.min(pointValue(s, 0) + Math.hypot(cx - g.geomX[a]!, cy - g.geomY[a]!) * perMetre, pointValue(s, 1) + Math.hypot(cx - g.geomX[a + 1]!, cy - g.geomY[a + 1]!) * perMetre);
        if (v >= limitDs) continue;
        settled[i * R + j] = 1;
        own[i * R + j] = Math.min(own[i * R + j]!, v);
      }
    }
  }
  const { width, height } = cellSizeM(grid);
  const walk = (di: number, dj: number) => {
    const k = Math.min(di, dj);
    return k * Math.hypot(width, height) + (di - k) * width + (dj - k) * height;
  };
  // for each cell: the best settled cell's value plus the walk (and that walk's length), and the nearest settled cell
  const best = new Float64Array(R * R).fill(Infinity);
  const bestWalk = new Float64Array(R * R);
  const nearest = new Float64Array(R * R).fill(Infinity);
  for (let c = 0; c < R * R; c++) {
    for (let s = 0; s < R * R; s++) {
      if (!settled[s]) continue;
      const d = walk(Math.abs(Math.floor(s / R) - Math.floor(c / R)), Math.abs((s % R) - (c % R)));
      nearest[c] = Math.min(nearest[c]!, d);
      const v = own[s]! + d * perMetre;
      if (v < best[c]!) {
        best[c] = v;
        bestWalk[c] = d;
      }
    }
  }
  const radius = matchRadiusM(grid);
  const out = new Float64Array(R * R).fill(Infinity);
  for (let c = 0; c < R * R; c++) {
    const i = Math.floor(c / R);
    const j = c % R;
    if (settled[c]) {
      // a better value from another street only within SHORTCUT_M
      out[c] = bestWalk[c]! <= SHORTCUT_M ? best[c]! : own[c]!;
      continue;
    }
    // past the radius, kept only in a notch: 6 of the 8 neighbours within it
    let within = 0;
    for (let di = -1; di <= 1; di++)
      for (let dj = -1; dj <= 1; dj++)
        if ((di || dj) && i + di >= 0 && i + di < R && j + dj >= 0 && j + dj < R && nearest[(i + di) * R + j + dj]! <= radius) within++;
    out[c] = nearest[c]! <= radius || within >= 6 ? best[c]! : Infinity;
  }
  return out;
}
