/**
 * Walk + transit heat maps against the street oracle (issue 25), on Porto Alegre and rnv-mannheim
 * through the API and the worker pool. The definitions, the centres and the samples are those of
 * test/e2e/transit-vs-street-oracle.ts, the oracle's rules those of street-transit-oracle.ts (itself
 * checked by hand in street-transit-oracle.test.ts); npm test compares TRANSIT.test's sizes (a few
 * centres per city, a few hundred cells), bench/heat-maps-streets.ts TRANSIT.bench's.
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
import { THREADS, TRANSIT } from './street-check-settings.js';
import { StreetTransitOracle } from './street-transit-oracle.js';
import { transitCheck, transitLines, type TransitFigures } from './transit-vs-street-oracle.js';

const skip = pgRoutingMissing();
if (skip) process.stdout.write(`# heat-maps-street-oracle skipped: ${skip}\n`);

/** the two-sided share needs enough cells that the oracle reaches to mean something, per city */
const MIN_CELLS_ORACLE_REACHES = 50;

const figures = new Map<string, TransitFigures>();

before(async () => {
  if (skip) return;
  for (const city of TRANSIT.cities) {
    const [maps, oracle] = await Promise.all([CityHeatMaps.open(city, THREADS), openWalkNetwork(city.osm).then((n) => StreetTransitOracle.open(city, n))]);
    try {
      figures.set(city.id, await transitCheck(maps, oracle, TRANSIT.test));
    } finally {
      await maps.close();
    }
  }
});

after(async () => {
  await closeWalkNetworks();
});

for (const city of TRANSIT.cities) {
  test(`${city.id}, walk + transit against the street oracle: the samples, and the figures`, { skip }, (t) => {
    const f = figures.get(city.id)!;
    for (const line of transitLines(f)) t.diagnostic(line);
    assert.equal(f.perCentre.length, TRANSIT.test.centres);
    assert.equal(f.agreement.cells, TRANSIT.test.centres * TRANSIT.test.reachedCellsPerMap);
    assert.ok(f.misses.cells >= MIN_CELLS_ORACLE_REACHES, `the oracle reaches ${f.misses.cells} of the grid cells sampled`);
  });

  test(`${city.id}, walk + transit: at least ${TRANSIT.minShareWithin * 100} % of our reached cells within ±${TRANSIT.toleranceSec} s of the oracle`, { skip }, () => {
    const a = figures.get(city.id)!.agreement;
    assert.ok(a.share >= TRANSIT.minShareWithin, `${a.within} / ${a.cells} = ${(a.share * 100).toFixed(1)} %; ours − oracle p10 ${a.p10} s, median ${a.p50} s, p90 ${a.p90} s`);
  });

  test(`${city.id}, walk + transit: the median of ours − oracle within ±${TRANSIT.maxAbsMedianSec} s`, { skip }, () => {
    const a = figures.get(city.id)!.agreement;
    assert.ok(Math.abs(a.p50) <= TRANSIT.maxAbsMedianSec, `median ${a.p50} s (p10 ${a.p10} s, p90 ${a.p90} s)`);
  });
}
