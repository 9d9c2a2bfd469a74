/**
 * Accessibility, travel-time matrices and point sets on a hand-made city whose travel times are
 * known (test/helpers/line-city.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnswer, getOk } from '../../../helpers/app.js';
import { coord, lineCity, lonAt, POINTS } from '../../../helpers/line-city.js';
import { METRES_PER_DEGREE } from '../../../../src/util/geodesy.js';
import { readTripUpdates } from '../../../../src/live/realtime/trip-updates.js';
import { withRealtime } from '../../../../src/service/generation.js';
import { searchCost } from '../../../../src/queries/origin-rows.js';
import { matrixCommandParams } from '../../../../src/queries/analysis-params.js';
import type { MapParams } from '../../../../src/queries/journey-params.js';
import { parseParams } from '../../../../src/queries/param-table.js';
import { DEFAULT_LIMITS } from '../../../../src/service/limits.js';

const served = await lineCity();
const app = served.app;
const base = '/v1/coverage/line';
const at0800 = 'datetime=20240102T080000&walking_speed=1';

test('point_sets lists the set with its columns and totals; the bad row is reported with its file and line, and skipped', async () => {
  const body = await getOk(app, `${base}/point_sets`);
  assert.deepEqual(body.point_sets, [
    {
      name: 'places',
      file: 'places.csv',
      points: 7,
      unlinked_points: 1,
      columns: [
        { name: 'schools', total: 7, opportunities: 'places:schools' },
        { name: 'jobs', total: 1210, opportunities: 'places:jobs' },
      ],
    },
  ]);
  const bad = served.problems.filter((p) => p.file.endsWith('places.csv'));
  assert.equal(bad.length, 1);
  assert.equal(bad[0]!.line, 8);
});

test('the matrix from every point to every point: the walk along the footway, or the bus and the walk back', async () => {
  // walks of up to an hour (at points a walk lasts at most max_walking_duration_to_pt, R5's rule)
  const body = await getOk(app, `${base}/travel_time_matrix?origins=places&${at0800}&max_duration=3600&max_walking_duration_to_pt=3600`);
  const m = body.travel_time_matrix;
  assert.deepEqual(m.origins, ['p100', 'p500', 'p1000', 'p1750', 'p1850', 'p2900', 'far']);
  assert.deepEqual(m.percentiles, [50]);
  const row = (id: string) => m.durations[0][m.origins.indexOf(id)];
  // from p100, on foot: |x - 100| seconds (a second's slack for the positions' rounding); the far point null
  row('p100').slice(0, 6).forEach((sec: number, k: number) => assert.ok(Math.abs(sec - Math.abs(POINTS[k]![1] - 100)) <= 1, `p100 → ${POINTS[k]![0]}: ${sec}`));
  assert.equal(row('p100')[6], null);
  // with the default 30 minutes of walking, the walk past it is left out: p2900 (2,800 s from p100,
  // the bus missed at 08:00) null; p1850 (1,750 s) still walked
  const short = (await getOk(app, `${base}/travel_time_matrix?origins=places&${at0800}&max_duration=3600`)).travel_time_matrix;
  const walked = short.durations[0][short.origins.indexOf('p100')];
  assert.deepEqual(
    walked.map((sec: number | null) => (sec === null ? null : Math.round(sec / 10) * 10)),
    [0, 400, 900, 1650, 1750, null, null],
  );
  // the far point reaches nothing and nothing reaches it
  assert.ok(row('far').every((sec: number | null) => sec === null));
  // at 07:58 from p100, the bus: 100 s to the west stop (there by 08:00, the minute's slack before
  // 08:01), at the east end at 08:05, then 100 m back to p2900: 520 s; 1,150 m back to p1850:
  // 1,570 s, sooner than its 1,750 m on foot
  const early = (await getOk(app, `${base}/travel_time_matrix?origins=places&datetime=20240102T075800&walking_speed=1&max_duration=3600`)).travel_time_matrix;
  const fromP100 = early.durations[0][early.origins.indexOf('p100')];
  assert.ok(Math.abs(fromP100[POINTS.findIndex((p) => p[0] === 'p2900')] - 520) <= 1, `p100 → p2900: ${fromP100[5]}`);
  assert.ok(Math.abs(fromP100[POINTS.findIndex((p) => p[0] === 'p1850')] - 1570) <= 1, `p100 → p1850: ${fromP100[4]}`);
});

test('cumulative opportunities: exact counts under each cutoff, the bus bringing the far end within 10 minutes', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&opportunities[]=places:jobs&cutoffs[]=600&cutoffs[]=1800`);
  const value = (opportunities: string, cutoff: number) => body.accessibility.find((a: any) => a.opportunities === opportunities && a.cutoff === cutoff)?.value;
  // under 600 s: p100 (100 s), p2900 (400 s by bus), p500 (500 s)
  assert.equal(value('places:schools', 600), 3);
  assert.equal(value('places:jobs', 600), 90);
  // under 1800 s: and p1000 (1000 s), p1850 (1,450 s: the bus, then 1,150 m back), p1750 (1750 s on foot)
  assert.equal(value('places:schools', 1800), 6);
  assert.equal(value('places:jobs', 1800), 210);
  assert.ok(body.accessibility.every((a: any) => a.percentile === 50 && a.decay_function === 'step'));
  assert.equal(body.from.embedded_type, 'address');
});

test('at points a walk, from the start or from the last stop, lasts at most max_walking_duration_to_pt, as in R5; a heat map\'s cells keep walking up to max_duration', async () => {
  const query = (toPt: number) => `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&cutoffs[]=1800&max_walking_duration_to_pt=${toPt}`;
  const values = async (toPt: number) => (await getOk(app, query(toPt))).accessibility.map((a: any) => a.value);
  // p1850 is 1,450 s away: the bus (300 s), then 1,150 m back on foot, a walk of 1,150 s from the
  // stop; p1750 (1,750 s on foot from the start, 1,250 m back from the stop) is past both walks
  assert.deepEqual(await values(1150), [3, 5]);
  // at 1,149 s, p1850 is out too (its walk from the stop, and its 1,850 s from the start); p2900's 100 s walk still counts
  assert.deepEqual(await values(1149), [3, 4]);
  // with an hour of walking, p1750 walks from the start under 30 minutes
  assert.deepEqual(await values(3600), [3, 6]);
  // the heat map's cell there still takes the bus and the long walk
  const map = (await getOk(app, `${base}/heat_maps?from=${coord(0)}&${at0800}&max_duration=1800&resolution=300&max_walking_duration_to_pt=1149`)).heat_maps[0].heat_matrix;
  const i = map.lines.findIndex((l: any) => l.cell_lon.min_lon <= lonAt(1850) && lonAt(1850) <= l.cell_lon.max_lon);
  const j = map.line_headers.findIndex((h: any) => h.cell_lat.min_lat <= 0 && 0 <= h.cell_lat.max_lat);
  assert.ok(Math.abs(map.lines[i].duration[j] - 1450) <= 15, `${map.lines[i].duration[j]}`);
});

test('on foot only (direct_path=only), the far end is out of reach', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&direct_path=only`);
  assert.equal(body.accessibility[0].value, 2);
});

test('dual access: the least time reaching N jobs, null beyond what is reachable', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:jobs&nearest[]=70&nearest[]=100&nearest[]=1000&max_duration=3600`);
  const nearest = (n: number) => body.nearest.find((e: any) => e.n === n)?.duration;
  // by time: p100 10 jobs (100 s), p2900 60 (400 s), p500 20 (500 s), p1000 30 (1000 s): 70 jobs at 400 s, 100 at 1000 s
  assert.ok(Math.abs(nearest(70) - 400) <= 1, `70 jobs at ${nearest(70)}`);
  assert.ok(Math.abs(nearest(100) - 1000) <= 1, `100 jobs at ${nearest(100)}`);
  // 1,000 jobs: only the far point holds that many, and it is never reached
  assert.equal(nearest(1000), null);
});

test('a departure window: the bus only at its first minute, so p5 counts the far end under 10 minutes and p50 does not', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&departure_window=600&percentiles[]=5&percentiles[]=50`);
  assert.deepEqual(
    body.accessibility.map((a: any) => [a.percentile, a.value]),
    [
      [5, 3],
      [50, 2],
    ],
  );
});

test('decay functions apply as R5 defines them: a linear ramp 600 s wide around 600 s', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&decay_function=linear&decay_width=600`);
  // weights: p100 (100 s) 1, p2900 (400 s) 1 − (400 − 300)/600, p500 (500 s) 1 − 200/600; the others past 900 s
  const expected = 1 + (1 - 100 / 600) + (1 - 200 / 600);
  assert.ok(Math.abs(body.accessibility[0].value - expected) < 0.01, `${body.accessibility[0].value} vs ${expected}`);
});

/** The schools' travel times from coord(0) at 08:00 (one school at each): p100, p2900 by the bus, p500, p1000, p1850 by the bus, p1750. */
const SCHOOL_SECONDS = [100, 400, 500, 1000, 1450, 1750];
const sumOf = (weight: (t: number) => number) => SCHOOL_SECONDS.reduce((a, t) => a + weight(t), 0);
/** The weight's change over a second, at most, around these travel times: the positions' rounding moves them by a second. */
const ONE_SECOND = 0.01;

