/**
 * Heat maps against an independent street router (issue 25), in full: walking-only maps on Porto
 * Alegre against pgRouting, and walk + transit maps on Porto Alegre and rnv-mannheim against the
 * street oracle (a connection scan walking pgRouting's streets). The definitions live in
 * test/e2e/walking-vs-pgrouting.ts and test/e2e/transit-vs-street-oracle.ts, shared with npm test
 * (which runs smaller samples); the sizes here are WALKING.bench and TRANSIT.bench.
 *
 *   npm run bench:heat-maps-streets
 *   npm run bench:heat-maps-streets -- --only walking,porto-alegre,rnv-mannheim --threads 2
 *
 * Needs PostgreSQL 15 with PostGIS and pgRouting, osm2pgrouting and osmium (Debian packages, see
 * .ci/run). Prints the figures; exits 0 whatever they are.
 */
import { parseArgs } from 'node:util';
import { closeWalkNetworks, openWalkNetwork } from '../test/helpers/pgrouting-walk-network.js';
import { pgRoutingMissing } from '../test/helpers/pgrouting-tools.js';
import { CityHeatMaps } from '../test/e2e/city-heat-maps.js';
import { THREADS, TRANSIT, WALKING } from '../test/e2e/street-check-settings.js';
import { StreetTransitOracle } from '../test/e2e/street-transit-oracle.js';
import { transitCheck, transitLines } from '../test/e2e/transit-vs-street-oracle.js';
import { walkingCheck, walkingLines } from '../test/e2e/walking-vs-pgrouting.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, threads: { type: 'string' } } });
const only = new Set((values.only ?? ['walking', ...TRANSIT.cities.map((c) => c.id)].join(',')).split(','));
const threads = values.threads === undefined ? THREADS : Number(values.threads);

const missing = pgRoutingMissing();
if (missing) {
  console.error(`cannot run: ${missing}`);
  process.exit(1);
}

const started = performance.now();
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const report: string[] = [];
try {
  if (only.has('walking')) {
    const t = performance.now();
    const [maps, network] = await Promise.all([CityHeatMaps.open(WALKING.city, threads), openWalkNetwork(WALKING.city.osm)]);
    console.log(`${WALKING.city.id}: coverage and pgRouting network loaded in ${since(t)} (${network.edgeCount} edges, ${network.mapsWalkways ? 'walkways mapped: foot=no roads closed' : 'no walkway mapped: foot=no roads open'})`);
    try {
      const c = performance.now();
      report.push(...walkingLines(await walkingCheck(maps, network, WALKING.bench, threads)), '');
      console.log(`walking only: ${WALKING.centres} maps compared in ${since(c)}`);
    } finally {
      await maps.close();
    }
  }
  for (const city of TRANSIT.cities) {
    if (!only.has(city.id)) continue;
    const t = performance.now();
    const [maps, oracle] = await Promise.all([CityHeatMaps.open(city, threads), openWalkNetwork(city.osm).then((n) => StreetTransitOracle.open(city, n))]);
    const tt = oracle.timetable;
    const walkways = oracle.network.mapsWalkways ? 'walkways mapped: foot=no roads closed' : 'no walkway mapped: foot=no roads open';
    console.log(`${city.id}: coverage, pgRouting network and oracle loaded in ${since(t)} (${oracle.network.edgeCount} edges, ${walkways}, ${tt.stops.length} stops, ${oracle.transferCount} transfer walks, ${tt.interpolated} stop times interpolated)`);
    try {
      const c = performance.now();
      report.push(...transitLines(await transitCheck(maps, oracle, TRANSIT.bench, threads)), '');
      console.log(`${city.id}: ${TRANSIT.bench.centres} maps compared in ${since(c)}`);
    } finally {
      await maps.close();
    }
  }
} finally {
  await closeWalkNetworks();
}
console.log('');
for (const line of report) console.log(line);
console.log(`total ${since(started)}`);
