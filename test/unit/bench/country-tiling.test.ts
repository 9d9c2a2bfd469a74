/**
 * The country generator's tiling (bench/country): how many tiles and which carry a timetable
 * (plan.ts), the grid they lie on and the move of an extract into its cell (grid.ts).
 *
 * The plan on two made-up kinds, worked by hand:
 *
 *   kind 0: 100 nodes, 300 stop times      kind 1: 50 nodes, 100 stop times
 *
 *   targets 250 nodes, 350 stop times: t0 (100), t1 (150: 100 + 50/2 ≤ 250), t2 (250: 150 + 100/2
 *   ≤ 250), not t3 (250 + 50/2 > 250); 700 stop times, share 350/700 = 0.5. Kind 0's phase is
 *   1 − ε: its first tile keeps its timetable (⌊1.5 − ε⌋ = 1 > ⌊1 − ε⌋ = 0), its second does not
 *   (⌊2 − ε⌋ = 1 = ⌊1.5 − ε⌋). Kind 1's phase is 0.5 − ε: its first tile does not (⌊1 − ε⌋ = 0).
 *
 *   targets 100 nodes, 900 stop times: t0 alone for the nodes (100 + 50/2 > 100); then stop times:
 *   t1 (300 + 50 ≤ 900: 400), t2 (400 + 150 ≤ 900: 700), t3 (700 + 50 ≤ 900: 800), not t4
 *   (800 + 150 > 900); share min(1, 900/800) = 1: all four keep their timetable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GERMANY_SIZE, RNV_SIZE, targetsOf, TILE_KINDS } from '../../../bench/country/catalogue.js';
import { CELL_M, cellOf, e7Text, GRID_ORIGIN, gridOf, tileTransform } from '../../../bench/country/grid.js';
import { planTiles, type TileSize } from '../../../bench/country/plan.js';
import { METRES_PER_DEGREE, planarMetres } from '../../../src/util/geodesy.js';

const TWO_KINDS: TileSize[] = [
  { nodes: 100, stopTimes: 300 },
  { nodes: 50, stopTimes: 100 },
];
const sizeOf = async (kind: number) => TWO_KINDS[kind]!;

test('the nodes decide the tiles, and half the stop times are kept: every other tile of a kind, staggered by kind', async () => {
  assert.deepEqual(await planTiles({ nodes: 250, stopTimes: 350 }, 2, sizeOf), [
    { index: 0, kind: 0, timetable: true },
    { index: 1, kind: 1, timetable: false },
    { index: 2, kind: 0, timetable: false },
  ]);
});

test('stop times short of their target add tiles, every one with its timetable', async () => {
  assert.deepEqual(await planTiles({ nodes: 100, stopTimes: 900 }, 2, sizeOf), [
    { index: 0, kind: 0, timetable: true },
    { index: 1, kind: 1, timetable: true },
    { index: 2, kind: 0, timetable: true },
    { index: 3, kind: 1, timetable: true },
  ]);
});

test("a kind's sources are asked for once, however many tiles it makes", async () => {
  const asked: number[] = [];
  await planTiles({ nodes: 10_000, stopTimes: 0 }, 2, async (kind) => {
    asked.push(kind);
    return TWO_KINDS[kind]!;
  });
  assert.deepEqual(asked, [0, 1]);
});

/**
 * Germany on the real sources' sizes (as Navette reads them: ../shared/data's README, and the
 * extracts' highway nodes): rnv 164,598 nodes, Milan 217,361, Porto Alegre 41,109, Terre Haute
 * 25,435; stop times rnv 424,266, Milan 248,555, EPTC + Trensurb 130,019 + 14,855, Terre Haute 1,866,
 * NYC subway 565,093, Bydgoszcz 583,164, Tampa 438,421, WMATA 352,668.
 */
