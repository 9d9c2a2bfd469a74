/**
 * A generation made warm builds beforehand the indexes the API's first requests read (the places
 * index, the trips by first departure); one made for a command that answers no request (`warm:
 * false`, a matrix) leaves them to be built on first read, with the same content.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import { makeGeneration } from '../../../src/service/generation.js';
import { PLACES_INDEXES } from '../../../src/ptref/places-index.js';
import { DEPARTURE_INDEXES } from '../../../src/ptref/departure-index.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { TOWN } from '../../helpers/town-app.js';

test('a warm generation has its request indexes built; a cold one builds them on first read, the same', async () => {
  const load = () => loadTimetable([writeFeed(TOWN, 'town')], { report: new LoadReport() });
  const warm = await makeGeneration(await load(), new LoadReport(), undefined, 'sources', true);
  assert.ok(PLACES_INDEXES.has(warm.ref) && DEPARTURE_INDEXES.has(warm.ref), 'built beforehand');
  const cold = await makeGeneration(await load(), new LoadReport(), undefined, 'sources', false);
  assert.ok(!PLACES_INDEXES.has(cold.ref) && !DEPARTURE_INDEXES.has(cold.ref), 'left to be built');
  // read, they are built then, with the warm one's content
  assert.deepEqual(DEPARTURE_INDEXES.of(cold.ref), DEPARTURE_INDEXES.of(warm.ref));
  assert.deepEqual(PLACES_INDEXES.of(cold.ref), PLACES_INDEXES.of(warm.ref));
  assert.ok(PLACES_INDEXES.has(cold.ref) && DEPARTURE_INDEXES.has(cold.ref));
});
