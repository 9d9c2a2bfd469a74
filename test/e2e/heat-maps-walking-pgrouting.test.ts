/**
 * Walking-only heat maps against pgRouting (issue 25), on Porto Alegre through the API and the
 * worker pool. The definitions, the centres and the samples are those of
 * test/e2e/walking-vs-pgrouting.ts; npm test compares WALKING.test's sizes (2,000 of our reached
 * cells over the 10 centres, and the disc cells for the other side), bench/heat-maps-streets.ts
 * prints the same figures with its own sizes.
 *
 * The thresholds are issue 25's targets. Needs PostgreSQL 15 with PostGIS and pgRouting,
 * osm2pgrouting and osmium (test/helpers/pgrouting-tools.ts): without them the file is skipped,
 * under CI=true it fails.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeWalkNetworks, openWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import { pgRoutingMissing } from '../helpers/pgrouting-tools.js';
import { CityHeatMaps } from './city-heat-maps.js';
import { THREADS, WALKING } from './street-check-settings.js';
import { walkingCheck, walkingLines, type WalkingFigures } from './walking-vs-pgrouting.js';

const skip = pgRoutingMissing();
if (skip) process.stdout.write(`# heat-maps-walking-pgrouting skipped: ${skip}\n`);

/** the two-sided share needs enough cells that pgRouting reaches to mean something */
const MIN_CELLS_PGROUTING_REACHES = 500;

let maps: CityHeatMaps | undefined;
let figures: WalkingFigures;

before(async () => {
  if (skip) return;
  const [m, network] = await Promise.all([CityHeatMaps.open(WALKING.city, THREADS), openWalkNetwork(WALKING.city.osm)]);
  maps = m;
  figures = await walkingCheck(m, network, WALKING.test);
});

after(async () => {
  await maps?.close();
  await closeWalkNetworks();
});

test('walking only against pgRouting: the samples, and the figures', { skip }, (t) => {
  for (const line of walkingLines(figures)) t.diagnostic(line);
  assert.equal(figures.centres.length, WALKING.centres);
  assert.equal(figures.agreement.cells, WALKING.test.reachedCells);
  assert.ok(figures.misses.cells >= MIN_CELLS_PGROUTING_REACHES, `pgRouting reaches ${figures.misses.cells} of the disc cells sampled`);
});

test(`walking only: at least ${WALKING.minShareWithin * 100} % of our reached cells within ±${WALKING.toleranceSec} s of pgRouting`, { skip }, () => {
  const a = figures.agreement;
  assert.ok(a.share >= WALKING.minShareWithin, `${a.within} / ${a.cells} = ${(a.share * 100).toFixed(1)} %; ours − pgRouting p10 ${a.p10} s, median ${a.p50} s, p90 ${a.p90} s`);
});

test(`walking only: at most ${WALKING.maxShareMissed * 100} % of the cells pgRouting reaches are null on ours`, { skip }, () => {
  const m = figures.misses;
  assert.ok(m.share <= WALKING.maxShareMissed, `${m.oursNull} / ${m.cells} = ${(m.share * 100).toFixed(1)} %`);
});
