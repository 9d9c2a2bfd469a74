/**
 * The street data's part of a snapshot's schema (snapshot-schema.ts gives the rules): the street
 * graph and its geometry, the segment grid and the link lattices, the stops' and the point sets'
 * links, and the service days of the searches; the transit search data is snapshot-raptor-schema.ts's.
 */
import type { SegmentGrid } from '../model/segment-grid.js';
import { EXTRAS_PER_SQUARE, largestPlace, NIBBLE_SEGMENTS, placesPast, TILE_SIDE, tilePlaceBytes, type LinkLattice } from '../model/link-lattice.js';
import type { StopSnaps } from '../model/stop-snaps.js';
import type { LinkedPoints } from '../model/linked-points.js';
import type { Projection, StreetGraph } from '../model/street-graph.js';
import { LAYER_NAMES } from '../model/street-layers.js';
import type { Timetable } from '../model/timetable.js';
import type { HeatMapData } from '../routing/heat-map.js';
import type { PointSetInfo } from './point-sets.js';
import type { StreetData } from './street-data.js';
import { Checker, describe, isBoolean, isFiniteNumber, isLatitude, isLongitude, isPositiveNumber, isString, isWithin } from './snapshot-checker.js';
import { checkRaptor } from './snapshot-raptor-schema.js';
import { DEFAULT_WALKING_SPEED, type PrunedTransfers } from '../routing/transfer-pruning.js';
import { MAX_OPPORTUNITY_COUNT } from '../analysis/point-set-reader.js';

export function checkStreets(c: Checker, value: unknown, tt: Timetable): void {
  const streets = c.fields<Omit<StreetData, 'id'>>(value, 'streets', { data: true, names: true, stats: true, pointSets: true });
  const names = c.strings(streets.names, 'streets.names');
  c.numbers(streets.stats, 'streets.stats');
  const data = c.fields<HeatMapData>(streets.data, 'streets.data', { graph: true, snaps: true, raptor: true, prunedTransfers: true, serviceDayOrigins: true, serviceFirstDay: true, stopLon: true, stopLat: true, pointSets: true });
  const stopCount = tt.stopPoints.ids.length;
  const { firstDay, dayCount } = tt.services;
  const graph = checkGraph(c, data.graph, names.length);
  checkSnaps(c, data.snaps, 'streets.data.snaps', stopCount, graph.edgeCount);
  checkPointSets(c, data.pointSets, streets.pointSets, graph.edgeCount);
  checkRaptor(c, data.raptor, tt);
  checkPrunedTransfers(c, data.prunedTransfers, 'streets.data.prunedTransfers', stopCount);
  if (data.serviceFirstDay !== firstDay) c.refuse('streets.data.serviceFirstDay', `is ${describe(data.serviceFirstDay)}, not tt.services.firstDay (${firstDay})`);
  const origins = c.list(data.serviceDayOrigins, 'streets.data.serviceDayOrigins');
  // one array of service-day origins per time zone (the searches index them by zone)
  if (origins.length !== tt.timezones.length) c.refuse('streets.data.serviceDayOrigins', `holds ${origins.length} arrays for ${tt.timezones.length} time zones`);
  for (let z = 0; z < origins.length; z++) c.finite(c.typed(origins[z], Float64Array, `streets.data.serviceDayOrigins[${z}]`, dayCount), `streets.data.serviceDayOrigins[${z}]`);
  c.coordinates(data.stopLon, data.stopLat, 'streets.data.stopLon', 'streets.data.stopLat', stopCount);
}

/** The connections pruned at the default walking speed: both tables grouped by stop, their other ends stops. */
function checkPrunedTransfers(c: Checker, value: unknown, at: string, stopCount: number): void {
  const t = c.fields<PrunedTransfers>(value, at, { speed: true, outOffset: true, outTo: true, outSec: true, inOffset: true, inFrom: true, inSec: true });
  if (t.speed !== DEFAULT_WALKING_SPEED) c.refuse(`${at}.speed`, `is ${describe(t.speed)}, not the default walking speed (${DEFAULT_WALKING_SPEED})`);
  for (const [offset, other, seconds] of [
    ['outOffset', 'outTo', 'outSec'],
    ['inOffset', 'inFrom', 'inSec'],
  ] as const) {
    const others = c.typed(t[other], Uint32Array, `${at}.${other}`);
    c.below(others, `${at}.${other}`, stopCount, 'tt.stopPoints');
    c.offsets(c.typed(t[offset], Uint32Array, `${at}.${offset}`), `${at}.${offset}`, stopCount, others.length);
    c.typed(t[seconds], Int32Array, `${at}.${seconds}`, others.length);
  }
}

