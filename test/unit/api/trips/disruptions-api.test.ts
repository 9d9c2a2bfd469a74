/**
 * Disruptions through the trips API, on the `town` coverage with a disruptions file: `tags[]`, the
 * disruption objects of a page and their status at `_current_datetime`, `disable_disruption`, the
 * adapted level, the filter methods, the coverage status, and the file read again when it changes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Coverage } from '../../../../src/service/coverage-registry.js';
import { DisruptionSource } from '../../../../src/service/disruption-source.js';
import { loadCoverage } from '../../../../src/service/load-coverage.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { NOT_FOUND_MESSAGE, TOWN } from '../../../helpers/town-app.js';
import { getJson, serveCoverages } from '../../../helpers/app.js';
import { until, navitiaError } from '../../../helpers/http.js';

const WORKS = {
  id: 'works-b1',
  tags: ['works'],
  cause: 'roadworks',
  category: 'planned',
  severity: { name: 'blocking', effect: 'NO_SERVICE', color: '#ff0000', priority: 10 },
  application_periods: [{ begin: '20240115T083000', end: '20240115T235959' }],
  messages: [{ text: 'No line 1 from 08:30', channel: { id: 'web', name: 'web', content_type: 'text/html', types: ['web', 'mobile'] } }],
  impacted_objects: [{ type: 'line', id: 'B1' }],
  updated_at: '20240110T120000',
};
const SCHOOL = {
  id: 'ecole',
  tags: ['school'],
  severity: { effect: 'DETOUR' },
  application_periods: [{ begin: '20240201T000000', end: '20240201T235959' }],
  impacted_objects: [{ type: 'stop_point', id: 'ECOLE' }, { type: 'line', id: 'NOPE' }],
};

const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-disruptions-')), 'disruptions.json');
const quiet = { info() {}, warn() {} };
let app: FastifyInstance;
let coverage: Coverage;

before(async () => {
  writeFileSync(file, JSON.stringify({ disruptions: [WORKS, SCHOOL] }));
  const served = await serveCoverages([{ id: 'town', gtfs: [writeFeed(TOWN, 'town')], disruptions: { path: file, intervalSec: 0.05 } }]);
  app = served.app;
  coverage = served.coverages.get('town')!;
  coverage.disruptionSource = new DisruptionSource(coverage, coverage.config.disruptions!, quiet);
  await coverage.disruptionSource.check();
  coverage.disruptionSource.start();
  await app.ready();
});

after(async () => {
  coverage.disruptionSource?.stop();
  await app.close();
});

/** GET `/v1/coverage/town/{uri}?{query}`; its body must be JSON. */
const get = (query: string, uri = 'trips') => getJson(app, `/v1/coverage/town/${uri}?${query}`);

async function trips(query: string): Promise<string[]> {
  const a = await get(`${query}&count=100`);
  assert.equal(a.status, 200, JSON.stringify(a.json));
  return a.json.trips.map((t: { id: string }) => t.id);
}

