/**
 * `navette serve --realtime FILE --realtime-interval S`: the source is polled and applied, and the
 * coverage shows it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fetchJson, until } from '../helpers/http.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { startServer } from '../helpers/serve.js';

const BART = path.join(SHARED_DATA, 'rt', 'bart');
let server: ChildProcess;
let base: string;

before(async () => {
  const args = ['--gtfs', path.join(BART, 'gtfs.zip'), '--id', 'bart', '--realtime', path.join(BART, 'trip-updates-2019-08-07.pb'), '--realtime-interval', '0.2'];
  ({ process: server, base } = await startServer(args));
});

after(async () => {
  server.kill('SIGTERM');
  await once(server, 'exit');
});

test('the realtime source given on the command line is polled at its interval and applied', async () => {
  const sources = async () =>
    (await fetchJson(`${base}/bart`)).json.regions[0].realtime_sources as Array<{ source: string; successes: number; trip_updates: number; failures: number }>;
  const [source] = await until(sources, (list) => list[0]!.successes >= 3);
  assert.equal(source!.source, path.join(BART, 'trip-updates-2019-08-07.pb'));
  assert.ok(source!.successes >= 3, `${source!.successes} reads`);
  assert.equal(source!.trip_updates, 91);
  assert.equal(source!.failures, 0);
});

test('each apply is timed in /metrics for its coverage', async () => {
  const metrics = await (await fetch(`${base.replace(/\/v1\/coverage$/, '')}/metrics`)).text();
  const applies = /^navette_realtime_apply_seconds_count\{coverage="bart"\} (\d+)$/m.exec(metrics);
  assert.ok(applies && Number(applies[1]) >= 1, 'applied at least once');
});