const GRAPH_FIELDS: Record<keyof StreetGraph, true> = {
  projection: true,
  vertexCount: true,
  edgeCount: true,
  segmentCount: true,
  vertexNodeId: true,
  vertexX: true,
  vertexY: true,
  vertexParkable: true,
  edgeFrom: true,
  edgeTo: true,
  edgeLengthDm: true,
  edgeAccess: true,
  edgeName: true,
  adjOffset: true,
  adjTarget: true,
  adjEdge: true,
  geomOffset: true,
  geomX: true,
  geomY: true,
  geomAlongM: true,
  segmentEdge: true,
  segmentPoint: true,
  segmentGrid: true,
  linkLattices: true,
};

function checkGraph(c: Checker, value: unknown, nameCount: number): StreetGraph {
  const at = 'streets.data.graph';
  const g = c.fields<StreetGraph>(value, at, GRAPH_FIELDS);
  c.record<Projection>(g.projection, `${at}.projection`, { lon0: isLongitude, lat0: isLatitude, mPerDegLon: isPositiveNumber, conformal: isBoolean });
  const vertexCount = c.count(g.vertexCount, `${at}.vertexCount`);
  const edgeCount = c.count(g.edgeCount, `${at}.edgeCount`);
  const segmentCount = c.count(g.segmentCount, `${at}.segmentCount`);

  c.typed(g.vertexNodeId, Float64Array, `${at}.vertexNodeId`, vertexCount);
  c.finite(c.typed(g.vertexX, Float32Array, `${at}.vertexX`, vertexCount), `${at}.vertexX`);
  c.finite(c.typed(g.vertexY, Float32Array, `${at}.vertexY`, vertexCount), `${at}.vertexY`);
  c.typed(g.vertexParkable, Uint8Array, `${at}.vertexParkable`, vertexCount);

  c.below(c.typed(g.edgeFrom, Uint32Array, `${at}.edgeFrom`, edgeCount), `${at}.edgeFrom`, vertexCount, 'the vertices');
  c.below(c.typed(g.edgeTo, Uint32Array, `${at}.edgeTo`, edgeCount), `${at}.edgeTo`, vertexCount, 'the vertices');
  c.typed(g.edgeLengthDm, Uint32Array, `${at}.edgeLengthDm`, edgeCount);
  c.typed(g.edgeAccess, Uint8Array, `${at}.edgeAccess`, edgeCount);
  c.between(c.typed(g.edgeName, Int32Array, `${at}.edgeName`, edgeCount), `${at}.edgeName`, -1, nameCount, 'streets.names');

  const adjTarget = c.typed(g.adjTarget, Uint32Array, `${at}.adjTarget`);
  c.below(adjTarget, `${at}.adjTarget`, vertexCount, 'the vertices');
  const adjEdge = c.typed(g.adjEdge, Uint32Array, `${at}.adjEdge`, adjTarget.length);
  // an adjacency entry is edge × 2 + side
  for (let i = 0; i < adjEdge.length; i++) if (adjEdge[i]! >>> 1 >= edgeCount) c.refuse(`${at}.adjEdge[${i}]`, `names edge ${adjEdge[i]! >>> 1} of ${edgeCount}`);
  c.offsets(c.typed(g.adjOffset, Uint32Array, `${at}.adjOffset`), `${at}.adjOffset`, vertexCount, adjTarget.length);

  const pointCount = c.finite(c.typed(g.geomX, Float32Array, `${at}.geomX`), `${at}.geomX`).length;
  c.finite(c.typed(g.geomY, Float32Array, `${at}.geomY`, pointCount), `${at}.geomY`);
  c.finite(c.typed(g.geomAlongM, Float32Array, `${at}.geomAlongM`, pointCount), `${at}.geomAlongM`);
  const geomOffset = c.offsets(c.typed(g.geomOffset, Uint32Array, `${at}.geomOffset`), `${at}.geomOffset`, edgeCount, pointCount);
  for (let e = 0; e < edgeCount; e++) {
    if (geomOffset[e + 1]! - geomOffset[e]! < 2) c.refuse(`${at}.geomOffset[${e}]`, `gives edge ${e} ${geomOffset[e + 1]! - geomOffset[e]!} points, fewer than its two ends`);
  }
  const segmentEdge = c.typed(g.segmentEdge, Uint32Array, `${at}.segmentEdge`, segmentCount);
  c.below(segmentEdge, `${at}.segmentEdge`, edgeCount, 'the edges');
  const segmentPoint = c.typed(g.segmentPoint, Uint32Array, `${at}.segmentPoint`, segmentCount);
  // a segment runs from its point to the next one, both on its edge's geometry
  for (let s = 0; s < segmentCount; s++) {
    const e = segmentEdge[s]!;
    const p = segmentPoint[s]!;
    if (p < geomOffset[e]! || p + 1 >= geomOffset[e + 1]!) c.refuse(`${at}.segmentPoint[${s}]`, `is point ${p}, outside the points ${geomOffset[e]} to ${geomOffset[e + 1]! - 1} of its edge ${e}`);
  }
  checkSegmentGrid(c, g.segmentGrid, `${at}.segmentGrid`, segmentCount);
  const lattices = c.list(g.linkLattices, `${at}.linkLattices`);
  if (lattices.length !== LAYER_NAMES.length) c.refuse(`${at}.linkLattices`, `holds ${lattices.length} entries, not one per street layer (${LAYER_NAMES.length})`);
  lattices.forEach((lattice, layer) => checkLinkLattice(c, lattice, `${at}.linkLattices[${layer}]`, segmentCount));
  return g;
}

