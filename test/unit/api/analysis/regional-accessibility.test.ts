/**
 * Regional accessibility (`accessibility?origins=SET`) on the hand-made city of
 * test/helpers/line-city.ts: every origin's values are exactly those of the single-place answer
 * from its position, the origin off the street network has nulls, and the refusals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnswer, getOk } from '../../../helpers/app.js';
import { lineCity, lonAt } from '../../../helpers/line-city.js';
import { MAX_ACCESSIBILITY_SEARCHES, MAX_MATRIX_ORIGINS } from '../../../../src/service/limits.js';

/** A set of `count` points on the footway. */
const pointsCsv = (count: number) => ['id,lon,lat,n', ...Array.from({ length: count }, (_, k) => `m${k},${lonAt(k % 3000)},0,1`)].join('\n') + '\n';
// one origin more than a request searches from at one departure; half as many, exactly the searches at two departures
const MANY = MAX_ACCESSIBILITY_SEARCHES + 1;
const HALF = MAX_ACCESSIBILITY_SEARCHES / 2;
// and as many as a matrix takes
const served = await lineCity({ many: pointsCsv(MANY), half: pointsCsv(HALF), most: pointsCsv(MAX_MATRIX_ORIGINS) });
const app = served.app;
const base = '/v1/coverage/line';
const at0800 = 'datetime=20240102T080000&walking_speed=1';

/** The regional answer of `query`, and for each of its origins the single-place answer from its position. */
async function regionalAndSingles(query: string) {
  const regional = (await getOk(app, `${base}/accessibility?origins=places&${query}`)).accessibility_by_origin;
  const singles = await Promise.all(regional.origins.map((_: string, k: number) => getOk(app, `${base}/accessibility?from=${regional.lon[k]};${regional.lat[k]}&${query}`)));
  return { regional, singles };
}

/** Each measure's value per origin equals the single answer's, exactly; the unlinked origin's are null. */
function assertSame(regional: any, singles: any[]) {
  const far = regional.origins.indexOf('far');
  assert.ok(regional.measures.length > 0);
  for (const m of regional.measures) {
    assert.equal(m.values.length, regional.origins.length);
    m.values.forEach((value: number | null, k: number) => {
      if (k === far) return assert.equal(value, null, `${m.opportunities} p${m.percentile} ${m.cutoff}: far`);
      const single = singles[k].accessibility.find((a: any) => a.opportunities === m.opportunities && a.percentile === m.percentile && a.cutoff === m.cutoff);
      assert.equal(m.decay_function, single.decay_function);
      assert.equal(value, single.value, `${regional.origins[k]}: ${m.opportunities} p${m.percentile} ${m.cutoff}`);
    });
  }
  // as many dual-access measures as the single answers have: none left out
  assert.equal(regional.nearest.length, singles[0].nearest.length);
  for (const m of regional.nearest) {
    m.durations.forEach((duration: number | null, k: number) => {
      if (k === far) return assert.equal(duration, null);
      const single = singles[k].nearest.find((a: any) => a.opportunities === m.opportunities && a.percentile === m.percentile && a.n === m.n);
      assert.equal(duration, single.duration, `${regional.origins[k]}: nearest ${m.n}`);
    });
  }
}

test('every origin of the set: the single answer from its position, value for value; the origin off the streets null', async () => {
  const query = `${at0800}&opportunities[]=places:schools&opportunities[]=places:jobs&cutoffs[]=600&cutoffs[]=1800&nearest[]=70&nearest[]=100`;
  const { regional, singles } = await regionalAndSingles(query);
  assert.deepEqual(regional.origins, ['p100', 'p500', 'p1000', 'p1750', 'p1850', 'p2900', 'far']);
  // per column, then percentile, then cutoff: the single answer's order
  assert.deepEqual(
    regional.measures.map((m: any) => [m.opportunities, m.percentile, m.cutoff, m.decay_function]),
    [
      ['places:schools', 50, 600, 'step'],
      ['places:schools', 50, 1800, 'step'],
      ['places:jobs', 50, 600, 'step'],
      ['places:jobs', 50, 1800, 'step'],
    ],
  );
  assertSame(regional, singles);
  // from p100 the bus (08:01 at the west end, 100 s away) is missed: on foot, p100 and p500 under
  // 10 minutes, and p1000, p1750 (1,650 s) and p1850 (1,750 s) under 30
  const p100 = (label: string, cutoff: number) => regional.measures.find((m: any) => m.opportunities === label && m.cutoff === cutoff).values[0];
  assert.deepEqual([p100('places:schools', 600), p100('places:jobs', 600), p100('places:schools', 1800), p100('places:jobs', 1800)], [2, 30, 5, 150]);
});

test('a window with two percentiles and a linear decay: still the single answers, exactly', async () => {
  const query = `${at0800}&opportunities[]=places:jobs&cutoffs[]=600&departure_window=600&percentiles[]=5&percentiles[]=50&decay_function=linear&decay_width=600`;
  const { regional, singles } = await regionalAndSingles(query);
  assert.deepEqual(
    regional.measures.map((m: any) => [m.percentile, m.decay_function]),
    [
      [5, 'linear'],
      [50, 'linear'],
    ],
  );
  assertSame(regional, singles);
});

