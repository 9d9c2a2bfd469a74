/**
 * Snapshots and reloads as an operator runs them: `navette build`, then `navette serve` on the
 * snapshots; a stale snapshot rebuilt; reloads when a source file changes and on SIGHUP, with every
 * request answered during them; a reload that fails leaves the loaded data in service.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot-file.js';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { fetchJson } from '../helpers/http.js';
import { serveRefusal, startServer, type RunningServer } from '../helpers/serve.js';
import { VALLEY } from '../helpers/town-app.js';
import { fixtureGtfs, writeFixtureOsm } from '../unit/api/heat-maps/fixture.js';

const run = promisify(execFile);
const HEAT_MAP = '/streets/heat_maps?datetime=20120614T080100&from=stopB&max_duration=3600&resolution=20&_current_datetime=20120614T080000';
const VALLEY_TRIPS = '/valley/trips?_current_datetime=20240310T060000';

let dir: string;
let valleyFeed: string;
let config: string;
let server: RunningServer | undefined;

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'navette-reload-'));
  valleyFeed = writeFeed(VALLEY, 'valley');
  const streetsFeed = writeFeed(fixtureGtfs(), 'streets');
  const osm = writeFixtureOsm();
  config = path.join(dir, 'navette.json');
  writeFileSync(
    config,
    JSON.stringify({
      coverages: [
        { id: 'valley', gtfs: [valleyFeed] },
        { id: 'streets', gtfs: [streetsFeed], osm, timezone: 'UTC' },
      ],
      snapshots: 'snapshots',
      heatMaps: { threads: 1 },
    }),
  );
});

after(() => {
  server?.process.kill('SIGTERM');
});

/** GET `{base}{url}` from the running server; its body must be JSON. */
const get = (url: string) => fetchJson(server!.base + url);
const generationOf = async (id: string): Promise<number> => {
  const { json } = await get('/../status');
  return json.status.regions.find((r: { region_id: string }) => r.region_id === id).generation;
};
const loadedFrom = async (id: string): Promise<string> => {
  const { json } = await get('/../status');
  return json.status.regions.find((r: { region_id: string }) => r.region_id === id).loaded_from;
};
const loadLogs = (id: string) => server!.logs.filter((l) => l['coverage'] === id && /^coverage \S+ loaded from/.test(String(l['msg'])));

test('navette build writes a snapshot per coverage; serve loads them, and rebuilds one of another format', async () => {
  const { stdout } = await run(process.execPath, ['dist/src/cli/main.js', 'build', '--config', config, '--out', path.join(dir, 'snapshots')]);
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 2, stdout);
  assert.match(lines[0]!, /^valley: .*valley\.snapshot \(\d+\.\d MB, 4 stop_times, 0 problems\) in \d+\.\d\d s$/);
  assert.match(lines[1]!, /^streets: .*streets\.snapshot \(/);

  // an older format for one of them
  const streetsSnapshot = path.join(dir, 'snapshots', 'streets.snapshot');
  const bytes = readFileSync(streetsSnapshot);
  bytes.writeUInt32LE(SNAPSHOT_FORMAT - 1, 16);
  writeFileSync(streetsSnapshot, bytes);

  server = await startServer(['--config', config, '--watch-interval', '0.1']);
  assert.equal(loadLogs('valley')[0]!['from'], 'snapshot');
  assert.match(String(loadLogs('valley')[0]!['msg']), /^coverage valley loaded from its snapshot in \d+\.\d\d s \(start\)$/);
  const refused = server.logs.find((l) => l['coverage'] === 'streets' && /^snapshot not used/.test(String(l['msg'])));
  assert.match(String(refused?.['msg']), new RegExp(`streets\\.snapshot has snapshot format ${SNAPSHOT_FORMAT - 1}, this version of Navette reads format ${SNAPSHOT_FORMAT}`));
  assert.equal(loadLogs('streets')[0]!['from'], 'sources');
  assert.ok(server.logs.some((l) => l['coverage'] === 'streets' && /^snapshot written/.test(String(l['msg']))));
  assert.equal(readFileSync(streetsSnapshot).readUInt32LE(16), SNAPSHOT_FORMAT, 'rebuilt in the current format');

  assert.equal((await get(VALLEY_TRIPS)).json.trips.length, 2);
  assert.equal((await get(HEAT_MAP)).status, 200);
  assert.equal(await loadedFrom('valley'), 'snapshot', '/v1/status tells');
  assert.equal(await loadedFrom('streets'), 'sources');
});

