/**
 * Accessibility and travel-time matrices on Porto Alegre's real data (the GTFS and OSM files r5r's
 * examples use, and its 1,227 hexagons with population, schools, jobs and clinics), through the
 * API and through the command line, as R5's users ask for them: walk + transit, 2019-05-13 14:00,
 * walking 1.0 m/s, at most 30 minutes of walking to and from transit, at most 2 transfers.
 *
 * - The API's accessibility of a place against its own heat map sampled at the hexagon centres (an
 *   independent path: the grid's cells, linked by the lattice, against the points linked exactly):
 *   both ways, the counts within a few percent.
 * - `navette matrix`: each row summed is the API's accessibility of its origin, exactly; with a
 *   window, p5 ≤ p50 ≤ p95 for every pair; three `--shard` slices merged by `navette merge` are the
 *   single run byte for byte.
 * - `navette accessibility --grid … --out F.tif`: read back by GDAL (an independent reader), its
 *   bands named, and the value at a cell's centre the API's accessibility of that point.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { getOk, type ServedApp } from '../helpers/app.js';
import { HEXGRID, poaSampleCoverage } from './poa-sample-coverage.js';

const run = promisify(execFile);
const JOURNEYS = { datetime: '20190513T140000', walking_speed: '1', max_walking_duration_to_pt: '1800', max_nb_transfers: '2' };
const QUERY = new URLSearchParams(JOURNEYS).toString();
const LONG_WALKS = new URLSearchParams({ ...JOURNEYS, max_walking_duration_to_pt: '3600' }).toString();
/** the same parameters as command-line options */
const OPTIONS = Object.entries(JOURNEYS).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, v]);

interface Hexagon {
  id: string;
  lon: number;
  lat: number;
  schools: number;
  jobs: number;
}

const hexagons: Hexagon[] = readFileSync(HEXGRID, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [id, lon, lat, , schools, jobs] = line.split(',');
    return { id: id!, lon: Number(lon), lat: Number(lat), schools: Number(schools || 0), jobs: Number(jobs || 0) };
  });
/** the origins of the command-line runs: every 41st hexagon, across the city */
const SAMPLE = hexagons.filter((_, k) => k % 41 === 0);

let dir: string;
let config: string;
let served: ServedApp;

before(async () => {
  ({ dir, config, served } = await poaSampleCoverage('navette-poa-access-', SAMPLE));
});

after(async () => served?.close());

const navette = (...args: string[]) => run(process.execPath, ['dist/src/cli/main.js', ...args, '--config', config, '--coverage', 'poa', ...OPTIONS], { maxBuffer: 1 << 26 });

/** The accessibility the API gives a place (from its coordinates), per opportunity and cutoff. */
async function apiAccessibility(lon: number, lat: number, extra = '', query = QUERY): Promise<Map<string, number>> {
  const body = await getOk(served.app, `/v1/coverage/poa/accessibility?from=${lon};${lat}&${query}&opportunities[]=hexgrid:schools&opportunities[]=hexgrid:jobs&cutoffs[]=1800&cutoffs[]=3600${extra}`);
  return new Map(body.accessibility.map((a: any) => [`${a.opportunities} ${a.cutoff} p${a.percentile}`, a.value]));
}

