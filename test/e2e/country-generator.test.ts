/**
 * The country generator (bench/country) at --scale 2, on the real extracts and feeds: its command
 * line, the same bytes from the same arguments, and its PBF read by an independent reader, osmium.
 *
 * Scale 2 asks 329,196 street nodes and 848,532 stop times (two rnv-mannheims). The streets make
 * two tiles (rnv, then Milan: 382 k nodes), the stop times two more (Porto Alegre, Terre Haute: the
 * next, NYC on rnv's streets, would overshoot by more than it fills), each with its own city's feeds:
 * a 2 × 2 grid. The extracts' highway nodes and ways as Navette reads them (osmium's `tags-filter
 * w/highway` counts the same nodes; Milan's one highway way with a single node left, and one way of
 * Terre Haute written twice, are not counted):
 *
 *   rnv-mannheim 164,598 nodes 37,344 ways   Milan   217,361 nodes 58,480 ways
 *   Porto Alegre  41,109 nodes 15,886 ways   Terre Haute 25,435 nodes 4,250 ways
 *
 * The intercity feed: rows 0 and 1, columns 0 and 1, 2 stations each: 4 lines × 2 directions × 19
 * trains = 152 trips of 2 stop times.
 *
 * The point set (points.csv): each tile's station and the lattice positions of its cell (4 × 4,
 * 13 km apart) with a walking node within 1 km, each on that node: rnv's streets keep 8, Milan's 4,
 * Porto Alegre's 2, Terre Haute's 6: 4 + 20 = 24 points.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { targetsOf } from '../../bench/country/catalogue.js';
import { generateCountry, STREETS_FILE, type Country } from '../../bench/country/country.js';
import { POINT_SET, POINTS_FILE } from '../../bench/country/points.js';
import { readOsm } from '../../src/osm/read-osm.js';
import { osmiumMissing } from '../helpers/pgrouting-tools.js';
import { SHARED_DATA } from '../helpers/shared-data.js';

const run = promisify(execFile);
const GENERATE = path.resolve('dist/bench/country/generate.js');
const NODES = 164_598 + 217_361 + 41_109 + 25_435;
const WAYS = 37_344 + 58_480 + 15_886 + 4_250;

let dir: string;
let printed: string;
let again: Country;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'navette-country-'));
  printed = (await run(process.execPath, [GENERATE, '--scale', '2', '--out', path.join(dir, 'a'), '--data', SHARED_DATA])).stdout;
  again = await generateCountry(SHARED_DATA, targetsOf('2'), '2', path.join(dir, 'b'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under `root`, relative, with the SHA-256 of its bytes. */
function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return out;
}

test('the command prints what it wrote: tiles, nodes, ways, stops, trips, stop times, time and peak memory', () => {
  const lines = printed.trim().split('\n');
  assert.equal(lines[0], 'country --scale 2: asked 329,196 street nodes, 848,532 stop times');
  assert.equal(lines[1], '  tiles      4 (2 × 2 grid), 4 with a timetable');
  assert.match(lines[2]!, /^ {2}streets {4}448,503 nodes, 115,960 ways: [\d.]+ MB$/);
  // rnv, Milan, EPTC, Trensurb, Terre Haute and the intercity feed
  assert.match(lines[3]!, /^ {2}timetable {2}6,702 stops, 35,162 trips, 819,865 stop times in 6 feeds: [\d.]+ MB$/);
  assert.equal(lines[4], '  intercity  4 lines, 4 stations, 152 trips, 304 stop times (counted above)');
  assert.equal(lines[5], '  points     24 (the point set points: points.csv)');
  assert.match(lines[6]!, /^ {2}time [\d.]+ s \(sources [\d.]+ s, streets [\d.]+ s, timetables [\d.]+ s\), peak RSS [\d.]+ MB$/);
  assert.equal(lines[7], `  ${path.join(dir, 'a', 'navette.json')}`);
});

