/**
 * A network's projection (model/street-graph.ts): equirectangular about a city's centre, conformal
 * (Mercator) about a region's or a country's. Lengths, links and heat-map cells on a country's
 * graph are checked against the great circle and against a tangent plane at each point, neither of
 * them the projection under test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EQUIRECTANGULAR_MAX_ERROR,
  LINK_RADIUS_M,
  pointAlong,
  projectionAbout,
  projectX,
  projectY,
  scaleAt,
  snapPoint,
  unprojectLat,
  unprojectLon,
  linkLatticesOf,
  type StreetGraph,
} from '../../../src/model/street-graph.js';
import { Layer } from '../../../src/model/street-layers.js';
import { buildBareStreetGraph } from '../../../src/osm/build-street-graph.js';
import { crowFlyMetres, METRES_PER_DEGREE } from '../../../src/util/geodesy.js';
import { Rasterizer, type CellLinkTable } from '../../../src/routing/raster.js';
import { rowCentres, type Grid } from '../../../src/routing/grid.js';
import { StreetSearch } from '../../../src/routing/street-search.js';
import { extractOf } from '../../helpers/street-fixture.js';
import { lcg } from '../../helpers/random.js';
import { offsetBy, tangentNearest } from '../../helpers/ground.js';

const RAD = Math.PI / 180;

/**
 * A town of streets around (lon, lat): a 5 × 5 grid of 200 m blocks, its rows and columns as ways,
 * and a diagonal across it, as nodes in degrees. Returns the nodes and ways, numbered from `first`.
 */
function town(lon: number, lat: number, first: number) {
  const nodes: [number, number][] = [];
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) nodes.push(offsetBy(lon, lat, i * 200 + (j % 2) * 15, j * 200 + (i % 3) * 10));
  const at = (i: number, j: number) => first + i * 5 + j;
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  for (let i = 0; i < 5; i++) ways.push({ nodes: [0, 1, 2, 3, 4].map((j) => at(i, j)), tags: { highway: 'residential' } });
  for (let j = 0; j < 5; j++) ways.push({ nodes: [0, 1, 2, 3, 4].map((i) => at(i, j)), tags: { highway: 'residential' } });
  ways.push({ nodes: [0, 1, 2, 3, 4].map((k) => at(k, k)), tags: { highway: 'footway' } });
  return { nodes, ways };
}

/** The street graph of towns at the given places (degrees), its lattices computed. */
function graphOfTowns(places: [number, number][]): StreetGraph {
  const nodes: [number, number][] = [];
  const ways: { nodes: number[]; tags: Record<string, string> }[] = [];
  for (const [lon, lat] of places) {
    const t = town(lon, lat, nodes.length);
    nodes.push(...t.nodes);
    ways.push(...t.ways);
  }
  const extract = extractOf(
    nodes.map(() => [0, 0]),
    ways,
  );
  extract.lon = Float64Array.from(nodes, ([lon]) => lon);
  extract.lat = Float64Array.from(nodes, ([, lat]) => lat);
  const { graph } = buildBareStreetGraph(extract, { removeSmallIslands: false });
  return { ...graph, linkLattices: linkLatticesOf(graph) };
}

/** The distance from (lon, lat) to the graph's nearest street, metres, by brute force on the plane tangent at the point. */
function groundNearest(graph: StreetGraph, lon: number, lat: number): number {
  const p = graph.projection;
  let nearest = Infinity;
  for (let e = 0; e < graph.edgeCount; e++) {
    for (let q = graph.geomOffset[e]!; q < graph.geomOffset[e + 1]! - 1; q++) {
      const a: [number, number] = [unprojectLon(p, graph.geomX[q]!), unprojectLat(p, graph.geomY[q]!)];
      const b: [number, number] = [unprojectLon(p, graph.geomX[q + 1]!), unprojectLat(p, graph.geomY[q + 1]!)];
      nearest = Math.min(nearest, tangentNearest(lon, lat, a, b).offsetM);
    }
  }
  return nearest;
}

const SOUTH: [number, number] = [8.5, 47.3];
const NORTH: [number, number] = [8.5, 55.0];

