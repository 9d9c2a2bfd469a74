/**
 * nginx in front of Navette (`npm run bench:nginx`), with the configuration `navette deploy nginx`
 * writes, on the demo coverage, over loopback; autocannon loads from this process:
 *
 *   1. trips (a line's first page) from one replica served directly, then through nginx: nginx's own
 *      cost (target: at least 80 % of the direct throughput, p99 under 20 ms);
 *   2. the same through nginx in front of two replicas: throughput, and each process's share of the
 *      CPU (nginx, the replicas, this load generator) from /proc;
 *   3. failover: four clients in a loop through nginx, one replica killed with SIGKILL: failed
 *      requests, and the longest time a client waited for one answer (target: under 1 s).
 *
 * This machine has two cores for nginx, the replicas and the load generator: the figures show the
 * proxy's overhead, not how replicas scale (docs/scaling.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { readConfigFile } from '../src/cli/config.js';
import { nginxConfig } from '../src/cli/deploy-nginx.js';
import { assignShards } from '../src/cli/shards.js';
import { freePorts, missing, startNginx } from '../test/helpers/nginx.js';
import { startServer, type RunningServer } from '../test/helpers/serve.js';

const why = missing({ nginx: true });
if (why) {
  console.log(`bench:nginx: ${why}`);
  process.exit(0);
}

const DURATION_SEC = Number(process.env['NGINX_BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 10;
const PATH = '/v1/coverage/demo/lines/T1/trips?count=25';

const dir = mkdtempSync(path.join(tmpdir(), 'navette-bench-nginx-'));
const config = path.join(dir, 'navette.json');
writeFileSync(
  config,
  JSON.stringify({
    coverages: [{ id: 'demo', gtfs: [path.resolve('data/demo/gtfs')], osm: path.resolve('data/demo/valmont.osm'), timezone: 'Europe/Paris', shard: 'a' }],
    heatMaps: { threads: 1 },
    rateLimit: { requestsPerSecond: 0 },
  }),
);
const [p1, p2, listen] = await freePorts(3);
const replicaArgs = ['--config', config, '--only', 'demo', '--watch-interval', '0'];
const replicas: RunningServer[] = [await startServer(replicaArgs, p1), await startServer(replicaArgs, p2)];
const shards = assignShards(readConfigFile(config), undefined);
const nginxFor = (addresses: string[]) =>
  nginxConfig({ configFile: config, shards, replicas: { a: addresses }, listen: `127.0.0.1:${listen}`, workers: '1', upstreamHeader: false });

async function load(base: string): Promise<autocannon.Result> {
  return autocannon({ url: `${base}${PATH}`, connections: CONNECTIONS, duration: DURATION_SEC });
}

/** CPU seconds (user + system) of a process so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const line = (title: string, r: autocannon.Result) =>
  console.log(`${title.padEnd(40)} ${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  errors ${r.errors} (timeouts ${r.timeouts}), non-2xx ${r.non2xx} ${JSON.stringify(r.statusCodeStats)}`);

// 1. one replica, directly and through nginx
await load(`http://127.0.0.1:${p1}`); // warm-up
const direct = await load(`http://127.0.0.1:${p1}`);
line('one replica, direct', direct);
let nginx = await startNginx(nginxFor([`127.0.0.1:${p1}`]), listen!);
await load(`http://127.0.0.1:${listen}`);
const proxied = await load(`http://127.0.0.1:${listen}`);
line('one replica, through nginx', proxied);
console.log(`through nginx / direct: ${((proxied.requests.average / direct.requests.average) * 100).toFixed(0)} % (target >= 80 %), p99 ${proxied.latency.p99} ms (target < 20 ms)`);
await nginx.stop();

// 2. two replicas through nginx, with each process's share of the CPU
nginx = await startNginx(nginxFor([`127.0.0.1:${p1}`, `127.0.0.1:${p2}`]), listen!);
// nginx's work is done by its worker process, a child of the one started
const nginxWorker = Number(execFileSync('pgrep', ['-P', String(nginx.process.pid)], { encoding: 'utf8' }).trim().split('\n')[0]);
const pids: Record<string, number> = { 'nginx worker': nginxWorker, 'replica 1': replicas[0]!.process.pid!, 'replica 2': replicas[1]!.process.pid!, 'load generator': process.pid };
const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
const started = performance.now();
const two = await load(`http://127.0.0.1:${listen}`);
const wall = (performance.now() - started) / 1000;
line('two replicas, through nginx', two);
const shares = Object.entries(pids).map(([k, pid]) => `${k} ${(((cpuSeconds(pid) - before[k]!) / wall) * 100).toFixed(0)} %`);
console.log(`CPU over ${wall.toFixed(1)} s (100 % = one core): ${shares.join(', ')}`);

// 3. failover: four clients in a loop, one replica killed
let failures = 0;
let longestMs = 0;
let answered = 0;
let running = true;
const client = async () => {
  while (running) {
    const t = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${listen}${PATH}`);
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
    } catch {
      failures++;
    }
    longestMs = Math.max(longestMs, performance.now() - t);
    answered++;
  }
};
const clients = Array.from({ length: 4 }, client);
await new Promise((r) => setTimeout(r, 1000));
longestMs = 0;
replicas[1]!.process.kill('SIGKILL');
await new Promise((r) => setTimeout(r, 3000));
running = false;
await Promise.all(clients);
console.log(`failover: a replica killed under 4 clients: ${answered} answers, ${failures} failed, longest wait for one answer ${longestMs.toFixed(0)} ms (target < 1000 ms)`);

await nginx.stop();
replicas[0]!.process.kill();
process.exit(0);
