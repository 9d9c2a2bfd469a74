/**
 * The columnar outputs on Porto Alegre's real data (r5r's example GTFS, OSM and 1,227 hexagons; walk
 * + transit, 2019-05-13 14:00, 2 transfers), each read by a reader we did not write and compared
 * with the CSV of the same run, value for value:
 *
 * - `navette matrix` on a sample of 30 hexagons: DuckDB reads the Parquet equal to the CSV row for
 *   row; h5py reads the OMX (version, shape, zones, each percentile's matrix, NaN where the CSV is
 *   empty); an OMX of another destination set is refused before the coverage loads; Parquet parts of
 *   `--shard` each read alone hold their slice, read together are the whole run, and `navette merge`
 *   refuses them;
 * - `navette accessibility`: the Parquet equal to its CSV; the GeoParquet's points (WKB decoded
 *   here) at the places, with the CSV's values and GeoParquet 1.1 metadata; the FlatGeobuf read by
 *   ogrinfo; with `--grid`, the points are the cells' centres; GeoParquet and FlatGeobuf parts of
 *   `--shard` each read alone (DuckDB, ogrinfo) hold their slice, and together are the whole run;
 * - `GET travel_time_matrix?format=parquet`: the JSON answer's durations, as rows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { getAnswer, getOk, type ServedApp } from '../helpers/app.js';
import { duckRows, h5pyOmx, ogrFeatures, ogrinfo, parquetKeyValues, sqlText, wkbPoint } from '../helpers/columnar-readers.js';
import { HEXGRID, poaSampleCoverage } from './poa-sample-coverage.js';

const run = promisify(execFile);
const JOURNEYS = ['--datetime', '20190513T140000', '--walking-speed', '1', '--max-walking-duration-to-pt', '1800', '--max-nb-transfers', '2'];
const WINDOW = ['--departure-window', '600', '--percentiles', '5,50,95'];
const ACCESS = ['--opportunities', 'hexgrid:schools,hexgrid:jobs', '--cutoffs', '1800,3600'];

const hexagons = readFileSync(HEXGRID, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(','))
  .map(([id, lon, lat]) => ({ id: id!, lon: Number(lon), lat: Number(lat) }));
/** every 41st hexagon, across the city */
const SAMPLE = hexagons.filter((_, k) => k % 41 === 0);

let dir: string;
let config: string;
let served: ServedApp;

before(async () => {
  ({ dir, config, served } = await poaSampleCoverage('navette-poa-columnar-', SAMPLE));
});

after(async () => served?.close());

const navette = (...args: string[]) => run(process.execPath, ['dist/src/cli/main.js', ...args, '--config', config, '--coverage', 'poa', ...JOURNEYS], { maxBuffer: 1 << 26 });
const file = (name: string) => path.join(dir, name);

const written = new Map<string, ReturnType<typeof navette>>();
/** The sample's matrix (over WINDOW) or accessibility (of ACCESS) to file `name`, run once for every test that reads it. */
function writtenOnce(command: 'matrix' | 'accessibility', name: string): ReturnType<typeof navette> {
  let run = written.get(name);
  if (!run) written.set(name, (run = navette(command, '--origins', 'sample', ...(command === 'matrix' ? WINDOW : ACCESS), '--out', file(name))));
  return run;
}

/** A CSV's rows as DuckDB reads them, every field text, in the file's order. */
const csvRows = (name: string) => duckRows(`SELECT * FROM read_csv(${sqlText(file(name))}, all_varchar = true, header = true)`);
/** A Parquet's rows, in the file's order, every value as the CSV writes it (null as empty). */
async function parquetRowsAsText(name: string): Promise<Record<string, unknown>[]> {
  const rows = await duckRows(`SELECT * FROM read_parquet(${sqlText(file(name))})`);
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));
}

