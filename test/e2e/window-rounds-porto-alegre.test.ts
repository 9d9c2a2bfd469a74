/**
 * A departure window's range RAPTOR against its minutes searched one by one, on Porto Alegre's real
 * network (r5r's example GTFS and OSM): the window prunes each minute's labels against the later
 * minutes' of the same round and of the rounds before it that count (routing/range-bounds.ts), and
 * a fewest-transfers limit decides which rounds count. For each limit (none, one and two transfers
 * at least, three at most), departures and arrivals, two origins, every cell's percentiles are the
 * rank ceil(p × n / 100) of that cell's single-map values over the window's minutes, each minute a
 * whole search of its own (routing/heat-map.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGeneration } from '../../src/service/load-coverage.js';
import { HeatMapEngine } from '../../src/routing/heat-map.js';
import { WindowEngine, WINDOW_STEP_SEC } from '../../src/routing/window-heat-map.js';
import { assertImprovementsOfMinutes, assertPercentilesOfMinutes } from '../helpers/window-minutes-oracle.js';
import { zonedToEpoch } from '../../src/util/time-zones.js';
import { walkingQueryFrom } from '../helpers/heat-map-query.js';
import { sharedFeed } from './coverage-app.js';

const { generation } = await loadGeneration({
  id: 'poa',
  gtfs: [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')],
  osm: sharedFeed('porto-alegre', 'osm.pbf'),
});
const data = generation.streets!.data;
const MINUTES = 20;
const PERCENTILES = [5, 25, 50, 75, 95];
const ORIGINS = Array.from({ length: 8 }, (_, k) => Math.floor(((k + 0.5) * data.stopLon.length) / 8));

for (const minTransfers of [0, 1, 2]) {
  test(`at least ${minTransfers} transfers, at most 3: each minute's improved stops are those its own search improves on the later minutes', departures and arrivals`, () => {
    const engine = new HeatMapEngine(data, 5400, 200);
    const t0 = zonedToEpoch(generation.tt.timezone, 2019, 5, 13, 14, 0, 0);
    let improvements = 0;
    for (const stop of ORIGINS) {
      for (const direction of ['departure', 'arrival'] as const) {
        const q = walkingQueryFrom(data.stopLon, data.stopLat, stop, t0, { direction, maxDurationSec: 5400, minTransfers, maxTransfers: 3 });
        improvements += assertImprovementsOfMinutes(engine, data.stopLon.length, q, MINUTES, `from stop ${stop}, ${direction}s`);
      }
    }
    assert.ok(improvements > 10000, `${improvements} improvements`);
  });

  test(`at least ${minTransfers} transfers, at most 3: each cell's percentiles are its minutes' single maps', departures and arrivals`, () => {
    const engine = new HeatMapEngine(data, 5400, 200);
    const windows = new WindowEngine(engine, MINUTES * WINDOW_STEP_SEC);
    const t0 = zonedToEpoch(generation.tt.timezone, 2019, 5, 13, 14, 0, 0);
    let reached = 0;
    let checked = 0;
    // stops spread over the list: parts of the city far apart
    for (const stop of ORIGINS) {
      for (const direction of ['departure', 'arrival'] as const) {
        const q = walkingQueryFrom(data.stopLon, data.stopLat, stop, t0, { direction, maxDurationSec: 5400, resolution: 80, minTransfers, maxTransfers: 3 });
        const result = windows.compute(q, { windowSec: MINUTES * WINDOW_STEP_SEC, percentiles: PERCENTILES, selected: 0 });
        const maps = result.percentiles!.map((m) => m.seconds);
        const cells = assertPercentilesOfMinutes(engine, q, result.grid, maps, MINUTES, PERCENTILES, `stop ${stop}, ${direction}s`);
        checked += cells.checked;
        reached += cells.reached;
      }
    }
    // most cells reached, and some not: the limits bite on both sides
    assert.ok(reached > checked / 5 && reached < checked, `${reached} of ${checked} percentile cells reached`);
  });
}
