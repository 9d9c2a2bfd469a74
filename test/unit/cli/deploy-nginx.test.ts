/**
 * `navette deploy nginx` as text: shards from the configuration or balanced by size, one upstream
 * per shard, a location per coverage, the merged list and the lon;lat chain; nginx itself checks
 * the syntax when it is installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, onlyCoverages, type ServerConfig } from '../../../src/cli/config.js';
import { nginxConfig, replicaAddresses } from '../../../src/cli/deploy-nginx.js';
import { assignShards } from '../../../src/cli/shards.js';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';
import { DEFAULT_OPERATIONS } from '../../../src/api/operations/settings.js';

const config = (ids: string[], shards?: Record<string, string>): ServerConfig => ({
  coverages: ids.map((id) => ({ id, gtfs: [`/feeds/${id}.zip`] })),
  port: 9090,
  host: '0.0.0.0',
  limits: { ...DEFAULT_LIMITS },
  heatMaps: { budgetMs: 1000 },
  operations: structuredClone(DEFAULT_OPERATIONS),
  watchIntervalSec: 0,
  explorer: {},
  shards,
});
const sizes: Record<string, number> = { a: 50, b: 30, c: 25, d: 10 };

test('shards balanced by size: largest first into the lightest shard; or as the configuration names them', () => {
  const balanced = assignShards(config(['a', 'b', 'c', 'd']), 2, (c) => sizes[c.id]!);
  assert.deepEqual(balanced.map((s) => [s.name, s.coverages.map((c) => c.id), s.bytes]), [
    ['s0', ['a', 'd'], 60],
    ['s1', ['b', 'c'], 55],
  ]);
  assert.equal(assignShards(config(['a', 'b']), undefined, () => 1).length, 2, 'one shard per coverage by default');
  const named = assignShards(config(['a', 'b', 'c'], { a: 'east', b: 'west', c: 'east' }), undefined, () => 1);
  assert.deepEqual(named.map((s) => [s.name, s.coverages.map((c) => c.id)]), [['east', ['a', 'c']], ['west', ['b']]]);
  assert.throws(() => assignShards(config(['a', 'b'], { a: 'east' }), undefined, () => 1), /every coverage needs a "shard" once one has one \(none for b\)/);
  assert.throws(() => assignShards(config(['a']), 2, () => 1), ConfigError);
});

test('--only keeps the named coverages and lists the others as held elsewhere', () => {
  const only = onlyCoverages(config(['a', 'b', 'c']), 'c,a');
  assert.deepEqual(only.coverages.map((c) => c.id), ['a', 'c']);
  assert.deepEqual(only.elsewhere!.map((c) => c.id), ['b']);
  assert.throws(() => onlyCoverages(config(['a']), 'z'), /--only: no coverage z in the configuration \(a\)/);
});

test('the nginx configuration routes each coverage to its shard, merges the list and chains lon;lat through the shards', () => {
  const shards = assignShards(config(['demo', 'rnv', 'poa'], { demo: 'a', rnv: 'a', poa: 'b' }), undefined, () => 1e6);
  const replicas = replicaAddresses(shards, 2, '127.0.0.1:{port}', 7000);
  assert.deepEqual(replicas, { a: ['127.0.0.1:7000', '127.0.0.1:7001'], b: ['127.0.0.1:7002', '127.0.0.1:7003'] });
  const text = nginxConfig({ configFile: 'navette.json', shards, replicas, listen: '127.0.0.1:8080', workers: '1', upstreamHeader: false });
  const upstream = (name: string) => new RegExp(`upstream ${name} \\{\\n((?:    .*\\n)+)  \\}`).exec(text)?.[1]!.match(/server \S+/g);
  assert.deepEqual(upstream('navette_a'), ['server 127.0.0.1:7000', 'server 127.0.0.1:7001']);
  assert.deepEqual(upstream('navette_b'), ['server 127.0.0.1:7002', 'server 127.0.0.1:7003']);
  assert.equal(upstream('navette_all')!.length, 4);
  assert.match(text, /location \^~ \/v1\/coverage\/rnv\/ \{\n      proxy_pass http:\/\/navette_a;/);
  assert.match(text, /location = \/v1\/coverage\/poa \{\n      proxy_pass http:\/\/navette_b;/);
  assert.match(text, /proxy_next_upstream error timeout http_502 http_503 http_504;/);
  assert.match(text, /location = \/_navette\/shard\/1 \{\n      internal;\n      proxy_pass http:\/\/navette_b\$request_uri;/);
  assert.match(text, /proxy_set_header x-navette-next-shard \/_navette\/shard\/1;/);
  assert.match(text, /location = \/_navette\/region\/demo \{\n      internal;\n      proxy_pass http:\/\/navette_a\/v1\/coverage\/demo\$is_args\$args;/);
  assert.doesNotMatch(text, /x-navette-upstream/);
  assert.throws(() => nginxConfig({ configFile: 'x', shards: assignShards(config(['a b']), undefined, () => 1), replicas: { s0: ['h:1'] }, listen: '1', workers: '1', upstreamHeader: false }), /nginx locations take ids/);

  const nginx = spawnSync('nginx', ['-v']);
  if (nginx.error) {
    if (process.env['CI'] === 'true') assert.fail('nginx is not installed (CI installs Debian\'s nginx)');
    process.stdout.write('# nginx syntax check skipped: nginx is not installed\n');
    return;
  }
  const prefix = mkdtempSync(path.join(tmpdir(), 'navette-nginx-'));
  mkdirSync(path.join(prefix, 'conf'));
  writeFileSync(path.join(prefix, 'nginx.conf'), text); // -t parses, it binds nothing
  const check = spawnSync('nginx', ['-t', '-q', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});
