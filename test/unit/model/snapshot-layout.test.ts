/**
 * The layout of a coverage's compiled data, as a snapshot holds it. When it changes (a field added,
 * renamed, retyped), snapshots written before can no longer be read right: SNAPSHOT_FORMAT must
 * change with it, so that they are refused and rebuilt. This test fails until both are updated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SNAPSHOT_FORMAT } from '../../../src/model/snapshot-file.js';
import { compileCoverage } from '../../../src/service/load-coverage.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { fixtureGtfs, latOf, lonOf, writeFixtureOsm } from '../api/heat-maps/fixture.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The layout each format version stands for: a hash of the shape of the compiled data. */
const LAYOUTS: Record<number, string> = {
  1: '581a0f33b41ecf66',
  // street statistics: roads opened for their unmapped sidewalks, ways opened against false islands, small islands
  2: 'a053eeb574e86e5f',
  // the same layout, another meaning: stops linked after the small islands are removed, transfers along the streets only
  3: 'a053eeb574e86e5f',
  // the street graph's link lattices, one per layer, and their bytes among the street statistics
  4: '149c17ceeb9939d0',
  // the point sets: linked points on shared memory, their ids and totals beside the street data
  5: '6ddecab668c0d83e',
  // the same layout, another meaning: motor roads closed to walkers and cyclists
  6: '6ddecab668c0d83e',
  // the link lattices' extra candidates per square
  7: '2806b5ae1daa8a51',
  // the segment grid without its copy of the segments' ends
  8: '89f97ad7d109c09c',
  // the connections pruned at the default walking speed, with the transit search data
  9: '0567cb247109f97b',
  // the link lattices stored sparsely: each tile's places where they start, a half byte a point in a tile of few segments
  10: '1cf5b476440d02a4',
  // the projection says whether it is conformal (a region's, a country's), its lengths on the ground
  11: 'c4009dd7f83695eb',
};

/** One line per path of the tree and the kind of value found there (array elements merged). */
function shapeLines(value: unknown, at: string, lines: Set<string>): void {
  if (ArrayBuffer.isView(value)) {
    lines.add(`${at}: ${value.constructor.name}`);
  } else if (value instanceof Map) {
    for (const [k, v] of value) {
      shapeLines(k, `${at}{key}`, lines);
      shapeLines(v, `${at}{value}`, lines);
    }
  } else if (Array.isArray(value)) {
    lines.add(`${at}: array`);
    for (const v of value) shapeLines(v, `${at}[]`, lines);
  } else if (value !== null && typeof value === 'object') {
    lines.add(`${at}: object`);
    for (const [k, v] of Object.entries(value)) shapeLines(v, `${at}.${k}`, lines);
  } else {
    lines.add(`${at}: ${value === null ? 'null' : typeof value}`);
  }
}

test('the layout of the compiled data is the one SNAPSHOT_FORMAT stands for', async () => {
  const osm = writeFixtureOsm();
  // a point set, so that its fields are part of the layout
  const points = path.join(mkdtempSync(path.join(tmpdir(), 'navette-layout-')), 'places.csv');
  writeFileSync(points, `id,lon,lat,jobs\na,${lonOf('A')},${latOf('A')},3\n`);
  const compiled = await compileCoverage({ id: 'layout', gtfs: [writeFeed(fixtureGtfs())], osm, timezone: 'UTC', pointSets: [{ name: 'places', file: points }] });
  const lines = new Set<string>();
  // what coverage-snapshot.ts writes: the street data without its id
  const { id, ...streets } = compiled.streets!;
  void id;
  shapeLines({ tt: compiled.tt, report: compiled.report.state(), streets }, '', lines);
  const layout = createHash('sha256').update([...lines].sort().join('\n')).digest('hex').slice(0, 16);
  assert.equal(
    LAYOUTS[SNAPSHOT_FORMAT],
    layout,
    `the compiled data's layout changed: raise SNAPSHOT_FORMAT in src/model/snapshot-file.ts and add its layout here.\n${[...lines].sort().join('\n')}`,
  );
});