test('matrix: the Parquet is the CSV row for row, times as nullable int32 and ids as strings', async () => {
  await navette('matrix', '--origins', 'sample', ...WINDOW, '--out', file('m.csv'));
  const { stderr } = await writtenOnce('matrix', 'm.parquet');
  assert.match(stderr, /m\.parquet: 30 origins × 30 destinations in [\d.]+ s \(writing [\d.]+ s, 900 rows, \d+ rows\/s\)/);
  const csv = await csvRows('m.csv');
  const parquet = await parquetRowsAsText('m.parquet');
  assert.equal(parquet.length, 900);
  assert.deepEqual(parquet, csv);
  // unreached pairs are null, and there are some at 3 transfers' reach in 2 hours from the edges
  assert.ok(parquet.some((r) => r['travel_time_p50'] === null));
  const types = await duckRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlText(file('m.parquet'))}))`);
  assert.deepEqual(types.map((t) => `${t['column_name']} ${t['column_type']}`), ['from_id VARCHAR', 'to_id VARCHAR', 'travel_time_p5 INTEGER', 'travel_time_p50 INTEGER', 'travel_time_p95 INTEGER']);
});

test('matrix: h5py reads the OMX as its layout says, each matrix the CSV\'s values, NaN where unreached', async () => {
  await navette('matrix', '--origins', 'sample', ...WINDOW, '--out', file('m.omx'));
  const csv = await csvRows('m.csv');
  const omx = h5pyOmx(file('m.omx'));
  assert.deepEqual(omx.attributes, { OMX_VERSION: '0.2', SHAPE: [30, 30] });
  assert.deepEqual(omx.lookup, { sample: SAMPLE.map((h) => h.id) });
  assert.deepEqual(Object.keys(omx.data).sort(), ['travel_time_p5', 'travel_time_p50', 'travel_time_p95']);
  for (const [name, matrix] of Object.entries(omx.data)) {
    assert.equal(matrix.dtype, 'float32');
    const fromCsv = SAMPLE.map((_, o) => SAMPLE.map((_, d) => csv[o * 30 + d]![name]).map((v) => (v === null ? null : Number(v))));
    assert.deepEqual(matrix.rows, fromCsv, name);
  }
});

test('matrix: an OMX of another destination set, or sharded, is refused before the coverage loads', async () => {
  for (const [extra, message] of [
    [['--destinations', 'hexgrid'], /--out FILE\.omx holds square matrices, zones to the same zones: --destinations hexgrid is another set than --origins sample/],
    [['--shard', '0/2'], /--out FILE\.omx is written whole by one run/],
  ] as const) {
    const failed = await navette('matrix', '--origins', 'sample', ...extra, '--out', file('refused.omx')).then(
      () => assert.fail('accepted'),
      (e: { code: number; stderr: string }) => e,
    );
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, message);
    assert.doesNotMatch(failed.stderr, /loading poa/);
    assert.equal(existsSync(file('refused.omx')), false);
  }
});

/**
 * The parts of a run sharded into `bounds.length - 1` slices of the sample's origins (slice k:
 * origins bounds[k] to bounds[k + 1]), each read alone, against the single run's rows: each part
 * holds its slice's origins, in order, and no other, so no origin is in two parts; the parts' rows,
 * one part after the other, are the single run's exactly.
 */
function assertPartsAreTheRun<T>(parts: T[][], whole: T[], originOf: (row: T) => string, bounds: readonly number[]): void {
  assert.equal(parts.length, bounds.length - 1);
  parts.forEach((rows, k) => {
    const origins = [...new Set(rows.map(originOf))];
    assert.deepEqual(origins, SAMPLE.slice(bounds[k], bounds[k + 1]).map((h) => h.id), `part ${k}'s origins`);
  });
  assert.deepEqual(parts.flat(), whole);
}

/** The manifest beside part k of n: that slice of the run, the part's size and SHA-256 its file's; its run's digest. */
function manifestOf(part: string, kind: string, k: number, n: number): string {
  const manifest = JSON.parse(readFileSync(`${part}.part.json`, 'utf8'));
  const bytes = readFileSync(part);
  assert.deepEqual(
    { ...manifest, run: undefined },
    { format: 'navette-part', kind, run: undefined, index: k, count: n, bytes: statSync(part).size, sha256: createHash('sha256').update(bytes).digest('hex') },
  );
  return manifest.run;
}

