/**
 * `navette serve --realtime ALERTS --disruptions FILE` on the real BART capture: the ServiceAlert is
 * a disruption of the whole network and takes the tags the file gives its id; a file entry whose
 * only object is unknown impacts nothing; the coverage shows both sources.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchJson, until } from '../helpers/http.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { startServer } from '../helpers/serve.js';

const BART = path.join(SHARED_DATA, 'rt', 'bart');
let server: ChildProcess;
let base: string;
let file: string;

before(async () => {
  file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-bart-')), 'disruptions.json');
  writeFileSync(
    file,
    JSON.stringify({
      disruptions: [
        { id: 'BSA_187874', tags: ['medical'] },
        { id: 'night-closure', tags: ['closure'], severity: { effect: 'NO_SERVICE' }, application_periods: [{ begin: '20190807T000000', end: '20190807T235959' }], impacted_objects: [{ type: 'stop_area', id: 'NOPE' }] },
      ],
    }),
  );
  const args = ['--gtfs', path.join(BART, 'gtfs.zip'), '--id', 'bart', '--realtime', path.join(BART, 'alerts-2019-08-07.pb'), '--realtime-interval', '0.2', '--disruptions', file, '--disruptions-interval', '0.1'];
  ({ process: server, base } = await startServer(args));
});

after(async () => {
  server.kill('SIGTERM');
  await once(server, 'exit');
});

test('the alert is listed with the tags of its id in the file; tags[] finds the trips of its network', async () => {
  const a = await until(
    () => fetchJson(`${base}/bart/trips?tags[]=medical&count=3&_current_datetime=20190807T170000Z`),
    (a) => a.status === 200,
  );
  assert.equal(a.status, 200);
  assert.equal(a.json.pagination.total_result, 2641); // every BART trip: the alert names the agency
  assert.equal(a.json.disruptions.length, 1);
  const d = a.json.disruptions[0];
  assert.equal(d.id, 'BSA_187874');
  assert.equal(d.contributor, 'gtfs_rt');
  assert.equal(d.status, 'active');
  assert.deepEqual(d.tags, ['medical']);
  assert.deepEqual(d.severity, { name: 'significant delays', effect: 'SIGNIFICANT_DELAYS', color: '', priority: 0 });
  assert.equal(d.cause, 'medical emergency');
  assert.match(d.messages[0].text, /^There is a major delay at Montgomery St\./);
  assert.deepEqual(d.impacted_objects, [{ pt_object: { id: 'BART', name: 'Bay Area Rapid Transit', quality: 0, embedded_type: 'network', network: { id: 'BART', name: 'Bay Area Rapid Transit' } } }]);
  assert.deepEqual(d.application_periods, [{ begin: '20190211T000000', end: '20200210T235959' }]); // always: the production period
  assert.equal((await fetchJson(`${base}/bart/trips?tags[]=closure`)).status, 404); // its only object is unknown
});

test('the coverage shows the disruptions file and the alerts of the realtime source', async () => {
  const region = (await fetchJson(`${base}/bart`)).json.regions[0];
  assert.equal(region.disruptions_source.path, file);
  assert.equal(region.disruptions_source.disruptions, 2);
  assert.equal(region.disruptions_source.problems, 1);
  assert.equal(region.realtime_sources[0].alerts, 1);
});