test('the API against the place\'s own heat map sampled at the hexagon centres, both ways within a few percent', async () => {
  const report: string[] = [];
  const deviations: number[] = [];
  for (const origin of SAMPLE.slice(0, 6)) {
    // walks of up to an hour: at points a walk from the origin or from the last stop lasts at most
    // max_walking_duration_to_pt (R5's rule), on a heat map's cells up to max_duration; with both
    // at an hour, the two rules count the same places under either cutoff
    const api = await apiAccessibility(origin.lon, origin.lat, '', LONG_WALKS);
    const map = (await getOk(served.app, `/v1/coverage/poa/heat_maps?from=${origin.lon};${origin.lat}&${LONG_WALKS}&max_duration=3600&resolution=500`)).heat_maps[0].heat_matrix;
    const columns = map.lines.map((l: any) => l.cell_lon);
    const rows = map.line_headers.map((h: any) => h.cell_lat);
    const cellOf = (h: Hexagon): number | null => {
      const i = columns.findIndex((c: any) => c.min_lon <= h.lon && h.lon <= c.max_lon);
      const j = rows.findIndex((r: any) => r.min_lat <= h.lat && h.lat <= r.max_lat);
      return i < 0 || j < 0 ? null : map.lines[i].duration[j];
    };
    const sampled = new Map<string, number>();
    for (const h of hexagons) {
      const t = cellOf(h);
      if (t === null) continue;
      for (const cutoff of [1800, 3600]) {
        if (t >= cutoff) continue;
        sampled.set(`hexgrid:schools ${cutoff} p50`, (sampled.get(`hexgrid:schools ${cutoff} p50`) ?? 0) + h.schools);
        sampled.set(`hexgrid:jobs ${cutoff} p50`, (sampled.get(`hexgrid:jobs ${cutoff} p50`) ?? 0) + h.jobs);
      }
    }
    for (const [key, value] of api) {
      const other = sampled.get(key) ?? 0;
      report.push(`${origin.id} ${key}: API ${value}, heat map ${other}`);
      deviations.push(Math.abs(value - other) / Math.max(1, value, other));
      // the two link the places differently (a cell's centre through the lattice, a hexagon's centre
      // exactly), and one hexagon of a business district holds thousands of jobs: 10 %, or 2 schools
      const slack = Math.max(key.includes('schools') ? 2 : 0, 0.1 * Math.max(value, other));
      assert.ok(Math.abs(value - other) <= slack, `${origin.id} ${key}: API ${value}, heat map ${other}`);
    }
  }
  process.stdout.write(`# ${report.join('\n# ')}\n`);
  // and on the whole, a few percent
  deviations.sort((a, b) => a - b);
  const median = deviations[Math.floor(deviations.length / 2)]!;
  process.stdout.write(`# API vs heat map: median deviation ${(100 * median).toFixed(2)} %, largest ${(100 * deviations.at(-1)!).toFixed(2)} %\n`);
  assert.ok(median <= 0.02, `median deviation ${median}`);
});

test('navette matrix: each origin\'s row summed is the API\'s accessibility of that origin; a window\'s percentiles in order', async () => {
  const out = path.join(dir, 'window.csv');
  await navette('matrix', '--origins', 'sample', '--destinations', 'hexgrid', '--max-duration', '3600', '--departure-window', '600', '--percentiles', '5,50,95', '--out', out);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'from_id,to_id,travel_time_p5,travel_time_p50,travel_time_p95');
  assert.equal(lines.length - 1, SAMPLE.length * hexagons.length);
  const byId = new Map(hexagons.map((h) => [h.id, h]));
  const sums = new Map<string, number>();
  let pairs = 0;
  for (const line of lines.slice(1)) {
    const [from, to, ...times] = line.split(',');
    const [p5, p50, p95] = times.map((t) => (t === '' ? Infinity : Number(t)));
    assert.ok(p5! <= p50! && p50! <= p95!, line);
    if (p50! < 1800) sums.set(from!, (sums.get(from!) ?? 0) + byId.get(to!)!.schools);
    pairs++;
  }
  assert.equal(pairs, SAMPLE.length * hexagons.length);
  for (const origin of SAMPLE.slice(0, 8)) {
    const api = await apiAccessibility(origin.lon, origin.lat, '&departure_window=600&percentiles[]=5&percentiles[]=50&percentiles[]=95&max_duration=3600');
    assert.equal(sums.get(origin.id) ?? 0, api.get('hexgrid:schools 1800 p50'), origin.id);
  }
  // the matrix's p50 against the same window's p50 heat map sampled at the hexagon centres, both ways
  const p50 = new Map<string, number>();
  for (const line of lines.slice(1)) {
    const [from, to, , median] = line.split(',');
    if (median !== '') p50.set(`${from} ${to}`, Number(median));
  }
  let within = 0;
  let compared = 0;
  let onlyMatrix = 0;
  let onlyMap = 0;
  const signed: number[] = [];
  for (const origin of SAMPLE.slice(0, 3)) {
    const map = (await getOk(served.app, `/v1/coverage/poa/heat_maps?from=${origin.lon};${origin.lat}&${QUERY}&max_duration=3600&resolution=500&departure_window=600&percentiles[]=50`)).heat_maps[0].heat_matrix;
    for (const h of hexagons) {
      const i = map.lines.findIndex((l: any) => l.cell_lon.min_lon <= h.lon && h.lon <= l.cell_lon.max_lon);
      const j = map.line_headers.findIndex((r: any) => r.cell_lat.min_lat <= h.lat && h.lat <= r.cell_lat.max_lat);
      const cell = i < 0 || j < 0 ? null : (map.lines[i].duration[j] as number | null);
      const ours = p50.get(`${origin.id} ${h.id}`);
      if (cell === null && ours === undefined) continue;
      if (cell === null) onlyMatrix++;
      else if (ours === undefined) onlyMap++;
      else {
        compared++;
        signed.push(ours - cell);
        if (Math.abs(ours - cell) <= 120) within++;
      }
    }
  }
  signed.sort((a, b) => a - b);
  process.stdout.write(`# matrix p50 vs heat map p50 at the hexagons: ${within}/${compared} within ±120 s, median ${signed[signed.length >> 1]} s, p10 ${signed[Math.floor(signed.length / 10)]} s, p90 ${signed[Math.floor((9 * signed.length) / 10)]} s; reached by the matrix only ${onlyMatrix}, by the map only ${onlyMap}\n`);
  assert.ok(within >= 0.9 * compared, `${within} of ${compared} within ±120 s`);
  assert.ok(onlyMatrix + onlyMap <= 0.05 * compared, `${onlyMatrix} + ${onlyMap} reached on one side only`);
});