describe('which projection', () => {
  test('a city is equirectangular, a country conformal', () => {
    // about rnv-mannheim's extent (its own is 0.3 % off at its edges)
    assert.equal(projectionAbout(8.2, 49.2, 8.9, 49.7).conformal, false);
    // a country from 47.3° to 55° N
    assert.equal(projectionAbout(6, 47.3, 15, 55).conformal, true);
    // the threshold, just inside and just past it, about 50° N
    const half = (error: number) => Math.atan(error / Math.tan(50 * RAD)) / RAD;
    assert.equal(projectionAbout(8, 50 - half(EQUIRECTANGULAR_MAX_ERROR * 0.9), 9, 50 + half(EQUIRECTANGULAR_MAX_ERROR * 0.9)).conformal, false);
    assert.equal(projectionAbout(8, 50 - half(EQUIRECTANGULAR_MAX_ERROR * 1.1), 9, 50 + half(EQUIRECTANGULAR_MAX_ERROR * 1.1)).conformal, true);
  });

  test("a city's projection is the one it always had: ordinates linear in latitude, scale exactly 1", () => {
    const p = projectionAbout(8.2, 49.2, 8.9, 49.7);
    assert.equal(projectY(p, 49.7), (49.7 - p.lat0) * METRES_PER_DEGREE);
    assert.equal(p.mPerDegLon, METRES_PER_DEGREE * Math.cos((p.lat0 * Math.PI) / 180));
    assert.equal(scaleAt(p, 12345), 1);
  });

  test("a country's projection: unprojection inverts it; its scale is the ground's in every direction, north and south", () => {
    const p = projectionAbout(6, 47.3, 15, 55);
    const random = lcg(7);
    let worst = 0;
    for (let k = 0; k < 200; k++) {
      const lon = 6 + 9 * random();
      const lat = 47.3 + 7.7 * random();
      const x = projectX(p, lon);
      const y = projectY(p, lat);
      assert.ok(Math.abs(unprojectLon(p, x) - lon) < 1e-9 && Math.abs(unprojectLat(p, y) - lat) < 1e-9);
      // 300 m in a random direction: the plane's length over the scale against the great circle
      const angle = 2 * Math.PI * random();
      const [lon2, lat2] = offsetBy(lon, lat, 300 * Math.cos(angle), 300 * Math.sin(angle));
      const plane = Math.hypot(projectX(p, lon2) - x, projectY(p, lat2) - y) / scaleAt(p, (y + projectY(p, lat2)) / 2);
      const ground = crowFlyMetres(lon, lat, lon2, lat2);
      worst = Math.max(worst, Math.abs(plane / ground - 1));
    }
    assert.ok(worst < 1e-4, `off by ${worst}`);
  });
});

