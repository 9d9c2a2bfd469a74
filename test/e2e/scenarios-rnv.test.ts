/**
 * Scenarios on rnv-mannheim against the GTFS oracle (scenario-oracle.ts): `plan` (a new bus line
 * through a new stop in Lindenhof, bus 53 removed, tram 1 25 % faster) and `mixed` (the four other
 * modification types: a new frequency, longer dwells, stops removed, a reroute), each written into a
 * copy of the feed and loaded as its own coverage. Heat maps from the places the changes touch (and
 * one they do not), a departure window's percentiles, and accessibility to a lattice of places must
 * agree; `compare_scenario` must equal the two requests subtracted by hand.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { getOk } from '../helpers/app.js';
import { sharedFeed } from './coverage-app.js';
import { bothAnswers, compareHeatMaps, heatCells, latticePoints, serveWithOracles, type OracleServed } from './scenario-oracle.js';

const FIXTURES = path.resolve('test/fixtures/scenarios');
const DATETIME = '20161114T080000';
let city: OracleServed;

before(async () => {
  const lattice = latticePoints('lattice', { west: 8.44, south: 49.46, east: 8.52, north: 49.51 }, 30);
  city = await serveWithOracles(
    {
      id: 'rnv',
      gtfs: [sharedFeed('rnv-mannheim', 'gtfs.zip')],
      changedFeed: 0,
      osm: sharedFeed('rnv-mannheim', 'osm.pbf'),
      scenarios: { plan: path.join(FIXTURES, 'rnv-plan.json'), mixed: path.join(FIXTURES, 'rnv-mixed.json') },
    },
    [lattice],
  );
});

after(() => city?.close());

/** Centres: the new line's ends and its new stop, a stop of tram 1, and a place the scenarios leave alone. */
const CENTRES = ['241211', '215106', '8.4702;49.4801', '8.4660;49.4875', '8.5300;49.4700'];

for (const scenario of ['plan', 'mixed']) {
  test(`${scenario}: /scenarios says it is in service, as the oracle's writer counted it`, async () => {
    const report = (await getOk(city.served.app, '/v1/coverage/rnv/scenarios')).scenarios.find((s: any) => s.name === scenario);
    assert.equal(report.status, 'ok', JSON.stringify(report.errors));
    const written = city.reports[scenario]!;
    const added = report.modifications.reduce((n: number, m: any) => n + m.trips_added, 0);
    assert.equal(added, written.tripsAdded);
    assert.equal(report.new_stops, written.newStopIds.length);
  });

  test(`${scenario}: heat maps agree with the oracle's, cell by cell`, async () => {
    for (const from of CENTRES) {
      const a = await compareHeatMaps(city.served.app, 'rnv', city.oracleOf[scenario]!, scenario, `from=${from}&datetime=${DATETIME}&max_duration=3600&resolution=150`);
      const share = a.within60 / a.cells;
      assert.equal(a.unreachedDisagree, 0, `${from}: ${JSON.stringify(a)}`);
      assert.ok(share >= 0.99, `${from}: ${JSON.stringify(a)}`);
      process.stdout.write(`# ${scenario} from ${from}: ${a.cells} cells, ${(100 * share).toFixed(2)} % within 60 s, differences from ${a.maxBelow} to +${a.maxAbove} s\n`);
    }
  });

  test(`${scenario}: a departure window's percentiles and accessibility equal the oracle's`, async () => {
    const app = city.served.app;
    for (const from of CENTRES.slice(0, 3)) {
      const windowed = `heat_maps?from=${from}&datetime=${DATETIME}&max_duration=2700&resolution=60&departure_window=1800&percentiles[]=10&percentiles[]=50&percentiles[]=90`;
      const [ours, theirs] = await bothAnswers(app, 'rnv', city.oracleOf[scenario]!, scenario, windowed);
      assert.deepEqual(ours.heat_maps, theirs.heat_maps, `${from}: windowed map`);
      const access = `accessibility?from=${from}&datetime=${DATETIME}&opportunities[]=lattice:places&cutoffs[]=900&cutoffs[]=1800&cutoffs[]=2700&departure_window=1800&percentiles[]=25&percentiles[]=50`;
      const [a, b] = await bothAnswers(app, 'rnv', city.oracleOf[scenario]!, scenario, access);
      assert.deepEqual(a.accessibility, b.accessibility, `${from}: accessibility`);
    }
  });
}

test('compare_scenario: accessibility equals the two requests subtracted by hand; a difference map is the reverse one negated, its counts its cells\'', async () => {
  const app = city.served.app;
  const query = `/v1/coverage/rnv/accessibility?from=8.4702;49.4801&datetime=${DATETIME}&opportunities[]=lattice:places&cutoffs[]=900&cutoffs[]=1800`;
  const plan = (await getOk(app, `${query}&scenario=plan`)).accessibility;
  const base = (await getOk(app, query)).accessibility;
  const compared = (await getOk(app, `${query}&scenario=plan&compare_scenario=base`)).accessibility;
  compared.forEach((m: any, k: number) => {
    assert.equal(m.value, plan[k].value);
    assert.equal(m.compared_value, base[k].value);
    assert.equal(m.difference, plan[k].value - base[k].value);
  });
  // the new stop brings places within reach
  assert.ok(compared.some((m: any) => m.difference > 0));
  // a difference map puts both maps on the union of their grids (the plan reaches farther than the
  // base from here, so the separate maps' grids differ): each cell of the plan against the base is
  // minus the same cell of the base against the plan, lost and gained swapped, and its counts are its cells'
  const map = `/v1/coverage/rnv/heat_maps?from=8.4702;49.4801&datetime=${DATETIME}&max_duration=1800&resolution=80`;
  const forward = await getOk(app, `${map}&scenario=plan&compare_scenario=base`);
  const backward = await heatCells(app, `${map}&compare_scenario=plan`);
  const cells = await heatCells(app, `${map}&scenario=plan&compare_scenario=base`);
  const counts = { lost: 0, gained: 0, slower: 0, faster: 0 };
  let checked = 0;
  for (const [cell, d] of cells) {
    assert.ok(backward.has(cell), `cell ${cell} on one side only`);
    const back = backward.get(cell)!;
    assert.equal(d === null ? null : -d, back === null ? null : back === 0 ? -0 : back, `cell ${cell}`);
    if (d === 1800) counts.lost++;
    else if (d === -1800) counts.gained++;
    else if (d !== null && d > 0) counts.slower++;
    else if (d !== null && d < 0) counts.faster++;
    checked++;
  }
  const difference = forward.heat_maps[0].difference;
  assert.deepEqual([difference.lost_cells, difference.gained_cells, difference.slower_cells, difference.faster_cells], [counts.lost, counts.gained, counts.slower, counts.faster]);
  assert.ok(counts.gained + counts.faster > 0, 'the plan brings places nearer');
  assert.ok(checked > 1000);
});
