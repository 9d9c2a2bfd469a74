/**
 * Scenarios on Porto Alegre (two feeds) against the GTFS oracle: `plan` (poa-plan.json: a new bus
 * through a new stop near Rio Branco, line 510 removed, the T1 20 % faster) and `mixed`
 * (poa-mixed.json: a new frequency, longer stops, stops removed, a reroute through a new stop)
 * (scenario-oracle.ts), with accessibility to the hexagons' jobs and schools; and the commands:
 * `navette accessibility --grid --scenario --compare-scenario base` writes signed differences, each
 * cell the API's difference from its centre, read back by GDAL, and `navette matrix --scenario`
 * writes the API's travel times.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { getOk } from '../helpers/app.js';
import { sharedFeed } from './coverage-app.js';
import { bothAnswers, compareHeatMaps, serveWithOracles, type OracleServed } from './scenario-oracle.js';

const run = promisify(execFile);
const PLAN = path.resolve('test/fixtures/scenarios/poa-plan.json');
const MIXED = path.resolve('test/fixtures/scenarios/poa-mixed.json');
const HEXGRID = sharedFeed('porto-alegre', 'hexgrid.csv');
const DATETIME = '20190513T140000';
const GTFS = [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')];
const OSM = sharedFeed('porto-alegre', 'osm.pbf');
let city: OracleServed;
let dir: string;
let config: string;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'navette-poa-scenarios-'));
  // a dozen hexagons, for the matrices
  const rows = readFileSync(HEXGRID, 'utf8').trim().split('\n');
  const sample = path.join(dir, 'sample.csv');
  writeFileSync(sample, [rows[0]!, ...rows.slice(1).filter((_, k) => k % 97 === 0).slice(0, 12)].join('\n') + '\n');
  city = await serveWithOracles({ id: 'poa', gtfs: GTFS, changedFeed: 0, feedKey: 'gtfs-eptc', osm: OSM, scenarios: { plan: PLAN, mixed: MIXED } }, [
    { name: 'hexgrid', file: HEXGRID },
    { name: 'sample', file: sample },
  ]);
  config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [{ id: 'poa', gtfs: GTFS, osm: OSM, pointSets: { hexgrid: HEXGRID, sample }, scenarios: { plan: PLAN } }] }));
});

after(() => city?.close());

/** Per scenario, places its changes touch, and one they leave alone. */
const CENTRES: Record<string, string[]> = {
  plan: ['1511', '2935', '-51.209;-30.029', '-51.1800;-30.0500'],
  mixed: ['3836', '-51.1735;-29.9905', '1456', '853', '5233'],
};

for (const scenario of ['plan', 'mixed']) {
  test(`${scenario}: heat maps, a window's percentiles and accessibility agree with the oracle's`, async () => {
    const app = city.served.app;
    const oracle = city.oracleOf[scenario]!;
    const report = (await getOk(app, '/v1/coverage/poa/scenarios')).scenarios.find((s: any) => s.name === scenario);
    assert.equal(report.status, 'ok', JSON.stringify(report.errors));
    for (const from of CENTRES[scenario]!) {
      const a = await compareHeatMaps(app, 'poa', oracle, scenario, `from=${from}&datetime=${DATETIME}&max_duration=3600&resolution=150`);
      assert.equal(a.unreachedDisagree, 0, `${from}: ${JSON.stringify(a)}`);
      assert.ok(a.within60 / a.cells >= 0.99, `${from}: ${JSON.stringify(a)}`);
      process.stdout.write(`# ${scenario} from ${from}: ${a.cells} cells, ${((100 * a.within60) / a.cells).toFixed(2)} % within 60 s, differences from ${a.maxBelow} to +${a.maxAbove} s\n`);
    }
    for (const from of CENTRES[scenario]!.slice(0, 3)) {
      const [ours, theirs] = await bothAnswers(app, 'poa', oracle, scenario, `heat_maps?from=${from}&datetime=${DATETIME}&max_duration=2700&resolution=60&departure_window=1800&percentiles[]=10&percentiles[]=50&percentiles[]=90`);
      assert.deepEqual(ours.heat_maps, theirs.heat_maps, `${from}: windowed map`);
      const [a, b] = await bothAnswers(app, 'poa', oracle, scenario, `accessibility?from=${from}&datetime=${DATETIME}&opportunities[]=hexgrid:jobs&opportunities[]=hexgrid:schools&cutoffs[]=1800&cutoffs[]=3600`);
      assert.deepEqual(a.accessibility, b.accessibility, `${from}: accessibility`);
    }
  });
}

