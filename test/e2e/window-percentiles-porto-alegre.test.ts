/**
 * A departure window's percentiles on Porto Alegre's real windows, against the minutes listed one
 * by one and sorted (test/helpers/window-percentiles-oracle.ts): every `select` of a few origins of
 * the travel-time matrix (r5r's example: walk + transit, 2019-05-13 14:00, walking 1.0 m/s, 30
 * minutes of walking to transit, 2 transfers, a 120-minute window, 5 percentiles), with and without
 * the breakdown, and of a heat map's grid over a 60-minute window, is checked as it is made. The
 * matrix's answers on every origin are compared byte for byte with the version before the runs
 * were selected this way (docs/performance.md, "Toward the floor").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGeneration } from '../../src/service/load-coverage.js';
import { InProcessRunner } from '../../src/maps/in-process-runner.js';
import { DEFAULT_LIMITS } from '../../src/service/limits.js';
import { originJob, originTimes } from '../../src/queries/origin-rows.js';
import { matrixCommandParams } from '../../src/queries/analysis-params.js';
import { parseParams } from '../../src/queries/param-table.js';
import { requestInstant } from '../../src/queries/map-prologue.js';
import { pointSetIndex } from '../../src/queries/point-set-refs.js';
import { HeatMapEngine } from '../../src/routing/heat-map.js';
import { WindowEngine } from '../../src/routing/window-heat-map.js';
import { WindowPercentiles } from '../../src/routing/window-percentiles.js';
import { zonedToEpoch } from '../../src/util/time-zones.js';
import { walkingQueryFrom } from '../helpers/heat-map-query.js';
import { assertReference, referencePercentiles } from '../helpers/window-percentiles-oracle.js';
import { sharedFeed } from './coverage-app.js';
import { HEXGRID } from './poa-sample-coverage.js';

const coverage = {
  id: 'poa',
  gtfs: [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')],
  osm: sharedFeed('porto-alegre', 'osm.pbf'),
  pointSets: [{ name: 'hexgrid', file: HEXGRID }],
};
const { generation } = await loadGeneration(coverage);

/** Every `select` from here on compared with the reference as it returns; how many were. */
let checked = 0;
const select = WindowPercentiles.prototype.select;
WindowPercentiles.prototype.select = function (this: WindowPercentiles, ...args: Parameters<typeof select>) {
  // the reference reads the changes and journeys before the next window reuses them
  const [of, n, T, changes, directSec, cells, journeys] = args;
  const expected = referencePercentiles(of, n, T, changes, directSec, cells, journeys ?? null);
  const got = select.apply(this, args);
  assertReference(got, expected, `window ${checked}`);
  checked++;
  return got;
};

test('the matrix\'s windows at the hexagons, with and without the breakdown: each as the sorted minutes\'', async () => {
  const JOURNEYS = { datetime: '20190513T140000', walking_speed: '1', max_walking_duration_to_pt: '1800', max_nb_transfers: '2', max_duration: '7200', departure_window: '7200', percentiles: '5,25,50,75,95' };
  const set = pointSetIndex(generation, 'origins', 'hexgrid');
  const points = generation.streets!.data.pointSets![set]!;
  const timeZone = generation.tt.timezone;
  for (const breakdown of [false, true]) {
    const params = parseParams(matrixCommandParams(DEFAULT_LIMITS), (spec) => {
      const value = ({ ...JOURNEYS, ...(breakdown ? { breakdown: 'true' } : {}) } as Record<string, string>)[spec.name];
      return value === undefined ? [] : spec.name === 'percentiles' ? value.split(',') : [value];
    });
    const t0 = requestInstant(params, 0, timeZone);
    const job = originJob({ coverage: { id: coverage.id, config: coverage }, generation, params, t0, timeZone, maxDurationSec: params.max_duration, destinations: set, originLon: points.lon, originLat: points.lat });
    const runner = new InProcessRunner(DEFAULT_LIMITS);
    const before = checked;
    // origins across the city
    for (const origin of [0, 307, 614, 921, 1226]) await originTimes(runner, job, origin, origin + 1, 1, () => {});
    await runner.close();
    assert.equal(checked - before, 5, 'one window per origin');
  }
});

test('a heat map\'s window on its grid: each cell as the sorted minutes\'', () => {
  const data = generation.streets!.data;
  const engine = new HeatMapEngine(data, 3600, 200);
  const windows = new WindowEngine(engine, 3600);
  const centre = data.stopLon.length >>> 1;
  const query = walkingQueryFrom(data.stopLon, data.stopLat, centre, zonedToEpoch(generation.tt.timezone, 2019, 5, 13, 14, 0, 0), { resolution: 200, maxDurationSec: 3600 });
  const before = checked;
  const result = windows.compute(query, { windowSec: 3600, percentiles: [5, 50, 95], selected: 1 });
  assert.equal(checked - before, 1);
  assert.ok(result.reachedCells > 1000, `${result.reachedCells} cells reached`);
});
