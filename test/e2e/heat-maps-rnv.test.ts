/**
 * Heat maps on rnv-mannheim (GTFS + OpenStreetMap extract), cross-checked cell by cell against the
 * independent reference of `heat-map-reference.ts` (plain Dijkstra, connection scan, brute-force
 * nearest segment), through the HTTP API, under the street-fidelity rules: every point (stop,
 * centre, cell) links to its nearest walking street within LINK_RADIUS_M (600 m; ties to the
 * lowest segment number; small islands left out) and walks its offset in a straight line;
 * footpaths follow the streets only (up to TRANSFER_HORIZON_M, offsets included); every boarding
 * needs the board slack (DEFAULT_BOARD_SLACK_SEC); no value spreads between cells.
 *
 * Checked:
 *   0. at load: the walking network's small islands (taken out of the segment grid, stops on them or
 *      not), every stop's walking link (edge, position along it, offset) and every footpath (stops
 *      joined, length, seconds) equal the reference's;
 *   1. departure maps from random served stops (stop points and a stop area), Tuesday 2016-11-08
 *      08:00, max_duration 1800 at resolution 100, and other durations and resolutions: the box
 *      (union of the squares of half-side the time left at walking speed around the linked centre
 *      and the linked stops reached by a vehicle; no margin) and ~200 random cells per map, to the
 *      second;
 *   2. a departure map from a coordinate (no free stop), at a time that is not a whole minute;
 *   3. an arrival map (`to=`): ~200 cells, each the time needed to reach the centre by the
 *      requested instant from the cell, by reversed searches (latest departures, reversed streets);
 *   4. arrival against departure ("a cell's value in a to map equals the best departure-map value
 *      for a trip the other way"), made exact as follows. For a cell X of the arrival map towards C
 *      at t0 with value v, the best trip the other way is the latest departure from X that still
 *      reaches C by t0. Running the forward (departure-map) searches of the reference, the ones
 *      part 1 checks against the engine, from X's centre (X's leg to its street and C's leg from
 *      the street counted as the arrival map counts them) must reach C by t0 when leaving at
 *      t0 − v − 1 and must not when leaving at t0 − v + 1: values are truncated tenths, so the
 *      latest departure lies in (t0 − v − 1, t0 − v];
 *   5. the link radius from both sides: a coordinate just farther than 600 m from every street
 *      reaches nothing (every cell null, the box the square of max_duration at walking speed around
 *      it), one just nearer walks its whole offset and agrees with the reference.
 *
 * The tolerances: float noise at an exact whole second and between nearly equidistant segments
 * (see `gridValues`), and the one the linking rule leaves: a cell may link to a street up to
 * LATTICE_SLACK_M farther than the nearest, where the link lattice misses the nearest. Such
 * "ambiguous" cells are counted, and the share of cells whose value is not the nearest street's is
 * bounded (see MAX_FARTHER_LINK_SHARE).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_BOARD_SLACK_SEC } from '../../src/service/coverage-config.js';
import type { Generation } from '../../src/service/generation.js';
import { ServiceDays } from '../../src/model/service-days.js';
import { transferSec } from '../../src/routing/raptor-data.js';
import type { StreetGraph } from '../../src/model/street-graph.js';
import { SMALL_ISLAND_EDGES } from '../../src/model/small-islands.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { ReferenceModel, smallWalkIslands, SNAP_RADIUS_M, WALK_BACKWARD, WALK_FORWARD, type RefPointSeed, type RefSnap } from './heat-map-reference.js';
import { mulberry32 } from '../helpers/random.js';
import { getOk, serveCoverages } from '../helpers/app.js';

const DIR = path.join(SHARED_DATA, 'rnv-mannheim');
/** Navitia's metres per degree (navitia-heat-maps.md §3). */
const K = 111226.2991;
const WALKING_SPEED = 1.12;
const MAX_TO_PT_SEC = 1800;
/** 2016-11-08 08:00:00 in Europe/Berlin (CET, UTC+1). */
const DATETIME = '20161108T080000';
const T0 = Date.UTC(2016, 10, 8, 7, 0, 0) / 1000;
const DAY = Date.UTC(2016, 10, 8) / 86_400_000;
const CELLS_PER_MAP = 200;
/** The street layers' order (street-layers.ts): the engine's stop links per layer, walking first. */
const WALK_LAYER = 0;

let app: FastifyInstance;
let generation: Generation;
let graph: StreetGraph;
let ref: ReferenceModel;
let days: ServiceDays;
/** stops with a departure between 08:00 and 08:30 */
let served: number[];

const random = mulberry32(20161108);
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;

const px = (lon: number) => (lon - graph.projection.lon0) * graph.projection.mPerDegLon;
const py = (lat: number) => (lat - graph.projection.lat0) * K;