test('matrix --shard: each Parquet part a complete file of its slice, read together the whole run; merge refuses them', async () => {
  for (const k of [0, 1]) await navette('matrix', '--origins', 'sample', ...WINDOW, '--shard', `${k}/2`, '--out', file(`part-${k}.parquet`));
  await writtenOnce('matrix', 'm.parquet');
  const together = await duckRows(`SELECT * FROM read_parquet([${sqlText(file('part-0.parquet'))}, ${sqlText(file('part-1.parquet'))}])`);
  const whole = await duckRows(`SELECT * FROM read_parquet(${sqlText(file('m.parquet'))})`);
  assert.deepEqual(together, whole);
  // each part alone: 15 origins × 30 destinations, of its slice (slice k of 2 is origins 15k to 15k + 15)
  const parts = [await duckRows(`SELECT * FROM read_parquet(${sqlText(file('part-0.parquet'))})`), await duckRows(`SELECT * FROM read_parquet(${sqlText(file('part-1.parquet'))})`)];
  assert.deepEqual(parts.map((rows) => rows.length), [450, 450]);
  assertPartsAreTheRun(parts, whole, (row) => String(row['from_id']), [0, 15, 30]);
  assert.equal(manifestOf(file('part-0.parquet'), 'matrix', 0, 2), manifestOf(file('part-1.parquet'), 'matrix', 1, 2));
  const failed = await run(process.execPath, ['dist/src/cli/main.js', 'merge', '--out', file('merged.parquet'), file('part-0.parquet'), file('part-1.parquet')]).then(
    () => assert.fail('merged'),
    (e: { code: number; stderr: string }) => e,
  );
  assert.equal(failed.code, 2);
  assert.match(failed.stderr, /navette merge joins CSV parts \(\.csv, \.csv\.gz\), not .*merged\.parquet: each Parquet, GeoParquet or FlatGeobuf part of --shard is a complete file of its slice/);
});

test('accessibility: the Parquet is the CSV; the GeoParquet and the FlatGeobuf hold each place at its point with the same values', async () => {
  for (const out of ['a.csv', 'a.parquet', 'a.geoparquet', 'a.fgb']) await writtenOnce('accessibility', out);
  const csv = await csvRows('a.csv');
  assert.equal(csv.length, 30 * 2);
  assert.deepEqual(await parquetRowsAsText('a.parquet'), csv);
  // the long form's values, by place and measure
  const expected = new Map<string, number>(csv.flatMap((r) => ['hexgrid:schools', 'hexgrid:jobs'].map((label) => [`${r['origin_id']} ${label}_p${r['percentile']}_${r['cutoff']}s`, Number(r[label])] as const)));
  const places = await duckRows(`SELECT * FROM read_parquet(${sqlText(file('a.geoparquet'))})`);
  assert.equal(places.length, 30);
  places.forEach((row, k) => {
    const hexagon = SAMPLE[k]!;
    assert.equal(row['origin_id'], hexagon.id);
    // the point set's positions, as the coverage read them from the CSV's decimal texts
    assert.deepEqual(wkbPoint(row['geometry'] as Uint8Array), { type: 1, x: hexagon.lon, y: hexagon.lat });
    for (const [name, value] of Object.entries(row)) if (name !== 'origin_id' && name !== 'geometry') assert.equal(value, expected.get(`${hexagon.id} ${name}`), name);
  });
  const geo = JSON.parse((await parquetKeyValues(file('a.geoparquet'))).get('geo')!);
  const lons = SAMPLE.map((h) => h.lon);
  const lats = SAMPLE.map((h) => h.lat);
  assert.deepEqual(geo, { version: '1.1.0', primary_column: 'geometry', columns: { geometry: { encoding: 'WKB', geometry_types: ['Point'], bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] } } });
  const listing = ogrinfo(file('a.fgb'));
  assert.match(listing, /Feature Count: 30\n/);
  for (const field of ['origin_id: String', 'hexgrid:schools_p50_1800s: Real', 'hexgrid:jobs_p50_3600s: Real']) assert.ok(listing.includes(field), field);
  const first = SAMPLE[0]!;
  const feature = new RegExp(`OGRFeature\\(\\w+\\):0\\n  origin_id \\(String\\) = ${first.id}\\n  hexgrid:schools_p50_1800s \\(Real\\) = ${expected.get(`${first.id} hexgrid:schools_p50_1800s`)}\\n`);
  assert.match(listing, feature);
  assert.match(listing, /Geometry: Point/);
});

/** `--shard K/4` of the sample's 30 origins: slice K is origins ⌊30K/4⌋ to ⌊30(K + 1)/4⌋, 7, 8, 7 and 8 of them. */
const QUARTERS = [0, 7, 15, 22, 30];

