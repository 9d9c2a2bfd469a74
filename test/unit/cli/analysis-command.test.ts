/**
 * The analysis commands' arguments: --shard slices that cover the origins once, in order; options
 * as map parameters; bad arguments refused with a message and exit code 2, before any work; the
 * point sets of a configuration file and of --points.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeManifest } from '../../../src/cli/shard-parts.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandArgs, flagName, shardSlice } from '../../../src/cli/analysis-command.js';
import { accessibilityCommandParams, matrixCommandParams } from '../../../src/queries/analysis-params.js';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';
import type { ParamSpec } from '../../../src/queries/param-table.js';
import { ConfigError, pointSetsFromFlags, readConfigFile } from '../../../src/cli/config.js';

test('--shard K/N: N slices from 0, covering every origin once and in order, the header with slice 0 only', () => {
  for (const count of [0, 1, 7, 1227]) {
    for (const n of [1, 2, 3, 8]) {
      let next = 0;
      for (let k = 0; k < n; k++) {
        const slice = shardSlice(`${k}/${n}`, count);
        assert.equal(slice.from, next);
        assert.equal(slice.first, k === 0);
        next = slice.to;
      }
      assert.equal(next, count);
    }
  }
  assert.deepEqual(shardSlice(undefined, 10), { from: 0, to: 10, first: true, index: 0 });
  assert.deepEqual(shardSlice('1/3', 10), { from: 3, to: 6, first: false, index: 1, count: 3 });
  for (const bad of ['3/3', '1/0', '-1/2', 'a/b', '1', '1/2/3']) assert.throws(() => shardSlice(bad, 10), ConfigError, bad);
});

test('options: the command\'s own, and the others by the flags of its table (lists split on commas)', () => {
  const specs = matrixCommandParams(DEFAULT_LIMITS);
  const { own, values } = commandArgs(['--config', 'c.json', '--percentiles=5,50,95', '--max-nb-transfers', '2', '--out', 'm.csv'], specs);
  assert.deepEqual([...own], [
    ['config', 'c.json'],
    ['out', 'm.csv'],
  ]);
  assert.deepEqual([...values], [
    ['percentiles', ['5', '50', '95']],
    ['max_nb_transfers', ['2']],
  ]);
  assert.throws(() => commandArgs(['--out'], specs), /--out needs a value/);
  assert.throws(() => commandArgs(['m.csv'], specs), /unexpected argument m.csv/);
  assert.throws(() => commandArgs(['--out', 'a', '--out', 'b'], specs), /--out is given twice/);
  // the flags are the table's: an API-only parameter or a hidden one is no option
  assert.throws(() => commandArgs(['--from', '1;2'], specs), /unknown option --from/);
  assert.throws(() => commandArgs(['--current-datetime', '20190513T140000', '--bogus', '1'], specs), /unknown option --current-datetime, --bogus/);
});

test('a flag names each parameter of the table as the kebab case of its name', () => {
  assert.equal(flagName('max_nb_transfers'), '--max-nb-transfers');
  assert.equal(flagName('opportunities[]'), '--opportunities');
  for (const spec of accessibilityCommandParams(DEFAULT_LIMITS) as readonly ParamSpec[]) if (!spec.hidden) assert.match(flagName(spec.name), /^--[a-z]+(-[a-z]+)*$/);
});

test('bad arguments: a message and exit code 2, before loading anything', () => {
  const cases: [string[], RegExp][] = [
    [['matrix', '--config', 'none.json', '--coverage', 'x', '--origins', 'p'], /give --out FILE.csv/],
    [['matrix', '--out', 'm.txt'], /give --out FILE.csv/],
    [['matrix', '--out', 'm.csv', '--origins', 'p', '--max-nb-transfer', '2'], /unknown option --max-nb-transfer/],
    [['matrix', '--out', 'm.csv', '--origins', 'p', '--percentiles', '0'], /--percentiles invalid: The percentiles argument has to be >= 1/],
    // the query layer's refusals name the command's flags, not the API's parameters
    [['matrix', '--out', 'm.csv', '--origins', 'p', '--walking-speed', 'abc'], /^navette matrix: --walking-speed invalid: could not convert string to float: 'abc' \(Walking speed/],
    [['matrix', '--out', 'm.csv', '--origins', 'p', '--percentiles', '5,6,7,8,9,10'], /you cannot provide more than 5 --percentiles$/m],
    [['accessibility', '--out', 'a.csv', '--origins', 'p', '--grid', '100'], /either --origins SET or --grid METRES/],
    [['accessibility', '--out', 'a.tif', '--origins', 'p', '--opportunities', 'p:c'], /a GeoTIFF is a grid of origins/],
    [['accessibility', '--out', 'a.csv', '--origins', 'p'], /you should provide an --opportunities argument: POINT_SET:COLUMN/],
    [['accessibility', '--out', 'a.csv', '--origins', 'p', '--opportunities', 'p:c', '--decay-function', 'linear'], /--decay-function: linear decay needs widthSec/],
    [['accessibility', '--out', 'a.tif', '--grid', '100', '--shard', '0/2'], /a GeoTIFF is written whole/],
    [['accessibility', '--out', 'a.csv', '--origins', 'p', '--destinations', 'q'], /--destinations is the matrix's/],
    [['accessibility', '--out', 'a.csv', '--origins', 'p', '--opportunities', 'p:c', '--nearest', '5'], /--nearest \(dual access\) is the API's/],
    [['merge', 'part.csv'], /give --out FILE and the parts/],
    [['merge', '--out', 'm.csv', '--shard', 'part.csv'], /merge takes --out FILE and the parts only, not --shard/],
  ];
  for (const [args, message] of cases) {
    const run = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { encoding: 'utf8' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
  }
});

test('point sets: a name and a file, or an object naming the columns; --points NAME=FILE', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-points-config-'));
  const file = path.join(dir, 'navette.json');
  const coverage = (pointSets: unknown) => writeFileSync(file, JSON.stringify({ coverages: [{ id: 'c', gtfs: 'g', osm: 'o.pbf', pointSets }] }));
  coverage({ hexgrid: 'hex.csv', blocks: { file: 'b.csv', id: 'code', lon: 'x', lat: 'y', opportunities: ['jobs'] } });
  assert.deepEqual(readConfigFile(file).coverages[0]!.pointSets, [
    { name: 'hexgrid', file: path.join(dir, 'hex.csv') },
    { name: 'blocks', file: path.join(dir, 'b.csv'), idColumn: 'code', lonColumn: 'x', latColumn: 'y', opportunities: ['jobs'] },
  ]);
  for (const [bad, message] of [
    [['hex.csv'], /must map point set names to files/],
    [{ 'a:b': 'x.csv' }, /a point set's name is 1 to 64 letters/],
    [{ a: { path: 'x.csv' } }, /must be a path or \{ "file": … \}/],
    [{ a: { file: 'x.csv', opportunities: [] } }, /opportunities must be a list of column names/],
  ] as const) {
    coverage(bad);
    assert.throws(() => readConfigFile(file), message);
  }
  assert.deepEqual(pointSetsFromFlags(['hex=/data/hex.csv']), [{ name: 'hex', file: '/data/hex.csv' }]);
  assert.throws(() => pointSetsFromFlags(['hex']), /--points must be NAME=FILE/);
  assert.throws(() => pointSetsFromFlags(['a=x.csv', 'a=y.csv']), /the point set a is given twice/);
});

/** `navette merge` run as a process: its exit code and what it said. */
const merge = (...args: string[]) => spawnSync(process.execPath, ['dist/src/cli/main.js', 'merge', ...args], { encoding: 'utf8' });

