/**
 * Walk + transit heat maps against the street oracle (issue 25), on Porto Alegre and rnv-mannheim.
 * Shared by test/e2e/heat-maps-street-oracle.test.ts (npm test, a sample) and
 * bench/heat-maps-streets.ts (more centres and cells).
 *
 * Per city, `centres` centres drawn by `drawCentres` (seeded per city, spread over the street
 * network's box less TRANSIT.insetM, within 25 m of a street and TRANSIT.centreNearStopM of a stop
 * in a straight line: places a walker can leave by public transport). From each, our map through the API
 * (`from=<lon>;<lat>`, the city's datetime and walking speed, TRANSIT.maxDurationSec,
 * TRANSIT.resolution, default modes: walking to and from public transport), and the oracle's value
 * (street-transit-oracle.ts, horizon max_duration + tolerance, so that a cell just beyond
 * max_duration on one side still compares) at two samples of its cells:
 *
 *   - our reached cells (`reachedCellsPerMap`): the share within ±TRANSIT.toleranceSec of the
 *     oracle, and the percentiles of ours − oracle (an oracle null as −∞);
 *   - cells of the whole grid (`gridCellsPerMap`), reached or not: among those the oracle reaches
 *     within max_duration − TRANSIT.toleranceSec, the share we leave null.
 */
import type { LonLat } from '../helpers/pgrouting-walk-network.js';
import { mulberry32 } from '../helpers/random.js';
import type { CityHeatMaps } from './city-heat-maps.js';
import { mapConcurrent } from './heat-map-fidelity.js';
import { agreement, agreementLines, misses, missesLines, type Agreement, type Misses, type Pair } from './street-check-figures.js';
import { centreParameter, drawCentres, sampleGrid, sampleReached } from './street-check-sampling.js';
import { TRANSIT, type City } from './street-check-settings.js';
import { haversineM } from './straight-line-scan.js';
import type { StreetTransitOracle } from './street-transit-oracle.js';

export interface TransitSizes {
  centres: number;
  reachedCellsPerMap: number;
  gridCellsPerMap: number;
}

export interface CentreFigures {
  centre: LonLat;
  reachedInMap: number;
  stopsWalkedTo: number;
  stopsRidden: number;
  agreement: Agreement;
  misses: Misses;
}

export interface TransitFigures {
  city: City;
  agreement: Agreement;
  misses: Misses;
  perCentre: CentreFigures[];
}

/** The oracle looks this far: max_duration and the tolerance. */
export function oracleHorizonSec(): number {
  return TRANSIT.maxDurationSec + TRANSIT.toleranceSec;
}

export async function transitCheck(maps: CityHeatMaps, oracle: StreetTransitOracle, sizes: TransitSizes, concurrency = 2): Promise<TransitFigures> {
  const city = maps.city;
  const seed = TRANSIT.seed + TRANSIT.cities.findIndex((c) => c.id === city.id);
  const stops = oracle.timetable.stops;
  const nearStop = (p: LonLat) => stops.some((s) => haversineM(p.lon, p.lat, s.lon, s.lat) <= TRANSIT.centreNearStopM);
  const centres = await drawCentres(oracle.network, sizes.centres, seed, TRANSIT.insetM, nearStop);
  const results = await mapConcurrent(centres, concurrency, async (centre, k) => {
    const grid = await maps.heatMap({
      from: centreParameter(centre),
      datetime: city.datetime,
      max_duration: TRANSIT.maxDurationSec,
      resolution: TRANSIT.resolution,
      walking_speed: city.walkingSpeed,
    });
    const random = mulberry32(seed * 100 + k);
    const reached = sampleReached(grid, sizes.reachedCellsPerMap, random);
    const whole = sampleGrid(grid, sizes.gridCellsPerMap, random);
    const answer = await oracle.values(centre, [...reached, ...whole], oracleHorizonSec(), { cells: true });
    const pair = (ours: number | null, n: number): Pair => ({ ours, reference: answer.values[n]!, offsetM: answer.offsetsM[n]! });
    const reachedPairs = reached.map((c, n) => pair(c.value, n));
    const gridPairs = whole.map((c, n) => pair(c.value, reached.length + n));
    const reachedInMap = grid.values.reduce((a, col) => a + col.filter((v) => v !== null).length, 0);
    return { centre, reachedInMap, answer, reachedPairs, gridPairs };
  });
  const perCentre = results.map((r) => ({
    centre: r.centre,
    reachedInMap: r.reachedInMap,
    stopsWalkedTo: r.answer.stopsWalkedTo,
    stopsRidden: r.answer.stopsRidden,
    agreement: agreement(r.reachedPairs, TRANSIT.toleranceSec, TRANSIT.maxDurationSec),
    misses: misses(r.gridPairs, TRANSIT.maxDurationSec, TRANSIT.toleranceSec),
  }));
  return {
    city,
    agreement: agreement(results.flatMap((r) => r.reachedPairs), TRANSIT.toleranceSec, TRANSIT.maxDurationSec),
    misses: misses(results.flatMap((r) => r.gridPairs), TRANSIT.maxDurationSec, TRANSIT.toleranceSec),
    perCentre,
  };
}

export function transitLines(f: TransitFigures): string[] {
  const out = [
    `walk + transit, ${f.city.id} ${f.city.datetime}, ${f.perCentre.length} centres, max_duration ${TRANSIT.maxDurationSec} s, resolution ${TRANSIT.resolution}, walking_speed ${f.city.walkingSpeed}`,
    ...agreementLines('ours against the street oracle', f.agreement, TRANSIT.toleranceSec, { minShareWithin: TRANSIT.minShareWithin, maxAbsMedianSec: TRANSIT.maxAbsMedianSec }),
    ...missesLines('the street oracle against ours', f.misses, TRANSIT.toleranceSec),
    'per centre (lon;lat: reached cells in the map; stops walked to, ridden to; within ±tolerance; median; null where the oracle reaches):',
  ];
  for (const c of f.perCentre) {
    out.push(`  ${centreParameter(c.centre)}: ${c.reachedInMap}; ${c.stopsWalkedTo}, ${c.stopsRidden}; ${c.agreement.within}/${c.agreement.cells}; ${c.agreement.p50}; ${c.misses.oursNull}/${c.misses.cells}`);
  }
  return out;
}