test('three --shard slices merged are the single run, byte for byte', async () => {
  const single = path.join(dir, 'single.csv');
  await navette('matrix', '--origins', 'sample', '--destinations', 'hexgrid', '--max-duration', '3600', '--out', single);
  const parts = [0, 1, 2].map((k) => path.join(dir, `part-${k}.csv`));
  await Promise.all(parts.map((part, k) => navette('matrix', '--origins', 'sample', '--destinations', 'hexgrid', '--max-duration', '3600', '--shard', `${k}/3`, '--out', part)));
  const merged = path.join(dir, 'merged.csv');
  await run(process.execPath, ['dist/src/cli/main.js', 'merge', '--out', merged, ...parts]);
  assert.ok(readFileSync(merged).equals(readFileSync(single)), 'the merged parts differ from the single run');
  // and the header only once, at the top
  assert.equal(readFileSync(merged, 'utf8').split('\n').filter((l) => l.startsWith('from_id')).length, 1);
  // gzipped: the parts as .csv.gz, merged into a .csv.gz, read back the single run's bytes
  const gzParts = [0, 1, 2].map((k) => path.join(dir, `part-${k}.csv.gz`));
  await Promise.all(gzParts.map((part, k) => navette('matrix', '--origins', 'sample', '--destinations', 'hexgrid', '--max-duration', '3600', '--shard', `${k}/3`, '--out', part)));
  const mergedGz = path.join(dir, 'merged.csv.gz');
  await run(process.execPath, ['dist/src/cli/main.js', 'merge', '--out', mergedGz, ...gzParts]);
  assert.ok(gunzipSync(readFileSync(mergedGz)).equals(readFileSync(single)), 'the gzipped merge differs from the single run');
});

test('navette accessibility --grid: a GeoTIFF GDAL reads, each cell the API\'s accessibility of its centre', async () => {
  const tif = path.join(dir, 'schools.tif');
  await navette('accessibility', '--grid', '1500', '--opportunities', 'hexgrid:schools', '--cutoffs', '1800,3600', '--out', tif);
  const info = JSON.parse((await run('gdalinfo', ['-json', tif])).stdout);
  assert.deepEqual(
    info.bands.map((b: any) => [b.type, b.description]),
    [
      ['Float32', 'p50 1800 s hexgrid:schools'],
      ['Float32', 'p50 3600 s hexgrid:schools'],
    ],
  );
  // the cells with the most schools under 30 minutes, read by GDAL at their centres
  let checked = 0;
  for (const { i, j, lon, lat, values } of await middleCells(tif, info)) {
    const api = await apiAccessibility(lon, lat);
    assert.ok(Math.abs(values[0]! - api.get('hexgrid:schools 1800 p50')!) < 1e-3, `cell ${i},${j}: GeoTIFF ${values[0]}, API ${api.get('hexgrid:schools 1800 p50')}`);
    assert.ok(Math.abs(values[1]! - api.get('hexgrid:schools 3600 p50')!) < 1e-3, `cell ${i},${j}: GeoTIFF ${values[1]}, API ${api.get('hexgrid:schools 3600 p50')}`);
    checked++;
  }
  assert.ok(checked >= 5, `${checked} cells checked`);
});

