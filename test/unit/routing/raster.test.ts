/**
 * The heat-map grid's cells (routing/raster.ts, through model/link-lattice.ts): each linked to its nearest
 * street of the layer within LINK_RADIUS_M and valued there, plus the off-street offset on foot;
 * and the heat matrix JSON.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { heatMatrixJson } from '../../../src/maps/heat-map-json.js';
import { Layer, layerBits } from '../../../src/model/street-layers.js';
import { Rasterizer, toSeconds } from '../../../src/routing/raster.js';
import { BoxBuilder, cellGeometry, type Grid } from '../../../src/routing/grid.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { LINK_RADIUS_M, nearestSegment, segmentDistance2, type StreetGraph } from '../../../src/model/street-graph.js';
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

type Ways = { nodes: number[]; tags: Record<string, string> }[];

/**
 * The seconds of each cell of `grid` (truncated, -1 null) from a street search seeded at the vertex
 * of `seedNode` (the fixture's point number) on `layer` at `speed` m/s, offsets walked at `walkSpeed`.
 */
function cellsOf(g: StreetGraph, grid: Grid, ask: { layer?: Layer; speed?: number; walkSpeed?: number; seedNode?: number; reverse?: boolean; maxSec?: number } = {}): number[][] {
  const { layer = Layer.Walk, speed = 1, walkSpeed = 1, seedNode = 0, reverse = false, maxSec = 3600 } = ask;
  const R = grid.resolution;
  const search = new StreetSearch(g, 100_000);
  search.reset();
  search.seed([...g.vertexNodeId].indexOf(seedNode + 1), 0);
  search.run(layer, speed, maxSec * 10, reverse);
  const values = new Float64Array(R * R).fill(Infinity);
  const rasterizer = new Rasterizer(g);
  rasterizer.valueCells(grid, layer, speed, walkSpeed, reverse, maxSec * 10, search, values);
  const out = new Int32Array(R * R);
  toSeconds(values, maxSec, out);
  return Array.from({ length: R }, (_, i) => Array.from(out.subarray(i * R, (i + 1) * R)));
}

/** A grid whose cell centres are at x = x0 + i·size, y = y0 + j·size (metres), R × R. */
function gridAt(x0: number, y0: number, size: number, R: number): Grid {
  return { minLon: lonOfX(x0 - size / 2), maxLon: lonOfX(x0 - size / 2 + R * size), minLat: latOfY(y0 - size / 2), maxLat: latOfY(y0 - size / 2 + R * size), resolution: R };
}

