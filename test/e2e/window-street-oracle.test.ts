/**
 * Departure windows (issue 27) against the street oracle (street-transit-oracle.ts: a connection
 * scan whose walks are pgRouting's, not our street code), on Porto Alegre through the API and the
 * worker pool: for a few centres, a window of ten departures, the p10, p50 and p90 maps; at cells we
 * reach on the median map, the oracle's value for each of the ten minutes, reduced by R5's rule
 * (sorted, unreached last, index ceil(p / 100 × n) − 1; over max_duration: null). Ours against that,
 * both ways: at cells we reach, the share within ±120 s, the median and the spread of ours − oracle;
 * at cells of the whole grid, those the oracle reaches at the median minute that we leave null.
 *
 * Needs PostgreSQL with PostGIS and pgRouting (test/helpers/pgrouting-tools.ts): skipped without
 * them, a failure under CI=true.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeWalkNetworks, openWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import { pgRoutingMissing } from '../helpers/pgrouting-tools.js';
import { mulberry32 } from '../helpers/random.js';
import { CityHeatMaps } from './city-heat-maps.js';
import { agreement, agreementLines, misses, missesLines, type Agreement, type Misses, type Pair } from './street-check-figures.js';
import { centreParameter, drawCentres, sampleGrid, sampleReached } from './street-check-sampling.js';
import { THREADS, TRANSIT } from './street-check-settings.js';
import { instantOf, StreetTransitOracle, type OracleAnswer } from './street-transit-oracle.js';
import { haversineM } from './straight-line-scan.js';
import { oracleHorizonSec } from './transit-vs-street-oracle.js';

const skip = pgRoutingMissing();
if (skip) process.stdout.write(`# window-street-oracle skipped: ${skip}\n`);

const CITY = TRANSIT.cities[0];
/** the other side's bound: the share of cells the oracle reaches that we leave null (as the single maps' check) */
const MAX_MISSED = 0.05;
const WINDOW = { centres: 2, minutes: 10, percentiles: [10, 50, 90], cellsPerMap: 100, seed: 27_2019_05 };

const figures = new Map<number, Agreement>();
/** the other side: cells of the whole grid that the oracle reaches at the median minute, left null on our median map */
let medianMisses: Misses;

before(async () => {
  if (skip) return;
  const [maps, oracle] = await Promise.all([CityHeatMaps.open(CITY, THREADS), openWalkNetwork(CITY.osm).then((n) => StreetTransitOracle.open(CITY, n))]);
  try {
    const stops = oracle.timetable.stops;
    const nearStop = (p: { lon: number; lat: number }) => stops.some((s) => haversineM(p.lon, p.lat, s.lon, s.lat) <= TRANSIT.centreNearStopM);
    const centres = await drawCentres(oracle.network, WINDOW.centres, WINDOW.seed, TRANSIT.insetM, nearStop);
    const t0 = instantOf(CITY.datetime, oracle.timetable.timezone);
    const pairs = new Map<number, Pair[]>(WINDOW.percentiles.map((p) => [p, []]));
    const gridPairs: Pair[] = [];
    for (const [k, centre] of centres.entries()) {
      const query = (p: number) => ({
        from: centreParameter(centre),
        datetime: CITY.datetime,
        max_duration: TRANSIT.maxDurationSec,
        resolution: TRANSIT.resolution,
        walking_speed: CITY.walkingSpeed,
        departure_window: WINDOW.minutes * 60,
        'percentiles[]': p,
      });
      // one grid for the window, whatever the percentile asked
      const grids = await Promise.all(WINDOW.percentiles.map((p) => maps.heatMap(query(p))));
      const random = mulberry32(WINDOW.seed + k);
      const reached = sampleReached(grids[1]!, WINDOW.cellsPerMap, random);
      const whole = sampleGrid(grids[1]!, WINDOW.cellsPerMap, random);
      const cells = [...reached, ...whole];
      const minutes: OracleAnswer[] = [];
      for (let m = 0; m < WINDOW.minutes; m++) minutes.push(await oracle.values(centre, cells, oracleHorizonSec(), { t0: t0 + 60 * m, cells: true }));
      const referenceAt = (n: number, p: number) => {
        const sorted = minutes.map((a) => a.values[n] ?? Infinity).sort((a, b) => a - b);
        const v = sorted[Math.ceil((p / 100) * WINDOW.minutes) - 1]!;
        return v === Infinity || v > TRANSIT.maxDurationSec ? null : v;
      };
      whole.forEach((cell, w) => {
        const n = reached.length + w;
        gridPairs.push({ ours: grids[1]!.values[cell.i]![cell.j]!, reference: referenceAt(n, 50), offsetM: minutes[0]!.offsetsM[n]! });
      });
      reached.forEach((cell, n) => {
        WINDOW.percentiles.forEach((p, q) => {
          pairs.get(p)!.push({ ours: grids[q]!.values[cell.i]![cell.j]!, reference: referenceAt(n, p), offsetM: minutes[0]!.offsetsM[n]! });
        });
      });
    }
    for (const [p, list] of pairs) figures.set(p, agreement(list, TRANSIT.toleranceSec, TRANSIT.maxDurationSec));
    medianMisses = misses(gridPairs, TRANSIT.maxDurationSec, TRANSIT.toleranceSec);
  } finally {
    await maps.close();
  }
});

after(async () => {
  await closeWalkNetworks();
});

for (const p of WINDOW.percentiles) {
  test(`${CITY.id}, a window of ${WINDOW.minutes} departures, p${p}: at least ${TRANSIT.minShareWithin * 100} % of our cells within ±${TRANSIT.toleranceSec} s of the oracle's, the median within ±${TRANSIT.maxAbsMedianSec} s`, { skip }, (t) => {
    const a = figures.get(p)!;
    for (const line of agreementLines(`p${p}, ours against the street oracle`, a, TRANSIT.toleranceSec, { minShareWithin: TRANSIT.minShareWithin, maxAbsMedianSec: TRANSIT.maxAbsMedianSec })) t.diagnostic(line);
    assert.ok(a.cells >= WINDOW.centres * WINDOW.cellsPerMap * 0.8, `${a.cells} cells compared`);
    assert.ok(a.share >= TRANSIT.minShareWithin, `${a.within} / ${a.cells}; ours − oracle p10 ${a.p10} s, median ${a.p50} s, p90 ${a.p90} s`);
    assert.ok(Math.abs(a.p50) <= TRANSIT.maxAbsMedianSec, `median ${a.p50} s`);
  });
}

test(`${CITY.id}, a window of ${WINDOW.minutes} departures, the other side: at most ${MAX_MISSED * 100} % of the cells the oracle reaches at the median minute are null on our median map`, { skip }, (t) => {
  for (const line of missesLines('p50, the street oracle against ours', medianMisses, TRANSIT.toleranceSec, MAX_MISSED)) t.diagnostic(line);
  assert.ok(medianMisses.cells >= 30, `the oracle reaches ${medianMisses.cells} of the grid cells sampled`);
  assert.ok(medianMisses.share <= MAX_MISSED, `${medianMisses.oursNull} / ${medianMisses.cells}`);
});