describe("a country's graph", () => {
  const graph = graphOfTowns([SOUTH, NORTH]);
  const p = graph.projection;

  test('is projected conformally, and its edges are as long as the great circle says, in both towns', () => {
    assert.equal(p.conformal, true);
    let worst = 0;
    let equirectangularWorst = 0;
    for (let e = 0; e < graph.edgeCount; e++) {
      let ground = 0;
      let equirectangular = 0;
      for (let q = graph.geomOffset[e]!; q < graph.geomOffset[e + 1]! - 1; q++) {
        const [lonA, latA, lonB, latB] = [unprojectLon(p, graph.geomX[q]!), unprojectLat(p, graph.geomY[q]!), unprojectLon(p, graph.geomX[q + 1]!), unprojectLat(p, graph.geomY[q + 1]!)];
        ground += crowFlyMetres(lonA, latA, lonB, latB);
        // what the projection of a city about the country's centre made of it
        equirectangular += Math.hypot((lonB - lonA) * p.mPerDegLon, (latB - latA) * METRES_PER_DEGREE);
      }
      worst = Math.max(worst, Math.abs(graph.edgeLengthDm[e]! / 10 - ground));
      equirectangularWorst = Math.max(equirectangularWorst, Math.abs(equirectangular / ground - 1));
    }
    // decimetres rounded, and Float32 positions 400 km from the centre
    assert.ok(worst < 0.1, `an edge off by ${worst} m`);
    assert.ok(equirectangularWorst > 0.05, `the equirectangular lengths were off by ${equirectangularWorst}`);
  });

  test('a point links to its nearest street on the ground, and its offset is the ground distance', () => {
    const random = lcg(3);
    for (const [lon0, lat0] of [SOUTH, NORTH]) {
      for (let k = 0; k < 100; k++) {
        const [lon, lat] = offsetBy(lon0, lat0, -300 + 1400 * random(), -300 + 1400 * random());
        const nearest = groundNearest(graph, lon, lat);
        const snap = snapPoint(graph, Layer.Walk, projectX(p, lon), projectY(p, lat), LINK_RADIUS_M);
        if (nearest > LINK_RADIUS_M + 1) {
          assert.equal(snap, null);
          continue;
        }
        assert.ok(snap, `(${lon}, ${lat}) is ${nearest} m from a street`);
        assert.ok(Math.abs(snap.offsetM - nearest) < 0.05, `offset ${snap.offsetM} m, nearest ${nearest} m`);
        const link = pointAlong(graph, snap.edge, snap.alongM);
        assert.ok(Math.abs(crowFlyMetres(lon, lat, unprojectLon(p, link.x), unprojectLat(p, link.y)) - snap.offsetM) < 0.05);
      }
    }
  });

  test("the link radius is the ground's in the north and in the south", () => {
    // east of the town's last column of streets: linked up to 600 m on the ground, no farther
    for (const [lon0, lat0] of [SOUTH, NORTH]) {
      const seen = new Set<boolean>();
      for (let east = 1350; east <= 1500; east += 10) {
        const [lon, lat] = offsetBy(lon0, lat0, east, 400);
        const nearest = groundNearest(graph, lon, lat);
        if (Math.abs(nearest - LINK_RADIUS_M) < 0.5) continue;
        const snap = snapPoint(graph, Layer.Walk, projectX(p, lon), projectY(p, lat), LINK_RADIUS_M);
        assert.equal(snap !== null, nearest <= LINK_RADIUS_M, `${nearest} m from the town's streets at ${lat0}° N`);
        seen.add(snap !== null);
      }
      assert.equal(seen.size, 2);
    }
  });

  test("a heat map's cells: rows on even bands of latitude, each cell linked as its centre is, with the ground's offset", () => {
    const search = new StreetSearch(graph, 100_000);
    search.reset();
    // both towns' first vertices: every street is reached
    for (const [lon0, lat0] of [SOUTH, NORTH]) {
      let v = 0;
      for (let u = 0; u < graph.vertexCount; u++) {
        if (Math.abs(unprojectLat(p, graph.vertexY[u]!) - lat0) < 1e-7 && Math.abs(unprojectLon(p, graph.vertexX[u]!) - lon0) < 1e-7) v = u;
      }
      search.seed(v, 0);
    }
    search.run(Layer.Walk, 1, 36_000, false);
    const rasterizer = new Rasterizer(graph);
    for (const [lon0, lat0] of [SOUTH, NORTH]) {
      const [minLon, minLat] = offsetBy(lon0, lat0, -900, -900);
      const [maxLon, maxLat] = offsetBy(lon0, lat0, 1900, 1900);
      const grid: Grid = { minLon, minLat, maxLon, maxLat, resolution: 40 };
      const R = grid.resolution;
      const y = new Float64Array(R);
      const scale = new Float64Array(R);
      rowCentres(graph, grid, y, scale);
      for (let j = 0; j < R; j++) assert.ok(Math.abs(unprojectLat(p, y[j]!) - (minLat + ((j + 0.5) * (maxLat - minLat)) / R)) < 1e-10);
      const table: CellLinkTable = { edge: new Int32Array(R * R), alongM: new Float64Array(R * R), offsetM: new Float64Array(R * R) };
      rasterizer.linkCells(grid, Layer.Walk, table, search);
      let linked = 0;
      let unlinked = 0;
      let nearest = 0;
      for (let i = 0; i < R; i++) {
        for (let j = 0; j < R; j++) {
          const lon = minLon + ((i + 0.5) * (maxLon - minLon)) / R;
          const lat = minLat + ((j + 0.5) * (maxLat - minLat)) / R;
          const snap = snapPoint(graph, Layer.Walk, projectX(p, lon), projectY(p, lat), LINK_RADIUS_M);
          const c = i * R + j;
          if (table.edge[c] === -1) {
            unlinked++;
            // a street within the radius that the lattice does not name: only at the radius's rim
            if (snap) assert.ok(snap.offsetM > LINK_RADIUS_M - 15, `cell ${i}, ${j} at ${lat0}° N: unlinked, ${snap.offsetM} m from a street`);
            continue;
          }
          linked++;
          // the lattice names the nearest street or one at most a few metres farther (link-lattice.ts), measured on the ground
          assert.ok(snap, `cell ${i}, ${j} at ${lat0}° N: linked, with no street within the radius`);
          const farther = table.offsetM[c]! - snap.offsetM;
          assert.ok(farther > -1e-6 && farther < 15, `cell ${i}, ${j} at ${lat0}° N: ${table.offsetM[c]} m off edge ${table.edge[c]}, ${snap.offsetM} m off edge ${snap.edge}`);
          if (farther < 1e-6) nearest++;
        }
      }
      assert.ok(nearest > 0.97 * linked, `${nearest} of ${linked} cells linked to their nearest street`);
      // both kinds occur: the grid reaches past the radius around the town
      assert.ok(linked > 500 && unlinked > 50, `${linked} linked, ${unlinked} not`);
    }
  });
});
