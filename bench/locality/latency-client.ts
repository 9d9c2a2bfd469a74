/**
 * A load of requests timed from outside the server's process (a child of the bench, on the other
 * core): reads `{ base, requests: [{ kind, path }], concurrency }` as JSON on its standard input,
 * sends the requests in order over keep-alive connections, `concurrency` in flight, each timed from
 * its start to the last byte of its answer (gzip asked, as a browser does; the body is not
 * inflated: that is the client's work), and writes per kind the milliseconds and the statuses as
 * JSON on its standard output.
 *
 *   node dist/bench/locality/latency-client.js < load.json
 */
import http from 'node:http';
import { text } from 'node:stream/consumers';

export interface LoadRequest {
  kind: string;
  path: string;
}

export interface Load {
  base: string;
  requests: LoadRequest[];
  concurrency: number;
}

export interface LoadTimes {
  /** per kind, the milliseconds of its requests in the order they ended */
  ms: Record<string, number[]>;
  /** per kind, the count of each status answered */
  statuses: Record<string, Record<string, number>>;
  /** the whole load, milliseconds */
  wallMs: number;
  bytes: number;
}

const load = JSON.parse(await text(process.stdin)) as Load;
const agent = new http.Agent({ keepAlive: true, maxSockets: load.concurrency });
const times: LoadTimes = { ms: {}, statuses: {}, wallMs: 0, bytes: 0 };

function timed(request: LoadRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(load.base + request.path, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.on('data', (chunk: Buffer) => (times.bytes += chunk.length));
      res.on('end', () => {
        (times.ms[request.kind] ??= []).push(performance.now() - started);
        const statuses = (times.statuses[request.kind] ??= {});
        statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
        resolve();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const started = performance.now();
let next = 0;
// `concurrency` loops, each taking the next request when its last one has ended
await Promise.all(
  Array.from({ length: load.concurrency }, async () => {
    while (next < load.requests.length) await timed(load.requests[next++]!);
  }),
);
times.wallMs = performance.now() - started;
agent.destroy();
process.stdout.write(JSON.stringify(times));
