/** The street network as GeoJSON lines: kinds, simplification within its tolerance, ends kept. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streetLinesGeoJson, STREET_LINES_TOLERANCE_M } from '../../../src/formats/street-lines.js';
import { graphOf, latOfY, lonOfX } from '../../helpers/street-fixture.js';

type Lines = { type: string; features: { properties: { kind: string }; geometry: { type: string; coordinates: [number, number][][] } }[] };

test('roads and paths apart; points within the tolerance of the line dropped, the others and both ends kept', () => {
  const points: [number, number][] = [
    [0, 0],
    [100, 2], // 2 m off the line 0 → 200: dropped
    [200, 0],
    [300, 40], // 40 m off: kept
    [400, 0],
    [0, 100],
    [50, 100],
    [100, 100],
  ];
  const { graph } = graphOf(points, [
    { nodes: [0, 1, 2, 3, 4], tags: { highway: 'residential' } },
    { nodes: [5, 6, 7], tags: { highway: 'footway' } },
  ]);
  // the default tolerance drops the 2 m bend and keeps the 40 m one
  assert.ok(STREET_LINES_TOLERANCE_M > 2 && STREET_LINES_TOLERANCE_M < 40);
  const lines = JSON.parse(streetLinesGeoJson(graph)) as Lines;
  assert.equal(lines.type, 'FeatureCollection');
  assert.deepEqual(
    lines.features.map((f) => [f.properties.kind, f.geometry.type]),
    [
      ['road', 'MultiLineString'],
      ['path', 'MultiLineString'],
    ],
  );
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  const at = (i: number) => [round(lonOfX(points[i]![0])), round(latOfY(points[i]![1]))];
  assert.deepEqual(lines.features[0]!.geometry.coordinates, [[at(0), at(2), at(3), at(4)]]);
  // the footway is straight: its two ends only
  assert.deepEqual(lines.features[1]!.geometry.coordinates, [[at(5), at(7)]]);
  // a tolerance of 1 m keeps the 2 m bend
  assert.equal(JSON.parse(streetLinesGeoJson(graph, 1)).features[0].geometry.coordinates[0].length, 5);
});
