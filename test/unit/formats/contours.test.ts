/**
 * Isochrone bands: exact rings on hand-made grids, and on random grids valid polygons (checked by
 * JSTS), RFC 7946 orientation, and bands that agree with the values of the cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoband, type MultiPolygonCoords, type Ring } from '../../../src/formats/contours.js';
import { insideRing, signedArea } from '../../../src/formats/rings.js';
import type { Grid } from '../../../src/routing/grid.js';
import { invalidity } from '../../helpers/geometry-validity.js';
import { mulberry32 } from '../../helpers/random.js';

/** A grid of unit cells from (0, 0): cell (i, j) has its centre at (i + 0.5, j + 0.5). */
const unitGrid = (R: number): Grid => ({ minLon: 0, minLat: 0, maxLon: R, maxLat: R, resolution: R });

/** `rows[r][i]`, the first row north, as seconds[i * R + j]; null is unreachable. */
function gridOf(rows: (number | null)[][]): { grid: Grid; seconds: Int32Array } {
  const R = rows.length;
  const seconds = new Int32Array(R * R);
  rows.forEach((row, r) => row.forEach((v, i) => (seconds[i * R + (R - 1 - r)] = v ?? -1)));
  return { grid: unitGrid(R), seconds };
}

/** A ring from its lowest-then-leftmost point, for comparisons. */
function normalised(ring: Ring): string {
  const pts = ring.slice(0, -1);
  let k = 0;
  pts.forEach(([x, y], n) => {
    const [bx, by] = pts[k]!;
    if (y < by || (y === by && x < bx)) k = n;
  });
  return JSON.stringify([...pts.slice(k), ...pts.slice(0, k)]);
}

const band = (rows: (number | null)[][], lo: number, hi: number, simplifyM = 0) => {
  const { grid, seconds } = gridOf(rows);
  return isoband(grid, seconds, lo, hi, { simplifyM });
};
const _ = null;

test('a single reached cell: a diamond half-way to the unreachable centres around it', () => {
  const shape = band(
    [
      [_, _, _],
      [_, 100, _],
      [_, _, _],
    ],
    0,
    600,
  );
  assert.equal(shape.length, 1);
  assert.equal(shape[0]!.length, 1, 'no hole');
  assert.equal(normalised(shape[0]![0]!), JSON.stringify([[1.5, 1], [2, 1.5], [1.5, 2], [1, 1.5]]));
  assert.ok(signedArea(shape[0]![0]!) > 0, 'counter-clockwise');
});

test('a ring with a hole: an unreachable centre, or one reached only later, is a hole', () => {
  for (const centre of [null, 900]) {
    const shape = band(
      [
        [100, 100, 100],
        [100, centre, 100],
        [100, 100, 100],
      ],
      0,
      600,
    );
    assert.equal(shape.length, 1, `centre ${centre}`);
    const [outer, hole] = shape[0]!;
    // the border of the box, cut at its corners (the padding is unreachable)
    assert.equal(normalised(outer!), JSON.stringify([[0.5, 0], [1.5, 0], [2.5, 0], [3, 0.5], [3, 1.5], [3, 2.5], [2.5, 3], [1.5, 3], [0.5, 3], [0, 2.5], [0, 1.5], [0, 0.5]]));
    assert.ok(hole, 'a hole');
    assert.ok(signedArea(hole!) < 0, 'clockwise');
    // half-way to an unreachable centre; to a later one, where 100 → 900 crosses 600 (5/8 of the way)
    const d = centre === null ? 0.5 : 5 / 8;
    assert.equal(normalised(hole!), JSON.stringify([[1.5, 0.5 + d], [0.5 + d, 1.5], [1.5, 2.5 - d], [2.5 - d, 1.5]]));
  }
});

test('a band [lo, hi) is a ring: the area reached before lo is its hole', () => {
  const shape = band(
    [
      [500, 500, 500],
      [500, 100, 500],
      [500, 500, 500],
    ],
    300,
    600,
  );
  assert.equal(shape.length, 1);
  assert.equal(shape[0]!.length, 2);
  // 100 → 500 crosses 300 half-way
  assert.equal(normalised(shape[0]![1]!), JSON.stringify([[1.5, 1], [1, 1.5], [1.5, 2], [2, 1.5]]));
});

test('a saddle: the mean of the four corners joins the two cells or keeps them apart', () => {
  const saddle = (other: number) => [
    [100, other],
    [other, 100],
  ];
  const joined = band(saddle(300), 0, 600); // mean 200: in the band
  assert.equal(joined.length, 1, 'one polygon');
  assert.equal(joined[0]!.length, 1);
  const apart = band(saddle(2000), 0, 600); // mean 1050: past the band
  assert.equal(apart.length, 2, 'two polygons');
  for (const p of apart) assert.equal(normalised(p[0]!).length > 0, true);
  // apart: each of the two cells in its own polygon (the north-west and the south-east one)
  const holds = (p: Ring[], x: number, y: number) => insideRing(x, y, p[0]!);
  assert.ok(apart.some((p) => holds(p, 0.5, 1.5) && !holds(p, 1.5, 0.5)));
  assert.ok(apart.some((p) => holds(p, 1.5, 0.5) && !holds(p, 0.5, 1.5)));
  for (const p of apart) assert.equal(invalidity({ type: 'Polygon', coordinates: p }), undefined);
});