describe('tags[]', () => {
  test('gives the trips impacted by a disruption carrying one of the tags, through its line or stop', async () => {
    assert.deepEqual(await trips('tags[]=works'), ['B1-0800', 'B1-0900', 'B1-1700']);
    assert.deepEqual(await trips('tags[]=school'), ['B2-1000', 'B2-1100']);
    assert.deepEqual(await trips('tags[]=works&tags[]=school'), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100']);
    assert.deepEqual(await trips('tags[]=works&filter=vehicle_journey.has_headsign(Gare)'), ['B1-1700']);
  });

  test('a tag no disruption carries finds nothing: 404 as any empty result', async () => {
    const a = await get('tags[]=nope');
    assert.equal(a.status, 404);
    assert.deepEqual(navitiaError(a.json.error), { id: 'unknown_object', message: NOT_FOUND_MESSAGE });
    assert.equal((await get('tags[]=Works')).status, 404); // exact names
  });
});

describe('the disruptions of a page', () => {
  const expected = (status: string) => ({
    id: 'works-b1',
    disruption_id: 'works-b1',
    impact_id: 'works-b1',
    uri: 'works-b1',
    disruption_uri: 'works-b1',
    contributor: 'disruptions_file',
    status,
    severity: { name: 'blocking', effect: 'NO_SERVICE', color: '#ff0000', priority: 10 },
    application_periods: [{ begin: '20240115T083000', end: '20240115T235959' }],
    messages: [{ text: 'No line 1 from 08:30', channel: { id: 'web', name: 'web', content_type: 'text/html', types: ['web', 'mobile'] } }],
    tags: ['works'],
    cause: 'roadworks',
    category: 'planned',
    updated_at: '20240110T120000',
    impacted_objects: [{ pt_object: { id: 'B1', name: 'Gare - Musée', quality: 0, embedded_type: 'line', line: { id: 'B1', name: 'Gare - Musée', code: '1', color: '', text_color: '' } } }],
  });

  test('each disruption impacting a trip of the page, once, with its status at the request time', async () => {
    for (const [now, status] of [
      // _current_datetime is UTC: the period begins at 07:30 UTC (08:30 in Paris)
      ['20240115T073000Z', 'active'],
      ['20240115T072959', 'future'],
      ['20240115T230000Z', 'past'],
    ] as const) {
      const a = await get(`_current_datetime=${now}&filter=line.id=B1`);
      assert.equal(a.status, 200);
      assert.equal(a.json.trips.length, 3);
      assert.deepEqual(a.json.disruptions, [expected(status)], now);
      assert.deepEqual(a.json.trips[0], { id: 'B1-0800', name: '101' }); // depth 1 unchanged
    }
  });

  test('in the index order, a stop impact shown as its stop point; none for a page of trips not impacted', async () => {
    const a = await get('_current_datetime=20240201T120000&count=100');
    assert.deepEqual(
      a.json.disruptions.map((d: { id: string; status: string }) => [d.id, d.status]),
      [
        ['works-b1', 'past'],
        ['ecole', 'active'],
      ],
    );
    const ecole = a.json.disruptions[1];
    assert.deepEqual(ecole.impacted_objects, [{ pt_object: { id: 'ECOLE', name: 'École', quality: 0, embedded_type: 'stop_point', stop_point: { id: 'ECOLE', name: 'École', coord: { lon: '5', lat: '45.003' } } } }]);
    assert.deepEqual(ecole.severity, { name: '', effect: 'DETOUR', color: '', priority: 0 });
    assert.deepEqual(ecole.messages, []);
    assert.deepEqual(ecole.tags, ['school']);
    assert.deepEqual((await get('filter=line.id=T1')).json.disruptions, []);
    // a page of B2 trips only: the disruption of line B1 is not listed
    assert.deepEqual((await get('filter=line.id=B2')).json.disruptions.map((d: { id: string }) => d.id), ['ecole']);
  });

  test('disable_disruption=true gives []', async () => {
    const a = await get('filter=line.id=B1&disable_disruption=true');
    assert.equal(a.status, 200);
    assert.deepEqual(a.json.disruptions, []);
    assert.equal(a.json.trips.length, 3);
  });
});

describe('the adapted level', () => {
  const window = 'since=20240115T075500&until=20240115T095500';
  test('a NO_SERVICE run disappears at adapted_schedule and realtime, not at base_schedule', async () => {
    assert.deepEqual(await trips(`${window}&data_freshness=base_schedule`), ['B1-0800', 'B1-0900']);
    assert.deepEqual(await trips(`${window}&data_freshness=adapted_schedule`), ['B1-0800']);
    assert.deepEqual(await trips(`${window}&data_freshness=realtime`), ['B1-0800']);
    // the next day the line runs
    assert.deepEqual(await trips('since=20240116T075500&until=20240116T095500&data_freshness=adapted_schedule'), ['B1-0800', 'B1-0900']);
    const between = (level: string) => `filter=vehicle_journey.between("20240115T065500Z", "20240115T085500Z", ${level})`;
    assert.deepEqual(await trips(between('base_schedule')), ['B1-0800', 'B1-0900']);
    assert.deepEqual(await trips(between('adapted_schedule')), ['B1-0800']);
  });

  test('the runs are kept on the generation for other consumers', () => {
    const runs = coverage.generation!.adaptedRuns;
    assert.deepEqual(
      runs.map((r) => [coverage.generation!.tt.trips.ids[r.trip], r.cancelled]),
      [
        ['B1-0900', true],
        ['B1-1700', true],
      ],
    );
  });
});

describe('filter methods', () => {
  test('has_disruption (NO_SERVICE), disruption.tag, disruption.id, disruption.between', async () => {
    assert.deepEqual(await trips('filter=vehicle_journey.has_disruption()'), ['B1-0800', 'B1-0900', 'B1-1700']);
    assert.deepEqual(await trips('filter=disruption.tag(school)'), ['B2-1000', 'B2-1100']);
    assert.deepEqual(await trips('filter=disruption.id=ecole'), ['B2-1000', 'B2-1100']);
    assert.deepEqual((await get('count=100', 'disruptions/ecole/trips')).json.trips.map((t: { id: string }) => t.id), ['B2-1000', 'B2-1100']);
    assert.deepEqual(await trips('filter=disruption.between("20240131T000000Z", "20240202T000000Z")'), ['B2-1000', 'B2-1100']);
    assert.deepEqual(await trips('filter=disruption.since("20240115T120000Z")'), ['B1-0800', 'B1-0900', 'B1-1700', 'B2-1000', 'B2-1100']);
    assert.equal((await get('filter=disruption.until("20240101T000000Z")')).status, 400);
    const bad = await get('filter=disruption.nope(1)');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.id, 'unable_to_parse');
  });
});