/**
 * Transfer time of a footpath: its length at walking speed, in whole seconds rounded up (the
 * transit model's rule). Every boarding needs the board slack (DEFAULT_BOARD_SLACK_SEC) at the stop. A journey may ride at most
 * max_nb_transfers + 1 = 11 vehicles; the scan has no such limit, which cannot matter within the
 * durations used here.
 */
const footSec = (lengthM: number) => Math.ceil(lengthM / WALKING_SPEED);

before(async () => {
  const rnv = await serveCoverages([{ id: 'rnv', gtfs: [path.join(DIR, 'gtfs.zip')], osm: path.join(DIR, 'osm.pbf') }]);
  ({ app } = rnv);
  generation = rnv.generations.get('rnv')!;
  const streets = generation.streets;
  assert.ok(streets, 'the coverage has a street network');
  graph = streets.data.graph;
  const tt = generation.tt;
  assert.equal(tt.frequencies.startSec.length, 0, 'the reference scans timed trips only');
  assert.equal(tt.transfers.fromStop.length, 0, 'rnv has no transfers.txt: footpaths only');

  // Small islands: mine; the segment grid must offer walkers every segment of the walking network
  // but those (a stop standing on one does not keep it), before the stops are linked.
  const islands = smallWalkIslands(graph, SMALL_ISLAND_EDGES);
  const grid = graph.segmentGrid;
  const islandDisagreements: string[] = [];
  for (let n = 0; n < grid.segments.length; n++) {
    const e = graph.segmentEdge[grid.segments[n]!]!;
    const expected = islands[e] ? 0 : graph.edgeAccess[e]! & (WALK_FORWARD | WALK_BACKWARD);
    const actual = grid.access[n]! & (WALK_FORWARD | WALK_BACKWARD);
    if (actual !== expected) islandDisagreements.push(`segment ${grid.segments[n]} of edge ${e}: walking bits ${actual}, expected ${expected}${islands[e] ? ' (a small island)' : ''}`);
  }
  assert.deepEqual(islandDisagreements.slice(0, 10), [], `small islands: ${islandDisagreements.length} grid entries disagree`);
  assert.ok(islands.some((x) => x === 1), 'the walking network has small islands');

  // Stop links: mine, by brute force and the linking rule (nearest walking segment within the link
  // radius, ties to the lowest segment number); the engine's, made at load, must be the same.
  const probe = new ReferenceModel(tt, graph, []);
  const engineEdge = streets.data.snaps.edge[WALK_LAYER]!;
  const engineAlong = streets.data.snaps.alongM[WALK_LAYER]!;
  const engineOffset = streets.data.snaps.offsetM[WALK_LAYER]!;
  const snaps: (RefSnap | null)[] = [];
  const disagreements: string[] = [];
  for (let s = 0; s < tt.stopPoints.ids.length; s++) {
    const link = probe.link(px(tt.stopPoints.lon[s]!), py(tt.stopPoints.lat[s]!));
    if (!link) {
      snaps.push(null);
      if (engineEdge[s] !== -1) disagreements.push(`${tt.stopPoints.ids[s]}: engine linked to edge ${engineEdge[s]}, no walking street within ${SNAP_RADIUS_M} m`);
      continue;
    }
    if (link.edge !== engineEdge[s] || Math.abs(link.alongM - engineAlong[s]!) > 1e-3 || Math.abs(link.distM - engineOffset[s]!) > 1e-3) {
      disagreements.push(`${tt.stopPoints.ids[s]}: edge ${link.edge} at ${link.alongM} m, offset ${link.distM} m; engine edge ${engineEdge[s]} at ${engineAlong[s]} m, offset ${engineOffset[s]} m`);
    }
    // stop links are stored as 32-bit floats
    snaps.push({ ...link, alongM: Math.fround(link.alongM), distM: Math.fround(link.distM) });
  }
  assert.deepEqual(disagreements.slice(0, 10), [], `stop links: ${disagreements.length} disagree`);
  assert.equal(streets.data.snaps.unsnapped[WALK_LAYER], snaps.filter((x) => x === null).length, 'stops with no walking street within the link radius');
  ref = new ReferenceModel(tt, graph, snaps);
  ref.buildFootpaths();
  // Footpaths: mine, along the streets (offsets included, up to the transfer horizon); the engine's
  // transfers must join the same stops, with the same length and the same seconds.
  const raptor = streets.data.raptor;
  const pathDisagreements: string[] = [];
  let footpathCount = 0;
  for (let s = 0; s < tt.stopPoints.ids.length; s++) {
    const engine = new Map<number, number>();
    for (let k = raptor.transferOffset[s]!; k < raptor.transferOffset[s + 1]!; k++) engine.set(raptor.transferTo[k]!, k);
    const name = (o: number) => `${tt.stopPoints.ids[s]} -> ${tt.stopPoints.ids[o]}`;
    for (const f of ref.footpaths[s]!) {
      footpathCount++;
      const k = engine.get(f.to);
      engine.delete(f.to);
      if (k === undefined) pathDisagreements.push(`${name(f.to)}: ${f.lengthM} m, none in the engine`);
      else if (Math.abs(raptor.transferLengthM[k]! - f.lengthM) > 1e-3 || transferSec(raptor, k, WALKING_SPEED) !== footSec(f.lengthM)) {
        pathDisagreements.push(`${name(f.to)}: ${f.lengthM} m, ${footSec(f.lengthM)} s; engine ${raptor.transferLengthM[k]} m, ${transferSec(raptor, k, WALKING_SPEED)} s`);
      }
    }
    for (const [o, k] of engine) pathDisagreements.push(`${name(o)}: none, engine ${raptor.transferLengthM[k]} m`);
  }
  assert.deepEqual(pathDisagreements.slice(0, 10), [], `footpaths: ${pathDisagreements.length} disagree`);
  assert.ok(footpathCount > tt.stopPoints.ids.length, `${footpathCount} footpaths`);
  days = new ServiceDays(tt);
  const window = ref.connections([DAY - 1, DAY], (tz, d) => days.origin(tz, d), T0, T0 + 1800);
  served = [...new Set(window.filter((c) => c.pickup).map((c) => c.from))].sort((a, b) => a - b);
  assert.ok(served.length > 100, `${served.length} stops served between 08:00 and 08:30`);
});