test('the same arguments give the same bytes, file for file', () => {
  const a = hashes(path.join(dir, 'a'));
  assert.deepEqual(Object.keys(a), [
    'country.json',
    'gtfs/intercity.zip',
    'gtfs/t0.zip',
    'gtfs/t1.zip',
    'gtfs/t2.zip',
    'gtfs/t2b.zip',
    'gtfs/t3.zip',
    'navette.json',
    POINTS_FILE,
    STREETS_FILE,
  ]);
  assert.deepEqual(hashes(path.join(dir, 'b')), a);
  assert.deepEqual([again.counts.nodes, again.counts.ways, again.counts.stopTimes, again.points], [NODES, WAYS, 819_865, 24]);
});

test('the point set: listed by the configuration, a station and lattice positions per tile, each on a node of the streets', async () => {
  const config = JSON.parse(readFileSync(path.join(dir, 'a', 'navette.json'), 'utf8'));
  assert.deepEqual(config.coverages[0].pointSets, { [POINT_SET]: POINTS_FILE });
  const [header, ...rows] = readFileSync(path.join(dir, 'a', POINTS_FILE), 'utf8').trimEnd().split('\n');
  assert.equal(header, 'id,lon,lat');
  const ids = rows.map((r) => r.split(',')[0]!);
  assert.equal(new Set(ids).size, 24);
  // per tile: its station first, then its lattice positions (rows, then columns)
  const perTile = new Map<string, string[]>();
  for (const id of ids) perTile.set(id.split(':')[0]!, [...(perTile.get(id.split(':')[0]!) ?? []), id.split(':')[1]!]);
  assert.deepEqual([...perTile.keys()], ['t0', 't1', 't2', 't3']);
  assert.deepEqual([...perTile.values()].map((names) => [names[0], names.length - 1]), [['station', 8], ['station', 4], ['station', 2], ['station', 6]]);
  assert.ok([...perTile.values()].flat().every((name) => /^(station|r[0-3]c[0-3])$/.test(name)));
  // the stations are the intercity stops'
  const manifest = JSON.parse(readFileSync(path.join(dir, 'a', 'country.json'), 'utf8'));
  for (const t of manifest.tiles) assert.ok(rows.includes(`t${t.tile}:station,${t.station.lon},${t.station.lat}`), `t${t.tile}'s station`);
  // every point on a node of the written streets, two points never on the same one
  const streets = await readOsm(path.join(dir, 'a', STREETS_FILE));
  const nodes = new Set<string>();
  for (let k = 0; k < streets.nodeCount; k++) nodes.add(`${Math.round(streets.lon[k]! * 1e7)} ${Math.round(streets.lat[k]! * 1e7)}`);
  const at = rows.map((r) => {
    const [, lon, lat] = r.split(',');
    return `${Math.round(Number(lon) * 1e7)} ${Math.round(Number(lat) * 1e7)}`;
  });
  assert.ok(at.every((p) => nodes.has(p)));
  assert.equal(new Set(at).size, at.length);
});

const osmiumSkip = osmiumMissing();
test('osmium reads the PBF: every tile’s nodes and ways, sorted, in the box its header gives', { skip: osmiumSkip }, async () => {
  const { stdout } = await run('osmium', ['fileinfo', '--extended', '--json', path.join(dir, 'a', STREETS_FILE)], { maxBuffer: 1 << 24 });
  const info = JSON.parse(stdout);
  assert.deepEqual(info.data.count, { changesets: 0, nodes: NODES, ways: WAYS, relations: 0 });
  assert.equal(info.data.objects_ordered, true);
  assert.equal(info.header.option.sorting, 'Type_then_ID');
  assert.deepEqual(info.header.boxes, [info.data.bbox]);
  // tile t's ids start at t × 1,000,000 + 1: Terre Haute's, the fourth, end at 3,025,435 and 3,004,250
  assert.deepEqual([info.data.minid.nodes, info.data.maxid.nodes, info.data.minid.ways, info.data.maxid.ways], [1, 3_025_435, 1, 3_004_250]);
});

test('the command refuses to write inside the repository, and a scale it cannot read', async () => {
  await assert.rejects(run(process.execPath, [GENERATE, '--scale', '2', '--out', path.resolve('country-out')]), (e: { stderr: string; code: number }) => {
    assert.equal(e.code, 1);
    assert.match(e.stderr, /lies inside the repository .*: write the country elsewhere/);
    return true;
  });
  await assert.rejects(run(process.execPath, [GENERATE, '--scale', 'huge', '--out', path.join(dir, 'c')]), /--scale must be a positive number/);
});