/** The 3 × 3 cells in the middle of a GeoTIFF (gdalinfo's `info`), their bands' values read by GDAL at their centres; those with no origin (-1: no street near) left out. */
async function middleCells(tif: string, info: any): Promise<{ i: number; j: number; lon: number; lat: number; values: number[] }[]> {
  const [x0, dx, , y0, , dy] = info.geoTransform as number[];
  const middle = Math.floor((info.size[0] as number) / 2);
  const cells = [];
  for (let i = middle - 1; i <= middle + 1; i++) {
    for (let j = middle - 1; j <= middle + 1; j++) {
      const lon = x0! + (i + 0.5) * dx!;
      const lat = y0! + (j + 0.5) * dy!;
      const values = (await run('gdallocationinfo', ['-valonly', '-geoloc', tif, String(lon), String(lat)])).stdout.trim().split('\n').map(Number);
      if (values[0] !== -1) cells.push({ i, j, lon, lat, values });
    }
  }
  return cells;
}

test('navette accessibility --grid over a departure window: a band per percentile and cutoff, each the API\'s value with the same window', async () => {
  const tif = path.join(dir, 'schools-window.tif');
  await navette('accessibility', '--grid', '1500', '--opportunities', 'hexgrid:schools', '--cutoffs', '1800', '--departure-window', '600', '--percentiles', '5,95', '--out', tif);
  const info = JSON.parse((await run('gdalinfo', ['-json', tif])).stdout);
  assert.deepEqual(
    info.bands.map((b: any) => b.description),
    ['p5 1800 s hexgrid:schools', 'p95 1800 s hexgrid:schools'],
  );
  let checked = 0;
  let differ = 0;
  for (const { i, j, lon, lat, values } of await middleCells(tif, info)) {
    const api = await apiAccessibility(lon, lat, '&departure_window=600&percentiles[]=5&percentiles[]=95');
    assert.ok(Math.abs(values[0]! - api.get('hexgrid:schools 1800 p5')!) < 1e-3, `cell ${i},${j}: p5 GeoTIFF ${values[0]}, API ${api.get('hexgrid:schools 1800 p5')}`);
    assert.ok(Math.abs(values[1]! - api.get('hexgrid:schools 1800 p95')!) < 1e-3, `cell ${i},${j}: p95 GeoTIFF ${values[1]}, API ${api.get('hexgrid:schools 1800 p95')}`);
    // the 5th percentile travel time is the shorter: at least as many schools under 30 minutes
    assert.ok(values[0]! >= values[1]!, `cell ${i},${j}: p5 ${values[0]} < p95 ${values[1]}`);
    if (values[0] !== values[1]) differ++;
    checked++;
  }
  assert.ok(checked >= 5, `${checked} cells checked`);
  assert.ok(differ >= 1, 'the two percentiles differ somewhere: the bands are not one band twice');
});

test('navette accessibility --origins SET: one row per origin, percentile and cutoff, each the API\'s accessibility of that origin', async () => {
  const out = path.join(dir, 'access.csv');
  await navette('accessibility', '--origins', 'sample', '--opportunities', 'hexgrid:schools,hexgrid:jobs', '--cutoffs', '1800,3600', '--out', out);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'origin_id,percentile,cutoff,hexgrid:schools,hexgrid:jobs');
  assert.equal(lines.length - 1, SAMPLE.length * 2);
  const rows = new Map(lines.slice(1).map((line) => [line.split(',').slice(0, 3).join(' '), line.split(',').slice(3).map(Number)]));
  for (const origin of SAMPLE.slice(0, 5)) {
    const api = await apiAccessibility(origin.lon, origin.lat);
    for (const cutoff of [1800, 3600]) {
      assert.deepEqual(rows.get(`${origin.id} 50 ${cutoff}`), [api.get(`hexgrid:schools ${cutoff} p50`), api.get(`hexgrid:jobs ${cutoff} p50`)], `${origin.id} ${cutoff}`);
    }
  }
});