const navette = (...args: string[]) =>
  run(process.execPath, ['dist/src/cli/main.js', ...args, '--config', config, '--coverage', 'poa', '--datetime', DATETIME, '--max-nb-transfers', '2'], { maxBuffer: 1 << 26 });

test('navette accessibility --scenario --compare-scenario base: signed GeoTIFF bands, each cell the API\'s difference from its centre', async () => {
  const tif = path.join(dir, 'diff.tif');
  await navette('accessibility', '--grid', '1500', '--opportunities', 'hexgrid:jobs', '--cutoffs', '1800', '--scenario', 'plan', '--compare-scenario', 'base', '--out', tif);
  const info = JSON.parse((await run('gdalinfo', ['-json', tif])).stdout);
  assert.deepEqual(info.bands.map((b: any) => b.description), ['p50 1800 s hexgrid:jobs minus compare_scenario=base']);
  const [x0, dx, , y0, , dy] = info.geoTransform as number[];
  const size = info.size[0] as number;
  // the cells around the new stop, and a few more along the middle row
  const cells: [number, number][] = [];
  const i0 = Math.floor((-51.209 - x0!) / dx!);
  const j0 = Math.floor((-30.029 - y0!) / dy!);
  for (let i = i0 - 1; i <= i0 + 1; i++) for (let j = j0 - 1; j <= j0 + 1; j++) cells.push([i, j]);
  for (let i = 0; i < size; i += Math.max(1, Math.floor(size / 6))) cells.push([i, Math.floor(size / 2)]);
  let checked = 0;
  let changed = 0;
  for (const [i, j] of cells) {
    const lon = x0! + (i + 0.5) * dx!;
    const lat = y0! + (j + 0.5) * dy!;
    const value = Number((await run('gdallocationinfo', ['-valonly', '-geoloc', tif, String(lon), String(lat)])).stdout.trim());
    if (value < -1e37) continue; // no origin there (no street near)
    const api = (await getOk(city.served.app, `/v1/coverage/poa/accessibility?from=${lon};${lat}&datetime=${DATETIME}&max_nb_transfers=2&opportunities[]=hexgrid:jobs&cutoffs[]=1800&scenario=plan&compare_scenario=base`)).accessibility[0];
    const expected = (api.value ?? 0) - (api.compared_value ?? 0);
    assert.ok(Math.abs(value - expected) <= Math.max(1e-3, Math.abs(expected) * 1e-6), `cell ${i},${j}: GeoTIFF ${value}, API ${expected}`);
    checked++;
    if (value !== 0) changed++;
  }
  assert.ok(checked >= 6, `${checked} cells checked`);
  assert.ok(changed >= 1, 'the plan changes some cell');
});

test('navette matrix --scenario: the API\'s travel-time matrix with the scenario, field by field', async () => {
  const out = path.join(dir, 'plan.csv');
  await navette('matrix', '--origins', 'sample', '--max-duration', '3600', '--scenario', 'plan', '--out', out);
  const api = (await getOk(city.served.app, `/v1/coverage/poa/travel_time_matrix?origins=sample&datetime=${DATETIME}&max_nb_transfers=2&max_duration=3600&scenario=plan`)).travel_time_matrix;
  const lines = readFileSync(out, 'utf8').trim().split('\n').slice(1);
  assert.equal(lines.length, api.origins.length * api.destinations.length);
  for (const line of lines) {
    const [from, to, seconds] = line.split(',');
    const expected = api.durations[0][api.origins.indexOf(from)][api.destinations.indexOf(to)];
    assert.equal(seconds === '' ? null : Number(seconds), expected, line);
  }
  // and the scenario changes some of them
  const base = (await getOk(city.served.app, `/v1/coverage/poa/travel_time_matrix?origins=sample&datetime=${DATETIME}&max_nb_transfers=2&max_duration=3600`)).travel_time_matrix;
  assert.notDeepEqual(base.durations, api.durations);
});
