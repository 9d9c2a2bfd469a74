/**
 * The street data built with its street network in a worker thread: the same network as built on
 * this thread, the same notes in the load report, the connections pruned at the default walking
 * speed as a search prunes them, and a failure that keeps its message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { buildStreetData } from '../../../src/service/street-data.js';
import { buildStreetNetwork } from '../../../src/service/street-network-build.js';
import { buildRaptorData } from '../../../src/routing/raptor-data.js';
import { DEFAULT_WALKING_SPEED, pruneTransfers, routeGaps } from '../../../src/routing/transfer-pruning.js';

const demo = path.resolve('data/demo');

test('the street network from the worker is the one built here; the notes reach the load report', async () => {
  const tt = await loadTimetable([path.join(demo, 'gtfs')], { timezone: 'Europe/Paris' });
  const report = new LoadReport();
  const streets = await buildStreetData(tt, path.join(demo, 'valmont.osm'), [], report);
  const here = await buildStreetNetwork(path.join(demo, 'valmont.osm'), tt.stopPoints.lon, tt.stopPoints.lat);
  const { graph } = streets.data;
  assert.ok(graph.edgeCount > 100);
  for (const key of ['edgeFrom', 'edgeTo', 'edgeLengthDm', 'edgeAccess', 'adjOffset', 'adjTarget', 'geomX', 'geomY', 'segmentEdge'] as const) {
    assert.deepEqual(graph[key], here.graph[key], key);
  }
  assert.ok(graph.edgeFrom.buffer instanceof SharedArrayBuffer, 'on shared memory, for the heat-map threads');
  assert.deepEqual(streets.names, here.names);
  assert.deepEqual(streets.stats, here.stats);
  assert.deepEqual(streets.data.raptor, buildRaptorData(tt, here.footpaths));
  // the connections of the default walking speed, pruned once with the data (in slices) as a search prunes them, on shared memory
  const pruned = streets.data.prunedTransfers;
  assert.deepEqual(pruned, pruneTransfers(streets.data.raptor, routeGaps(streets.data.raptor), DEFAULT_WALKING_SPEED));
  assert.equal(pruned.speed, DEFAULT_WALKING_SPEED);
  assert.ok(pruned.outTo.buffer instanceof SharedArrayBuffer && pruned.inFrom.buffer instanceof SharedArrayBuffer);
  assert.ok(pruned.outTo.length > 0 && pruned.outTo.length <= streets.data.raptor.transferTo.length);
  assert.ok(here.notes.length > 0);
  assert.deepEqual(report.notes, here.notes);
});

test('an extract that cannot be read fails the build with the reader\'s message', async () => {
  const tt = await loadTimetable([path.join(demo, 'gtfs')], { timezone: 'Europe/Paris' });
  await assert.rejects(buildStreetData(tt, path.join(demo, 'no-such-extract.osm.pbf'), [], new LoadReport()), /no-such-extract\.osm\.pbf/);
});
