/**
 * The configuration file: coverages with their OSM extract and realtime sources, heat-map settings,
 * defaults, and the errors that name what is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_HEAT_MAP_SETTINGS, DEFAULT_WATCH_INTERVAL_SEC, readConfigFile } from '../../../src/cli/config.js';
import { DEFAULT_OPERATIONS } from '../../../src/api/operations/settings.js';
import { boardSlackOf, DEFAULT_BOARD_SLACK_SEC } from '../../../src/service/coverage-config.js';

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
  assert.deepEqual(config.limits, {
    maxCount: 1000,
    maxDurationSec: 86400,
    maxResolution: 1000,
    requestDeadlineSec: 60,
    mapDeadlineSec: 30,
    accessibilityDeadlineSec: 30,
    engineCacheBytes: 268_435_456,
  });
});

test('the disruptions file of a coverage: a path or { path, intervalSec }, relative to the configuration', () => {
  const config = readConfigFile(
    write({
      coverages: [
        { id: 'a', gtfs: 'f', disruptions: 'd/disruptions.json' },
        { id: 'b', gtfs: 'f', disruptions: { path: '/abs/d.json', intervalSec: 2 }, readLimits: { maxLineBytes: 4096 } },
      ],
    }),
  );
  assert.deepEqual(config.coverages[0]!.disruptions, { path: path.join(dir, 'd/disruptions.json'), intervalSec: undefined });
  assert.deepEqual(config.coverages[1]!.disruptions, { path: '/abs/d.json', intervalSec: 2 });
  assert.equal(config.coverages[0]!.readLimits, undefined, 'no read limits: the defaults');
  assert.deepEqual(config.coverages[1]!.readLimits, { maxLineBytes: 4096 });
});

test('board slack: the default where a coverage sets none, its own value (0 too) where it does', () => {
  const config = readConfigFile(write({ coverages: [{ id: 'a', gtfs: 'f' }, { id: 'b', gtfs: 'f', boardSlackSec: 0 }, { id: 'c', gtfs: 'f', boardSlackSec: 120 }] }));
  assert.deepEqual(config.coverages.map(boardSlackOf), [DEFAULT_BOARD_SLACK_SEC, 0, 120]);
  assert.equal(DEFAULT_BOARD_SLACK_SEC, 60);
});

test('heat-map settings', () => {
  const config = readConfigFile(write({ coverages: [], heatMaps: { threads: 3, maxQueue: 5, budgetMs: 2000, maxDurationSec: 7200, maxResolution: 300, requestDeadlineSec: 90, mapDeadlineSec: 20, accessibilityDeadlineSec: 40, engineCacheBytes: 1_000_000 } }));
  assert.deepEqual(config.heatMaps, { threads: 3, maxQueue: 5, budgetMs: 2000 });
  assert.deepEqual(config.limits, { maxCount: 1000, maxDurationSec: 7200, maxResolution: 300, requestDeadlineSec: 90, mapDeadlineSec: 20, accessibilityDeadlineSec: 40, engineCacheBytes: 1_000_000 });
});

test('errors name the file and the key', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: 'tu.pb' }] }, /coverages\[0\]\.realtime must be a list of sources/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ path: 'tu.pb' }] }] }, /coverages\[0\]\.realtime\[0\] must be a path, a URL or \{ "url": … \}/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ url: 'u', headers: { k: 1 } }] }] }, /coverages\[0\]\.realtime\[0\]\.headers must map header names to strings/],
    [{ coverages: [{ id: 'a', gtfs: 'f', realtime: [{ url: 'u', intervalSec: 0 }] }] }, /coverages\[0\]\.realtime\[0\]\.intervalSec must be a positive integer/],
    [{ coverages: [{ id: 'a', gtfs: 'f', disruptions: 3 }] }, /coverages\[0\]\.disruptions must be a path or \{ "path": … \}/],
    [{ coverages: [{ id: 'a', gtfs: 'f', readLimits: { maxLineBytes: 0 } }] }, /coverages\[0\]\.readLimits\.maxLineBytes must be a positive number/],
    [{ coverages: [{ id: 'a', gtfs: 'f', readLimits: { maxLines: 3 } }] }, /coverages\[0\]\.readLimits\.maxLines is not a read limit \(maxLineBytes, maxInflateRatio, inflateAllowanceBytes\)/],
    [{ coverages: [{ id: 'a', gtfs: 'f', disruptions: { path: 'd', intervalSec: -1 } }] }, /coverages\[0\]\.disruptions\.intervalSec must be a positive integer/],
    [{ coverages: [], heatMaps: { budgetMs: -1 } }, /heatMaps\.budgetMs must be a positive integer/],
    [{ coverages: [], heatMaps: 3 }, /heatMaps must be an object/],
    [{ coverages: [{ id: 'a/b', gtfs: 'f' }] }, /coverages\[0\]\.id must be a name without/],
    [{ coverages: [{ id: 'a', gtfs: 'f', boardSlackSec: -1 }] }, /coverages\[0\]\.boardSlackSec must be a whole number of seconds from 0 to 3600/],
    [{ coverages: [{ id: 'a', gtfs: 'f', boardSlackSec: 30.5 }] }, /coverages\[0\]\.boardSlackSec must be a whole number/],
    [{ coverages: [{ id: 'a', gtfs: 'f', boardSlackSec: '60' }] }, /coverages\[0\]\.boardSlackSec must be a whole number/],
  ];
  for (const [json, message] of cases) {
    const file = write(json);
    assert.throws(() => readConfigFile(file), (e: Error) => message.test(e.message) && e.message.startsWith(file), JSON.stringify(json));
  }
});

test('operating settings: defaults, values, and rateLimit 0 turns the limit off', () => {
  const defaults = readConfigFile(write({ coverages: [] }));
  assert.deepEqual(defaults.operations, DEFAULT_OPERATIONS);
  assert.deepEqual(DEFAULT_OPERATIONS, {
    rateLimit: { requestsPerSecond: 50, burst: 100 },
    tokens: [],
    cache: { maxAgeSec: 60, realtimeMaxAgeSec: 0 },
    trustProxy: false,
    requestTimeoutMs: 10_000,
    metricsAllow: ['loopback', 'uniquelocal'],
  });
  const set = readConfigFile(
    write({ coverages: [], rateLimit: { requestsPerSecond: 5, burst: 20 }, tokens: ['a', 'b'], cache: { maxAgeSec: 600, realtimeMaxAgeSec: 10 }, trustProxy: true, requestTimeoutMs: 2000, metricsAllow: ['10.0.0.9'] }),
  );
  assert.deepEqual(set.operations, {
    rateLimit: { requestsPerSecond: 5, burst: 20 },
    tokens: ['a', 'b'],
    cache: { maxAgeSec: 600, realtimeMaxAgeSec: 10 },
    trustProxy: true,
    requestTimeoutMs: 2000,
    metricsAllow: ['10.0.0.9'],
  });
  assert.deepEqual(readConfigFile(write({ coverages: [], rateLimit: { requestsPerSecond: 0 } })).operations.rateLimit, { requestsPerSecond: 0, burst: 1 });
  assert.deepEqual(readConfigFile(write({ coverages: [], rateLimit: { requestsPerSecond: 10 } })).operations.rateLimit, { requestsPerSecond: 10, burst: 20 }, 'burst: two seconds of requests');
  assert.equal(readConfigFile(write({ coverages: [], maxCount: 200 })).limits.maxCount, 200);
});

test('trustProxy: true, false, or proxy addresses and CIDR ranges, comma-separated or listed', () => {
  const trustProxy = (value: unknown) => readConfigFile(write({ coverages: [], trustProxy: value })).operations.trustProxy;
  assert.equal(trustProxy(false), false);
  assert.equal(trustProxy(true), true);
  assert.deepEqual(trustProxy('10.0.0.1, 192.168.0.0/16,fd00::/8'), ['10.0.0.1', '192.168.0.0/16', 'fd00::/8']);
  assert.deepEqual(trustProxy(['127.0.0.1', '::1', 'loopback', 'uniquelocal', 'linklocal']), ['127.0.0.1', '::1', 'loopback', 'uniquelocal', 'linklocal']);
  assert.equal(trustProxy([]), false, 'no proxy listed: none trusted');
});

test('metricsAllow: addresses comma-separated or listed; an empty list lets nobody read the metrics', () => {
  const ops = (over: object) => readConfigFile(write({ coverages: [], ...over })).operations;
  assert.deepEqual(ops({ metricsAllow: '10.0.0.5, 192.168.0.0/16' }).metricsAllow, ['10.0.0.5', '192.168.0.0/16']);
  assert.deepEqual(ops({ metricsAllow: [] }).metricsAllow, [], 'nobody');
});

test('operating settings: errors name the key', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ coverages: [], rateLimit: 5 }, /rateLimit must be an object/],
    [{ coverages: [], rateLimit: { requestsPerSecond: -1 } }, /rateLimit\.requestsPerSecond must be a number, 0 or more/],
    [{ coverages: [], rateLimit: { requestsPerSecond: 5, burst: 0 } }, /rateLimit\.burst must be at least 1/],
    [{ coverages: [], tokens: 'abc' }, /tokens must be a list of non-empty strings/],
    [{ coverages: [], tokens: [''] }, /tokens must be a list of non-empty strings/],
    [{ coverages: [], cache: { maxAgeSec: 'x' } }, /cache\.maxAgeSec must be a number/],
    [{ coverages: [], maxCount: 0 }, /maxCount must be a positive integer/],
    [{ coverages: [], trustProxy: 1 }, /trustProxy: a number of proxy hops is not accepted .*; give the proxies' addresses or CIDR ranges/],
    [{ coverages: [], trustProxy: '2' }, /trustProxy: a number of proxy hops is not accepted/],
    [{ coverages: [], trustProxy: { from: '10.0.0.1' } }, /trustProxy must be true, false, or the proxies' addresses or CIDR ranges/],
    [{ coverages: [], trustProxy: ['10.0.0.1', 7] }, /trustProxy must be true, false, or the proxies' addresses or CIDR ranges/],
    [{ coverages: [], trustProxy: 'proxy.example' }, /trustProxy: "proxy\.example" is not an IP address, a CIDR range/],
    [{ coverages: [], trustProxy: '10.0.0.1,,10.0.0.2' }, /trustProxy: "" is not an IP address/],
    [{ coverages: [], trustProxy: '10.0.0.0/33' }, /trustProxy: "10\.0\.0\.0\/33" is not/],
    [{ coverages: [], trustProxy: '::1/0' }, /trustProxy: "::1\/0" is not/],
    [{ coverages: [], requestTimeoutMs: 500 }, /requestTimeoutMs must be a whole number of milliseconds, 1000 or more/],
    [{ coverages: [], requestTimeoutMs: 'soon' }, /requestTimeoutMs must be a number/],
    [{ coverages: [], metricsAllow: 'prometheus.local' }, /metricsAllow: "prometheus\.local" is not an IP address/],
    [{ coverages: [], metricsAllow: [10] }, /metricsAllow must be addresses or CIDR ranges/],
  ];
  for (const [json, message] of cases) {
    const file = write(json);
    assert.throws(() => readConfigFile(file), (e: Error) => message.test(e.message) && e.message.startsWith(file), JSON.stringify(json));
  }
});

test('the example configuration of several coverages parses, its paths relative to its folder', () => {
  const file = path.resolve('examples/navette.multi.json');
  const config = readConfigFile(file);
  const ids = config.coverages.map((c) => c.id);
  assert.ok(ids.length >= 3, ids.join());
  assert.equal(new Set(ids).size, ids.length);
  const demo = config.coverages.find((c) => c.id === 'demo')!;
  assert.deepEqual(demo.gtfs, [path.resolve('data/demo/gtfs')]);
  assert.equal(demo.osm, path.resolve('data/demo/valmont.osm'));
  for (const c of config.coverages) for (const g of c.gtfs) assert.ok(path.isAbsolute(g));
  assert.ok(config.coverages.some((c) => (c.realtime?.length ?? 0) > 0), 'one coverage has realtime sources');
  assert.equal(config.operations.tokens.length, 0, 'the example needs no token');
});

test('snapshots (a folder relative to the file) and watchIntervalSec (0: no watching); their errors', () => {
  const defaults = readConfigFile(write({ coverages: [] }));
  assert.equal(defaults.snapshots, undefined);
  assert.equal(defaults.watchIntervalSec, DEFAULT_WATCH_INTERVAL_SEC);
  const set = readConfigFile(write({ coverages: [], snapshots: 'snaps', watchIntervalSec: 0.5 }));
  assert.equal(set.snapshots, path.join(dir, 'snaps'));
  assert.equal(set.watchIntervalSec, 0.5);
  assert.equal(readConfigFile(write({ coverages: [], watchIntervalSec: 0 })).watchIntervalSec, 0);
  assert.throws(() => readConfigFile(write({ coverages: [], snapshots: 3 })), /: snapshots must be the path of a folder$/);
  assert.throws(() => readConfigFile(write({ coverages: [], watchIntervalSec: -1 })), /: watchIntervalSec must be a number of seconds, 0 or more \(0: do not watch\)$/);
  assert.throws(() => readConfigFile(write({ coverages: [], watchIntervalSec: '10' })), /watchIntervalSec must be a number of seconds/);
});

test('explorer: an online tile layer with its attribution (OpenStreetMap\'s by default); errors', () => {
  assert.deepEqual(readConfigFile(write({ coverages: [] })).explorer, {});
  const tiles = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
  assert.deepEqual(readConfigFile(write({ coverages: [], explorer: { tileUrl: tiles } })).explorer, { tileUrl: tiles, tileAttribution: undefined });
  assert.deepEqual(readConfigFile(write({ coverages: [], explorer: { tileUrl: tiles, tileAttribution: 'tiles: us' } })).explorer, { tileUrl: tiles, tileAttribution: 'tiles: us' });
  assert.throws(() => readConfigFile(write({ coverages: [], explorer: { tileUrl: 'https://tiles.example/map.png' } })), /explorer.tileUrl must be an http\(s\) URL with \{z\}, \{x\} and \{y\}$/);
  assert.throws(() => readConfigFile(write({ coverages: [], explorer: 'tiles' })), /explorer must be an object$/);
});
