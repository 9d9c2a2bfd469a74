/**
 * The request examples of README.md and docs/*.md on Porto Alegre (`poa`: the EPTC and Trensurb
 * feeds, the OSM extract and r5r's hexagons as the point set `hexgrid`, as docs/analysis.md configures
 * it), requested of the coverage loaded from ../shared/data: each answers the page's status and every
 * value of its shown answer (test/helpers/doc-examples.ts; the demo town's examples are
 * test/serve/doc-examples.test.ts's).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { docExamples, runExample } from '../helpers/doc-examples.js';
import { sharedFeed } from './coverage-app.js';

const examples = docExamples().filter((e) => e.coverage === 'poa');
let served: ServedApp;

before(async () => {
  served = await serveCoverages([
    {
      id: 'poa',
      gtfs: [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')],
      osm: sharedFeed('porto-alegre', 'osm.pbf'),
      pointSets: [{ name: 'hexgrid', file: sharedFeed('porto-alegre', 'hexgrid.csv') }],
    },
  ]);
});

after(() => served?.close());

test('the pages show Porto Alegre examples, most with their answer', () => {
  assert.ok(examples.length >= 5, `${examples.length} examples`);
  assert.ok(examples.filter((e) => e.excerpt !== undefined).length >= 4, 'the shown answers found');
});

for (const example of examples) {
  test(`${example.file}:${example.line} ${example.url}`, { skip: example.notRun ? `not run: ${example.notRun}` : false }, async () => {
    await runExample(served.app, example);
  });
}