test('accessibility --shard: each GeoParquet and FlatGeobuf part a complete file of its slice, read alone; together the single run, no place twice', async () => {
  const n = QUARTERS.length - 1;
  for (const format of ['geoparquet', 'fgb']) {
    await writtenOnce('accessibility', `a.${format}`);
    for (let k = 0; k < n; k++) await navette('accessibility', '--origins', 'sample', ...ACCESS, '--shard', `${k}/${n}`, '--out', file(`quarter-${k}.${format}`));
  }
  const quarters = (format: string) => QUARTERS.slice(1).map((_, k) => file(`quarter-${k}.${format}`));
  // GeoParquet: DuckDB reads each part alone, through its own footer
  const places = (part: string) => duckRows(`SELECT * FROM read_parquet(${sqlText(part)})`);
  const whole = await places(file('a.geoparquet'));
  assert.equal(whole.length, 30);
  const parts: Record<string, unknown>[][] = [];
  for (const part of quarters('geoparquet')) parts.push(await places(part));
  assert.deepEqual(parts.map((rows) => rows.length), [7, 8, 7, 8]);
  assertPartsAreTheRun(parts, whole, (row) => String(row['origin_id']), QUARTERS);
  // each footer's box is its own places'
  for (const [k, part] of quarters('geoparquet').entries()) {
    const points = parts[k]!.map((row) => wkbPoint(row['geometry'] as Uint8Array));
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const geo = JSON.parse((await parquetKeyValues(part)).get('geo')!);
    assert.deepEqual(geo.columns.geometry.bbox, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], part);
  }
  // FlatGeobuf: ogrinfo reads each part alone, its header counting its slice's features
  const features = ogrFeatures(file('a.fgb'));
  assert.deepEqual([features.count, features.features.length], [30, 30]);
  const fgbParts = quarters('fgb').map(ogrFeatures);
  assert.deepEqual(fgbParts.map((p) => [p.count, p.features.length]), [[7, 7], [8, 8], [7, 7], [8, 8]]);
  assertPartsAreTheRun(fgbParts.map((p) => p.features), features.features, (f) => f.fields['origin_id']!, QUARTERS);
  // the two formats hold the same places with the same values
  assert.deepEqual(
    features.features.map((f) => Object.entries(f.fields).map(([name, value]) => (name === 'origin_id' ? value : Number(value)))),
    whole.map((row) => Object.entries(row).filter(([name]) => name !== 'geometry').map(([, value]) => value)),
  );
  // each part's manifest: its slice of one run, its own size and digest
  for (const format of ['geoparquet', 'fgb']) assert.equal(new Set(quarters(format).map((part, k) => manifestOf(part, 'accessibility', k, n))).size, 1, format);
});

test('accessibility --grid: the GeoParquet\'s points are the cells\' centres, one per origin of the CSV', async () => {
  const grid = ['--grid', '2000', '--opportunities', 'hexgrid:schools', '--cutoffs', '1800'];
  await navette('accessibility', ...grid, '--out', file('g.csv'));
  await navette('accessibility', ...grid, '--out', file('g.geoparquet'));
  const csv = await csvRows('g.csv');
  const places = await duckRows(`SELECT origin_id, "hexgrid:schools_p50_1800s" AS schools, geometry FROM read_parquet(${sqlText(file('g.geoparquet'))})`);
  assert.deepEqual(places.map((p) => [p['origin_id'], String(p['schools'])]), csv.map((r) => [r['origin_id'], r['hexgrid:schools']]));
  // cells i_j on a square grid: the centres of one column share a longitude, of one row a latitude,
  // at equal steps
  const points = places.map((p) => ({ id: String(p['origin_id']), ...wkbPoint(p['geometry'] as Uint8Array) }));
  const byColumn = new Map<string, Set<number>>();
  for (const p of points) byColumn.set(p.id.split('_')[0]!, (byColumn.get(p.id.split('_')[0]!) ?? new Set()).add(p.x));
  for (const [column, xs] of byColumn) assert.equal(xs.size, 1, `column ${column}`);
  const [a, b] = points.filter((p) => p.id.startsWith(`${points[0]!.id.split('_')[0]}_`));
  const step = (b!.y - a!.y) / (Number(b!.id.split('_')[1]) - Number(a!.id.split('_')[1]));
  for (const p of points) assert.ok(Math.abs(p.y - (a!.y + (Number(p.id.split('_')[1]) - Number(a!.id.split('_')[1])) * step)) < 1e-9, p.id);
});

