/**
 * Valid heat maps at random (test/helpers/heat-map-requests.ts) on the demo town and on rnv-mannheim
 * with its real street network, computed on the worker pool as the server does: every one must be
 * answered 200 with a well-formed grid. A computation that never ends shows as the budget's 503
 * (and is cut off), so the property names the request, shrunk. `bench/heat-maps-fuzz.ts` runs it
 * longer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_LIMITS } from '../../src/service/limits.js';
import { HeatMapPool } from '../../src/maps/heat-map-pool.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { fuzzCoverage, mapProblem, validHeatMapRequest, type FuzzCoverage } from '../helpers/heat-map-requests.js';
import { serveCoverages } from '../helpers/app.js';

const MAX_RESOLUTION = 120;
let app: FastifyInstance;
let pool: HeatMapPool;
const coverages: FuzzCoverage[] = [];

before(async () => {
  const demoDir = path.resolve('data/demo');
  const rnvDir = path.join(SHARED_DATA, 'rnv-mannheim');
  const limits = { ...DEFAULT_LIMITS, maxResolution: MAX_RESOLUTION };
  // a budget far above what any of these maps takes (milliseconds): only a computation that never ends meets it
  pool = new HeatMapPool({ ...limits, threads: 2, budgetMs: 8000 });
  const served = await serveCoverages(
    [
      { id: 'demo', gtfs: [path.join(demoDir, 'gtfs')], osm: path.join(demoDir, 'valmont.osm'), timezone: 'Europe/Paris' },
      { id: 'rnv', gtfs: [path.join(rnvDir, 'gtfs.zip')], osm: path.join(rnvDir, 'osm.pbf') },
    ],
    { app: { limits, heatMaps: pool } },
  );
  app = served.app;
  coverages.push(fuzzCoverage('demo', served.generations.get('demo')!, ['20261124T080000', '20261124T173000', '20261125T064500']));
  coverages.push(fuzzCoverage('rnv', served.generations.get('rnv')!, ['20161108T080000', '20161108T171500', '20161110T063000', '20161112T120000']));
});

after(async () => {
  await app?.close();
  await pool?.close();
});

test('fuzz: valid heat maps on the demo town and rnv-mannheim, every one answered with a well-formed grid', { timeout: 300_000 }, async () => {
  let answered = 0;
  let valued = 0;
  await fc.assert(
    fc.asyncProperty(fc.oneof(...coverages.map((c) => validHeatMapRequest(c, MAX_RESOLUTION))), async (url) => {
      const res = await app.inject({ method: 'GET', url });
      const problem = mapProblem(res.statusCode, res.body, url);
      assert.equal(problem, undefined, `${url}: ${problem}`);
      answered++;
      if (res.body.includes('"duration":[') && /"duration":\[[^\]]*\d/.test(res.body)) valued++;
    }),
    { seed: 20261124, numRuns: 250 },
  );
  assert.equal(answered, 250);
  // the centres are mostly in the city: most maps reach something
  assert.ok(valued > answered / 2, `${valued} of ${answered} maps reach a cell`);
});
