/**
 * The locality bench's parts that decide what it prints (bench/country-locality.ts): the maps
 * compared cell by cell (bench/locality/map-comparison.ts), on maps written here, and the trips and
 * places requests it sends (bench/locality/request-mix.ts), drawn from the demo town's timetable
 * and answered by the API. No time is measured.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { MapComparison } from '../../../bench/locality/map-comparison.js';
import { COUNTRY_WIDE, mixKinds, requestMix } from '../../../bench/locality/request-mix.js';
import { getAnswer, serveCoverages, type ServedApp } from '../../helpers/app.js';

test('two maps compared cell by cell: reached on one side only, the differences both ways, the cells to explain', () => {
  const comparison = new MapComparison(3600);
  //                            both: −5, 0, +1 (the city faster by 1 s) | country only | city only | both: −10 ‰ | neither
  const country = Int32Array.from([20, 10, 30, 5, -1, 990, -1]);
  const city = Int32Array.from([25, 10, 29, -1, 40, 1000, -1]);
  assert.deepEqual(comparison.compare(country, city), { cityFaster: [2], cityOnly: [4] });
  assert.deepEqual(
    { origins: comparison.origins, cells: comparison.cells, both: comparison.both, countryOnly: comparison.countryOnly, cityOnly: comparison.cityOnly },
    { origins: 1, cells: 6, both: 4, countryOnly: 1, cityOnly: 1 },
  );
  assert.deepEqual(comparison.signs(), { faster: 2, equal: 1, slower: 1 });
  assert.deepEqual(comparison.extremes(), { min: -10, max: 1 });
  assert.deepEqual([0, 25, 50, 99].map((p) => comparison.difference(p)), [-10, -5, 0, 1]);
  // only the cell of 1000 s on the city's map is long enough for a relative difference
  assert.equal(comparison.relativeDifference(50), -10);
  assert.deepEqual(
    comparison.cityFasterBy().map((b) => b.cells),
    [1, 0, 0, 0, 0],
  );
  assert.deepEqual([comparison.originsCityFaster, comparison.originsCityOnly], [1, 1]);
  // a second origin where the maps agree adds cells, not suspects
  assert.deepEqual(comparison.compare(Int32Array.from([7, -1]), Int32Array.from([7, -1])), { cityFaster: [], cityOnly: [] });
  assert.deepEqual([comparison.origins, comparison.cells, comparison.originsCityFaster], [2, 7, 1]);
  assert.throws(() => comparison.compare(new Int32Array(3), new Int32Array(4)), /not on one grid/);
});

let served: ServedApp;

before(async () => {
  const demo = path.resolve('data/demo');
  served = await serveCoverages([{ id: 'demo', gtfs: [path.join(demo, 'gtfs')], timezone: 'Europe/Paris' }]);
});

after(async () => {
  await served?.close();
});

test("the request mix: the same requests from the same seed, each kind as often, every one a request the API answers", async () => {
  const tt = served.generations.get('demo')!.tt;
  const mix = requestMix(tt, 'demo', '20261124', 70, 7);
  assert.deepEqual(requestMix(tt, 'demo', '20261124', 70, 7), mix);
  assert.notDeepEqual(requestMix(tt, 'demo', '20261124', 70, 8), mix);
  const kinds = mixKinds(mix);
  assert.equal(kinds.length, 7);
  for (const kind of kinds) assert.equal(mix.filter((r) => r.kind === kind).length, 10, kind);
  const local = requestMix(tt, 'demo', '20261124', 60, 7, false);
  assert.deepEqual(mixKinds(local).sort(), kinds.filter((k) => k !== COUNTRY_WIDE).sort());
  for (const { kind, path: url } of [...mix, ...local]) {
    const answer = await getAnswer(served.app, url);
    // a stop area may have no trip leaving in the morning window: Navitia's 404 for an empty list
    const expected = kind === 'a stop area, 7–9 am' ? [200, 404] : [200];
    assert.ok(expected.includes(answer.status), `${url}: ${answer.status} ${answer.body.slice(0, 200)}`);
  }
});