after(async () => {
  await app?.close();
});

// ---------------------------------------------------------------------------------------------
// the API side

interface Matrix {
  line_headers: { cell_lat: { min_lat: number; center_lat: number; max_lat: number } }[];
  lines: { cell_lon: { min_lon: number; center_lon: number; max_lon: number }; duration: (number | null)[] }[];
}

async function heatMap(query: string): Promise<Matrix> {
  const body = await getOk(app, `/v1/coverage/rnv/heat_maps?${query}`);
  assert.equal(body.heat_maps.length, 1);
  return body.heat_maps[0].heat_matrix as Matrix;
}

interface GridInfo {
  R: number;
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
  widthM: number;
  heightM: number;
}

function gridOf(m: Matrix): GridInfo {
  const R = m.lines.length;
  assert.equal(m.line_headers.length, R);
  const minLon = m.lines[0]!.cell_lon.min_lon;
  const maxLon = m.lines[R - 1]!.cell_lon.max_lon;
  const minLat = m.line_headers[0]!.cell_lat.min_lat;
  const maxLat = m.line_headers[R - 1]!.cell_lat.max_lat;
  // the cell's width at the box's middle latitude
  const width = ((maxLon - minLon) / R) * K * Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const height = ((maxLat - minLat) / R) * K;
  return { R, minLon, maxLon, minLat, maxLat, widthM: width, heightM: height };
}

/**
 * CELLS_PER_MAP cells: 40 % anywhere in the grid, 30 % among the cells the API gives a value, 30 %
 * at stops reached by a vehicle (the cells holding them), where the transit labels show most.
 */
function sampleCells(m: Matrix, reachedStops: number[]): [number, number][] {
  const R = m.lines.length;
  const grid = gridOf(m);
  const valued: [number, number][] = [];
  for (let i = 0; i < R; i++) for (let j = 0; j < R; j++) if (m.lines[i]!.duration[j] !== null) valued.push([i, j]);
  const cells: [number, number][] = [];
  for (let k = 0; k < CELLS_PER_MAP * 0.4; k++) cells.push([Math.floor(random() * R), Math.floor(random() * R)]);
  for (let k = 0; k < CELLS_PER_MAP * 0.3 && valued.length > 0; k++) cells.push(pick(valued));
  for (let k = 0; k < CELLS_PER_MAP * 0.3 && reachedStops.length > 0; k++) {
    const s = pick(reachedStops);
    const i = Math.floor(((generation.tt.stopPoints.lon[s]! - grid.minLon) / (grid.maxLon - grid.minLon)) * R);
    const j = Math.floor(((generation.tt.stopPoints.lat[s]! - grid.minLat) / (grid.maxLat - grid.minLat)) * R);
    if (i >= 0 && i < R && j >= 0 && j < R) cells.push([i, j]);
  }
  return cells;
}

// ---------------------------------------------------------------------------------------------
// the reference side

interface Centre {
  /** the centre's own stop points, reached at no cost */
  free: number[];
  lon: number;
  lat: number;
  snap: RefSnap | null;
}

/**
 * A stop point centre (or its stop area's, `area`): its stop points at no cost, and the link of its
 * coordinate by the linking rule (null when no walking street lies within the link radius).
 */
