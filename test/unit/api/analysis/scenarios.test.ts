/**
 * Scenarios through the API on the hand-made line city (test/helpers/line-city.ts), whose travel
 * times are known: its one bus runs west → east 08:01 → 08:05; `faster` runs it twice as fast
 * (08:01 → 08:03), `nobus` removes it, `broken` names a route the city does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { getAnswer, getOk } from '../../../helpers/app.js';
import { coord, lineCity, lonAt } from '../../../helpers/line-city.js';
import { ScenarioLibrary } from '../../../../src/service/scenario-library.js';

const FASTER = JSON.stringify({ name: 'Faster bus', modifications: [{ type: 'adjust-speed', routes: ['bus'], scale: 2 }] });
const NOBUS = JSON.stringify({ modifications: [{ type: 'remove-trips', routes: ['bus'] }] });
const BROKEN = JSON.stringify({ modifications: [{ type: 'remove-trips', routes: ['nope'] }] });
const served = await lineCity({}, undefined, { faster: FASTER, nobus: NOBUS, broken: BROKEN });
const app = served.app;
const base = '/v1/coverage/line';
const at0800 = 'datetime=20240102T080000&walking_speed=1';
const library = served.coverages.get('line')!.scenarios!;

test('/scenarios lists each scenario with its status, what its modifications did, its faults and its lines', async () => {
  const body = await getOk(app, `${base}/scenarios`);
  const [faster, nobus, broken] = body.scenarios;
  assert.deepEqual(
    body.scenarios.map((s: any) => [s.name, s.file, s.status]),
    [
      ['faster', 'faster.json', 'ok'],
      ['nobus', 'nobus.json', 'ok'],
      ['broken', 'broken.json', 'refused'],
    ],
  );
  assert.equal(faster.description, null);
  assert.deepEqual(faster.modifications, [{ index: 0, type: 'adjust-speed', trips_removed: 0, trips_changed: 1, trips_added: 0, stops_added: 0 }]);
  assert.deepEqual([faster.trips, faster.timetable_trips_replaced, faster.errors], [1, 1, []]);
  assert.deepEqual([nobus.trips, nobus.timetable_trips_replaced], [0, 1]);
  assert.deepEqual(broken.errors, [{ modification: 0, field: 'routes', value: 'nope', reason: 'no route of the coverage has this id' }]);
  // a speed change keeps the bus's stops: nothing to draw
  assert.deepEqual(faster.geojson, { type: 'FeatureCollection', features: [] });
});

test('accessibility with a scenario, and compared with the base schedule', async () => {
  const query = `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300`;
  // within 300 s: p100 on foot; with the faster bus, p2900 too (180 s to the east stop, then 100 m back)
  assert.equal((await getOk(app, query)).accessibility[0].value, 1);
  assert.equal((await getOk(app, `${query}&scenario=faster`)).accessibility[0].value, 2);
  const compared = (await getOk(app, `${query}&scenario=faster&compare_scenario=base`)).accessibility[0];
  assert.deepEqual([compared.value, compared.compare_scenario, compared.compared_value, compared.difference], [2, 'base', 1, 1]);
  // the path that names the coverage by a point answers the same
  const byPoint = await getOk(app, `/v1/coverage/${coord(1500)}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300&scenario=faster&compare_scenario=base`);
  assert.deepEqual(byPoint.accessibility, (await getOk(app, `${query}&scenario=faster&compare_scenario=base`)).accessibility);
  // the other way round: base against the scenario
  const back = (await getOk(app, `${query}&compare_scenario=faster`)).accessibility[0];
  assert.deepEqual([back.value, back.compare_scenario, back.compared_value, back.difference], [1, 'faster', 2, -1]);
});

test('a matrix with a scenario: the faster bus saves its two minutes on the trip that takes it', async () => {
  const matrix = async (scenario: string) => {
    const m = (await getOk(app, `${base}/travel_time_matrix?origins=places&datetime=20240102T075800&walking_speed=1&max_duration=3600${scenario}`)).travel_time_matrix;
    return m.durations[0][m.origins.indexOf('p100')][m.destinations.indexOf('p2900')];
  };
  // 100 s to the west stop, the bus, 100 m back: 520 s, and 400 s with the faster bus
  assert.ok(Math.abs((await matrix('')) - 520) <= 1);
  assert.ok(Math.abs((await matrix('&scenario=faster')) - 400) <= 1);
});

test('a difference map between a scenario and the base: the cells the bus served lose their access', async () => {
  const body = await getOk(app, `${base}/heat_maps?from=${coord(0)}&${at0800}&max_duration=1800&resolution=300&scenario=nobus&compare_scenario=base`);
  const map = body.heat_maps[0];
  assert.equal(map.difference.scenario, 'nobus');
  assert.equal(map.difference.compare_scenario, 'base');
  assert.ok(map.difference.lost_cells > 0);
  assert.equal(map.difference.gained_cells, 0);
  const matrix = map.heat_matrix;
  const i = matrix.lines.findIndex((l: any) => l.cell_lon.min_lon <= lonAt(2900) && lonAt(2900) <= l.cell_lon.max_lon);
  const j = matrix.line_headers.findIndex((h: any) => h.cell_lat.min_lat <= 0 && 0 <= h.cell_lat.max_lat);
  // reached in 400 s by the bus today, out of reach on foot within 30 minutes: the lost marker
  assert.equal(matrix.lines[i].duration[j], 1800);
});

test('scenario refusals: an unknown name, a refused scenario, another timetable level, a comparison with itself or both ways', async () => {
  const refused = async (query: string, status: number, message: RegExp) => {
    const a = await getAnswer(app, `${base}/${query}`);
    assert.equal(a.status, status, `${query}: ${a.body}`);
    const body = JSON.parse(a.body);
    assert.match(body.message ?? body.error.message, message);
  };
  const place = `accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300`;
  await refused(`${place}&scenario=plan`, 400, /^parameter "scenario" invalid: plan names no scenario of the coverage; it has faster, nobus, broken\n/);
  await refused(`${place}&compare_scenario=plan`, 400, /^parameter "compare_scenario" invalid: plan names no scenario/);
  await refused(`${place}&scenario=broken`, 400, /the scenario broken was refused \(1 faults; the first: modifications\[0\]\.routes: no route of the coverage has this id\)/);
  await refused(`${place}&scenario=faster&data_freshness=realtime`, 400, /^parameter "scenario" invalid: a scenario changes the base schedule: it is not available with data_freshness=realtime/);
  await refused(`${place}&scenario=faster&compare_scenario=faster`, 400, /it is faster, the request's own scenario/);
  await refused(`${place}&compare_scenario=base`, 400, /it is base, the request's own scenario/);
  await refused(`${place}&compare_scenario=base&compare_data_freshness=realtime`, 400, /you cannot provide 'compare_data_freshness' and 'compare_scenario'/);
  await refused(`${place}&scenario=faster&compare_data_freshness=realtime`, 400, /compare scenarios with 'compare_scenario'/);
  await refused(`isochrones?from=${coord(0)}&${at0800}&max_duration=600&compare_scenario=base`, 400, /'compare_scenario' is not available on isochrones/);
  await refused(`accessibility?origins=places&${at0800}&opportunities[]=places:schools&cutoffs[]=300&compare_scenario=base&scenario=faster`, 400, /'compare_scenario' is available for one place/);
});

test('a new version of a scenario file is read; a broken one keeps the last good version in service and says why', async () => {
  const query = `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300&scenario=faster`;
  const file = served.coverages.get('line')!.config.scenarios!.find((s) => s.name === 'faster')!.path;
  writeFileSync(file, '{"modifications": [');
  await library.check();
  const report = (await getOk(app, `${base}/scenarios`)).scenarios[0];
  assert.equal(report.status, 'ok');
  assert.match(report.errors[0].reason, /^not JSON: /);
  assert.equal((await getOk(app, query)).accessibility[0].value, 2);
  // a slower bus: 08:01 → 08:09, p2900 out of reach within 300 s
  writeFileSync(file, JSON.stringify({ modifications: [{ type: 'adjust-speed', routes: ['bus'], scale: 0.5 }] }) + ' ');
  await library.check();
  assert.deepEqual((await getOk(app, `${base}/scenarios`)).scenarios[0].errors, []);
  assert.equal((await getOk(app, query)).accessibility[0].value, 1);
});

test('a new timetable gets the scenarios applied again: refused there when it no longer has an id they name, once', async () => {
  const generation = served.generations.get('line')!;
  const file = served.coverages.get('line')!.config.scenarios!.find((s) => s.name === 'nobus')!.path;
  const coverage = { id: 'line', generation };
  const own = new ScenarioLibrary(coverage, [{ name: 'nobus', path: file }], { info: () => {}, warn: () => {} });
  await own.check();
  assert.equal(own.lookup('nobus', generation).kind, 'ok');
  // a reload whose feed renamed the route: the scenario's route is gone
  const renamed = { ...generation, tt: { ...generation.tt, lines: generation.tt.lines.map((l) => ({ ...l, id: 'tram' })) } };
  coverage.generation = renamed;
  assert.equal(own.lookup('nobus', renamed).kind, 'preparing');
  await own.check();
  const found = own.lookup('nobus', renamed);
  assert.equal(found.kind, 'refused');
  assert.deepEqual(found.kind === 'refused' && found.errors.map((e) => [e.field, e.value]), [['routes', 'bus']]);
  // checked again, it is not applied again (nothing changed)
  const failures = own.reports(renamed)[0]!.failures;
  await own.check();
  assert.equal(own.reports(renamed)[0]!.failures, failures);
  // and the old timetable's requests still have it
  assert.equal(own.lookup('nobus', generation).kind, 'ok');
});

test('while a scenario is applied to the coverage\'s new timetable, a request naming it is answered 503 with Retry-After', async () => {
  const coverage = served.coverages.get('line')!;
  const before = coverage.generation!;
  // a new timetable installed, its scenarios not yet applied to it (the library is told of it on the next check)
  coverage.generation = { ...before, tt: { ...before.tt } };
  try {
    const a = await getAnswer(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300&scenario=faster`);
    assert.equal(a.status, 503, a.body);
    assert.equal(a.headers['retry-after'], '5');
    assert.match(a.body, /The scenario faster is being applied to the coverage's new data, retry in a few seconds/);
    // without a scenario the coverage answers as usual
    assert.equal((await getAnswer(app, `${base}/accessibility?from=${coord(0)}&${at0800}&opportunities[]=places:schools&cutoffs[]=300`)).status, 200);
  } finally {
    coverage.generation = before;
  }
});
