/**
 * The configuration file: coverages with their OSM extract and realtime sources, heat-map settings,
 * defaults, and the errors that name what is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_HEAT_MAP_SETTINGS, readConfigFile } from '../../src/cli/config.js';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-config-'));
const write = (json: unknown) => {
  const file = path.join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(json));
  return file;
};

test('coverages: paths relative to the file, realtime sources as paths, URLs or objects', () => {
  const config = readConfigFile(
    write({
      coverages: [
        { id: 'a', gtfs: 'feed.zip', osm: 'streets.osm.pbf' },
        { id: 'b', gtfs: ['x', '/abs/y'], realtime: ['rt/tu.pb', 'https://api.example/tu', { url: 'http://h/v', intervalSec: 15, headers: { 'x-api-key': 'k' } }] },
      ],
    }),
  );
  assert.deepEqual(config.coverages[0], { id: 'a', gtfs: [path.join(dir, 'feed.zip')], osm: path.join(dir, 'streets.osm.pbf'), timezone: undefined, realtime: [] });
  assert.deepEqual(config.coverages[1]!.gtfs, [path.join(dir, 'x'), '/abs/y']);
  assert.deepEqual(config.coverages[1]!.realtime, [
    { url: path.join(dir, 'rt/tu.pb'), intervalSec: undefined, headers: undefined },
    { url: 'https://api.example/tu', intervalSec: undefined, headers: undefined },
    { url: 'http://h/v', intervalSec: 15, headers: { 'x-api-key': 'k' } },
  ]);
  assert.deepEqual(config.heatMaps, DEFAULT_HEAT_MAP_SETTINGS);
  assert.equal(config.port, 9090);
  assert.equal(config.maxCount, 1000);
});

test('the disruptions file of a coverage: a path or { path, intervalSec }, relative to the configuration', () => {
  const config = readConfigFile(
    write({
      coverages: [
        { id: 'a', gtfs: 'f', disruptions: 'd/disruptions.json' },
        { id: 'b', gtfs: 'f', disruptions: { path: '/abs/d.json', intervalSec: 2 } },
      ],
    }),
  );
  assert.deepEqual(config.coverages[0]!.disruptions, { path: path.join(dir, 'd/disruptions.json'), intervalSec: undefined });
  assert.deepEqual(config.coverages[1]!.disruptions, { path: '/abs/d.json', intervalSec: 2 });
});

test('heat-map settings', () => {
  const config = readConfigFile(write({ coverages: [], heatMaps: { threads: 3, maxQueue: 5, budgetMs: 2000, maxDurationSec: 7200, maxResolution: 300 } }));
  assert.deepEqual(config.heatMaps, { threads: 3, maxQueue: 5, budgetMs: 2000, maxDurationSec: 7200, maxResolution: 300 });
});

test('errors name the file and the key', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: 'tu.pb' }] }, /coverages\[0\]\.realtime must be a list of sources/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ path: 'tu.pb' }] }] }, /coverages\[0\]\.realtime\[0\] must be a path, a URL or \{ "url": … \}/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ url: 'u', headers: { k: 1 } }] }] }, /coverages\[0\]\.realtime\[0\]\.headers must map header names to strings/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ url: 'u', intervalSec: 0 }] }] }, /coverages\[0\]\.realtime\[0\]\.intervalSec must be a positive integer/],
    [{ coverages: [{ id: 'a', gtfs: 'f', disruptions: 3 }] }, /coverages\[0\]\.disruptions must be a path or \{ "path": … \}/],
    [{ coverages: [{ id: 'a', gtfs: 'f', disruptions: { path: 'd', intervalSec: -1 } }] }, /coverages\[0\]\.disruptions\.intervalSec must be a positive integer/],
    [{ coverages: [], heatMaps: { budgetMs: -1 } }, /heatMaps\.budgetMs must be a positive integer/],
    [{ coverages: [], heatMaps: 3 }, /heatMaps must be an object/],
    [{ coverages: [{ id: 'a/b', gtfs: 'f' }] }, /coverages\[0\]\.id must be a name without/],
  ];
  for (const [json, message] of cases) {
    const file = write(json);
    assert.throws(() => readConfigFile(file), (e: Error) => message.test(e.message) && e.message.startsWith(file), JSON.stringify(json));
  }
});