/** A file's size and SHA-256 as a part's manifest holds them, read from the disk. */
const written = (file: string) => ({ bytes: statSync(file).size, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') });

/** Parts of one run written as --shard writes them: the bytes, and each part's manifest beside it. */
async function writeParts(dir: string, texts: string[], run = 'run-a', kind: 'matrix' | 'accessibility' = 'matrix', gz = false): Promise<string[]> {
  const parts: string[] = [];
  for (const [k, text] of texts.entries()) {
    const part = path.join(dir, `${run}-part-${k}.csv${gz ? '.gz' : ''}`);
    writeFileSync(part, gz ? gzipSync(text) : text);
    writeManifest(part, kind, run, k, texts.length, written(part));
    parts.push(part);
  }
  return parts;
}

test('merge: the parts byte for byte, a character split between two read chunks kept whole', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-merge-'));
  // 'ã' is two bytes: an odd prefix puts one of them at every 64 KiB chunk boundary of the first part
  const first = 'x' + 'São João,ã\n'.repeat(20_000);
  const second = 'Açaí,ç\n'.repeat(3);
  const parts = await writeParts(dir, [first, second]);
  const run = merge('--out', path.join(dir, 'm.csv'), ...parts);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(readFileSync(path.join(dir, 'm.csv'), 'utf8'), first + second);
  const gzParts = await writeParts(dir, [first, second], 'run-gz', 'matrix', true);
  assert.equal(merge('--out', path.join(dir, 'm.csv.gz'), ...gzParts).status, 0);
  assert.equal(gunzipSync(readFileSync(path.join(dir, 'm.csv.gz'))).toString('utf8'), first + second);
});

test('merge refuses what is not one run\'s parts, all of them, in order, each whole; nothing is written', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-merge-bad-'));
  const [a0, a1, a2] = await writeParts(dir, ['h\n1\n', '2\n', '3\n']);
  const [b0, b1] = await writeParts(dir, ['h\n1\n', '2\n'], 'run-b');
  const [c0] = await writeParts(dir, ['h\n1\n', '2\n'], 'run-c', 'accessibility');
  const pointSet = path.join(dir, 'points.csv');
  writeFileSync(pointSet, 'id,lon,lat\np,1,2\n');
  const truncated = path.join(dir, 'cut.csv.gz');
  const gz = await writeParts(dir, ['h\n' + Array.from({ length: 5000 }, (_, k) => `row,${(k * 7919) % 10007}\n`).join(''), 'more\n'], 'run-gz', 'matrix', true);
  const altered = await writeParts(dir, ['h\n1\n', '2\n'], 'run-altered');
  writeFileSync(altered[1]!, '3\n');
  const cases: [string[], RegExp][] = [
    [[a0!, a2!, a1!], /run-a-part-2\.csv is slice 2 of 3, where slice 1 is due: give the 3 parts in order, each once/],
    [[a0!, a0!, a1!], /run-a-part-0\.csv is slice 0 of 3, where slice 1 is due/],
    [[a0!, a1!], /2 parts given of a run of 3/],
    [[b0!, a1!], /run-a-part-1\.csv is a part of another run than .*run-b-part-0\.csv/],
    [[c0!, b1!], /is a part of another run/],
    [[a0!, pointSet, a2!], /points\.csv is no part of a sharded run: .*points\.csv\.part\.json, written beside each part by --shard K\/N, is missing/],
    [[altered[0]!, altered[1]!], /run-altered-part-1\.csv is damaged: its bytes differ from those written/],
  ];
  for (const [parts, message] of cases) {
    const out = path.join(dir, 'merged.csv');
    const run = merge('--out', out, ...parts);
    assert.equal(run.status, 2, `${parts.map((p) => path.basename(p)).join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'a message, not a stack trace');
    assert.equal(existsSync(out), false);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('merged.csv')), [], 'no partial file nor lock left');
  }
  // a part cut short after its manifest was written: its size says so before anything is read
  writeFileSync(truncated, readFileSync(gz[0]!).subarray(0, 200));
  writeFileSync(`${truncated}.part.json`, readFileSync(`${gz[0]}.part.json`));
  let run = merge('--out', path.join(dir, 'merged.csv'), truncated, gz[1]!);
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /cut\.csv\.gz is damaged: 200 bytes where \d+ were written/);
  // gzip data that ends early, its manifest saying so too (a part written cut): named, not a Z_BUF_ERROR stack
  writeManifest(truncated, 'matrix', 'run-gz', 0, 2, written(truncated));
  run = merge('--out', path.join(dir, 'merged.csv'), truncated, gz[1]!);
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /cut\.csv\.gz is damaged: its gzip data ends too early/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('merged.csv')), []);
});

test('--threads is bounded by the machine\'s cores', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-threads-'));
  const config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [{ id: 'c', gtfs: 'g', osm: 'o.pbf', pointSets: { p: 'p.csv' } }] }));
  for (const threads of ['1000000000', '0', '1.5']) {
    const run = spawnSync(process.execPath, ['dist/src/cli/main.js', 'matrix', '--config', config, '--coverage', 'c', '--origins', 'p', '--threads', threads, '--datetime', '20190513T140000', '--out', path.join(dir, 'm.csv')], { encoding: 'utf8' });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`--threads must be a whole number from 1 to ${4 * availableParallelism()} \\(4 per core of this machine\\), not ${threads.replace('.', '\\.')}`));
  }
});

/** `navette …` run as a process on the built command: its exit code and what it said. */
const navette = (...args: string[]) => spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { encoding: 'utf8' });

test('--help and -h: every command\'s usage on stdout, exit 0; what is required is out of brackets', () => {
  for (const command of [['matrix'], ['accessibility'], ['merge'], ['build'], ['serve'], ['deploy', 'nginx'], ['deploy']]) {
    for (const flag of ['--help', '-h']) {
      const run = navette(...command, flag);
      assert.equal(run.status, 0, `${command.join(' ')} ${flag}: ${run.stderr}`);
      assert.equal(run.stderr, '');
      assert.ok(run.stdout.startsWith(`Usage:\n  navette ${command[0]}`), `${command.join(' ')} ${flag}: ${run.stdout}`);
    }
  }
  // --datetime is required: in the first line, out of brackets
  const matrix = navette('matrix', '--help').stdout;
  assert.match(matrix.split('\n')[1]!, /--origins SET --datetime YYYYMMDDThhmmss$/);
  assert.match(matrix.split('\n')[2]!, /^ +--out FILE\.csv\[\.gz\] \| FILE\.parquet \| FILE\.omx$/);
  assert.match(matrix, /\[--origin-ids ID,…\] \[--destination-ids ID,…\] \[--breakdown \[--routes\]\]/);
  assert.match(navette('accessibility', '--help').stdout.split('\n')[2]!, /^ +--datetime YYYYMMDDThhmmss$/);
  assert.match(navette('accessibility', '--help').stdout.split('\n')[3]!, /^ +--out FILE\.csv\[\.gz\] \| FILE\.parquet \| FILE\.geoparquet \| FILE\.fgb \| FILE\.tif$/);
  // the full usage holds each command's
  assert.ok(navette('--help').stdout.includes(matrix.slice('Usage:\n'.length, matrix.indexOf('\n\n'))));
});

/** The demo town with a point set of three places, its snapshot built: a coverage whose loads are quick. */
function demoWithPlaces(snapshots = true): { dir: string; config: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-cli-demo-'));
  writeFileSync(path.join(dir, 'places.csv'), 'id,lon,lat,jobs\na,4.85,45.74,10\nb,4.84,45.73,5\nc,4.86,45.75,7\n');
  const demo = path.resolve('data/demo');
  const coverage = { id: 'demo', gtfs: [path.join(demo, 'gtfs')], osm: path.join(demo, 'valmont.osm'), timezone: 'Europe/Paris', pointSets: { places: path.join(dir, 'places.csv') } };
  const config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [coverage], ...(snapshots ? { snapshots: path.join(dir, 'snapshots') } : {}) }));
  if (snapshots) assert.equal(navette('build', '--config', config, '--out', path.join(dir, 'snapshots')).status, 0);
  return { dir, config };
}

test('bad arguments on a real coverage are refused before it loads, in the API\'s words with the command\'s flags', () => {
  const { dir, config } = demoWithPlaces();
  const on = (...args: string[]) => ['--config', config, '--coverage', 'demo', ...args];
  const out = path.join(dir, 'm.csv');
  const cases: [string[], string][] = [
    [['matrix', ...on('--origins', 'places', '--datetime', '2026-11-24', '--out', out)], 'navette matrix: --datetime 2026-11-24 names a day without a time of day (it would mean midnight): give one, as 20261124T080000'],
    [['matrix', ...on('--origins', 'places', '--out', out)], "navette matrix: give --datetime YYYYMMDDThhmmss (the coverage's local time)"],
    [['matrix', ...on('--origins', 'places', '--datetime', '20300513T080000', '--out', out)], 'navette matrix: --datetime 20300513T080000: date is not in data production period: 2030-05-13 is outside the production period, 2026-01-01 to 2028-12-31'],
    [['matrix', ...on('--origins', 'places', '--datetime', '20261124T080000', '--shard', '2/2', '--out', out)], 'navette matrix: --shard must be K/N with 0 ≤ K < N (slice K of N), not 2/2'],
    [['matrix', ...on('--origins', 'places', '--datetime', '20261124T080000', '--routes', '--out', out)], 'navette matrix: --routes names the lines of the journeys --breakdown gives: ask for --breakdown too'],
    [['matrix', ...on('--origins', 'hexgrid', '--datetime', '20261124T080000', '--out', out)], 'navette matrix: --origins hexgrid names no point set; the coverage has places (jobs)'],
    [['matrix', ...on('--origins', 'places', '--destinations', 'schools', '--datetime', '20261124T080000', '--out', out)], 'navette matrix: --destinations schools names no point set; the coverage has places (jobs)'],
    [['accessibility', ...on('--origins', 'places', '--opportunities', 'places:schools', '--datetime', '20261124T080000', '--out', out)], 'navette accessibility: --opportunities places:schools names no point set column; the coverage has places (jobs)'],
    [['matrix', ...on('--origins', 'places', '--datetime', '20261124T080000', '--out', path.join(dir, 'no-such-dir', 'm.csv'))], `navette matrix: ${path.join(dir, 'no-such-dir', 'm.csv')} cannot be written: its folder ${path.join(dir, 'no-such-dir')} does not exist`],
    [['accessibility', ...on('--grid', '100', '--opportunities', 'places:jobs', '--datetime', '20261124T080000', '--out', dir)], `navette accessibility: give --out FILE.csv, FILE.csv.gz, FILE.parquet, FILE.geoparquet, FILE.fgb or FILE.tif`],
    [['matrix', ...on('--origins', 'places', '--datetime', '20261124T080000', '--out', path.join(dir, 'places.csv', 'm.csv'))], `navette matrix: ${path.join(dir, 'places.csv', 'm.csv')} cannot be written: ${path.join(dir, 'places.csv')} is not a folder`],
  ];
  for (const [args, message] of cases) {
    const run = navette(...args);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    // the whole of what it said: no "loading demo…" before it
    assert.equal(run.stderr, `${message}\n`);
  }
  assert.deepEqual(readdirSync(dir).sort(), ['navette.json', 'places.csv', 'snapshots']);
});

test('without a current snapshot, a day outside the production period is refused once the coverage has loaded, before any search', () => {
  const { dir, config } = demoWithPlaces(false);
  const run = navette('matrix', '--config', config, '--coverage', 'demo', '--origins', 'places', '--datetime', '20300513T080000', '--out', path.join(dir, 'm.csv'));
  assert.equal(run.status, 2, run.stderr);
  const lines = run.stderr.trim().split('\n');
  assert.deepEqual([lines[0], lines.length], ['loading demo…', 3]);
  assert.match(lines[1]!, /^demo loaded from its sources in \d+\.\d s$/);
  assert.equal(lines[2], 'navette matrix: --datetime 20300513T080000: date is not in data production period: 2030-05-13 is outside the production period, 2026-01-01 to 2028-12-31');
});

test('navette matrix --origin-ids, --destination-ids: the rows of the points named, in their order; an unknown id refused by name; the API\'s warnings said first', () => {
  const { dir, config } = demoWithPlaces();
  const out = path.join(dir, 'm.csv');
  const matrix = (...args: string[]) => navette('matrix', '--config', config, '--coverage', 'demo', '--origins', 'places', '--out', out, ...args);
  let run = matrix('--datetime', '20261124T080000', '--origin-ids', 'c,a', '--destination-ids', 'b,c');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(readFileSync(out, 'utf8').split('\n').map((line) => line.split(',').slice(0, 2).join(',')), ['from_id,to_id', 'c,b', 'c,c', 'a,b', 'a,c', '']);
  assert.doesNotMatch(run.stderr, /warning/);
  run = matrix('--datetime', '20261124T080000', '--origin-ids', 'c,zz,a,yy');
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stderr.trim().split('\n').pop(), 'navette matrix: --origin-ids names no point of places: zz, yy');
  // at 03:00 no trip runs within 10 minutes: the API's no_service, on stderr before the run
  run = matrix('--datetime', '20261124T030000', '--max-duration', '600');
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stderr.split('\n');
  const warning = lines.indexOf('navette matrix: warning: no trip runs between 2026-11-24 03:00 and 2026-11-24 03:10; the production period is 2026-01-01 to 2028-12-31 (no_service)');
  assert.ok(warning > 0 && lines.findIndex((line) => line.startsWith('matrix: ')) > warning, run.stderr);
});

test('a switch alone is true (--breakdown, --routes), and still takes a value (--breakdown false)', () => {
  const specs = matrixCommandParams(DEFAULT_LIMITS);
  const alone = commandArgs(['--breakdown', '--routes', '--out', 'm.csv'], specs);
  assert.deepEqual([...alone.values], [
    ['breakdown', ['true']],
    ['routes', ['true']],
  ]);
  assert.deepEqual([...commandArgs(['--breakdown', 'false', '--routes'], specs).values], [
    ['breakdown', ['false']],
    ['routes', ['true']],
  ]);
  // a parameter that is no switch still needs its value
  assert.throws(() => commandArgs(['--breakdown', '--max-duration'], specs), /--max-duration needs a value/);
});