function stopCentre(s: number, area = false): Centre {
  const tt = generation.tt;
  const a = tt.stopPoints.area[s]!;
  const lon = area ? tt.stopAreas[a]!.lon : tt.stopPoints.lon[s]!;
  const lat = area ? tt.stopAreas[a]!.lat : tt.stopPoints.lat[s]!;
  const free = area ? [...tt.stopPoints.area.keys()].filter((p) => tt.stopPoints.area[p] === a) : [s];
  return { free, lon, lat, snap: ref.link(px(lon), py(lat)) };
}

interface Reference {
  /** street costs of the final search (tenths) */
  cost: Float64Array;
  /** its point seeds: the centre and the stops reached by a vehicle */
  points: RefPointSeed[];
  /** the same search seeded by the centre alone (walking only, for the statistics) */
  walkOnly: Float64Array;
  walkOnlyPoints: RefPointSeed[];
  /** seconds from t0 of the best vehicle arrival (departure maps) or boarding (arrival maps), per stop */
  vehicleSec: Map<number, number>;
}

/** The reference departure (reverse = false) or arrival (reverse = true) map's street costs. */
function reference(centre: Centre, t0: number, T: number, reverse: boolean): Reference {
  const access = new Map<number, number>();
  if (centre.snap) for (const [s, sec] of ref.streetAccess(centre.snap, WALKING_SPEED, MAX_TO_PT_SEC, reverse)) access.set(s, sec);
  for (const s of centre.free) access.set(s, 0);
  // the footpaths of the centre's own stops (from them, or into them for arrival maps)
  const free = new Set(centre.free);
  ref.footpaths.forEach((list, from) => {
    for (const f of list) {
      const [near, own] = reverse ? [from, f.to] : [f.to, from];
      if (free.has(own)) access.set(near, Math.min(access.get(near) ?? Infinity, footSec(f.lengthM)));
    }
  });
  const origin = (tz: number, d: number) => days.origin(tz, d);
  const vehicleSec = new Map<number, number>();
  if (!reverse) {
    const conns = ref.connections([DAY - 1, DAY], origin, t0, t0 + T);
    const arrival = ref.earliestArrival(conns, t0, access, footSec, DEFAULT_BOARD_SLACK_SEC);
    arrival.forEach((t, s) => {
      if (t - t0 < T) vehicleSec.set(s, t - t0);
    });
  } else {
    const conns = ref.connections([DAY - 1, DAY], origin, t0 - T, t0);
    const departure = ref.latestDeparture(conns, t0, access, footSec, DEFAULT_BOARD_SLACK_SEC);
    departure.forEach((t, s) => {
      if (t0 - t < T) vehicleSec.set(s, t0 - t);
    });
  }
  const seeds: [number, number][] = [];
  const points: RefPointSeed[] = [];
  // each point's offset walked first (truncated to tenths)
  const offsetDs = (snap: RefSnap) => Math.trunc((snap.distM * 10) / WALKING_SPEED);
  if (centre.snap) {
    seeds.push(...ref.snapSeeds(centre.snap, WALKING_SPEED, offsetDs(centre.snap), reverse));
    points.push(ref.pointSeed(centre.snap, offsetDs(centre.snap)));
  }
  const walkOnly = ref.dijkstra([...seeds], WALKING_SPEED, reverse, T * 10);
  const walkOnlyPoints = [...points];
  for (const [s, sec] of vehicleSec) {
    const snap = ref.stopSnaps[s];
    if (snap) {
      seeds.push(...ref.snapSeeds(snap, WALKING_SPEED, sec * 10 + offsetDs(snap), reverse));
      points.push(ref.pointSeed(snap, sec * 10 + offsetDs(snap)));
    }
  }
  return { cost: ref.dijkstra(seeds, WALKING_SPEED, reverse, T * 10), points, walkOnly, walkOnlyPoints, vehicleSec };
}

/**
 * The box: the union of squares of half-side the time left times the leg's speed, no slower than
 * walking (the offsets are walked: here both are the walking speed), around the centre when it is
 * linked and around every linked stop reached by a vehicle before T; no margin. When there is none
 * of them, the square of T at walking speed around the centre.
 */