/**
 * The narrowest bucket of a segment grid: a search for the nearest street within LINK_RADIUS_M
 * (600 m) then looks at 60 rings of buckets at most, whatever the grid's shape; a crafted grid of
 * millimetre buckets would make each search visit millions (segment-grid.ts makes them 50 m at least).
 */
const MIN_BUCKET_M = 10;

function checkSegmentGrid(c: Checker, value: unknown, at: string, segmentCount: number): void {
  const grid = c.fields<SegmentGrid>(value, at, { x0: true, y0: true, sizeM: true, cols: true, rows: true, start: true, segments: true, access: true });
  c.value(grid.x0, `${at}.x0`, isFiniteNumber);
  c.value(grid.y0, `${at}.y0`, isFiniteNumber);
  c.value(grid.sizeM, `${at}.sizeM`, (v) => (typeof v === 'number' && v >= MIN_BUCKET_M && v < Infinity ? undefined : `is not a finite number from ${MIN_BUCKET_M} m`));
  const cols = c.value<number>(grid.cols, `${at}.cols`, isWithin(1, Number.MAX_SAFE_INTEGER));
  const rows = c.value<number>(grid.rows, `${at}.rows`, isWithin(1, Number.MAX_SAFE_INTEGER));
  const segments = c.typed(grid.segments, Int32Array, `${at}.segments`);
  c.between(segments, `${at}.segments`, 0, segmentCount, 'the segments');
  const start = c.typed(grid.start, Int32Array, `${at}.start`);
  // (cols × rows is compared with an array's length: the buckets are never more than the file holds)
  if (start.length !== cols * rows + 1) c.refuse(`${at}.start`, `holds ${start.length} offsets, not one more than the ${cols} × ${rows} buckets`);
  c.offsets(start, `${at}.start`, cols * rows, segments.length);
  c.typed(grid.access, Uint8Array, `${at}.access`, segments.length);
}

