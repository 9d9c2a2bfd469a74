/**
 * The basemap read from an extract (osm/basemap-draft.ts, through both readers) and written as
 * GeoJSON (formats/basemap-geojson.ts), on a hand-made extract near 2°E 48°N, where 0.001° of
 * longitude is 74.4 m and 0.001° of latitude 111.2 m:
 *
 *   park (way 10)  1 ── 2      water (way 11)  5 ── 6      pond (way 12): 9, 10, 11, a 2 m triangle
 *                  │    │                      │    │      grass (way 13): 1, 2, 3, not closed
 *                  4 ── 3                      8 ── 7      tram (way 15), highway (way 16): not drawn
 *
 *   rail (way 14)  20 ── 21 ✕ 99 (missing) ✕ 22 ── 23      two runs
 *   rail (way 17)  40 ── 41 ── 42, with 41 1.1 m off the line 40–42: simplified away
 *
 *   places: 31 city "Porto", 30 suburb "Centro"; 32 a town without a name and 33 a named café are not places
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BasemapKind, joinRings, type OsmBasemap } from '../../../src/osm/basemap-draft.js';
import { basemapGeoJson } from '../../../src/formats/basemap-geojson.js';
import { readOsm } from '../../../src/osm/read-osm.js';
import { writeFileSync } from 'node:fs';
import { fileBlock, headerBlock, NANODEGREE_GRID, nodesGroup, primitiveBlock, REQUIRED_FEATURES, writeOsm, type OsmFixture } from '../../helpers/osm-fixture.js';

const FIXTURE: OsmFixture = {
  nodes: [
    { id: 1, lon: 2.0, lat: 48.001 },
    { id: 2, lon: 2.001, lat: 48.001 },
    { id: 3, lon: 2.001, lat: 48.0 },
    { id: 4, lon: 2.0, lat: 48.0 },
    { id: 5, lon: 2.002, lat: 48.001 },
    { id: 6, lon: 2.003, lat: 48.001 },
    { id: 7, lon: 2.003, lat: 48.0 },
    { id: 8, lon: 2.002, lat: 48.0 },
    { id: 9, lon: 2.005, lat: 48.005 },
    { id: 10, lon: 2.00502, lat: 48.005 },
    { id: 11, lon: 2.00502, lat: 48.00502 },
    { id: 20, lon: 2.0, lat: 48.01 },
    { id: 21, lon: 2.001, lat: 48.01 },
    { id: 22, lon: 2.003, lat: 48.01 },
    { id: 23, lon: 2.004, lat: 48.01 },
    { id: 30, lon: 2.0005, lat: 48.0005, tags: { place: 'suburb', name: 'Centro' } },
    { id: 31, lon: 2.002, lat: 48.002, tags: { place: 'city', name: 'Porto' } },
    { id: 32, lon: 2.003, lat: 48.003, tags: { place: 'town' } },
    { id: 33, lon: 2.004, lat: 48.004, tags: { amenity: 'cafe', name: 'Café' } },
    { id: 40, lon: 2.01, lat: 48.0 },
    { id: 41, lon: 2.011, lat: 48.00001 },
    { id: 42, lon: 2.012, lat: 48.0 },
  ],
  ways: [
    { id: 10, refs: [1, 2, 3, 4, 1], tags: { leisure: 'park', name: 'Parque' } },
    { id: 11, refs: [5, 6, 7, 8, 5], tags: { natural: 'water' } },
    { id: 12, refs: [9, 10, 11, 9], tags: { natural: 'water' } },
    { id: 13, refs: [1, 2, 3], tags: { landuse: 'grass' } },
    { id: 14, refs: [20, 21, 99, 22, 23], tags: { railway: 'rail' } },
    { id: 15, refs: [20, 23], tags: { railway: 'tram' } },
    { id: 16, refs: [1, 5], tags: { highway: 'residential' } },
    { id: 17, refs: [40, 41, 42], tags: { railway: 'rail' } },
  ],
};

/** Shapes as [kind, [[lon, lat]…]] with coordinates to 6 decimals (the PBF puts them on nanodegrees). */
function shapes(b: OsmBasemap): [number, number[][]][] {
  return Array.from({ length: b.shapeCount }, (_, s) => {
    const points: number[][] = [];
    for (let p = b.pointOffset[s]!; p < b.pointOffset[s + 1]!; p++) points.push([round6(b.lon[p]!), round6(b.lat[p]!)]);
    return [b.shapeKind[s]!, points];
  });
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

for (const name of ['basemap.osm', 'basemap.osm.pbf']) {
  test(`the basemap of an extract read from ${name}: closed water and park ways, railway runs, named places`, async () => {
    const osm = await readOsm(writeOsm(FIXTURE, name), { streets: false, basemap: true });
    const b = osm.basemap!;
    assert.deepEqual(shapes(b), [
      [BasemapKind.Park, [[2, 48.001], [2.001, 48.001], [2.001, 48], [2, 48], [2, 48.001]]],
      [BasemapKind.Water, [[2.002, 48.001], [2.003, 48.001], [2.003, 48], [2.002, 48], [2.002, 48.001]]],
      [BasemapKind.Water, [[2.005, 48.005], [2.00502, 48.005], [2.00502, 48.00502], [2.005, 48.005]]],
      [BasemapKind.Rail, [[2, 48.01], [2.001, 48.01]]],
      [BasemapKind.Rail, [[2.003, 48.01], [2.004, 48.01]]],
      [BasemapKind.Rail, [[2.01, 48], [2.011, 48.00001], [2.012, 48]]],
    ]);
    assert.equal(b.openAreas, 1, 'the grass way does not close');
    assert.deepEqual(b.placeName, ['Centro', 'Porto']);
    assert.deepEqual([...b.placeRank], [2, 0]);
    assert.deepEqual([...b.placeLon].map(round6), [2.0005, 2.002]);
    // streets: false keeps no highway
    assert.equal(osm.wayCount, 0);
  });
}

/**
 * A lake mapped as a multipolygon: its outer ring in two untagged ways (60: 50 → 51 → 52, 61: 50 → 53
 * → 52, the second against the first's direction), an island as an inner way (62), the tags on the
 * relation; a forest whose second outer way is missing from the extract; a multipolygon of another
 * kind (a building) and a relation of another type are not drawn.
 */
const MULTIPOLYGONS: OsmFixture = {
  nodes: [
    { id: 50, lon: 2.1, lat: 48.1 },
    { id: 51, lon: 2.102, lat: 48.1 },
    { id: 52, lon: 2.102, lat: 48.102 },
    { id: 53, lon: 2.1, lat: 48.102 },
    { id: 54, lon: 2.1005, lat: 48.1005 },
    { id: 55, lon: 2.1015, lat: 48.1005 },
    { id: 56, lon: 2.101, lat: 48.1015 },
  ],
  ways: [
    { id: 60, refs: [50, 51, 52], tags: {} },
    { id: 61, refs: [50, 53, 52], tags: {} },
    { id: 62, refs: [54, 55, 56, 54], tags: {} },
    { id: 63, refs: [50, 51], tags: { highway: 'residential' } },
  ],
  relations: [
    { id: 70, members: [{ ref: 60, role: 'outer' }, { ref: 62, role: 'inner' }, { ref: 61, role: 'outer' }], tags: { type: 'multipolygon', natural: 'water', name: 'Lago' } },
    { id: 71, members: [{ ref: 60, role: 'outer' }, { ref: 999, role: 'outer' }], tags: { type: 'multipolygon', landuse: 'forest' } },
    { id: 72, members: [{ ref: 60, role: 'outer' }, { ref: 61, role: 'outer' }], tags: { type: 'multipolygon', building: 'yes' } },
    { id: 73, members: [{ ref: 63, role: '' }], tags: { type: 'route', route: 'bus' } },
    74,
  ],
};

for (const name of ['multipolygons.osm', 'multipolygons.osm.pbf']) {
  test(`multipolygons read from ${name}: a lake's outer ring joined from its member ways; a ring with a member missing left out`, async () => {
    const osm = await readOsm(writeOsm(MULTIPOLYGONS, name), { streets: false, basemap: true });
    const b = osm.basemap!;
    assert.deepEqual(shapes(b), [[BasemapKind.Water, [[2.1, 48.1], [2.102, 48.1], [2.102, 48.102], [2.1, 48.102], [2.1, 48.1]]]]);
    assert.equal(b.openAreas, 1, "the forest's ring does not close");
    assert.equal(osm.stats.relationsRead, 5);
  });
}

test('member ways join into rings end to end, either way round; a chain that does not close is null', () => {
  assert.deepEqual(joinRings([[1, 2, 3], [3, 4, 1]]), [[1, 2, 3, 4, 1]]);
  assert.deepEqual(joinRings([[1, 2], [5, 4, 3], [1, 5], [2, 3]]), [[1, 2, 3, 4, 5, 1]]);
  assert.deepEqual(joinRings([[1, 2, 3], [7, 8, 9, 7]]), [null, [7, 8, 9, 7]]);
  assert.deepEqual(joinRings([[1, 2, 1]]), [null], 'three references are no ring');
});

test('a reading that asks for no basemap has none, and its streets are those it had', async () => {
  const file = writeOsm(FIXTURE, 'basemap.osm.pbf');
  const plain = await readOsm(file);
  assert.equal(plain.basemap, undefined);
  assert.deepEqual([...plain.wayIds], [16]);
  const both = await readOsm(file, { basemap: true });
  assert.deepEqual([...both.wayIds], [16]);
  assert.equal(both.basemap!.shapeCount, 6);
});

test('the basemap as GeoJSON: parks then water then railways, the pond too small, the kink simplified away, the city first', async () => {
  const osm = await readOsm(writeOsm(FIXTURE, 'basemap.osm'), { streets: false, basemap: true });
  const { text, summary } = basemapGeoJson(osm.basemap!);
  assert.deepEqual(JSON.parse(text), {
    type: 'FeatureCollection',
    truncated: false,
    features: [
      { type: 'Feature', properties: { kind: 'park' }, geometry: { type: 'MultiPolygon', coordinates: [[[[2, 48.001], [2.001, 48.001], [2.001, 48], [2, 48], [2, 48.001]]]] } },
      { type: 'Feature', properties: { kind: 'water' }, geometry: { type: 'MultiPolygon', coordinates: [[[[2.002, 48.001], [2.003, 48.001], [2.003, 48], [2.002, 48], [2.002, 48.001]]]] } },
      {
        type: 'Feature',
        properties: { kind: 'rail' },
        geometry: { type: 'MultiLineString', coordinates: [[[2, 48.01], [2.001, 48.01]], [[2.003, 48.01], [2.004, 48.01]], [[2.01, 48], [2.012, 48]]] },
      },
      { type: 'Feature', properties: { kind: 'place', place: 'city', name: 'Porto' }, geometry: { type: 'Point', coordinates: [2.002, 48.002] } },
      { type: 'Feature', properties: { kind: 'place', place: 'suburb', name: 'Centro' }, geometry: { type: 'Point', coordinates: [2.0005, 48.0005] } },
    ],
  });
  assert.deepEqual(summary, { shapes: 5, points: 16, places: 2, truncated: false });
});

test('the caps stop the writing and say so', async () => {
  const osm = await readOsm(writeOsm(FIXTURE, 'basemap.osm'), { streets: false, basemap: true });
  // room for the park's 5 points, not the water's 5 more; room for one place, the city
  const { text, summary } = basemapGeoJson(osm.basemap!, { maxPoints: 9, maxPlaces: 1 });
  const parsed = JSON.parse(text);
  assert.equal(parsed.truncated, true);
  assert.deepEqual(
    parsed.features.map((f: { properties: { kind: string; name?: string } }) => f.properties.name ?? f.properties.kind),
    ['park', 'Porto'],
  );
  assert.deepEqual(summary, { shapes: 1, points: 5, places: 1, truncated: true });
});

test('places are read from plain PBF nodes too, not only dense ones', async () => {
  const file = writeOsm({ nodes: [], ways: [] }, 'plain.osm.pbf');
  const places = FIXTURE.nodes.filter((n) => n.tags);
  writeFileSync(
    file,
    Buffer.concat([
      fileBlock('OSMHeader', headerBlock(REQUIRED_FEATURES), 'raw'),
      fileBlock('OSMData', primitiveBlock([nodesGroup(places, NANODEGREE_GRID)], NANODEGREE_GRID), 'zlib'),
    ]),
  );
  const b = (await readOsm(file, { streets: false, basemap: true })).basemap!;
  assert.deepEqual(b.placeName, ['Centro', 'Porto']);
  assert.deepEqual([...b.placeLat].map(round6), [48.0005, 48.002]);
});