function expectedBox(centre: Centre, r: Reference, T: number) {
  let minLon = Infinity;
  let maxLon = -Infinity;
  let minLat = Infinity;
  let maxLat = -Infinity;
  const square = (lon: number, lat: number, halfM: number) => {
    const dLat = halfM / K;
    const dLon = halfM / (K * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    minLon = Math.min(minLon, lon - dLon);
    maxLon = Math.max(maxLon, lon + dLon);
    minLat = Math.min(minLat, lat - dLat);
    maxLat = Math.max(maxLat, lat + dLat);
  };
  // max(the leg's speed, the walking speed): walking maps, both are the walking speed
  const speed = WALKING_SPEED;
  if (centre.snap) square(centre.lon, centre.lat, T * speed);
  for (const [s, sec] of r.vehicleSec) {
    if (ref.stopSnaps[s]) square(generation.tt.stopPoints.lon[s]!, generation.tt.stopPoints.lat[s]!, (T - sec) * speed);
  }
  if (minLon > maxLon) square(centre.lon, centre.lat, T * WALKING_SPEED);
  return { minLon, maxLon, minLat, maxLat };
}

interface Comparison {
  bad: string[];
  /** cells the API gives a value */
  valued: number;
  /** valued cells that a vehicle reaches sooner than walking from the centre alone */
  byTransit: number;
  /** cells farther than half their diagonal from every street with several streets (or a street and none) they may link to */
  ambiguous: number;
  /** cells whose reference accepts more than one outcome (ambiguous cells whose streets differ, float noise at a whole second) */
  severalValues: number;
  /** ambiguous cells whose API value is not the nearest street's: linked a little farther, as the rule allows */
  fartherLink: number;
}

/** The reference values of the cells `cells` of the API's matrix `m` (see `ReferenceModel.gridValues`). */
function referenceGrid(m: Matrix, cost: Float64Array, points: RefPointSeed[], T: number, reverse: boolean, cells: [number, number][]) {
  const grid = gridOf(m);
  const centres = {
    R: grid.R,
    x: Float64Array.from(m.lines, (l) => px(l.cell_lon.center_lon)),
    y: Float64Array.from(m.line_headers, (h) => py(h.cell_lat.center_lat)),
  };
  return ref.gridValues(centres, cost, WALKING_SPEED, reverse, T, points, cells);
}

/** Compare the API's matrix with the reference on `cells`. */
function compareCells(m: Matrix, r: Reference, T: number, reverse: boolean, cells: [number, number][]): Comparison {
  const R = m.lines.length;
  const { values: expected, nearestValues, choices } = referenceGrid(m, r.cost, r.points, T, reverse, cells);
  const walked = referenceGrid(m, r.walkOnly, r.walkOnlyPoints, T, reverse, cells).values;
  const out: Comparison = { bad: [], valued: 0, byTransit: 0, ambiguous: 0, severalValues: 0, fartherLink: 0 };
  for (const [i, j] of cells) {
    const lon = m.lines[i]!.cell_lon.center_lon;
    const lat = m.line_headers[j]!.cell_lat.center_lat;
    const accepted = expected[i * R + j]!;
    const actual = m.lines[i]!.duration[j]!;
    if (!accepted.has(actual)) out.bad.push(`cell [${i}][${j}] (${lon};${lat}): API ${actual}, reference ${[...accepted].join(' or ')}`);
    if (choices[i * R + j]! > 1) out.ambiguous++;
    if (accepted.size > 1) out.severalValues++;
    if (accepted.has(actual) && !nearestValues[i * R + j]!.has(actual)) out.fartherLink++;
    if (actual === null) continue;
    out.valued++;
    if (![...walked[i * R + j]!].some((w) => w !== null && w <= actual)) out.byTransit++;
  }
  return out;
}

function checkBox(m: Matrix, centre: Centre, r: Reference, T: number): void {
  const grid = gridOf(m);
  const box = expectedBox(centre, r, T);
  for (const key of ['minLon', 'maxLon', 'minLat', 'maxLat'] as const) {
    assert.ok(Math.abs(grid[key] - box[key]) < 1e-9, `box ${key}: API ${grid[key]}, reference ${box[key]}`);
  }
}

/**
 * The reference accepts, for most cells of a city sample, the value through any street up to
 * LATTICE_SLACK_M farther than the nearest (the link lattice's bound), so most cells accept several
 * values; what keeps the comparison tight is how often the engine does take another street than the
 * nearest: at most this share of a sample (0 to 1.5 % with the lattice squares' extra candidates,
 * resolution 100; 2.5 to 7 % before them).
 */
const MAX_FARTHER_LINK_SHARE = 1 / 30;

function checkComparison(label: string, c: Comparison, cells: number, diagnostic: (msg: string) => void): void {
  assert.deepEqual(c.bad.slice(0, 8), [], `${label}: ${c.bad.length} of ${cells} cells disagree`);
  diagnostic(
    `${label}: ${cells} cells agree, ${c.valued} valued, ${c.byTransit} of them reached sooner by transit; ${c.ambiguous} ambiguous (linked with a choice), ${c.severalValues} accepting several values, ${c.fartherLink} valued by a street farther than the nearest`,
  );
  assert.ok(c.fartherLink <= cells * MAX_FARTHER_LINK_SHARE, `${label}: ${c.fartherLink} of ${cells} cells valued by a street farther than the nearest`);
}

async function checkDepartureMap(
  label: string,
  centreId: string,
  centre: Centre,
  datetime: string,
  t0: number,
  T: number,
  R: number,
  diagnostic: (msg: string) => void,
): Promise<Comparison> {
  const m = await heatMap(`from=${encodeURIComponent(centreId)}&datetime=${datetime}&max_duration=${T}&resolution=${R}`);
  assert.equal(m.lines.length, R);
  const r = reference(centre, t0, T, false);
  checkBox(m, centre, r, T);
  const cells = sampleCells(m, [...r.vehicleSec.keys()]);
  const c = compareCells(m, r, T, false, cells);
  checkComparison(label, c, cells.length, diagnostic);
  return c;
}

// ---------------------------------------------------------------------------------------------

test('rnv heat maps: departure maps from random stops agree with the reference, box and cells', async (t) => {
  const configs: { T: number; R: number; area?: boolean }[] = [
    { T: 1800, R: 100 },
    { T: 1800, R: 100 },
    { T: 1800, R: 100 },
    { T: 1800, R: 100, area: true },
    { T: 1800, R: 100 },
    { T: 900, R: 150 },
    { T: 2700, R: 60 },
  ];
  let valued = 0;
  let byTransit = 0;
  for (const { T, R, area } of configs) {
    const s = pick(served);
    const id = area ? generation.tt.stopAreas[generation.tt.stopPoints.area[s]!]!.id : generation.tt.stopPoints.ids[s]!;
    const c = await checkDepartureMap(`from ${id}, max_duration ${T}, resolution ${R}`, id, stopCentre(s, area), DATETIME, T0, T, R, (m) => t.diagnostic(m));
    valued += c.valued;
    byTransit += c.byTransit;
  }
  // the sample is not all nulls, and public transport matters in it
  assert.ok(valued > configs.length * 50, `${valued} valued cells checked`);
  assert.ok(byTransit > valued / 4, `${byTransit} of ${valued} valued cells reached sooner by transit`);
});

test('rnv heat maps: a departure map from a coordinate, at 08:07:13', async (t) => {
  // a coordinate near a random served stop, linked to a street from which a few stops are walked
  // to (not an isolated path)
  let centre: Centre | undefined;
  while (!centre) {
    const s = pick(served);
    const lon = generation.tt.stopPoints.lon[s]! + (random() - 0.5) * 0.004;
    const lat = generation.tt.stopPoints.lat[s]! + (random() - 0.5) * 0.003;
    const snap = ref.link(px(lon), py(lat));
    if (snap && ref.streetAccess(snap, WALKING_SPEED, MAX_TO_PT_SEC, false).size >= 5) centre = { free: [], lon, lat, snap };
  }
  const t0 = T0 + 7 * 60 + 13;
  const c = await checkDepartureMap(`from ${centre.lon};${centre.lat}`, `${centre.lon};${centre.lat}`, centre, '20161108T080713', t0, 1800, 100, (m) => t.diagnostic(m));
  assert.ok(c.byTransit > 0);
});

/** valued cells of the arrival map looked at for duality (the first 8 linked without a choice are checked) */
const DUALITY_CANDIDATES = 100;

test('rnv heat maps: an arrival map agrees with the reversed reference, and with departures the other way', async (t) => {
  const s = pick(served);
  const id = generation.tt.stopPoints.ids[s]!;
  const centre = stopCentre(s);
  const T = 1800;
  const t0 = T0 + 1800; // arrive by 08:30
  const m = await heatMap(`to=${encodeURIComponent(id)}&datetime=20161108T083000&max_duration=${T}&resolution=100`);
  const r = reference(centre, t0, T, true);
  checkBox(m, centre, r, T);
  const cells = sampleCells(m, [...r.vehicleSec.keys()]);
  const c = compareCells(m, r, T, true, cells);
  checkComparison(`to ${id}`, c, cells.length, (msg) => t.diagnostic(msg));
  assert.ok(c.byTransit > 0);

  // Duality: the latest departure from a cell, found by forward searches, is t0 − value. On valued
  // cells spread evenly over the map (most sampled cells are linked with a choice, and skipped).
  const R = m.lines.length;
  const valued: [number, number][] = [];
  for (let i = 0; i < R; i++) for (let j = 0; j < R; j++) if ((m.lines[i]!.duration[j] ?? 0) >= 2) valued.push([i, j]);
  const candidates = valued.filter((_, k) => k % Math.max(1, Math.floor(valued.length / DUALITY_CANDIDATES)) === 0);
  const { best } = referenceGrid(m, r.cost, r.points, T, true, candidates);
  let checked = 0;
  for (const [i, j] of candidates) {
    if (checked === 8) break;
    const x = px(m.lines[i]!.cell_lon.center_lon);
    const y = py(m.line_headers[j]!.cell_lat.center_lat);
    const segment = best[i * R + j]!;
    if (segment < 0) continue; // linked with a choice (far from its streets, or two segments within float noise)
    const v = m.lines[i]!.duration[j]!;
    assert.equal(reachesByForward(segment, x, y, centre, t0 - v - 1, t0, T), true, `cell [${i}][${j}] (value ${v}): leaving ${v + 1} s before reaches ${id} in time`);
    assert.equal(reachesByForward(segment, x, y, centre, t0 - v + 1, t0, T), false, `cell [${i}][${j}] (value ${v}): leaving ${v - 1} s before is too late`);
    checked++;
  }
  assert.ok(checked >= 4, `${checked} cells checked for duality`);
  t.diagnostic(`to ${id}: latest departures of ${checked} cells found again by forward searches`);
});

/**
 * Whether leaving the cell centre (x, y), linked to segment `segment` (its nearest street), at `tau`
 * (epoch seconds) reaches `centre` by `t0`, by forward searches, each leg counted as the arrival map
 * counts it:
 *   - the cell walks its offset straight to its link point, then along the edge to a vertex (no
 *     truncation), then on the streets (a forward Dijkstra from those seeds);
 *   - a stop is reached at its link point, the last along-edge leg and the stop's offset each
 *     truncated to tenths as the arrival map's stop seeds are; the forward connection scan (with its
 *     footpaths and the board slack) starts there;
 *   - the centre is reached on foot at its link point (its legs truncated the same way), or by a
 *     vehicle arriving at one of its own stops, or at a stop from which the walk to the centre (the
 *     arrival map's access, whole seconds) ends by t0.
 */
function reachesByForward(segment: number, x: number, y: number, centre: Centre, tau: number, t0: number, T: number): boolean {
  const g = graph;
  const link = ref.snapOn(segment, x, y);
  const e = link.edge;
  const offsetDs = (link.distM * 10) / WALKING_SPEED;
  const bits = g.edgeAccess[e]!;
  const seeds: [number, number][] = [];
  if (bits & WALK_BACKWARD) seeds.push([g.edgeFrom[e]!, offsetDs + (link.alongM * 10) / WALKING_SPEED]);
  if (bits & WALK_FORWARD) seeds.push([g.edgeTo[e]!, offsetDs + (Math.max(0, g.edgeLengthDm[e]! / 10 - link.alongM) * 10) / WALKING_SPEED]);
  const cost = ref.dijkstra(seeds, WALKING_SPEED, false);
  // arrival (tenths after tau) at a linked point: from the ends of its edge, the last leg truncated,
  // or straight along the cell's own edge from its link point; then the point's own offset, truncated
  const atPoint = (snap: RefSnap) => {
    const b = g.edgeAccess[snap.edge]!;
    let best = Infinity;
    if (b & WALK_FORWARD) best = Math.min(best, cost[g.edgeFrom[snap.edge]!]! + Math.trunc((snap.alongM * 10) / WALKING_SPEED));
    if (b & WALK_BACKWARD) best = Math.min(best, cost[g.edgeTo[snap.edge]!]! + Math.trunc((Math.max(0, g.edgeLengthDm[snap.edge]! / 10 - snap.alongM) * 10) / WALKING_SPEED));
    if (snap.edge === e) {
      const delta = snap.alongM - link.alongM;
      if (b & (delta >= 0 ? WALK_FORWARD : WALK_BACKWARD)) best = Math.min(best, offsetDs + (Math.abs(delta) * 10) / WALKING_SPEED);
    }
    return best + Math.trunc((snap.distM * 10) / WALKING_SPEED);
  };
  if (centre.snap && tau * 10 + atPoint(centre.snap) <= t0 * 10) return true;
  // stops reached on foot (within the map's duration), then the connection scan
  const start = new Map<number, number>();
  ref.stopSnaps.forEach((snap, s) => {
    if (!snap) return;
    const ds = atPoint(snap);
    if (ds <= T * 10) start.set(s, ds / 10);
  });
  const conns = ref.connections([DAY - 1, DAY], (tz, d) => days.origin(tz, d), tau, t0);
  const arrival = ref.earliestArrival(conns, tau, start, footSec, DEFAULT_BOARD_SLACK_SEC);
  const finish = new Map<number, number>();
  if (centre.snap) for (const [s, sec] of ref.streetAccess(centre.snap, WALKING_SPEED, MAX_TO_PT_SEC, true)) finish.set(s, sec);
  for (const s of centre.free) finish.set(s, 0);
  for (const [s, sec] of finish) if (arrival[s]! + sec <= t0) return true;
  return false;
}

test('rnv heat maps: a centre beyond the link radius reaches nothing, one just within it walks its offset', async (t) => {
  // the westernmost point of the walking network (islands aside), and points due west of it: no
  // walking street is nearer to them than that point
  let wx = Infinity;
  let wy = 0;
  for (let s = 0; s < graph.segmentCount; s++) {
    if (!ref.walkSegment[s]) continue;
    const p = graph.segmentPoint[s]!;
    for (const q of [p, p + 1]) {
      if (graph.geomX[q]! < wx) {
        wx = graph.geomX[q]!;
        wy = graph.geomY[q]!;
      }
    }
  }
  const lonOf = (x: number) => graph.projection.lon0 + x / graph.projection.mPerDegLon;
  const latOf = (y: number) => graph.projection.lat0 + y / K;
  const T = 1800;

  // 610 m from the nearest street: not linked; no stop within the free radius (0): nothing at all
  const far: Centre = { free: [], lon: lonOf(wx - 610), lat: latOf(wy), snap: null };
  const nearestFar = ref.nearestSegments(px(far.lon), py(far.lat), Infinity).distM;
  assert.ok(Math.abs(nearestFar - 610) < 1e-3, `the far centre lies ${nearestFar} m from the streets`);
  assert.equal(ref.link(px(far.lon), py(far.lat)), null);
  const mFar = await heatMap(`from=${far.lon};${far.lat}&datetime=${DATETIME}&max_duration=${T}&resolution=50`);
  const rFar = reference(far, T0, T, false);
  assert.equal(rFar.vehicleSec.size, 0, 'the reference reaches no stop from the far centre');
  checkBox(mFar, far, rFar, T);
  const valuedFar = mFar.lines.flatMap((l, i) => l.duration.flatMap((v, j) => (v === null ? [] : [`[${i}][${j}] ${v}`])));
  assert.deepEqual(valuedFar.slice(0, 8), [], `${valuedFar.length} cells valued from a centre with no street within ${SNAP_RADIUS_M} m`);

  // 590 m from it: linked, the 590 m walked first (527 s) at walking speed
  const nearSnap = ref.link(px(lonOf(wx - 590)), py(latOf(wy)));
  assert.ok(nearSnap && Math.abs(nearSnap.distM - 590) < 1e-3, `the near centre's link: ${JSON.stringify(nearSnap)}`);
  const near: Centre = { free: [], lon: lonOf(wx - 590), lat: latOf(wy), snap: nearSnap };
  const c = await checkDepartureMap(`from ${near.lon};${near.lat} (590 m from the streets)`, `${near.lon};${near.lat}`, near, DATETIME, T0, T, 100, (m) => t.diagnostic(m));
  assert.ok(c.valued > 0, 'cells valued from the near centre');
});

test('rnv heat maps: car maps answer, and no cell beats the straight line at car speed', { timeout: 120_000 }, async () => {
  // the first origin is a car map that once never returned: edges shorter than a tenth of a second
  // at car speed cost 0 and were lost in the street search's queue
  const carRandom = mulberry32(900);
  const origins = ['8.59756;49.43973'];
  for (let k = 0; k < 30; k++) {
    const s = served[Math.floor(carRandom() * served.length)]!;
    origins.push(`${generation.tt.stopPoints.lon[s]! + (carRandom() - 0.5) * 0.01};${generation.tt.stopPoints.lat[s]! + (carRandom() - 0.5) * 0.01}`);
  }
  const CAR_SPEED = 11.11;
  let reached = 0;
  for (const [k, from] of origins.entries()) {
    const [lon0, lat0] = from.split(';').map(Number) as [number, number];
    const direction = k % 2 === 0 ? 'from' : 'to';
    const m = await heatMap(`${direction}=${from}&first_section_mode[]=car&last_section_mode[]=car&max_duration=900&resolution=20&datetime=${DATETIME}`);
    const R = m.lines.length;
    for (let i = 0; i < R; i++) {
      const line = m.lines[i]!;
      for (let j = 0; j < R; j++) {
        const v = line.duration[j];
        if (v === null || v === undefined) continue;
        reached++;
        assert.ok(v >= 0 && v <= 900, `${from}: ${v} s`);
        // the nearest point of the cell to the centre, then the straight line at car speed: the
        // fastest any journey could be (the car is the fastest mode of the query)
        const lat = m.line_headers[j]!.cell_lat;
        const dLat = Math.max(0, lat.min_lat - lat0, lat0 - lat.max_lat) * K;
        const dLon = Math.max(0, line.cell_lon.min_lon - lon0, lon0 - line.cell_lon.max_lon) * K * Math.cos((lat0 * Math.PI) / 180);
        const bound = Math.hypot(dLat, dLon) / CAR_SPEED;
        assert.ok(v >= Math.floor(bound), `${direction} ${from}: cell (${i}, ${j}) ${v} s, straight line ${bound.toFixed(0)} s`);
      }
    }
  }
  assert.ok(reached > origins.length * 20, `${reached} reached cells`);
});