test('logistic decay through the API: R5\'s curve, 1 at no travel time, around the cutoff as wide as its standard deviation', async () => {
  const body = await getOk(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&decay_function=logistic&decay_standard_deviation=300`);
  // 1 / (1 + e^(π (t − c) / (√3 σ))), scaled to 1 at t = 0
  const curve = (t: number) => 1 / (1 + Math.exp((Math.PI * (t - 600)) / (Math.sqrt(3) * 300)));
  const expected = sumOf((t) => curve(t) / curve(0));
  assert.equal(body.accessibility[0].decay_function, 'logistic');
  assert.ok(Math.abs(body.accessibility[0].value - expected) < ONE_SECOND * SCHOOL_SECONDS.length, `${body.accessibility[0].value} vs ${expected}`);
});

test('exponential decays through the API: the cutoff as half-life, and a fixed constant whatever the cutoff', async () => {
  const query = `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&cutoffs[]=1200`;
  const halfLife = (await getOk(app, `${query}&decay_function=exponential`)).accessibility.map((a: any) => a.value);
  const expectedHalfLife = [600, 1200].map((c) => sumOf((t) => 0.5 ** (t / c)));
  halfLife.forEach((v: number, k: number) => assert.ok(Math.abs(v - expectedHalfLife[k]!) < ONE_SECOND * SCHOOL_SECONDS.length, `cutoff ${[600, 1200][k]}: ${v} vs ${expectedHalfLife[k]}`));
  const fixed = (await getOk(app, `${query}&decay_function=fixed_exponential&decay_constant=0.001`)).accessibility.map((a: any) => a.value);
  const expectedFixed = sumOf((t) => Math.exp(-0.001 * t));
  assert.equal(fixed[0], fixed[1], 'the cutoff plays no part');
  assert.ok(Math.abs(fixed[0] - expectedFixed) < ONE_SECOND * SCHOOL_SECONDS.length, `${fixed[0]} vs ${expectedFixed}`);
});

test('accessibility to a place (to=): the travel times from every point to it, arriving by datetime', async () => {
  // arriving at the east end by 08:06: p2900 walks 100 m; p100 leaves at 07:58:20 for the west stop,
  // the bus at 08:01 (a minute's slack), east at 08:05 (460 s); p500 the same way (860 s); p1850
  // (1,150 m), p1750 (1,250 m) and p1000 (to the west stop, 1,360 s) within 1,800 s
  const body = await getOk(app, `${base}/accessibility?to=${coord(3000)}&datetime=20240102T080600&walking_speed=1&opportunities[]=places:schools&cutoffs[]=600&cutoffs[]=1200&cutoffs[]=1800`);
  assert.deepEqual(body.accessibility.map((a: any) => a.value), [2, 4, 6]);
  assert.equal(body.to.embedded_type, 'address');
  assert.equal(body.from, undefined);
  // the bus runs west to east only: arriving at the west end, everything walks
  const west = await getOk(app, `${base}/accessibility?to=${coord(0)}&datetime=20240102T080600&walking_speed=1&opportunities[]=places:schools&cutoffs[]=600&cutoffs[]=1800`);
  assert.deepEqual(west.accessibility.map((a: any) => a.value), [2, 4]);
});

test('a coverage named by a coordinate (/coverage/{lon;lat}/accessibility) answers as the coverage there', async () => {
  const query = `accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=600&cutoffs[]=1800`;
  const byId = await getOk(app, `${base}/${query}`);
  const byCoord = await getOk(app, `/v1/coverage/${coord(1000)}/${query}`);
  assert.deepEqual(byCoord.accessibility, byId.accessibility);
  assert.deepEqual(byCoord.accessibility.map((a: any) => a.value), [3, 6]);
});

test('realtime accessibility: the bus cancelled puts the far end out of reach, and compare_data_freshness says what it cost', async () => {
  const g = served.generations.get('line')!;
  const realtime = readTripUpdates(g.ref, {
    header: { gtfsRealtimeVersion: '2.0', timestamp: Date.UTC(2024, 0, 2, 7, 55) / 1000 },
    entities: [{ id: 'c', tripUpdate: { trip: { tripId: 't1', startDate: '20240102', scheduleRelationship: 'CANCELED' as const }, stopTimeUpdates: [] } }],
  });
  assert.deepEqual(realtime.problems, []);
  const coverage = served.coverages.get('line')!;
  coverage.swap(withRealtime(g, realtime));
  try {
    const url = `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&opportunities[]=places:jobs&cutoffs[]=600&nearest[]=70&max_duration=3600`;
    const body = await getOk(app, `${url}&data_freshness=realtime&compare_data_freshness=base_schedule`);
    // without the bus: p100 and p500 under 600 s; with it, p2900 too (1 school, 60 jobs)
    assert.deepEqual(
      body.accessibility.map((a: any) => [a.opportunities, a.value, a.compare_data_freshness, a.compared_value, a.difference]),
      [
        ['places:schools', 2, 'base_schedule', 3, -1],
        ['places:jobs', 30, 'base_schedule', 90, -60],
      ],
    );
    // 70 jobs: at 400 s by the bus; on foot, p100, p500 and p1000 hold 60, p1750 brings 100 at 1750 s
    const nearest = body.nearest.find((e: any) => e.opportunities === 'places:jobs');
    assert.ok(Math.abs(nearest.duration - 1750) <= 1 && Math.abs(nearest.compared_value - 400) <= 1, JSON.stringify(nearest));
    assert.equal(nearest.difference, nearest.duration - nearest.compared_value);
    // the same level twice is refused
    const same = await getAnswer(app, `${url}&data_freshness=realtime&compare_data_freshness=realtime`);
    assert.equal(same.status, 400);
  } finally {
    coverage.swap(g);
  }
});

test('a place that reaches no point: every measure null (the regional rule: nothing here, not nothing within reach), the dual access null, and the warning that nothing is reached', async () => {
  // 5 km north of the footway: no street within the link radius
  const body = await getOk(app, `${base}/accessibility?from=${lonAt(1000)};${5000 / METRES_PER_DEGREE}&${at0800}&opportunities[]=places:jobs&cutoffs[]=1800&nearest[]=10`);
  assert.equal(body.accessibility[0].value, null);
  assert.equal(body.nearest[0].duration, null);
  assert.ok(body.warnings.some((w: any) => w.id === 'nothing_reached'), JSON.stringify(body.warnings));
});

test('refusals: no opportunities, an unknown column, a bad decay, too many cutoffs, a matrix too large', async () => {
  const refused = async (query: string, status: number, pattern: RegExp) => {
    const a = await getAnswer(app, `${base}/${query}`);
    assert.equal(a.status, status, `${query}: ${a.body}`);
    assert.match(a.body, pattern);
  };
  await refused(`accessibility?from=${coord(0)}&${at0800}`, 400, /opportunities/);
  await refused(`accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:shops`, 400, /places \(schools, jobs\)/);
  await refused(`accessibility?from=${coord(0)}&${at0800}&opportunities[]=nowhere:jobs`, 400, /names no point set column/);
  await refused(`accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:jobs&decay_function=linear`, 400, /linear decay needs widthSec|decay_width/);
  await refused(`accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:jobs&${Array.from({ length: 13 }, (_, k) => `cutoffs[]=${600 + k * 60}`).join('&')}`, 400, /more than 12/);
  await refused(`travel_time_matrix?origins=elsewhere&${at0800}`, 400, /names no point set/);
  await refused(`travel_time_matrix?${at0800}`, 400, /origins/);
});

test('a request of many origins is bounded by its cost: origins × departures of its window × the area its street legs reach, no more than the coverage\'s (matrices and regional accessibility alike)', () => {
  const params = (given: Record<string, string | string[]>) =>
    ({ ...parseParams(matrixCommandParams(DEFAULT_LIMITS), (spec) => [given[spec.name] ?? []].flat()), from: undefined, to: undefined, resolution: 1 }) as MapParams;
  const far = 1e9;
  assert.deepEqual(searchCost(2500, params({}), far), { departures: 1, weight: 1, refused: false });
  assert.deepEqual(searchCost(2501, params({}), far), { departures: 1, weight: 1, refused: true });
  // 200 origins (the matrix's most): a 12-minute window passes, a 13-minute one does not; one minute is one search
  assert.deepEqual(searchCost(200, params({ departure_window: '720' }), far), { departures: 12, weight: 1, refused: false });
  assert.deepEqual(searchCost(200, params({ departure_window: '780' }), far), { departures: 13, weight: 1, refused: true });
  assert.deepEqual(searchCost(2500, params({ departure_window: '60' }), far), { departures: 1, weight: 1, refused: false });
  // a bike leg of 1,800 s at 4.1 m/s reaches 7,380 m, a walk 1.12 × 1,800 = 2,016 m: (7380 / 2016)² = 13.4 times the area
  assert.deepEqual(searchCost(186, params({ first_section_mode: ['bike'] }), far), { departures: 1, weight: 13.4, refused: false });
  assert.deepEqual(searchCost(187, params({ last_section_mode: ['bike'] }), far), { departures: 1, weight: 13.4, refused: true });
  // bike-sharing legs of two hours on a town 4,032 m across: no farther than the town, (4032 / 2016)² = 4
  assert.deepEqual(searchCost(625, params({ first_section_mode: ['bss'], max_bss_duration_to_pt: '7200' }), 4032), { departures: 1, weight: 4, refused: false });
  assert.deepEqual(searchCost(626, params({ first_section_mode: ['bss'], max_bss_duration_to_pt: '7200' }), 4032), { departures: 1, weight: 4, refused: true });
  // a slow walk counts as one search still
  assert.equal(searchCost(10, params({ walking_speed: '0.5' }), far).weight, 1);
});
