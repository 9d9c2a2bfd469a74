/**
 * Navette sharded behind a real nginx: three replicas (demo + rnv twice, porto-alegre once) on
 * snapshots written once by `navette build`, nginx with the configuration `navette deploy nginx`
 * writes. Every answer is the single server's; a replica killed under load costs no client a
 * request, and once restarted it takes requests only after it is ready.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfigFile } from '../../src/cli/config.js';
import { nginxConfig } from '../../src/cli/deploy-nginx.js';
import { assignShards } from '../../src/cli/shards.js';
import { buildShardedConfig } from '../helpers/sharded-config.js';
import { freePorts, missing, startNginx, type RunningNginx } from '../helpers/nginx.js';
import { startServer, type RunningServer } from '../helpers/serve.js';

const skip = missing({ nginx: true });
if (skip) process.stdout.write(`# nginx-shards skipped: ${skip}\n`);

let config: string;
let single: RunningServer;
const replicas: Record<string, RunningServer> = {};
let ports: Record<string, number>;
let nginx: RunningNginx;
let front: string;

const replicaArgs = (name: string) => ['--config', config, '--only', name.startsWith('a') ? 'demo,rnv' : 'porto-alegre', '--watch-interval', '0'];

before(async () => {
  if (skip) return;
  ({ config } = await buildShardedConfig({ heatMaps: { threads: 1 } }));
  const [a1, a2, b1, listen] = await freePorts(4);
  ports = { a1: a1!, a2: a2!, b1: b1! };
  [single, replicas['a1'], replicas['a2'], replicas['b1']] = await Promise.all([
    startServer(['--config', config, '--watch-interval', '0']),
    ...['a1', 'a2', 'b1'].map((name) => startServer(replicaArgs(name), ports[name])),
  ]);
  const shards = assignShards(readConfigFile(config), undefined);
  const text = nginxConfig({
    configFile: config,
    shards,
    replicas: { a: [`127.0.0.1:${a1}`, `127.0.0.1:${a2}`], b: [`127.0.0.1:${b1}`] },
    listen: `127.0.0.1:${listen}`,
    workers: '1',
    upstreamHeader: true,
  });
  nginx = await startNginx(text, listen!);
  front = `http://127.0.0.1:${listen}/v1/coverage`;
});

after(async () => {
  await nginx?.stop();
  for (const s of [single, ...Object.values(replicas)]) s?.process.kill('SIGKILL');
});

/** A body without what differs between two servers: the time of the request, of the load, the host. */
function comparable(text: string, base: string): unknown {
  const body = JSON.parse(text.replaceAll(new URL(base).host, 'HOST'));
  const strip = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === 'current_datetime' || k === 'last_load_at') delete (v as Record<string, unknown>)[k];
      else strip(child);
    }
  };
  strip(body);
  return body;
}

const REQUESTS = [
  '',
  '?disable_geojson=true',
  '/demo',
  '/rnv?disable_geojson=true',
  '/porto-alegre',
  '/nowhere/trips',
  '/demo/trips?count=5&_current_datetime=20261124T080000',
  '/rnv/trips?count=3&start_page=2',
  '/porto-alegre/trips?count=4',
  '/rnv/lines/trips?count=2',
  '/8.47;49.48/trips?count=2',
  '/-51.2;-30.03/trips?count=2',
  '/-51.2;-30.03',
  '/0;0/trips',
  '/demo/heat_maps?from=GARE&datetime=20261124T080000&max_duration=1800&resolution=30',
  '/porto-alegre/heat_maps?from=-51.22;-30.03&datetime=20190604T080000&max_duration=1200&resolution=20',
  '/-51.22;-30.03/heat_maps?from=-51.22;-30.03&datetime=20190604T080000&max_duration=900&resolution=10',
];

test('every answer through nginx is the single server\'s: coverages, the merged list, trips, points, heat maps', { skip }, async () => {
  for (const r of REQUESTS) {
    const [direct, proxied] = await Promise.all([fetch(single.base + r), fetch(front + r)]);
    assert.equal(proxied.status, direct.status, r);
    assert.deepEqual(comparable(await proxied.text(), front), comparable(await direct.text(), single.base), r);
  }
  // the list, compressed by nginx once merged; a shard's own answers compressed by the replica
  const list = await fetch(front, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(list.headers.get('content-encoding'), 'gzip');
  const trips = await fetch(`${front}/rnv/trips?count=200`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(trips.headers.get('content-encoding'), 'gzip');
});

test('a replica killed under load: no client request fails; restarted, it takes requests only once ready', { skip }, async () => {
  const a1 = `127.0.0.1:${ports['a1']}`;
  const expected = new Map<string, unknown>();
  const paths = ['/rnv/trips?count=2', '/demo/trips?count=3&_current_datetime=20261124T080000', '/porto-alegre/trips?count=1'];
  for (const p of paths) expected.set(p, comparable(await (await fetch(single.base + p)).text(), single.base));
  const failures: string[] = [];
  const answeredBy = new Map<string, number>();
  let stop = false;
  let requests = 0;
  const client = async (k: number) => {
    // bounded: at most 20,000 requests per client
    for (let i = 0; !stop && i < 20_000; i++) {
      const p = paths[(i + k) % paths.length]!;
      try {
        const res = await fetch(front + p);
        const text = await res.text();
        requests++;
        if (res.status !== 200) failures.push(`${p}: ${res.status}`);
        else assert.deepEqual(comparable(text, front), expected.get(p));
        const last = (res.headers.get('x-navette-upstream') ?? '').split(', ').at(-1)!;
        answeredBy.set(last, (answeredBy.get(last) ?? 0) + 1);
      } catch (e) {
        failures.push(`${p}: ${(e as Error).message}`);
      }
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(client));
  await new Promise((r) => setTimeout(r, 500));
  replicas['a1']!.process.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 1000));
  // restarted without its snapshots: it loads from the sources, for long enough that nginx tries it meanwhile
  answeredBy.delete(a1);
  const restarted = startServer([...replicaArgs('a1'), '--snapshots', mkdtempSync(path.join(tmpdir(), 'navette-empty-'))], ports['a1']);
  replicas['a1'] = await restarted;
  // back in rotation: wait (bounded) until it has answered requests
  for (let i = 0; i < 200 && (answeredBy.get(a1) ?? 0) < 5; i++) await new Promise((r) => setTimeout(r, 50));
  stop = true;
  await load;
  assert.deepEqual(failures, [], `${failures.length} failed of ${requests}`);
  assert.ok((answeredBy.get(a1) ?? 0) >= 5, 'the restarted replica is back in rotation');
  // in its own log, the answers go from 503 (not ready: nginx's tries, passed on to the other
  // replica) to 200, never back: it answered no request before it was ready
  const statuses = replicas['a1']!.logs.filter((l) => l['msg'] === 'request completed').map((l) => (l['res'] as { statusCode: number }).statusCode);
  const firstOk = statuses.indexOf(200);
  assert.ok(firstOk >= 0);
  assert.deepEqual(statuses.slice(firstOk).filter((s) => s !== 200), [], 'no refusal once it answered');
  assert.deepEqual(statuses.slice(0, firstOk).filter((s) => s !== 503), [], 'refusals only before');
});