test('opportunities from two point sets, over a window: one search per origin for both, each value still the single answer\'s', async () => {
  const query = `${at0800}&opportunities[]=places:schools&opportunities[]=half:n&cutoffs[]=600&cutoffs[]=1800&departure_window=180&percentiles[]=5&percentiles[]=50`;
  const { regional, singles } = await regionalAndSingles(query);
  assert.deepEqual([...new Set(regional.measures.map((m: any) => m.opportunities))], ['places:schools', 'half:n']);
  assertSame(regional, singles);
  // the footway's 1,250 points of `half`, every 3,000th metre wrapped: many within 30 minutes of p1000
  const p1000 = regional.measures.find((m: any) => m.opportunities === 'half:n' && m.percentile === 50 && m.cutoff === 1800).values[regional.origins.indexOf('p1000')];
  assert.ok(p1000 > 100, `half:n within 30 minutes of p1000: ${p1000}`);
});

test('the answer: the origins with their positions, the envelope of the other answers', async () => {
  const body = await getOk(app, `${base}/accessibility?origins=places&${at0800}&opportunities[]=places:schools`);
  assert.deepEqual(Object.keys(body), ['accessibility_by_origin', 'requested_date_time', 'feed_publishers', 'links', 'warnings', 'context']);
  assert.deepEqual(Object.keys(body.accessibility_by_origin), ['origins', 'lon', 'lat', 'measures', 'nearest']);
  assert.equal(body.accessibility_by_origin.lat[0], 0);
  assert.equal(body.accessibility_by_origin.measures[0].cutoff, 1800);
  assert.equal(body.requested_date_time, '20240102T080000');
});

test('refusals: origins with a place, no place at all, an unknown set, too many origins for the departures', async () => {
  const refused = async (query: string, status: number, message: string | RegExp) => {
    const a = await getAnswer(app, `${base}/accessibility?${at0800}&opportunities[]=places:jobs&${query}`);
    assert.equal(a.status, status, `${query}: ${a.body}`);
    if (typeof message === 'string') assert.equal(JSON.parse(a.body).message, message);
    else assert.match(a.body, message);
  };
  await refused(`origins=places&from=${lonAt(0)};0`, 400, "you cannot provide an 'origins' argument with a 'from' or a 'to'");
  await refused(`origins=places&to=${lonAt(0)};0`, 400, "you cannot provide an 'origins' argument with a 'from' or a 'to'");
  await refused('', 400, "you should provide a 'from', a 'to' or an 'origins' argument");
  // from and to together: the maps' own refusal, as before
  await refused(`from=${lonAt(0)};0&to=${lonAt(0)};0`, 400, "you cannot provide a 'from' and a 'to' argument");
  await refused('origins=nowhere', 400, "'origins' nowhere names no point set; the coverage has places (schools, jobs), many (n), half (n), most (n)");
  const tooMany = (origins: number, set: string, departures: number) =>
    `the ${origins} origins of ${set} over ${departures} departures, street legs reaching 1 times a walk's area, are more searches than a request computes (at most ${MAX_ACCESSIBILITY_SEARCHES} origins × departures × that factor): use navette accessibility`;
  await refused('origins=many&opportunities[]=many:n', 400, tooMany(MANY, 'many', 1));
  // a window of 3 minutes: three searches per origin
  await refused('origins=half&opportunities[]=half:n&departure_window=180', 400, tooMany(HALF, 'half', 3));
  // the matrix past its 200 origins
  const matrix = async (query: string, message: string) => {
    const a = await getAnswer(app, `${base}/travel_time_matrix?${at0800}&${query}`);
    assert.equal(a.status, 400, `${query}: ${a.body}`);
    assert.equal(JSON.parse(a.body).message, message);
  };
  await matrix('origins=many&destinations=places', `a matrix of ${MANY} origins × 7 destinations is larger than a request computes (at most 200 origins and 250000 pairs): use navette matrix`);
  // within its origins, past the searches: 200 origins over 13 departures
  await matrix('origins=most&destinations=places&departure_window=780', tooMany(MAX_MATRIX_ORIGINS, 'most', 13).replace('navette accessibility', 'navette matrix'));
  // the opportunities are still required, and checked against the coverage
  await refused('origins=places&opportunities[]=places:shops', 400, /names no point set column/);
  // a comparison is for one place
  await refused('origins=places&opportunities[]=places:jobs&data_freshness=realtime&compare_data_freshness=base_schedule', 400, "'compare_data_freshness' is available for one place (from or to), not with 'origins'");
});

test('the bound is inclusive: exactly its searches (half of it as origins, over two departures) are answered', async () => {
  const body = await getOk(app, `${base}/accessibility?origins=half&${at0800}&opportunities[]=half:n&departure_window=120&cutoffs[]=600`);
  assert.equal(body.accessibility_by_origin.origins.length, HALF);
  assert.ok(body.accessibility_by_origin.measures[0].values.every((v: number | null) => typeof v === 'number' && v > 0));
});
