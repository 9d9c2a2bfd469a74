/**
 * Fidelity of the heat maps to the city (issue 15) on rnv-mannheim, in full: the journeys of a public
 * planner against our maps and the straight-line scan, holes, own cells. The definitions live in
 * test/e2e/heat-map-fidelity.ts, shared with npm test (which runs a sample):
 *
 *   npm run bench:heat-maps-fidelity                       every journey inside the feed, every stop
 *   npm run bench:heat-maps-fidelity -- --sample 100       100 journeys and 100 stops, evenly spread
 *
 * Options: --sample N (journeys and own-cell stops), --journeys N, --stops N, --holes N (maps, 20),
 * --threads N (worker threads, 2), --only journeys,holes,own-cell, --no-oracle. Exits 0 whatever the
 * figures.
 *
 * The journeys and the holes are also put to the street oracle (test/e2e/planner-vs-street-oracle.ts)
 * when PostgreSQL with pgRouting is installed (see .ci/run), unless --no-oracle.
 */
import { parseArgs } from 'node:util';
import { closeWalkNetworks, openWalkNetwork } from '../test/helpers/pgrouting-walk-network.js';
import { pgRoutingMissing } from '../test/helpers/pgrouting-tools.js';
import { RNV_MANNHEIM } from '../test/e2e/street-check-settings.js';
import { StreetTransitOracle } from '../test/e2e/street-transit-oracle.js';
import { holeOracleLines, holesWithOracle, journeysWithOracle, ownCellOracleLines, ownCellsWithOracle, plannerOracleLines, plannerOracleMetrics } from '../test/e2e/planner-vs-street-oracle.js';
import {
  evenSample,
  FidelityHarness,
  formatReport,
  holeMetrics,
  holeOrigins,
  HOLE_MAPS,
  journeyMetrics,
  journeysInsideFeed,
  mapConcurrent,
  ownCell,
  ownCellMetrics,
  readReferenceJourneys,
  compareJourney,
  type HoleMetrics,
  type JourneyMetrics,
  type OwnCellMetrics,
} from '../test/e2e/heat-map-fidelity.js';

const { values } = parseArgs({
  options: {
    sample: { type: 'string' },
    journeys: { type: 'string' },
    stops: { type: 'string' },
    holes: { type: 'string' },
    threads: { type: 'string' },
    only: { type: 'string' },
    'no-oracle': { type: 'boolean' },
  },
});
const count = (v: string | undefined) => (v === undefined ? Infinity : Number(v));
const journeyCount = count(values.journeys ?? values.sample);
const stopCount = count(values.stops ?? values.sample);
const holeMaps = values.holes === undefined ? HOLE_MAPS : Number(values.holes);
const threads = values.threads === undefined ? 2 : Number(values.threads);
const only = new Set((values.only ?? 'journeys,holes,own-cell').split(','));

const started = performance.now();
const oracleMissing = values['no-oracle'] ? 'not asked for' : pgRoutingMissing();
const [h, oracle] = await Promise.all([
  FidelityHarness.open(threads),
  oracleMissing ? null : openWalkNetwork(RNV_MANNHEIM.osm).then((n) => StreetTransitOracle.open(RNV_MANNHEIM, n)),
]);
console.log(`rnv-mannheim loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (${h.scan.stopCount} stops, ${threads} threads; street oracle: ${oracleMissing ?? 'loaded'})`);
const oracleReport: string[] = [];
const lap = (what: string, since: number) => console.log(`${what} in ${((performance.now() - since) / 1000).toFixed(1)} s`);

let journeys: JourneyMetrics | undefined;
let journeysTotal = 0;
let insideCount = 0;
let excluded: Record<string, number> | undefined;
if (only.has('journeys')) {
  const t = performance.now();
  const all = readReferenceJourneys(h.scan.timezone);
  journeysTotal = all.length;
  const split = journeysInsideFeed(all, h.scan);
  insideCount = split.inside.length;
  excluded = split.excluded;
  // by query date, so that the scan's service days stay cached
  const chosen = evenSample(split.inside, Math.min(journeyCount, split.inside.length)).sort((a, b) => a.queryTime.localeCompare(b.queryTime));
  const results = await mapConcurrent(chosen, threads, (j) => compareJourney(h, j));
  h.scan.clearDays();
  journeys = journeyMetrics(results);
  lap(`${results.length} journeys`, t);
  if (oracle) {
    const o = performance.now();
    oracleReport.push(...plannerOracleLines(plannerOracleMetrics(await journeysWithOracle(results, oracle, threads))));
    lap(`${results.length} journeys at the street oracle`, o);
  }
}
let holes: HoleMetrics | undefined;
if (only.has('holes')) {
  const t = performance.now();
  holes = await holeMetrics(h, holeOrigins(h.scan, holeMaps), threads);
  lap(`${holeMaps} hole maps`, t);
  if (oracle) {
    const o = performance.now();
    oracleReport.push(...holeOracleLines(await holesWithOracle(holes, oracle, threads)));
    lap(`${holes.inner} holes at the street oracle`, o);
  }
}
let own: OwnCellMetrics | undefined;
let ownStops = 0;
if (only.has('own-cell')) {
  const t = performance.now();
  const stops = evenSample(h.scan.stopIds, Math.min(stopCount, h.scan.stopCount));
  ownStops = stops.length;
  const ownCells = await mapConcurrent(stops, threads, (s) => ownCell(h, s));
  own = ownCellMetrics(ownCells);
  lap(`${stops.length} own-cell maps`, t);
  if (oracle) oracleReport.push(...ownCellOracleLines(await ownCellsWithOracle(ownCells, oracle)));
}
console.log('');
for (const line of formatReport({ journeysTotal, excluded, journeys, insideCount, journeysSampled: journeys?.count, holes, ownCell: own, ownCellStops: ownStops, legs: true })) console.log(line);
for (const line of oracleReport) console.log(line);
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
await h.close();
await closeWalkNetworks();