test('Germany size: 745 tiles, 108 of them with a timetable, 14 or 13 of each kind', async () => {
  const nodes = { 'rnv-mannheim': 164_598, milan: 217_361, 'porto-alegre': 41_109, 'terre-haute': 25_435 };
  const stopTimes = [424_266, 248_555, 130_019 + 14_855, 1_866, 565_093, 583_164, 438_421, 352_668];
  const tiles = await planTiles(GERMANY_SIZE, TILE_KINDS.length, async (kind) => ({ nodes: nodes[TILE_KINDS[kind]!.streets], stopTimes: stopTimes[kind]! }));
  const kept = tiles.filter((t) => t.timetable);
  assert.equal(tiles.length, 745);
  assert.equal(kept.length, 108);
  assert.deepEqual(
    TILE_KINDS.map((_, kind) => kept.filter((t) => t.kind === kind).length),
    [14, 14, 14, 14, 13, 13, 13, 13],
  );
  assert.equal(
    tiles.reduce((n, t) => n + nodes[TILE_KINDS[t.kind]!.streets], 0),
    99_977_592,
  );
  assert.equal(
    kept.reduce((n, t) => n + stopTimes[t.kind]!, 0),
    36_685_352,
  );
  // the first tile is rnv with its timetable, and the kept ones spread out: 1 to 9 tiles apart
  assert.deepEqual(tiles[0], { index: 0, kind: 0, timetable: true });
  const gaps = kept.slice(1).map((t, i) => t.index - kept[i]!.index);
  assert.deepEqual([Math.min(...gaps), Math.max(...gaps)], [1, 9]);
});

test('--scale: multiples of rnv-mannheim, germany, and refusals', () => {
  assert.deepEqual(targetsOf('1'), RNV_SIZE);
  assert.deepEqual(targetsOf('2.5'), { nodes: 411_495, stopTimes: 1_060_665 });
  assert.deepEqual(targetsOf('germany'), { nodes: 100_000_000, stopTimes: 37_000_000 });
  for (const bad of ['0', '-1', 'two', '1e3', '']) assert.throws(() => targetsOf(bad), /--scale must be a positive number/);
});

test("the grid keeps Germany's shape: columns to rows as 630 km to 890 km", () => {
  assert.deepEqual(
    [1, 2, 4, 6, 21, 79, 745].map((n) => {
      const g = gridOf(n);
      return [g.cols, g.rows];
    }),
    [
      [1, 1],
      [2, 1],
      [2, 2],
      [3, 2],
      [4, 6],
      [8, 10],
      [23, 33],
    ],
  );
});

test("cells are CELL_M apart from Germany's south-west corner, row by row", () => {
  const grid = gridOf(6); // 3 × 2
  const t4 = cellOf(grid, 4);
  assert.deepEqual([t4.row, t4.col], [1, 1]);
  assert.equal(t4.lat, GRID_ORIGIN.lat + (1.5 * CELL_M) / METRES_PER_DEGREE);
  assert.equal(t4.lon, GRID_ORIGIN.lon + (1.5 * CELL_M) / (METRES_PER_DEGREE * Math.cos((t4.lat * Math.PI) / 180)));
  // a row's neighbours are CELL_M apart along it; a column's, CELL_M of latitude (and each the
  // same distance from the grid's west edge along its own row, so a little apart in longitude)
  const t3 = cellOf(grid, 3);
  const t1 = cellOf(grid, 1);
  assert.ok(Math.abs(planarMetres(t3.lon, t3.lat, t4.lon, t4.lat) - CELL_M) < 1e-6);
  assert.ok(Math.abs((t4.lat - t1.lat) * METRES_PER_DEGREE - CELL_M) < 1e-6);
  assert.ok(Math.abs(planarMetres(t1.lon, t1.lat, t4.lon, t4.lat) - CELL_M) < 0.001 * CELL_M);
});

test('a tile moves its extract without changing its distances, onto the 1e-7° grid', () => {
  const from = { lon: 8.49, lat: 49.48 };
  const to = cellOf(gridOf(1), 0);
  const move = tileTransform(from, to);
  // 10 km east and 5 km north of the extract's centre
  const east = from.lon + 10_000 / (METRES_PER_DEGREE * Math.cos((from.lat * Math.PI) / 180));
  const north = from.lat + 5_000 / METRES_PER_DEGREE;
  assert.equal(move.lonE7(from.lon), Math.round(to.lon * 1e7));
  assert.equal(move.latE7(from.lat), Math.round(to.lat * 1e7));
  const eastMoved = planarMetres(to.lon, to.lat, move.lonE7(east) / 1e7, to.lat);
  const northMoved = planarMetres(to.lon, to.lat, to.lon, move.latE7(north) / 1e7);
  assert.ok(Math.abs(eastMoved - 10_000) < 0.02, `${eastMoved} m`);
  assert.ok(Math.abs(northMoved - 5_000) < 0.02, `${northMoved} m`);
});

test('1e-7° values are written as decimals from the integer', () => {
  assert.deepEqual(
    [0, 5, -5, 474_352_300, -512_663_537, 1_800_000_000].map(e7Text),
    ['0.0000000', '0.0000005', '-0.0000005', '47.4352300', '-51.2663537', '180.0000000'],
  );
});