describe('the disruptions file', () => {
  test('the coverage shows its state', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/coverage/town' });
    const source = JSON.parse(res.body).regions[0].disruptions_source;
    assert.equal(source.path, file);
    assert.equal(source.disruptions, 2);
    assert.equal(source.problems, 1); // line NOPE
    assert.equal(source.last_error, null);
    assert.equal(typeof source.last_load_at, 'number');
  });

  test('is read again when it changes; a bad version leaves the last good state in force', async () => {
    // read again at the source's interval; the wait is bounded only against a hang
    const soon = { intervalMs: 25 };
    writeFileSync(file, JSON.stringify({ disruptions: [{ ...WORKS, impacted_objects: [{ type: 'trip', id: 'T1-FREQ' }] }] }));
    const reread = await until(() => get('tags[]=works'), (a) => a.json.trips?.[0]?.id === 'T1-FREQ', soon);
    assert.equal(reread.json.trips?.[0]?.id, 'T1-FREQ', 'the new file read again');
    assert.deepEqual(await trips('tags[]=works'), ['T1-FREQ']);
    assert.equal((await get('tags[]=school')).status, 404);
    assert.deepEqual(await trips(`since=20240115T075500&until=20240115T095500&data_freshness=adapted_schedule`), ['B1-0800', 'B1-0900']);

    writeFileSync(file, '{"disruptions": [ oops');
    const lastError = await until(() => coverage.disruptionSource!.status().last_error, (e) => e !== null, soon);
    assert.match(lastError ?? 'no error recorded', new RegExp(`^${file.replace(/[.]/g, '\\.')}: not JSON`));
    assert.deepEqual(await trips('tags[]=works'), ['T1-FREQ']);
  });
});

test('a disruptions file that is missing is reported once, then read when it appears', async () => {
  const missing = path.join(mkdtempSync(path.join(tmpdir(), 'navette-disruptions-')), 'later.json');
  const other = new Coverage({ id: 'town', gtfs: [writeFeed(TOWN, 'town')] });
  await loadCoverage(other);
  const source = new DisruptionSource(other, { path: missing }, quiet);
  assert.equal(await source.check(), false);
  assert.equal(source.status().last_error, `cannot read ${missing}: no such file`);
  assert.equal(await source.check(), false);
  assert.equal(source.status().failures, 1, 'reported once, not at every check');
  writeFileSync(missing, JSON.stringify({ disruptions: [WORKS] }));
  assert.equal(await source.check(), true);
  assert.equal(source.status().disruptions, 1);
  assert.deepEqual(
    other.generation!.disruptions.file.map((d) => d.id),
    ['works-b1'],
  );
});