function checkLinkLattice(c: Checker, value: unknown, at: string, segmentCount: number): void {
  const l = c.fields<LinkLattice>(value, at, {
    x0: true,
    y0: true,
    stepM: true,
    cols: true,
    rows: true,
    tileRows: true,
    tileStart: true,
    segments: true,
    placeStart: true,
    place: true,
    extraStart: true,
    extraSquare: true,
    extraSegments: true,
  });
  c.value(l.x0, `${at}.x0`, isFiniteNumber);
  c.value(l.y0, `${at}.y0`, isFiniteNumber);
  c.value(l.stepM, `${at}.stepM`, isPositiveNumber);
  const cols = c.value<number>(l.cols, `${at}.cols`, isWithin(2, Number.MAX_SAFE_INTEGER));
  const rows = c.value<number>(l.rows, `${at}.rows`, isWithin(2, Number.MAX_SAFE_INTEGER));
  const tileRows = Math.ceil(rows / TILE_SIDE);
  if (l.tileRows !== tileRows) c.refuse(`${at}.tileRows`, `is ${describe(l.tileRows)}, not ${tileRows} for ${rows} rows`);
  const segments = c.typed(l.segments, Int32Array, `${at}.segments`);
  c.between(segments, `${at}.segments`, -1, segmentCount, 'the segments');
  const tileStart = c.typed(l.tileStart, Int32Array, `${at}.tileStart`);
  const tiles = tileStart.length - 1;
  // (the tiles are compared with an array's length: never more than the file holds)
  if (tiles !== Math.ceil(cols / TILE_SIDE) * tileRows) c.refuse(`${at}.tileStart`, `holds ${tileStart.length} offsets, not one more than the tiles of ${cols} × ${rows} points`);
  c.offsets(tileStart, `${at}.tileStart`, tiles, segments.length);
  // each tile's places follow the last's, as many bytes as its segments ask, each naming one of them
  const placeStart = c.typed(l.placeStart, Int32Array, `${at}.placeStart`, tiles);
  const place = c.typed(l.place, Uint8Array, `${at}.place`);
  // (a snapshot's arrays start on 8-byte boundaries, and a tile's places are 128 or 256 bytes)
  if (place.byteOffset % 4 !== 0) c.refuse(`${at}.place`, 'does not start on a 4-byte boundary');
  const words = new Uint32Array(place.buffer, place.byteOffset, place.length >> 2);
  let bytes = 0;
  for (let t = 0; t < tiles; t++) {
    if (placeStart[t] !== bytes) c.refuse(`${at}.placeStart[${t}]`, `is ${placeStart[t]}, not ${bytes} after the tiles before`);
    const size = tileStart[t + 1]! - tileStart[t]!;
    if (size < 1) c.refuse(`${at}.tileStart[${t}]`, 'starts a tile of no segment');
    bytes += tilePlaceBytes(size);
    if (bytes > place.length) c.refuse(`${at}.place`, `holds ${place.length} bytes, fewer than its tiles' places`);
    if (size === TILE_SIDE * TILE_SIDE || size === NIBBLE_SEGMENTS || size === 1) continue;
    if (placesPast(words, placeStart[t]!, bytes, size)) c.refuse(`${at}.place`, `names entry ${largestPlace(place, placeStart[t]!, bytes, size)} of tile ${t}'s ${size}`);
  }
  if (bytes !== place.length) c.refuse(`${at}.place`, `holds ${place.length} bytes, not its tiles' ${bytes}`);
  // the extra candidates: per tile, squares in increasing order, each with its segments
  const extraStart = c.typed(l.extraStart, Int32Array, `${at}.extraStart`, tiles + 1);
  const extraSquare = c.typed(l.extraSquare, Uint8Array, `${at}.extraSquare`);
  c.offsets(extraStart, `${at}.extraStart`, tiles, extraSquare.length);
  const extraSegments = c.typed(l.extraSegments, Int32Array, `${at}.extraSegments`, extraSquare.length * EXTRAS_PER_SQUARE);
  c.between(extraSegments, `${at}.extraSegments`, -1, segmentCount, 'the segments');
  for (let t = 0; t < tiles; t++) {
    for (let k = extraStart[t]! + 1; k < extraStart[t + 1]!; k++) {
      if (extraSquare[k]! <= extraSquare[k - 1]!) c.refuse(`${at}.extraSquare[${k}]`, `does not follow ${extraSquare[k - 1]} in its tile`);
    }
  }
}

