/**
 * A reload across replicas behind nginx: new data, then SIGHUP to each replica in turn, under load.
 * No request fails; no client sees a replica go back to the old data once it has served the new;
 * the first replica builds the new snapshot, the second reads it (one build, not one per replica).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfigFile } from '../../src/cli/config.js';
import { nginxConfig } from '../../src/cli/deploy-nginx.js';
import { assignShards } from '../../src/cli/shards.js';
import { writeFeed } from '../helpers/gtfs-fixture.js';
import { freePorts, missing, startNginx, type RunningNginx } from '../helpers/nginx.js';
import { startServer, type RunningServer } from '../helpers/serve.js';
import { VALLEY } from '../helpers/town-app.js';

const skip = missing({ nginx: true });
if (skip) process.stdout.write(`# reload-shards skipped: ${skip}\n`);

let feed: string;
let replicas: RunningServer[] = [];
let nginx: RunningNginx;
let front: string;

before(async () => {
  if (skip) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-reload-shards-'));
  feed = writeFeed(VALLEY, 'valley');
  const config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [{ id: 'valley', gtfs: [feed] }], snapshots: 'snapshots', heatMaps: { threads: 1 }, rateLimit: { requestsPerSecond: 0 } }));
  const [r0, r1, listen] = await freePorts(3);
  replicas = await Promise.all([r0!, r1!].map((port) => startServer(['--config', config, '--only', 'valley', '--watch-interval', '0'], port)));
  const shards = assignShards(readConfigFile(config), undefined);
  const text = nginxConfig({ configFile: config, shards, replicas: { s0: [`127.0.0.1:${r0}`, `127.0.0.1:${r1}`] }, listen: `127.0.0.1:${listen}`, workers: '1', upstreamHeader: true });
  nginx = await startNginx(text, listen!);
  front = `http://127.0.0.1:${listen}/v1/coverage`;
});

after(async () => {
  await nginx?.stop();
  for (const r of replicas) r.process.kill('SIGKILL');
});

test('SIGHUP to each replica in turn, new data, under load: no failure, no replica goes back to the old data', { skip }, async () => {
  const failures: string[] = [];
  const seen = new Map<string, number[]>(); // replica → trip counts in the order its answers arrived
  let stop = false;
  const client = async () => {
    for (let i = 0; !stop && i < 50_000; i++) {
      try {
        const res = await fetch(`${front}/valley/trips?_current_datetime=20240310T060000`);
        const body = (await res.json()) as { trips?: unknown[] };
        if (res.status !== 200) {
          failures.push(String(res.status));
          continue;
        }
        const by = (res.headers.get('x-navette-upstream') ?? '').split(', ').at(-1)!;
        if (!seen.has(by)) seen.set(by, []);
        seen.get(by)!.push(body.trips!.length);
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
  };
  // one client: the order in which its answers arrive is the order in which the replicas sent them
  const load = client();
  await new Promise((r) => setTimeout(r, 300));
  appendFileSync(path.join(feed, 'trips.txt'), 'V,DAILY,V-3,South,,0\n');
  appendFileSync(path.join(feed, 'stop_times.txt'), 'V-3,09:00:00,09:00:00,V1,1\nV-3,09:20:00,09:20:00,V2,2\n');
  const [first, second] = replicas as [RunningServer, RunningServer];
  const built = first.waitForLog(/^coverage valley loaded from its sources .*\(SIGHUP\)$/);
  first.process.kill('SIGHUP');
  await built;
  await new Promise((r) => setTimeout(r, 300));
  const read = second.waitForLog(/^coverage valley loaded from its snapshot .*\(SIGHUP\)$/);
  second.process.kill('SIGHUP');
  await read;
  await new Promise((r) => setTimeout(r, 300));
  stop = true;
  await load;
  assert.deepEqual(failures, []);
  assert.equal(seen.size, 2, 'both replicas answered');
  for (const [by, counts] of seen) {
    assert.equal(counts[0], 2, `${by} first served the old data`);
    assert.equal(counts.at(-1), 3, `${by} ends on the new data`);
    const back = counts.findIndex((n, i) => i > 0 && n < counts[i - 1]!);
    assert.equal(back, -1, `${by} went back to the old data at answer ${back}`);
  }
});
