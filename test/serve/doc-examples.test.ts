/**
 * Every request example of README.md and docs/*.md on the demo town (and the paths outside any
 * coverage: the explorer, /v1, the probes), requested of the demo coverage as `npm start` serves it,
 * its status the page's (200 unless it says otherwise) and every value of its shown answer the
 * server's (test/helpers/doc-examples.ts says how examples and answers are read). The Porto Alegre
 * examples run in test/e2e/doc-examples-poa.test.ts, on the shared data.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { docExamples, docPages, excerptDifferences, examplesOf, parseExcerpt, runExample } from '../helpers/doc-examples.js';

const DEMO = path.resolve('data/demo');
/** the coverages the examples may name, and the test file that serves each */
const SERVED_ELSEWHERE = new Set(['poa']);

const examples = docExamples();
const here = examples.filter((e) => e.coverage === undefined || e.coverage === 'demo');
let served: ServedApp;

before(async () => {
  served = await serveCoverages([
    { id: 'demo', gtfs: [path.join(DEMO, 'gtfs')], osm: path.join(DEMO, 'valmont.osm'), timezone: 'Europe/Paris', scenarios: [{ name: 'plan2030', path: path.join(DEMO, 'scenarios', 'plan2030.json') }] },
  ]);
});

after(() => served?.close());

test('the pages hold the examples this test knows: each names the demo town, Porto Alegre or no coverage, and few are left unrun', (t) => {
  const perPage = docPages().map((file) => `${file}: ${examples.filter((e) => e.file === file && !e.notRun).length}`);
  t.diagnostic(`examples run per page: ${perPage.join(', ')}`);
  for (const e of examples) assert.ok(e.coverage === undefined || e.coverage === 'demo' || SERVED_ELSEWHERE.has(e.coverage), `${e.file}:${e.line}: coverage ${e.coverage}`);
  assert.ok(examples.length >= 45, `${examples.length} examples`);
  assert.ok(examples.filter((e) => e.excerpt !== undefined).length >= 12, 'the shown answers found');
  assert.ok(examples.filter((e) => e.notRun).length <= 3, examples.filter((e) => e.notRun).map((e) => `${e.file}:${e.line} ${e.notRun}`).join('\n'));
});

test('the examples and answers are read as the pages mean them', () => {
  const page = [
    'See <http://localhost:9090/v1/coverage/demo/trips?depth=2>, `/v1/coverage/demo/lines` and `/v1/coverage/{region}/lines`.',
    '<!-- status: 404 -->',
    "```sh\ncurl 'http://localhost:9090/v1/coverage/demo/trips?filter=vehicle_journey.has_headsign(%22A%22)'\n```",
    '```json\n{"a":[1, …, 3],"b":"x…z", …}\n```',
    '<!-- not-run: needs a file of its own -->',
    "```sh\ncurl 'http://localhost:9090/v1/coverage/other/trips'\ncurl 'http://localhost:9090/v1/coverage/other/lines'\n```",
    '```json\n{}\n```',
  ].join('\n');
  const read = examplesOf('page.md', page);
  assert.deepEqual(
    read.map(({ line, url, coverage, status, excerpt, notRun }) => ({ line, url, coverage, status, excerpt, notRun })),
    [
      { line: 1, url: '/v1/coverage/demo/trips?depth=2', coverage: 'demo', status: 200, excerpt: undefined, notRun: undefined },
      { line: 1, url: '/v1/coverage/demo/lines', coverage: 'demo', status: 200, excerpt: undefined, notRun: undefined },
      { line: 4, url: '/v1/coverage/demo/trips?filter=vehicle_journey.has_headsign(%22A%22)', coverage: 'demo', status: 404, excerpt: '{"a":[1, …, 3],"b":"x…z", …}', notRun: undefined },
      { line: 11, url: '/v1/coverage/other/trips', coverage: 'other', status: 200, excerpt: undefined, notRun: 'needs a file of its own' },
      { line: 12, url: '/v1/coverage/other/lines', coverage: 'other', status: 200, excerpt: undefined, notRun: 'needs a file of its own' },
    ],
  );
  const excerpt = parseExcerpt(read[2]!.excerpt!);
  assert.deepEqual(excerptDifferences(excerpt, { a: [1, 2, 2, 3], b: 'xyyz', c: 0 }), []);
  assert.deepEqual(excerptDifferences(excerpt, { a: [1, 3], b: 'xz' }), []);
  assert.deepEqual(excerptDifferences(excerpt, { a: [2, 3], b: 'xz' }), ['.a[0]: shown 1, answered 2']);
  assert.deepEqual(excerptDifferences(excerpt, { a: [1, 2], b: 'yz' }), ['.a[1]: shown 3, answered 2', '.b: shown "x…z", answered "yz"']);
  assert.deepEqual(excerptDifferences(parseExcerpt('{"a":[…, {"id":2}, …]}'), { a: [{ id: 1 }, { id: 3 }] }), ['.a: [{"id":2}] not found in the answer after item 0']);
  assert.deepEqual(excerptDifferences(parseExcerpt('{"a":[{"id":1}, {"id":2}]}'), { a: [{ id: 1 }] }), ['.a: 2 items shown, 1 answered']);
  // the moment of the run: its form only
  const context = parseExcerpt('{"context":{"current_datetime":"20261123T032818","timezone":"Europe/Paris"}}');
  assert.deepEqual(excerptDifferences(context, { context: { current_datetime: '20270101T000000', timezone: 'Europe/Paris' } }), []);
  assert.equal(excerptDifferences(context, { context: { current_datetime: '2027-01-01', timezone: 'Europe/Paris' } }).length, 1);
  assert.deepEqual(excerptDifferences(parseExcerpt('{"missing":{…}}'), {}), ['.missing: shown {}, absent from the answer']);
});

for (const example of here) {
  test(`${example.file}:${example.line} ${example.url}`, { skip: example.notRun ? `not run: ${example.notRun}` : false }, async () => {
    await runExample(served.app, example);
  });
}
