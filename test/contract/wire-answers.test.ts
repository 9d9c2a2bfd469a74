/**
 * The wire answers of a fixed set of requests on the demo coverage (with disruptions), compared with
 * those recorded in wire-answers.json: a restructuring of the code must not change a byte of what
 * clients receive. Each answer is kept as its status, its content type and a hash of its body; the
 * JSON bodies are hashed with the fields that tell the time of the run or the load left out
 * (`current_datetime`, load times, generation numbers, uptime).
 *
 * After a change that is meant to change answers, write the file again and review the difference:
 *
 *   WRITE_WIRE_ANSWERS=1 node --test dist/test/contract/wire-answers.test.js
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDisruptionFile } from '../../src/live/disruptions/disruption-file.js';
import { withDisruptions } from '../../src/service/generation.js';
import { serveCoverages, type ServedApp } from '../helpers/app.js';

const RECORD = path.resolve('test/contract/wire-answers.json');
const NOW = '_current_datetime=20261124T070000';
const DEMO = path.resolve('data/demo');

/** Fields whose value tells when the server ran or loaded (or when the demo's files were checked out), not what it answers. */
const MOMENT_FIELDS = new Set(['current_datetime', 'dataset_created_at', 'last_load_at', 'loaded_at', 'generation', 'uptime_sec', 'started_at', 'updated_at', 'last_success_at', 'last_error_at']);

const COLLECTIONS = ['stop_points', 'routes', 'networks', 'commercial_modes', 'physical_modes', 'companies', 'stop_areas', 'lines', 'vehicle_journeys'];
const HEAT_MAP = 'heat_maps?from=GARE-T&max_duration=900&resolution=20&datetime=20261124T080000';

function requests(): string[] {
  const c = '/v1/coverage/demo';
  const coord = '/v1/coverage/4.841828;45.732672';
  return [
    '/v1/coverage',
    c,
    `${coord}?disable_geojson=true`,
    '/v1',
    `${c}/trips?count=5`,
    `${c}/trips?count=3&start_page=2&depth=2`,
    `${c}/trips?filter=line.id=T1&since=20261124T060000&until=20261124T090000`,
    `${c}/trips?tags[]=works&count=2`,
    `${c}/trips?forbidden_uris[]=T1&count=3`,
    `${c}/trips?data_freshness=adapted_schedule&since=20261124T060000&until=20261124T070000`,
    `${c}/trips/T1-0-0530?depth=3`,
    `${c}/lines/T1/trips?count=2`,
    `${c}/stop_areas/GARE/trips?count=2&depth=0`,
    `${coord}/trips?count=2`,
    ...COLLECTIONS.flatMap((k) => [`${c}/${k}?count=2&depth=2`, `${c}/lines/T1/${k}?count=2&depth=3`, `${c}/${k}?count=1&depth=0&disable_geojson=true`]),
    `${c}/lines/T1?depth=1`,
    `${c}/stop_points/GARE-T?depth=2`,
    `${c}/places?q=gare&type[]=stop_area&type[]=stop_point&depth=2`,
    `${c}/places?q=hopital`,
    `${c}/coords/4.841828;45.732672/places_nearby?distance=300`,
    `${c}/${HEAT_MAP}`,
    `${c}/${HEAT_MAP}&format=tiff`,
    `${c}/${HEAT_MAP}&format=png`,
    `${c}/${HEAT_MAP}&format=geojson`,
    `${c}/heat_maps?to=GARE-T&max_duration=900&resolution=20&datetime=20261124T080000&first_section_mode[]=bike`,
    `${coord}/heat_maps?to=4.841828;45.732672&max_duration=900&resolution=20&datetime=20261124T080000`,
    `${c}/isochrones?from=GARE-T&max_duration=1200&boundary_duration[]=600&boundary_duration[]=1200&datetime=20261124T080000`,
    // errors
    `${c}/trips?count=-1`,
    '/v1/coverage/nowhere/trips',
    `${c}/trips/no-such-trip`,
    `${c}/trips?filter=line.uri=`,
    `${c}/planets/mars/trips`,
    `${c}/heat_maps?from=GARE-T&max_duration=900&datetime=20001124T080000`,
    `${c}/heat_maps?max_duration=900`,
    `${c}/heat_maps?from=GARE-T&max_duration=0`,
    `${c}/lines/no-such-line`,
    `${c}/places`,
    '/v1/nope',
    // documents
    `${c}/trips?schema=true`,
    '/v1/schema',
    '/v1/openapi.json',
  ];
}

/** The value with the moment fields left out. */
function withoutMoments(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutMoments);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !MOMENT_FIELDS.has(k)).map(([k, x]) => [k, withoutMoments(x)]));
  return v;
}

interface Recorded {
  status: number;
  type: string;
  sha256: string;
}

let served: ServedApp;

before(async () => {
  served = await serveCoverages([{ id: 'demo', gtfs: [path.join(DEMO, 'gtfs')], osm: path.join(DEMO, 'valmont.osm'), timezone: 'Europe/Paris' }]);
  const coverage = served.coverages.get('demo')!;
  const g = coverage.generation!;
  const file = {
    disruptions: [
      {
        id: 'works-t1',
        tags: ['works'],
        cause: 'roadworks',
        severity: { name: 'reduced', effect: 'REDUCED_SERVICE', color: '#ff8800', priority: 5 },
        application_periods: [{ begin: '20261124T000000', end: '20261124T235959' }],
        messages: [{ text: 'Works on line T1' }],
        impacted_objects: [
          { type: 'line', id: 'T1' },
          { type: 'stop_area', id: 'GARE' },
        ],
        updated_at: '20261120T120000',
      },
      {
        id: 'closure-2',
        severity: { effect: 'NO_SERVICE' },
        application_periods: [{ begin: '20261124T060000', end: '20261124T063000' }],
        impacted_objects: [{ type: 'line', id: '2' }],
        updated_at: '20261120T120000',
      },
    ],
  };
  const parsed = parseDisruptionFile(JSON.stringify(file), 'disruptions.json', g.ref, g.tt.timezone);
  assert.deepEqual(parsed.problems, []);
  const { plannedRuns } = await import('../../src/live/disruptions/planned-runs.js');
  coverage.swap(withDisruptions(g, parsed.disruptions, [], plannedRuns(g.ref, parsed.disruptions, g.productionStartDay, g.productionEndDay).runs));
});

after(() => served.close());

test('the answers to a fixed set of requests are those recorded', async () => {
  const answers: Record<string, Recorded> = {};
  for (const url of requests()) {
    const res = await served.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}${NOW}` });
    const type = String(res.headers['content-type'] ?? '');
    const body = type.startsWith('application/json') ? JSON.stringify(withoutMoments(JSON.parse(res.body))) : res.rawPayload;
    answers[url] = { status: res.statusCode, type, sha256: createHash('sha256').update(body).digest('hex') };
  }
  if (process.env['WRITE_WIRE_ANSWERS']) writeFileSync(RECORD, `${JSON.stringify(answers, null, 1)}\n`);
  const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, Recorded>;
  const changed = Object.keys({ ...recorded, ...answers }).filter((url) => JSON.stringify(recorded[url]) !== JSON.stringify(answers[url]));
  assert.deepEqual(changed, [], `answers changed: ${changed.map((u) => `${u} ${JSON.stringify(recorded[u])} -> ${JSON.stringify(answers[u])}`).join('\n')}`);
  // the set covers answers of every kind
  const statuses = new Set(Object.values(answers).map((a) => a.status));
  for (const s of [200, 400, 404]) assert.ok(statuses.has(s), `some ${s}`);
});
