/**
 * The disruptions file within bounds (issue 14, finding 4): a file over its size or its count of
 * disruptions is refused with a clear message and the last good state stays; an entry with too many
 * impacted objects is skipped; repeated problems are logged once with a count; and a page of trips
 * embeds a bounded number of disruptions and of their impacted objects, whatever the file holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { disruptionJson, PAGE_DISRUPTIONS_MAX, PAGE_IMPACTED_OBJECTS_MAX } from '../../../../src/api/trips/disruption-json.js';
import { DisruptionSource } from '../../../../src/service/disruption-source.js';
import { parseDisruptionFile, parseDisruptionFileInSlices } from '../../../../src/live/disruptions/disruption-file.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { TOWN } from '../../../helpers/town-app.js';
import { serveCoverages } from '../../../helpers/app.js';
import { withChanges } from '../../../../src/service/generation.js';

/** `n` disruptions on line B1, each impacting it `objects` times and `unknown` lines the town does not have. */
function disruptions(n: number, objects = 1, unknown = 0) {
  return {
    disruptions: Array.from({ length: n }, (_, k) => ({
      id: `d${k}`,
      severity: { effect: 'SIGNIFICANT_DELAYS' },
      messages: [{ text: `delay ${k}` }],
      impacted_objects: [...Array.from({ length: objects }, () => ({ type: 'line', id: 'B1' })), ...Array.from({ length: unknown }, (_, u) => ({ type: 'line', id: `ghost-${k}-${u}` }))],
    })),
  };
}

async function townWith(content: object, limits: Record<string, number> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-disruptions-')), 'disruptions.json');
  writeFileSync(file, JSON.stringify(content));
  const { app, coverages } = await serveCoverages([{ id: 'town', gtfs: [writeFeed(TOWN, 'town')], disruptions: { path: file, ...limits } }]);
  const coverage = coverages.get('town')!;
  const warnings: string[] = [];
  const log = { info() {}, warn: (_: object, msg: string) => void warnings.push(msg) };
  const source = new DisruptionSource(coverage, coverage.config.disruptions!, log);
  coverage.disruptionSource = source;
  return { file, coverage, source, warnings, app };
}

test('a file over maxDisruptions, or over maxBytes, is refused with a clear message; the last good state stays', async () => {
  const town = await townWith(disruptions(3), { maxDisruptions: 10, maxBytes: 100_000 });
  assert.equal(await town.source.load(), true);
  assert.equal(town.coverage.generation!.disruptions.all.length, 3);
  const good = town.coverage.generation;

  writeFileSync(town.file, JSON.stringify(disruptions(11)));
  assert.equal(await town.source.load(), false);
  assert.match(town.source.status().last_error!, /disruptions\.json: 11 disruptions, more than the 10 allowed \(disruptions\.maxDisruptions\): refused/);
  assert.equal(town.coverage.generation, good);

  writeFileSync(town.file, JSON.stringify({ ...disruptions(2), padding: 'x'.repeat(200_000) }));
  assert.equal(await town.source.load(), false);
  assert.match(town.source.status().last_error!, /disruptions\.json: \d+ bytes, more than the 100000 allowed \(disruptions\.maxBytes\): refused/);
  assert.equal(town.coverage.generation, good);
  await town.app.close();
});

test('an entry with more impacted objects than maxImpactedObjects is skipped, the others kept', async () => {
  const content = disruptions(3);
  content.disruptions[1]!.impacted_objects = Array.from({ length: 6 }, () => ({ type: 'line', id: 'B1' }));
  const town = await townWith(content, { maxImpactedObjects: 5 });
  assert.equal(await town.source.load(), true);
  assert.deepEqual(town.coverage.generation!.disruptions.all.map((d) => d.id), ['d0', 'd2']);
  assert.ok(town.warnings.some((w) => /disruptions\[1\] \(id "d1"\): 6 impacted objects, more than the 5 allowed \(disruptions\.maxImpactedObjects\), skipped/.test(w)), town.warnings.join('\n'));
  await town.app.close();
});

test('an entry with more application periods than maxApplicationPeriods is skipped unread, in the worker as in one piece', async () => {
  const content = disruptions(3) as { disruptions: Record<string, unknown>[] };
  content.disruptions[1]!['application_periods'] = Array.from({ length: 8 }, () => ({ begin: '20240115T080000', end: '20240115T090000' }));
  const town = await townWith(content, { maxApplicationPeriods: 7 });
  assert.equal(await town.source.load(), true);
  assert.deepEqual(town.coverage.generation!.disruptions.all.map((d) => d.id), ['d0', 'd2']);
  const message = /disruptions\[1\] \(id "d1"\): 8 application periods, more than the 7 allowed \(disruptions\.maxApplicationPeriods\), skipped/;
  assert.ok(town.warnings.some((w) => message.test(w)), town.warnings.join('\n'));
  const inOnePiece = parseDisruptionFile(JSON.stringify(content), town.file, town.coverage.generation!.ref, 'Europe/Paris', { ...town.source.limits });
  assert.ok(inOnePiece.problems.some((p) => message.test(p)));
  await town.app.close();
});