test('GET travel_time_matrix?format=parquet: the JSON answer\'s durations as rows of the command\'s columns', async () => {
  const query = 'origins=sample&datetime=20190513T140000&walking_speed=1&max_walking_duration_to_pt=1800&max_nb_transfers=2&departure_window=600&percentiles[]=5&percentiles[]=50';
  const json = (await getOk(served.app, `/v1/coverage/poa/travel_time_matrix?${query}`)).travel_time_matrix;
  const answer = await getAnswer(served.app, `/v1/coverage/poa/travel_time_matrix?${query}&format=parquet`);
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'application/vnd.apache.parquet');
  writeFileSync(file('api.parquet'), answer.raw);
  const rows = await duckRows(`SELECT * FROM read_parquet(${sqlText(file('api.parquet'))})`);
  const expected = json.origins.flatMap((from: string, o: number) => json.destinations.map((to: string, d: number) => ({ from_id: from, to_id: to, travel_time_p5: json.durations[0][o][d], travel_time_p50: json.durations[1][o][d] })));
  assert.deepEqual(rows, expected);
});

test('matrix --breakdown: h5py reads a matrix per part and percentile beside the travel times, the parts adding up to them, equal to the CSV\'s long form', async () => {
  await navette('matrix', '--origins', 'sample', ...WINDOW, '--breakdown', '--out', file('skims.omx'));
  await navette('matrix', '--origins', 'sample', ...WINDOW, '--breakdown', '--out', file('skims.csv'));
  const omx = h5pyOmx(file('skims.omx'));
  const parts = ['access', 'wait', 'ride', 'transfer', 'egress', 'rides'];
  const percentiles = [5, 50, 95];
  assert.deepEqual(Object.keys(omx.data).sort(), [...percentiles.map((p) => `travel_time_p${p}`), ...parts.flatMap((part) => percentiles.map((p) => `${part}_p${p}`))].sort());
  const csv = await csvRows('skims.csv');
  assert.equal(csv.length, 30 * 30 * 3);
  let ridden = 0;
  for (const row of csv) {
    const o = SAMPLE.findIndex((h) => h.id === row['from_id']);
    const d = SAMPLE.findIndex((h) => h.id === row['to_id']);
    const p = row['percentile'];
    const at = (name: string) => omx.data[name]!.rows[o]![d];
    const total = at(`travel_time_p${p}`);
    assert.equal(total, row['travel_time'] === null ? null : Number(row['travel_time']), `${o} ${d} p${p}`);
    for (const part of parts) assert.equal(at(`${part}_p${p}`), row[part] === null ? null : Number(row[part]), `${part} ${o} ${d} p${p}`);
    if (total === null) continue;
    assert.equal(['access', 'wait', 'ride', 'transfer', 'egress'].reduce((sum, part) => sum + at(`${part}_p${p}`)!, 0), total);
    if (at(`rides_p${p}`)! > 0) ridden++;
  }
  assert.ok(ridden > 100, `${ridden} pairs by public transport`);
});

test('GET travel_time_matrix?format=parquet&breakdown=true&routes=true: the long form, each row the JSON answer\'s, for the destinations named', async () => {
  const named = SAMPLE.slice(3, 9).map((h) => h.id);
  const query = `origins=sample&${named.map((id) => `destination_ids[]=${id}`).join('&')}&datetime=20190513T140000&walking_speed=1&max_walking_duration_to_pt=1800&max_nb_transfers=2&departure_window=600&percentiles[]=5&percentiles[]=50&breakdown=true&routes=true`;
  const json = (await getOk(served.app, `/v1/coverage/poa/travel_time_matrix?${query}`)).travel_time_matrix;
  const answer = await getAnswer(served.app, `/v1/coverage/poa/travel_time_matrix?${query}&format=parquet`);
  assert.equal(answer.status, 200);
  writeFileSync(file('api-skims.parquet'), answer.raw);
  const rows = await duckRows(`SELECT * FROM read_parquet(${sqlText(file('api-skims.parquet'))})`);
  const parts = ['access', 'wait', 'ride', 'transfer', 'egress', 'rides'];
  const expected = json.origins.flatMap((from: string, o: number) =>
    json.destinations.flatMap((to: string, d: number) =>
      json.percentiles.map((percentile: number, p: number) => {
        const skim = json.breakdown[p];
        const lines = skim.routes[o][d];
        return { from_id: from, to_id: to, percentile, travel_time: json.durations[p][o][d], ...Object.fromEntries(parts.map((part) => [part, skim[part][o][d]])), routes: lines === null ? null : lines.join('|') };
      }),
    ),
  );
  assert.deepEqual(json.destinations, named);
  assert.equal(rows.length, 30 * named.length * 2);
  assert.deepEqual(rows, expected);
  assert.ok(rows.some((r) => (r['rides'] as number) > 0));
});
