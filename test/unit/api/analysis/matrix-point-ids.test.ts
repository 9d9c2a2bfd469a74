/**
 * `travel_time_matrix` narrowed by `origin_ids[]` and `destination_ids[]`: the rows and columns of
 * the points named, in the order given, each the whole matrix's value; an unknown id refused by
 * name, an id given twice refused, both with Navitia's plain error body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnswer, getOk } from '../../../helpers/app.js';
import { lineCity } from '../../../helpers/line-city.js';

const served = await lineCity();
const app = served.app;
const matrix = '/v1/coverage/line/travel_time_matrix?origins=places&datetime=20240102T080000&walking_speed=1&max_duration=3600';

test('origin_ids[] and destination_ids[]: the rows and columns named, in the order given, each the whole matrix\'s value', async () => {
  const whole = (await getOk(app, matrix)).travel_time_matrix;
  const narrowed = (await getOk(app, `${matrix}&origin_ids[]=p1750&origin_ids[]=p100&destination_ids[]=p2900&destination_ids[]=p100&destination_ids[]=p500`)).travel_time_matrix;
  assert.deepEqual(narrowed.origins, ['p1750', 'p100']);
  assert.deepEqual(narrowed.destinations, ['p2900', 'p100', 'p500']);
  const at = (m: any, from: string, to: string) => m.durations[0][m.origins.indexOf(from)][m.destinations.indexOf(to)];
  for (const from of narrowed.origins) for (const to of narrowed.destinations) assert.equal(at(narrowed, from, to), at(whole, from, to), `${from} → ${to}`);
  // one of the two given: the other is the whole set
  const rows = (await getOk(app, `${matrix}&origin_ids[]=far`)).travel_time_matrix;
  assert.deepEqual(rows.origins, ['far']);
  assert.deepEqual(rows.destinations, whole.destinations);
});

test('an id the set does not hold is refused by name, an id given twice too', async () => {
  const refused = async (query: string, message: string) => {
    const a = await getAnswer(app, `${matrix}&${query}`);
    assert.equal(a.status, 400, a.body);
    assert.deepEqual(JSON.parse(a.body), { message });
  };
  await refused('origin_ids[]=p100&origin_ids[]=nowhere&origin_ids[]=p99', "'origin_ids[]' names no point of places: nowhere, p99");
  await refused('destination_ids[]=p100&destination_ids[]=p500&destination_ids[]=p100', "'destination_ids[]' gives p100 twice: name each point once");
  await refused(`origin_ids[]=p100&${Array.from({ length: 12 }, (_, k) => `destination_ids[]=x${k}`).join('&')}`, "'destination_ids[]' names no point of places: x0, x1, x2, x3, x4, x5, x6, x7, x8, x9 and 2 more");
});