test('navette matrix stopped by SIGTERM or SIGINT: the signal\'s exit code, why said, nothing of its output left; a second run of the same --out refused meanwhile', async () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    const out = path.join(dir, `stopped-${signal}.csv.gz`);
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'matrix', '--origins', 'hexgrid', '--departure-window', '3600', '--max-duration', '7200', '--out', out, '--config', config, '--coverage', 'poa', ...OPTIONS]);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
    // once the first rows are written (the progress counts origins done)
    while (!readdirSync(dir).some((f) => f.startsWith(`stopped-${signal}.csv.gz.`) && f.endsWith('.partial'))) await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await run(process.execPath, ['dist/src/cli/main.js', 'matrix', '--origins', 'hexgrid', '--out', out, '--config', config, '--coverage', 'poa', ...OPTIONS]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, /stopped-.*\.csv\.gz is being written by process \d+/);
    child.kill(signal);
    assert.equal(await exited, code, stderr);
    assert.match(stderr, new RegExp(`navette matrix: stopped by ${signal}: .*stopped-${signal}\\.csv\\.gz not written \\(its partial file removed\\)`));
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith(`stopped-${signal}.csv.gz`)), []);
  }
});

/** Three hexagons of the centre and two of the sample, as ids. */
const NAMED = [...hexagons.slice(0, 3), ...SAMPLE.slice(1, 3)].map((h) => h.id);

test('travel_time_matrix on the 1,227 hexagons: refused whole, answered for the rows and columns origin_ids[] and destination_ids[] name, as navette matrix writes them', async () => {
  const whole = await served.app.inject(`/v1/coverage/poa/travel_time_matrix?origins=hexgrid&${QUERY}`);
  assert.equal(whole.statusCode, 400);
  assert.deepEqual(whole.json(), { message: 'a matrix of 1227 origins × 1227 destinations is larger than a request computes (at most 200 origins and 250000 pairs): use navette matrix' });
  const origins = NAMED.slice(0, 3);
  const destinations = [...NAMED].reverse();
  const ids = [...origins.map((id) => `origin_ids[]=${id}`), ...destinations.map((id) => `destination_ids[]=${id}`)].join('&');
  const api = (await getOk(served.app, `/v1/coverage/poa/travel_time_matrix?origins=hexgrid&${ids}&${QUERY}`)).travel_time_matrix;
  assert.deepEqual([api.origins, api.destinations], [origins, destinations]);
  const out = path.join(dir, 'named.csv');
  await navette('matrix', '--origins', 'hexgrid', '--origin-ids', origins.join(','), '--destination-ids', destinations.join(','), '--out', out);
  const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
  assert.deepEqual(
    rows.map(([from, to]) => `${from} ${to}`),
    origins.flatMap((from) => destinations.map((to) => `${from} ${to}`)),
  );
  rows.forEach(([from, to, seconds], k) => assert.equal(seconds === '' ? null : Number(seconds), api.durations[0][origins.indexOf(from!)][destinations.indexOf(to!)], `row ${k}`));
});