/** The point sets: each linked set (on shared memory) beside its ids and totals, of one length. */
function checkPointSets(c: Checker, linkedValue: unknown, infoValue: unknown, edgeCount: number): void {
  const linked = c.list(linkedValue, 'streets.data.pointSets');
  const infos = c.list(infoValue, 'streets.pointSets');
  if (linked.length !== infos.length) c.refuse('streets.pointSets', `describes ${infos.length} point sets, the data holds ${linked.length}`);
  linked.forEach((value, k) => {
    const at = `streets.data.pointSets[${k}]`;
    const set = c.fields<LinkedPoints>(value, at, { name: true, lon: true, lat: true, links: true, columns: true });
    const info = c.fields<PointSetInfo>(infos[k], `streets.pointSets[${k}]`, { name: true, file: true, ids: true, columns: true, unlinked: true });
    const ids = c.strings(info.ids, `streets.pointSets[${k}].ids`);
    const count = ids.length;
    if (typeof set.name !== 'string' || set.name !== info.name) c.refuse(`${at}.name`, `is not the name its description gives (${describe(info.name)})`);
    if (typeof info.file !== 'string') c.refuse(`streets.pointSets[${k}].file`, 'is not a file name');
    c.count(info.unlinked, `streets.pointSets[${k}].unlinked`);
    c.coordinates(set.lon, set.lat, `${at}.lon`, `${at}.lat`, count);
    checkSnaps(c, set.links, `${at}.links`, count, edgeCount);
    const columns = c.records<{ name: string; values: Float64Array }>(set.columns, `${at}.columns`, { name: isString, values: (v) => (v instanceof Float64Array && v.length === count ? undefined : `is not a Float64Array of ${count} counts`) });
    const totals = c.records<{ name: string; total: number }>(info.columns, `streets.pointSets[${k}].columns`, { name: isString, total: (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'is not a finite total from 0') });
    if (totals.length !== columns.length) c.refuse(`streets.pointSets[${k}].columns`, `describes ${totals.length} columns, the data holds ${columns.length}`);
    columns.forEach((column, j) => {
      const path = `${at}.columns[${j}].values`;
      c.finite(column.values, path);
      if (column.values.some((v) => v < 0)) c.refuse(path, 'holds a negative count');
      // the reader's bound, which keeps every sum of counts finite and exact, holds for a snapshot too
      if (column.values.some((v) => v > MAX_OPPORTUNITY_COUNT)) c.refuse(path, `holds a count over ${MAX_OPPORTUNITY_COUNT}`);
    });
  });
}

function checkSnaps(c: Checker, value: unknown, at: string, stopCount: number, edgeCount: number): void {
  const snaps = c.fields<StopSnaps>(value, at, { edge: true, alongM: true, offsetM: true, unsnapped: true });
  const layers = LAYER_NAMES.length;
  const perLayer = (list: unknown, name: string): unknown[] => {
    const arrays = c.list(list, `${at}.${name}`);
    if (arrays.length !== layers) c.refuse(`${at}.${name}`, `holds ${arrays.length} entries, not one per street layer (${layers})`);
    return arrays;
  };
  const edges = perLayer(snaps.edge, 'edge');
  const along = perLayer(snaps.alongM, 'alongM');
  const offsets = perLayer(snaps.offsetM, 'offsetM');
  const unsnapped = perLayer(snaps.unsnapped, 'unsnapped');
  for (let layer = 0; layer < layers; layer++) {
    c.between(c.typed(edges[layer], Int32Array, `${at}.edge[${layer}]`, stopCount), `${at}.edge[${layer}]`, -1, edgeCount, 'the edges');
    c.finite(c.typed(along[layer], Float32Array, `${at}.alongM[${layer}]`, stopCount), `${at}.alongM[${layer}]`);
    c.finite(c.typed(offsets[layer], Float32Array, `${at}.offsetM[${layer}]`, stopCount), `${at}.offsetM[${layer}]`);
    c.count(unsnapped[layer], `${at}.unsnapped[${layer}]`);
  }
}
