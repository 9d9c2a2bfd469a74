/**
 * The analysis commands' arguments: --shard slices that cover the origins once, in order; options
 * as map parameters; bad arguments refused with a message and exit code 2, before any work; the
 * point sets of a configuration file and of --points.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
  assert.deepEqual(shardSlice(undefined, 10), { from: 0, to: 10, first: true });
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

test('merge: the parts byte for byte, a character split between two read chunks kept whole', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-merge-'));
  // 'ã' is two bytes: an odd prefix puts one of them at every 64 KiB chunk boundary of the first part
  const first = 'x' + 'São João,ã\n'.repeat(20_000);
  const second = 'Açaí,ç\n'.repeat(3);
  writeFileSync(path.join(dir, 'a.csv'), first);
  writeFileSync(path.join(dir, 'b.csv'), second);
  const run = spawnSync(process.execPath, ['dist/src/cli/main.js', 'merge', '--out', path.join(dir, 'm.csv'), path.join(dir, 'a.csv'), path.join(dir, 'b.csv')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(readFileSync(path.join(dir, 'm.csv'), 'utf8'), first + second);
});
