/**
 * Departure windows at the ends of the service days on the demo town (data/demo: Saturday night
 * buses until 27:57, the first weekday runs at 05:30), each minute's improved stops against its own
 * whole search (test/helpers/window-minutes-oracle.ts). The first round's routes of a window's
 * minutes are listed at its first minute searched, from the service days of all its minutes
 * (routing/first-round-marks.ts): there a departure window's latest minute, after the night buses'
 * day has ended, and an arrival window's earliest deadline, before the day's first run. And a window
 * run after another on the same search, which must read nothing the first one kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadGeneration } from '../../../src/service/load-coverage.js';
import { HeatMapEngine } from '../../../src/routing/heat-map.js';
import { zonedToEpoch } from '../../../src/util/time-zones.js';
import { walkingQueryFrom } from '../../helpers/heat-map-query.js';
import { assertImprovementsOfMinutes } from '../../helpers/window-minutes-oracle.js';
import { WindowTransit } from '../../../src/routing/window-transit.js';

const DEMO = path.resolve('data/demo');
const { generation } = await loadGeneration({ id: 'demo', gtfs: [path.join(DEMO, 'gtfs')], osm: path.join(DEMO, 'valmont.osm'), timezone: 'Europe/Paris' });
const data = generation.streets!.data;
const MINUTES = 90;

for (const direction of ['departure', 'arrival'] as const) {
  test(`${direction}s at the ends of the service days: each minute's improved stops are those its own search improves on the later minutes'`, () => {
    const engine = new HeatMapEngine(data, 3600, 100);
    // departures from Sunday 02:45 to 04:15 (Saturday's night buses); arrivals by Wednesday 06:45 back to 05:15
    const t0 = direction === 'departure' ? zonedToEpoch('Europe/Paris', 2026, 11, 29, 2, 45, 0) : zonedToEpoch('Europe/Paris', 2026, 11, 25, 6, 45, 0);
    let improvements = 0;
    for (const id of ['GARE-C', 'LA-REPUBLIQUE', 'GARE-T', 'PIERRE-SEMARD']) {
      const stop = generation.tt.stopPoints.ids.indexOf(id);
      assert.ok(stop >= 0, id);
      const q = walkingQueryFrom(data.stopLon, data.stopLat, stop, t0, { direction, maxDurationSec: 3600, maxTransfers: 3 });
      improvements += assertImprovementsOfMinutes(engine, data.stopLon.length, q, MINUTES, `from ${id}`);
    }
    assert.ok(improvements > 100, `${improvements} improvements`);
  });
}

test('a window after another on the same search, its bounds made anew for more rounds, and shorter: nothing the first one kept is read (its first round\'s lists, its boardings)', () => {
  const engine = new HeatMapEngine(data, 3600, 100);
  const window = new WindowTransit(engine.transit, data.stopLon.length, MINUTES);
  const at = (id: string) => generation.tt.stopPoints.ids.indexOf(id);
  // Wednesday morning: 90 minutes with no transfer from one stop, then 30 minutes with up to 3 from another
  const t0 = zonedToEpoch('Europe/Paris', 2026, 11, 25, 7, 0, 0);
  window.run(walkingQueryFrom(data.stopLon, data.stopLat, at('GARE-C'), t0, { maxDurationSec: 3600, maxTransfers: 0 }), MINUTES);
  const q = walkingQueryFrom(data.stopLon, data.stopLat, at('PIERRE-SEMARD'), t0, { maxDurationSec: 3600, maxTransfers: 3 });
  const improvements = assertImprovementsOfMinutes(engine, data.stopLon.length, q, 30, 'the second window', window);
  assert.ok(improvements > 20, `${improvements} improvements`);
});
