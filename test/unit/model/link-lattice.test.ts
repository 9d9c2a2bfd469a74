/**
 * The link lattice (model/link-lattice.ts): each lattice point holds its nearest segment of the
 * layer, checked against a scan of every segment, whether computed in one piece or in strips;
 * columns read as points do, in tiles of every kind; only an extract past the tile cap gets a
 * coarser step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layer, layerBits } from '../../../src/model/street-layers.js';
import { LINK_RADIUS_M, segmentDistance2 } from '../../../src/model/street-graph.js';
import { largestPlace, latticeColumn, latticeSegment, latticeStep, LINK_LATTICE_STEP_M, MAX_LATTICE_ROWS, MAX_LATTICE_TILES, placesPast, tilePlaceBytes, NIBBLE_SEGMENTS, TILE_POINTS, TILE_SIDE, type LinkLattice } from '../../../src/model/link-lattice.js';
import { buildLinkLattice } from '../../../src/model/link-lattice-build.js';
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

/** Each lattice point's segment against a scan of every segment of the layer: the points that hold their nearest, and those linked. */
function checkAgainstScan(g: ReturnType<typeof network>, l: LinkLattice, layer: Layer): void {
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

test('each lattice point holds its nearest segment of the layer within the radius and a step, as a scan of every segment finds it', () => {
  const g = network();
  for (const layer of [Layer.Walk, Layer.Car]) {
    const l = g.linkLattices[layer]!;
    assert.equal(l.stepM, LINK_LATTICE_STEP_M[layer]);
    checkAgainstScan(g, l, layer);
  }
});

test('a lattice computed in strips narrower than their halos holds what one piece holds, point by point and square by square', () => {
  const g = network();
  for (const layer of [Layer.Walk, Layer.Car]) {
    const whole = g.linkLattices[layer]!;
    // strips of two tile columns, narrower than their halos
    const strips = buildLinkLattice(g, layer, LINK_RADIUS_M, { densePoints: 0, stripTiles: 2 });
    assert.ok(whole.cols > 3 * 2 * TILE_SIDE, `${whole.cols} columns: at least four strips`);
    for (const key of ['x0', 'y0', 'stepM', 'cols', 'rows', 'tileRows'] as const) assert.equal(strips[key], whole[key], key);
    let differ = 0;
    for (let i = 0; i < whole.cols; i++) for (let j = 0; j < whole.rows; j++) if (latticeSegment(strips, i, j) !== latticeSegment(whole, i, j)) differ++;
    // (the halo carries a street within reach to every point of a strip: on this network no point differs)
    assert.equal(differ, 0, `${differ} of ${whole.cols * whole.rows} points differ`);
    assert.deepEqual([...strips.extraSquare], [...whole.extraSquare], 'the same squares with extras');
    assert.deepEqual([...strips.extraSegments], [...whole.extraSegments], 'the same extra candidates');
    checkAgainstScan(g, strips, layer);
  }
});

test('a column reads as its points, across tiles of one segment, of a half byte a point and of a byte a point', () => {
  const g = network();
  const l = g.linkLattices[Layer.Walk]!;
  assert.ok(l.rows > 2 * TILE_SIDE, 'the column crosses tiles');
  const kinds = new Set<string>();
  for (let t = 0; t + 1 < l.tileStart.length; t++) {
    const n = l.tileStart[t + 1]! - l.tileStart[t]!;
    kinds.add(n === 1 ? 'one' : n <= NIBBLE_SEGMENTS ? 'half' : 'byte');
  }
  assert.deepEqual([...kinds].sort(), ['byte', 'half', 'one'], 'tiles of each kind');
  const column = new Int32Array(l.rows);
  for (let i = 0; i < l.cols; i++) {
    latticeColumn(l, i, 3, l.rows - 1, column);
    for (let j = 3; j < l.rows; j++) assert.equal(column[j], latticeSegment(l, i, j), `point ${i},${j}`);
  }
});

test('only an extract past MAX_LATTICE_TILES or MAX_LATTICE_ROWS gets a coarser step', () => {
  assert.equal(latticeStep(Layer.Walk, 50_000, 35_000), LINK_LATTICE_STEP_M[Layer.Walk]);
  assert.equal(latticeStep(Layer.Car, 50_000, 35_000), LINK_LATTICE_STEP_M[Layer.Car]);
  // a country of 1,200 × 1,700 km keeps a city's step
  assert.equal(latticeStep(Layer.Walk, 1_200_000, 1_700_000), LINK_LATTICE_STEP_M[Layer.Walk]);
  const side = 4_000_000;
  const step = latticeStep(Layer.Walk, side, side);
  assert.equal(step, Math.sqrt((side * side) / (MAX_LATTICE_TILES * TILE_POINTS)));
  assert.equal(Math.round((side / step) ** 2 / TILE_POINTS), MAX_LATTICE_TILES);
  // a thin extract taller than MAX_LATTICE_ROWS steps: its rows are capped, whatever its few tiles
  const tall = latticeStep(Layer.Walk, 2_000, 10_000_000);
  assert.equal(tall, 10_000_000 / MAX_LATTICE_ROWS);
});

test('a tile\'s places past its segments are found four bytes at a time as byte by byte, in tiles of half bytes and of bytes', () => {
  const random = lcg(97);
  const place = new Uint8Array(TILE_POINTS);
  const words = new Uint32Array(place.buffer);
  let past = 0;
  for (let trial = 0; trial < 4000; trial++) {
    const size = 2 + Math.floor(random() * 254);
    const bytes = tilePlaceBytes(size);
    // places within the size, then now and then one past it (or the largest a lane holds)
    for (let k = 0; k < bytes; k++) {
      place[k] = bytes === TILE_POINTS ? Math.floor(random() * size) : Math.floor(random() * size) | (Math.floor(random() * size) << 4);
    }
    if (trial % 2 === 0) place[Math.floor(random() * bytes)] = bytes === TILE_POINTS ? size + Math.floor(random() * (256 - size)) : 255;
    let largest = 0;
    for (let k = 0; k < bytes; k++) largest = Math.max(largest, bytes === TILE_POINTS ? place[k]! : Math.max(place[k]! & 15, place[k]! >> 4));
    assert.equal(placesPast(words, 0, bytes, size), largest >= size, `size ${size}, largest ${largest}`);
    assert.equal(largestPlace(place, 0, bytes, size), largest);
    if (largest >= size) past++;
  }
  assert.ok(past >= 1900 && past < 4000, `${past} tiles with a place past their segments`);
});