test('navette accessibility as a planner meets it: a day without a time and a day outside the period refused before the coverage loads; the API\'s warnings said before the run', async () => {
  // its own options, not OPTIONS' --datetime
  const planner = (...args: string[]) => run(process.execPath, ['dist/src/cli/main.js', 'accessibility', '--config', config, '--coverage', 'poa', '--origins', 'sample', '--opportunities', 'hexgrid:schools', '--out', path.join(dir, 'planner.csv'), ...args]);
  for (const [datetime, message] of [
    ['2019-05-13', 'navette accessibility: --datetime 2019-05-13 names a day without a time of day (it would mean midnight): give one, as 20190513T080000'],
    ['20230513T140000', 'navette accessibility: --datetime 20230513T140000: date is not in data production period: 2023-05-13 is outside the production period, 2019-03-01 to 2019-12-31'],
  ]) {
    const e = await planner('--datetime', datetime!).then(
      () => assert.fail(`${datetime} not refused`),
      (e: { code: number; stderr: string }) => e,
    );
    assert.equal(e.code, 2, e.stderr);
    // all it said: nothing loaded first
    assert.equal(e.stderr, `${message}\n`);
  }
  // at midnight the buses of EPTC do not run within half an hour: the API's warning, before the run
  const { stderr } = await planner('--datetime', '20190513T000000', '--cutoffs', '1800');
  const lines = stderr.split('\n');
  const warning = lines.indexOf('navette accessibility: warning: no trip of the feed gtfs-eptc runs between 2019-05-13 00:00 and 2019-05-13 00:30: the map leaves it out; its trips run from 2019-04-15 to 2019-07-15 (no_service_in_feed)');
  assert.ok(warning > 0 && lines.findIndex((line) => line.startsWith('accessibility: ')) > warning, stderr);
});

test('navette matrix --breakdown --routes: the same travel times, a row per percentile whose parts add up to them, the lines ridden; as the API gives them', async () => {
  const plain = path.join(dir, 'skims-plain.csv');
  const skims = path.join(dir, 'skims.csv');
  const window = ['--origins', 'sample', '--destinations', 'hexgrid', '--max-duration', '3600', '--departure-window', '600', '--percentiles', '5,95'];
  await navette('matrix', ...window, '--out', plain);
  await navette('matrix', ...window, '--breakdown', '--routes', '--out', skims);
  const lines = readFileSync(skims, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'from_id,to_id,percentile,travel_time,access,wait,ride,transfer,egress,rides,routes');
  const times = new Map<string, string>();
  for (const line of readFileSync(plain, 'utf8').trim().split('\n').slice(1)) {
    const [from, to, p5, p95] = line.split(',');
    times.set(`${from} ${to} 5`, p5!);
    times.set(`${from} ${to} 95`, p95!);
  }
  assert.equal(lines.length - 1, times.size);
  let ridden = 0;
  for (const line of lines.slice(1)) {
    const [from, to, percentile, total, access, wait, ride, transfer, egress, rides, routes] = line.split(',');
    assert.equal(total, times.get(`${from} ${to} ${percentile}`), line);
    if (total === '') {
      assert.equal([access, wait, ride, transfer, egress, rides, routes].join(''), '', line);
      continue;
    }
    const parts = [access, wait, ride, transfer, egress].map(Number);
    assert.equal(parts.reduce((a, b) => a + b, 0), Number(total), line);
    assert.ok(parts.every((p) => p >= 0), line);
    assert.equal(routes === '' ? 0 : routes!.split('|').length, Number(rides), line);
    if (Number(rides) > 0) ridden++;
  }
  assert.ok(ridden > 1000, `${ridden} pairs by public transport`);
  // the first origin's row as the API gives it, part by part
  const origin = SAMPLE[0]!;
  const api = (await getOk(served.app, `/v1/coverage/poa/travel_time_matrix?origins=sample&origin_ids[]=${origin.id}&destinations=hexgrid&${QUERY}&max_duration=3600&departure_window=600&percentiles[]=5&percentiles[]=95&breakdown=true&routes=true`)).travel_time_matrix;
  const rows = lines.slice(1).filter((line) => line.startsWith(`${origin.id},`));
  for (const line of rows) {
    const [, to, percentile, ...fields] = line.split(',');
    const d = api.destinations.indexOf(to);
    const p = api.percentiles.indexOf(Number(percentile));
    const skim = api.breakdown[p];
    const fromApi = [api.durations[p][0][d], ...['access', 'wait', 'ride', 'transfer', 'egress', 'rides'].map((name) => skim[name][0][d]), skim.routes[0][d]?.join('|')];
    assert.deepEqual(fromApi.map((v) => (v === null || v === undefined ? '' : String(v))), fields, line);
  }
});