test('two separate islands: two polygons', () => {
  const shape = band(
    [
      [100, _, _, _],
      [_, _, _, _],
      [_, _, _, _],
      [_, _, _, 200],
    ],
    0,
    600,
  );
  assert.equal(shape.length, 2);
  const diamonds = shape.map((p) => normalised(p[0]!)).sort();
  assert.deepEqual(diamonds, [JSON.stringify([[0.5, 3], [1, 3.5], [0.5, 4], [0, 3.5]]), JSON.stringify([[3.5, 0], [4, 0.5], [3.5, 1], [3, 0.5]])].sort());
});

test('bands touching the grid edge close along the box edge', () => {
  const shape = band([[100, 100], [100, 100]], 0, 600);
  assert.equal(shape.length, 1);
  assert.equal(normalised(shape[0]![0]!), JSON.stringify([[0.5, 0], [1.5, 0], [2, 0.5], [2, 1.5], [1.5, 2], [0.5, 2], [0, 1.5], [0, 0.5]]));
});

// ---------------------------------------------------------------------------------------------
// random grids: validity, orientation, agreement with the cells

/** A travel-time field from a centre, with unreachable blobs (rivers, parks) and noise. */
function randomField(R: number, seed: number): Int32Array {
  const random = mulberry32(seed);
  const seconds = new Int32Array(R * R);
  const blobs = Array.from({ length: 6 }, () => [random() * R, random() * R, 1 + random() * R * 0.08] as const);
  const cx = R * (0.3 + random() * 0.4);
  const cy = R * (0.3 + random() * 0.4);
  for (let i = 0; i < R; i++) {
    for (let j = 0; j < R; j++) {
      const blocked = blobs.some(([x, y, r]) => (i - x) ** 2 + (j - y) ** 2 < r * r);
      const d = Math.hypot(i - cx, j - cy) * 30 * (1 + 0.3 * Math.sin(i / 5) * Math.cos(j / 7)) + random() * 120;
      seconds[i * R + j] = blocked || d > 3600 ? -1 : Math.floor(d);
    }
  }
  return seconds;
}

const BOUNDS = [0, 600, 1200, 1800, 2700, 3600];

for (const simplifyM of [0, 40]) {
  test(`random grids (simplify ${simplifyM} m): every band a valid MultiPolygon, exteriors counter-clockwise, holes clockwise, rings closed`, () => {
    for (let seed = 1; seed <= 12; seed++) {
      const R = 40 + seed * 7;
      // about 100 m cells at Mannheim's latitude
      const grid: Grid = { minLon: 8.4, minLat: 49.45, maxLon: 8.4 + R * 0.0014, maxLat: 49.45 + R * 0.0009, resolution: R };
      const seconds = randomField(R, seed);
      for (let b = 0; b + 1 < BOUNDS.length; b++) {
        const shape = isoband(grid, seconds, BOUNDS[b]!, BOUNDS[b + 1]!, { simplifyM });
        checkShape(shape, `seed ${seed}, band ${b}`);
        assert.equal(invalidity({ type: 'MultiPolygon', coordinates: shape }), undefined, `seed ${seed}, band ${b}`);
      }
    }
  });
}

function checkShape(shape: MultiPolygonCoords, where: string): void {
  for (const polygon of shape) {
    polygon.forEach((ring, k) => {
      assert.ok(ring.length >= 4, where);
      assert.deepEqual(ring[0], ring[ring.length - 1], `${where}: closed`);
      assert.ok(k === 0 ? signedArea(ring) > 0 : signedArea(ring) < 0, `${where}: ring ${k} orientation`);
      for (const [x, y] of ring) assert.ok(Math.round(x * 1e6) / 1e6 === x && Math.round(y * 1e6) / 1e6 === y, `${where}: 6 decimals`);
    });
  }
}

test('the band containing a random point agrees with its cell (or, where a contour splits the cell, with a neighbour) at least 99 % of the time', () => {
  let agree = 0;
  let strict = 0;
  let total = 0;
  for (let seed = 1; seed <= 5; seed++) {
    const R = 120;
    const grid: Grid = { minLon: 8.4, minLat: 49.45, maxLon: 8.4 + R * 0.0014, maxLat: 49.45 + R * 0.0009, resolution: R };
    const seconds = randomField(R, seed + 100);
    const shapes = BOUNDS.slice(1).map((hi, b) => isoband(grid, seconds, BOUNDS[b]!, hi, { simplifyM: 10 }));
    const bandOf = (i: number, j: number) => {
      const v = i < 0 || j < 0 || i >= R || j >= R ? -1 : seconds[i * R + j]!;
      return v < 0 ? -1 : BOUNDS.findIndex((hi, b) => b > 0 && v < hi) - 1;
    };
    const random = mulberry32(seed);
    for (let n = 0; n < 2000; n++) {
      const x = grid.minLon + random() * (grid.maxLon - grid.minLon);
      const y = grid.minLat + random() * (grid.maxLat - grid.minLat);
      const i = Math.floor(((x - grid.minLon) / (grid.maxLon - grid.minLon)) * R);
      const j = Math.floor(((y - grid.minLat) / (grid.maxLat - grid.minLat)) * R);
      const found = shapes.findIndex((shape) => shape.some((polygon) => insideRing(x, y, polygon[0]!) && !polygon.slice(1).some((hole) => insideRing(x, y, hole))));
      total++;
      if (found === bandOf(i, j)) strict++;
      const around = [-1, 0, 1].flatMap((di) => [-1, 0, 1].map((dj) => bandOf(i + di, j + dj)));
      if (around.includes(found)) agree++;
    }
  }
  assert.ok(agree / total >= 0.99, `${((100 * agree) / total).toFixed(2)} % agree (${((100 * strict) / total).toFixed(2)} % with the cell itself)`);
  assert.ok(strict / total >= 0.9, `${((100 * strict) / total).toFixed(2)} % agree with the cell itself`);
});