describe('cells linked to the nearest street', () => {
  // one straight street from (0, 0) to (100, 0); cell centres at x = 0, 100 and y = -50, 50
  const { graph: street } = graphOf(
    [
      [0, 0],
      [100, 0],
    ],
    [{ nodes: [0, 1], tags: { highway: 'residential' } }],
  );
  const grid = gridAt(0, -50, 100, 2);

  test('a cell takes its link point’s cost plus the offset, not the straight line from the start', () => {
    // (100, ±50) links to (100, 0), reached at 100 s, 50 m off the street: 150 (the straight line from (0, 0) would give 111)
    assert.deepEqual(cellsOf(street, grid), [
      [50, 50],
      [150, 150],
    ]);
  });

  test('null at the maximum duration and beyond', () => {
    assert.deepEqual(cellsOf(street, grid, { maxSec: 150 }), [
      [50, 50],
      [-1, -1],
    ]);
  });

  test('on a bike layer, the street at the bike’s speed and the offset on foot', () => {
    // (100, 50): 100 m at 4 m/s, then 50 m at 1 m/s
    assert.deepEqual(cellsOf(street, grid, { layer: Layer.Bike, speed: 4 }), [
      [50, 50],
      [75, 75],
    ]);
  });

  test('no street within the link radius: null; just within it: linked', () => {
    const inside = LINK_RADIUS_M - 10;
    assert.deepEqual(cellsOf(street, gridAt(0, inside, 1000, 1)), [[inside]]);
    assert.deepEqual(cellsOf(street, gridAt(0, LINK_RADIUS_M + 10, 1000, 1)), [[-1]]);
  });

  test('a cell beside a river whose nearest street is on the far bank takes the far bank’s value, round by the bridge', () => {
    // streets along both banks, y = 0 and y = 200, joined by a bridge at x = 1000 only
    const { graph: river } = graphOf(
      [
        [0, 0],
        [1000, 0],
        [1000, 200],
        [0, 200],
      ],
      [{ nodes: [0, 1, 2, 3], tags: { highway: 'residential' } }],
    );
    // cell centres at x = 0, 109 and y = 40.5, 149.5: (0, 40.5) is 40.5 m from the near bank, (0, 149.5) 50.5 m from the far one
    // (half metres: away from a whole second, where float noise could truncate either way)
    const values = cellsOf(river, gridAt(0, 40.5, 109, 2));
    // cell (0, 0) is at (0, 40.5): the near bank, 40 s; cell (0, 1) at (0, 149.5): the far bank reached
    // at 1000 + 200 + 1000 s, plus 50.5 m across the water's edge: 2250 (the straight line: 149)
    assert.equal(values[0]![0], 40);
    assert.equal(values[0]![1], 2250);
  });

  test('a cell inside a block takes the street it faces, round the block, not the straight line across it', () => {
    // a square block from (0, 0) to (200, 200), the search from the middle of its south side
    const { graph: block } = graphOf(
      [
        [100, 0],
        [200, 0],
        [200, 200],
        [0, 200],
        [0, 0],
      ],
      [{ nodes: [0, 1, 2, 3, 4, 0], tags: { highway: 'residential' } }],
    );
    // the cell centred on (100, 180): 20 m from the north side, reached at 100 + 200 + 100 s
    assert.deepEqual(cellsOf(block, gridAt(100, 180, 10, 1)), [[420]]);
  });

  test('one-way edges and contracted points: a cell links to its street whatever the direction, and is null where the mode cannot go', () => {
    // a street from (0, 0) to (200, 0) through a contracted node at (100, 0), open to cars only from
    // x = 200 to x = 0; the middle row's cell centres lie on the street at x = 25, 125, and 25 m past its end at x = 225
    const { graph: oneWay } = graphOf(
      [
        [0, 0],
        [100, 0],
        [200, 0],
      ],
      [{ nodes: [0, 1, 2], tags: { highway: 'residential', oneway: '-1' } }],
    );
    const g3: Grid = { minLon: lonOfX(-25), maxLon: lonOfX(275), minLat: latOfY(-150), maxLat: latOfY(150), resolution: 3 };
    const middleRow = (layer: Layer, seedNode: number, reverse: boolean) => cellsOf(oneWay, g3, { layer, seedNode, reverse }).map((column) => column[1]!);
    assert.deepEqual(middleRow(Layer.Walk, 0, false), [25, 125, 225]);
    // no car from x = 0 along the street: nothing but x = 0 itself is reached
    assert.deepEqual(middleRow(Layer.Car, 0, false), [-1, -1, -1]);
    assert.deepEqual(middleRow(Layer.Car, 2, false), [175, 75, 25]);
    assert.deepEqual(middleRow(Layer.Car, 0, true), [25, 125, 225], 'reaching x = 0 by car works from anywhere on the street');
    // to reach x = 200 by car: only from x = 200 itself (the cell past the end walks its 25 m)
    assert.deepEqual(middleRow(Layer.Car, 2, true), [-1, -1, 25]);
  });

  test('every cell as the rule says, by brute force over every segment: the nearest, the cost at its link point plus the offset', () => {
    const random = lcg(11);
    // a jittered lattice of streets 100 m apart, some of them missing, some motorways (not walked)
    const points: [number, number][] = [];
    const N = 16;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) points.push([i * 100 + random() * 40, j * 100 + random() * 40]);
    const ways: Ways = [];
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) {
        const highway = random() < 0.1 ? 'motorway' : 'residential';
        if (i + 1 < N && random() < 0.8) ways.push({ nodes: [i * N + j, (i + 1) * N + j], tags: { highway } });
        if (j + 1 < N && random() < 0.8) ways.push({ nodes: [i * N + j, i * N + j + 1], tags: { highway } });
      }
    }
    const lattice = graphOf(points, ways).graph;
    // straight streets every 15° from one point, a node every 20 m: wide wedges between them
    const starPoints: [number, number][] = [[750, 750]];
    const starWays: Ways = [];
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
    box.addSquare(lonOfX(750), latOfY(750), 1500);
    let cells = 0;
    let exact = 0;
    let valued = 0;
    const cases = [
      [lattice, Layer.Walk, 71, 1600],
      [lattice, Layer.Car, 60, 1900],
      [lattice, Layer.Walk, 41, 900],
      [lattice, Layer.Walk, 150, 2200],
      [star, Layer.Walk, 90, 1700],
      [star, Layer.Walk, 13, 1500],
    ] as const;
    for (const [g, layer, R, limitSec] of cases) {
      const grid = box.grid(R);
      const search = new StreetSearch(g, 40_000);
      search.reset();
      if (g === star) search.seed(0, 0);
      else {
        search.seed(Math.floor(random() * g.vertexCount), 0);
        search.seed(Math.floor(random() * g.vertexCount), Math.floor(random() * 3000));
      }
      search.run(layer, speed, limitSec * 10, false);
      const values = new Float64Array(R * R).fill(Infinity);
      const rasterizer = new Rasterizer(g);
      rasterizer.valueCells(grid, layer, speed, speed, false, limitSec * 10, search, values);
      const { x0, y0, dx, dy } = cellGeometry(g, grid);
      for (let i = 0; i < R; i++) {
        for (let j = 0; j < R; j++) {
          const cx = x0 + (i + 0.5) * dx;
          const cy = y0 + (j + 0.5) * dy;
          // every segment of the layer: its distance and the value through it
          const through: { d: number; v: number }[] = [];
          for (let s = 0; s < g.segmentCount; s++) {
            if ((g.edgeAccess[g.segmentEdge[s]!]! & layerBits(layer)) === 0) continue;
            const d = Math.sqrt(segmentDistance2(g, s, cx, cy));
            const a = g.segmentPoint[s]!;
            const ax = g.geomX[a]!;
            const ay = g.geomY[a]!;
            const sx = g.geomX[a + 1]! - ax;
            const sy = g.geomY[a + 1]! - ay;
            const t = Math.min(1, Math.max(0, ((cx - ax) * sx + (cy - ay) * sy) / (sx * sx + sy * sy || 1)));
            const along = g.geomAlongM[a]! + t * (g.geomAlongM[a + 1]! - g.geomAlongM[a]!);
            through.push({ d, v: search.costAlong(g.segmentEdge[s]!, along, layer, 10 / speed, false) + (d * 10) / speed });
          }
          const nearest = Math.min(...through.map((x) => x.d));
          const seconds = (v: number) => (v < limitSec * 10 ? Math.floor(v / 10) : -1);
          // the rule: the nearest segment (any of those at that distance, within float noise)
          const expected = nearest > LINK_RADIUS_M + 1e-6 ? [-1] : through.filter((x) => x.d <= nearest + 1e-6).map((x) => seconds(x.v));
          // near: a segment at most √2 lattice steps farther than the nearest (where the nearest one's
          // region holds none of the cell's four lattice points), or null that near the radius
          const slack = Math.SQRT2 * g.linkLattices[layer]!.stepM + 1e-6;
          const near = through.filter((x) => x.d <= nearest + slack && x.d <= LINK_RADIUS_M).map((x) => seconds(x.v));
          if (nearest + slack > LINK_RADIUS_M) near.push(-1);
          const got = seconds(values[i * R + j]!);
          const matches = (list: number[]) => list.some((e) => Math.abs(e - got) <= 1);
          cells++;
          if (matches(expected)) exact++;
          else assert.ok(matches(near), `resolution ${R}, cell ${i},${j} (${nearest.toFixed(1)} m from a street): ${got} s, expected ${expected.join(' or ')}, or through a street at most ${slack.toFixed(1)} m farther`);
          if (got >= 0) valued++;
        }
      }
    }
    assert.ok(exact / cells >= 0.995, `${exact} of ${cells} cells exactly as the nearest segment gives (at least 99.5 %)`);
    assert.ok(valued > 5000 && cells - valued > 5000, `${valued} cells valued of ${cells}`);
  });

  test('streets less than a lattice step apart (a dual carriageway, a stub beside a road): the squares\' extra candidates link each cell to its nearest', () => {
    const random = lcg(23);
    // 30 short parallel streets 4 to 12 m apart in a 150 m band, each 10 to 60 m long, none joined
    const points: [number, number][] = [];
    const ways: Ways = [];
    let y = 0;
    for (let k = 0; k < 30; k++) {
      y += 4 + random() * 8;
      const x = random() * 250;
      points.push([x, y], [x + 10 + random() * 50, y + random() * 2]);
      ways.push({ nodes: [points.length - 2, points.length - 1], tags: { highway: 'residential' } });
    }
    const { graph: g } = graphOf(points, ways);
    const R = 120;
    const box = new BoxBuilder();
    box.addSquare(lonOfX(150), latOfY(y / 2), 320);
    const grid = box.grid(R);
    // every street reached: every cell within the radius gets its link
    const reach = new StreetSearch(g, 10_000);
    reach.reset();
    for (let v = 0; v < g.vertexCount; v++) reach.seed(v, 0);
    reach.run(Layer.Walk, 1, 10, false);
    const linked = (lattice: StreetGraph['linkLattices'][number]) => {
      const withLattice: StreetGraph = { ...g, linkLattices: [lattice, ...g.linkLattices.slice(1)] };
      const table = { edge: new Int32Array(R * R), alongM: new Float64Array(R * R), offsetM: new Float64Array(R * R) };
      new Rasterizer(withLattice).linkCells(grid, Layer.Walk, table, reach);
      return table;
    };
    const { x0, y0, dx, dy } = cellGeometry(g, grid);
    const nearestDistance = (c: number) => {
      const cx = x0 + (Math.floor(c / R) + 0.5) * dx;
      const cy = y0 + ((c % R) + 0.5) * dy;
      let best2 = Infinity;
      for (let s = 0; s < g.segmentCount; s++) best2 = Math.min(best2, segmentDistance2(g, s, cx, cy));
      return Math.sqrt(best2);
    };
    // the cells among the streets (within 10 m of one): where two of them compete
    const among = Array.from({ length: R * R }, (_, c) => c).filter((c) => nearestDistance(c) <= 10);
    const exactShare = (table: { edge: Int32Array; offsetM: Float64Array }) => among.filter((c) => table.edge[c]! >= 0 && table.offsetM[c]! <= nearestDistance(c) + 1e-6).length / among.length;
    const lattice = g.linkLattices[Layer.Walk]!;
    assert.ok(lattice.extraSquare.length > 0, 'squares with extra candidates');
    const none = { ...lattice, extraStart: new Int32Array(lattice.extraStart.length), extraSquare: new Uint8Array(0), extraSegments: new Int32Array(0) };
    const withExtras = exactShare(linked(lattice));
    const without = exactShare(linked(none));
    assert.ok(withExtras >= 0.995, `${(withExtras * 100).toFixed(2)} % of the cells linked to their nearest street with the extra candidates`);
    assert.ok(among.length > 500, `${among.length} cells among the streets`);
    assert.ok(without < 0.97, `${(without * 100).toFixed(2)} % without them: the case is one the corners alone miss`);
  });

  test('the nearest-segment search (snapping) answers what a scan of every segment answers', () => {
    const random = lcg(7);
    const points: [number, number][] = [];
    for (let i = 0; i < 300; i++) points.push([random() * 2000, random() * 2000]);
    const ways: Ways = [];
    for (let i = 0; i + 2 < points.length; i += 3) ways.push({ nodes: [i, i + 1, i + 2], tags: { highway: i % 2 ? 'residential' : 'motorway' } });
    const { graph: g } = graphOf(points, ways);
    // a box wider than the network: points outside the segment grid too
    const box = new BoxBuilder();
    box.addSquare(lonOfX(1000), latOfY(1000), 1800);
    for (const R of [60, 7]) {
      const big = box.grid(R);
      for (const layer of [Layer.Walk, Layer.Car]) {
        const { x0, y0, dx, dy } = cellGeometry(g, big);
        let found = 0;
        for (let i = 0; i < R; i++) {
          for (let j = 0; j < R; j++) {
            const cx = x0 + (i + 0.5) * dx;
            const cy = y0 + (j + 0.5) * dy;
            // brute force over every segment, ties to the lowest number
            let best = -1;
            let best2 = LINK_RADIUS_M * LINK_RADIUS_M;
            for (let s = 0; s < g.segmentCount; s++) {
              if ((g.edgeAccess[g.segmentEdge[s]!]! & layerBits(layer)) === 0) continue;
              const d2 = segmentDistance2(g, s, cx, cy);
              if (d2 < best2 || (d2 === best2 && best < 0)) {
                best2 = d2;
                best = s;
              }
            }
            assert.equal(nearestSegment(g, cx, cy, LINK_RADIUS_M, layerBits(layer)), best, `point search, cell ${i},${j} of ${R}`);
            if (best >= 0) found++;
          }
        }
        assert.ok(found > 0 && found < R * R, 'some cells near a street, some beyond the radius');
      }
    }
  });
});