test('a changed source file reloads its coverage once, from the sources, and writes its snapshot again', async () => {
  const before = await generationOf('valley');
  const streetsBefore = await generationOf('streets');
  const reloaded = server!.waitForLog(/^coverage valley loaded from its sources .*\(files changed\)$/);
  appendFileSync(path.join(valleyFeed, 'trips.txt'), 'V,DAILY,V-3,South,,0\n');
  appendFileSync(path.join(valleyFeed, 'stop_times.txt'), 'V-3,09:00:00,09:00:00,V1,1\nV-3,09:20:00,09:20:00,V2,2\n');
  await reloaded;
  assert.deepEqual(
    (await get(VALLEY_TRIPS)).json.trips.map((t: { id: string }) => t.id),
    ['V-1', 'V-2', 'V-3'],
  );
  assert.ok((await generationOf('valley')) > before);
  assert.equal(await generationOf('streets'), streetsBefore, 'the other coverage is left alone');
  assert.equal(await loadedFrom('valley'), 'sources');
  // its rewritten snapshot is no change to reload for
  const loads = loadLogs('valley').length;
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(loadLogs('valley').length, loads);
});

test('SIGHUP reloads every coverage from its snapshot while every request is answered', async () => {
  const generations = [await generationOf('valley'), await generationOf('streets')];
  const valleyDone = server!.waitForLog(/^coverage valley loaded from its snapshot .*\(SIGHUP\)$/);
  const streetsDone = server!.waitForLog(/^coverage streets loaded from its snapshot .*\(SIGHUP\)$/);
  let reloading = true;
  const answers: number[] = [];
  const traffic = (async () => {
    while (reloading) {
      const batch = await Promise.all([get(VALLEY_TRIPS), get(HEAT_MAP), get(VALLEY_TRIPS), get('/streets/trips?count=1')]);
      for (const a of batch) answers.push(a.status);
      assert.equal(batch[0]!.json.trips.length, 3);
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  server!.process.kill('SIGHUP');
  await Promise.all([valleyDone, streetsDone]);
  reloading = false;
  await traffic;
  assert.ok(answers.length >= 4);
  assert.deepEqual([...new Set(answers)], [200], 'every request answered during the reload');
  assert.ok((await generationOf('valley')) > generations[0]!);
  assert.ok((await generationOf('streets')) > generations[1]!);
  assert.equal((await get(HEAT_MAP)).status, 200, 'heat maps on the reloaded street data');
});

test('a reload that fails leaves the loaded data in service; mended files bring the new data', async () => {
  const failed = server!.waitForLog(/^coverage valley could not be loaded \(files changed\), the loaded data stays in service: /);
  const stops = readFileSync(path.join(valleyFeed, 'stops.txt'));
  rmSync(path.join(valleyFeed, 'stops.txt'));
  const line = await failed;
  assert.match(String(line['msg']), /stops\.txt/);
  const answer = await get(VALLEY_TRIPS);
  assert.equal(answer.status, 200);
  assert.equal(answer.json.trips.length, 3);
  const region = (await get('/valley')).json.regions[0];
  assert.equal(region.status, 'running');

  const mended = server!.waitForLog(/^coverage valley loaded from its (sources|snapshot) .*\(files changed\)$/);
  mkdirSync(valleyFeed, { recursive: true });
  writeFileSync(path.join(valleyFeed, 'stops.txt'), stops);
  await mended;
  assert.equal((await get(VALLEY_TRIPS)).json.trips.length, 3);
});

test('command-line errors: build without --out, --out given to serve, a bad --watch-interval; a coverage that cannot be built', async () => {
  const build = async (args: string[]) =>
    run(process.execPath, ['dist/src/cli/main.js', 'build', ...args]).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const noOut = await build(['--config', config]);
  assert.equal(noOut.code, 2);
  assert.match(noOut.stderr, /^navette: give --out DIR, the folder of the snapshots\nUsage:/);

  for (const [args, message] of [
    [['--config', config, '--out', dir], 'navette: --out is an option of navette build (navette serve reads snapshots with --snapshots DIR)'],
    [['--config', config, '--watch-interval', 'soon'], 'navette: --watch-interval must be a number of seconds, 0 or more (0: do not watch)'],
  ] as const) {
    const { code, stderr } = await serveRefusal([...args]);
    assert.equal(code, 2, args.join(' '));
    assert.ok(stderr.startsWith(message), stderr);
  }

  const missing = await build(['--gtfs', path.join(dir, 'no-such-feed.zip'), '--id', 'ghost', '--out', path.join(dir, 'ghost-snapshots')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /navette: ghost could not be built: .*no-such-feed\.zip/);
});