test('a file whose closures ask for more expansion steps than maxExpansionSteps is refused whole; the last good state stays', async () => {
  const closures = (n: number) => ({
    disruptions: Array.from({ length: n }, (_, k) => ({ id: `c${k}`, severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'network', id: 'RED' }] })),
  });
  const town = await townWith(closures(1), { maxExpansionSteps: 400 });
  assert.equal(await town.source.load(), true);
  const good = town.coverage.generation!;
  assert.ok(good.adaptedRuns.length > 0);
  writeFileSync(town.file, JSON.stringify({ disruptions: [...closures(1).disruptions, { id: 'stops', severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'stop_area', id: 'GARE' }, { type: 'stop_point', id: 'PARC' }] }] }));
  assert.equal(await town.source.load(), false);
  assert.match(town.source.status().last_error!, /disruptions\.json: the planned disruptions ask for more than 400 steps to expand into runs \(disruptions\.maxExpansionSteps\): refused/);
  assert.equal(town.coverage.generation, good);
  assert.ok(town.warnings.some((w) => /not applied, the last good state stays: .*maxExpansionSteps/.test(w)));
  const metrics = (await town.app.inject('/metrics')).body;
  assert.match(metrics, /^navette_disruptions_file_reads_total\{coverage="town",outcome="applied"\} 1$/m);
  assert.match(metrics, /^navette_disruptions_file_reads_total\{coverage="town",outcome="refused"\} 1$/m);
  await town.app.close();
});

test('a generation realtime swaps in while the file is read keeps its realtime and its alerts, and gets the file', async () => {
  const town = await townWith({ disruptions: [{ id: 'closure', severity: { effect: 'NO_SERVICE' }, impacted_objects: [{ type: 'network', id: 'RED' }] }] });
  const g = town.coverage.generation!;
  const alert = { ...parseDisruptionFile(JSON.stringify({ disruptions: [{ id: 'alert-1', impacted_objects: [{ type: 'line', id: 'B2' }] }] }), 'alerts', g.ref, 'Europe/Paris').disruptions[0]!, source: 'gtfs-rt' as const };
  const realtime = { runs: new Map(), added: [], problems: [] };
  const reading = town.source.load();
  // what a realtime update does while the file is parsed in its worker: the same timetable, other alerts
  const swapped = withChanges(g, { realtime, alerts: [alert] });
  town.coverage.swap(swapped);
  assert.equal(await reading, true);
  const applied = town.coverage.generation!;
  assert.equal(applied.tt, g.tt);
  assert.equal(applied.realtime, realtime, 'the realtime runs of the swapped generation stay');
  assert.deepEqual(applied.disruptions.all.map((d) => d.id), ['closure', 'alert-1'], 'the index holds the file and the new alerts');
  assert.ok(applied.adaptedRuns.length > 0);
  assert.ok(applied.disruptions.tripsOf(1).length > 0, "the alert's trips");
  await town.app.close();
});

test('20,000 unknown objects: one warning line with the count, not 20,000', async () => {
  const town = await townWith(disruptions(200, 1, 100));
  assert.equal(await town.source.load(), true);
  const unknown = town.warnings.filter((w) => /ghost|unknown/.test(w));
  assert.equal(unknown.length, 1, unknown.slice(0, 3).join('\n'));
  assert.match(unknown[0]!, /^20000 times: /);
  await town.app.close();
});

test('a page of one trip impacted by 1,000 disruptions embeds PAGE_DISRUPTIONS_MAX of them, each with at most PAGE_IMPACTED_OBJECTS_MAX objects', async () => {
  const town = await townWith(disruptions(1000));
  assert.equal(await town.source.load(), true);
  const g = town.coverage.generation!;
  assert.equal(g.disruptions.ofTrip(0).length, 1000);
  const res = await town.app.inject('/v1/coverage/town/trips?count=1&filter=line.id=B1');
  assert.equal(res.statusCode, 200);
  const body = JSON.parse(res.body) as { disruptions: { id: string }[] };
  assert.deepEqual(
    body.disruptions.map((d) => d.id),
    Array.from({ length: PAGE_DISRUPTIONS_MAX }, (_, k) => `d${k}`),
    'the first ones in the index order',
  );
  // a disruption of 300 impacted objects shows the first PAGE_IMPACTED_OBJECTS_MAX of them in a page
  const wide = { ...g.disruptions.all[0]!, impacted: Array.from({ length: 300 }, () => g.disruptions.all[0]!.impacted[0]!) };
  assert.equal((disruptionJson(g, wide, 0, PAGE_IMPACTED_OBJECTS_MAX)['impacted_objects'] as unknown[]).length, PAGE_IMPACTED_OBJECTS_MAX);
  assert.equal((disruptionJson(g, wide, 0)['impacted_objects'] as unknown[]).length, 300, 'elsewhere, all of them');
  await town.app.close();
});

test('the file is read off the event loop: parsed in a worker, its entries a slice at a time, with the same result', async () => {
  const content = disruptions(20_000, 1, 1);
  content.disruptions[5]!.id = 'd4'; // a duplicate id: a problem as in one go
  const town = await townWith(content);
  const g = town.coverage.generation!;
  const text = JSON.stringify(content);
  assert.deepEqual(await parseDisruptionFileInSlices(text, town.file, g.ref, g.tt.timezone), parseDisruptionFile(text, town.file, g.ref, g.tt.timezone));
  await assert.rejects(parseDisruptionFileInSlices('{"disruptions": 3}', town.file, g.ref, g.tt.timezone), /expected an object with a "disruptions" array/);
  // the loop turns while the file loads
  let turns = 0;
  let loading = true;
  const tick = () => {
    turns++;
    if (loading) setImmediate(tick);
  };
  setImmediate(tick);
  assert.equal(await town.source.load(), true);
  loading = false;
  assert.equal(town.coverage.generation!.disruptions.all.length, 19_999);
  assert.ok(turns >= 10, `${turns} turns of the event loop while 20,000 disruptions loaded`);
  await town.app.close();
});
