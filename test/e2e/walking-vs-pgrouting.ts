/**
 * Walking-only heat maps against pgRouting (issue 25), on Porto Alegre. Shared by
 * test/e2e/heat-maps-walking-pgrouting.test.ts (npm test) and bench/heat-maps-streets.ts.
 *
 * WALKING.centres centres, drawn by `drawCentres` (seeded, spread over the network's box less the
 * walking radius on every side, within 25 m of a street). From each, our map through the API:
 * `from=<lon>;<lat>`, `direct_path=only`, WALKING.maxDurationSec, WALKING.resolution, the city's
 * datetime and `walking_speed`. Two samples per map, spread evenly over the centres:
 *
 *   - our reached cells: compared with pgRouting's walking time from the centre to the cell
 *     centre (both linked to their nearest edge, offsets walked; test/helpers/pgrouting-walk-network.ts;
 *     none beyond RULES.linkRadiusM, as street-transit-oracle.ts's `isLinked`) at the same speed,
 *     truncated to whole seconds like the API's values: the share within ±WALKING.toleranceSec, the
 *     percentiles of ours − pgRouting, the cells pgRouting cannot reach;
 *   - cells of the disc that a walker could reach in a straight line (radius max_duration × speed),
 *     reached or not: among those pgRouting reaches within max_duration − WALKING.toleranceSec (a
 *     cell at the limit may be null on ours by less than the tolerance), the share we leave null.
 */
import type { LonLat, PgRoutingWalkNetwork } from '../helpers/pgrouting-walk-network.js';
import { mulberry32 } from '../helpers/random.js';
import type { CityHeatMaps } from './city-heat-maps.js';
import { mapConcurrent } from './heat-map-fidelity.js';
import { agreement, agreementLines, misses, missesLines, type Agreement, type Misses, type Pair } from './street-check-figures.js';
import { centreParameter, drawCentres, sampleDisc, sampleReached, share, type Cell } from './street-check-sampling.js';
import { WALKING } from './street-check-settings.js';
import { isLinked } from './street-transit-oracle.js';

export interface WalkingSizes {
  /** our reached cells compared, over all centres */
  reachedCells: number;
  /** disc cells looked at, over all centres */
  discCells: number;
}

export interface WalkingFigures {
  centres: LonLat[];
  agreement: Agreement;
  misses: Misses;
  /** per centre: our reached cells in the map, and the figures of its samples */
  perCentre: { centre: LonLat; reachedInMap: number; agreement: Agreement; misses: Misses }[];
}

/** The walking radius: the farthest a walker gets in max_duration, in metres. */
export function walkingRadiusM(): number {
  return WALKING.maxDurationSec * WALKING.city.walkingSpeed;
}

/** pgRouting's walking time to each cell, truncated (null: no path, or an end not linked), and the cell's offset. */
async function pgRoutingSeconds(network: PgRoutingWalkNetwork, centre: LonLat, cells: Cell[]): Promise<{ seconds: number | null; offsetM: number }[]> {
  const [from, ...to] = await network.link([centre, ...cells]);
  const metres = await network.walkFrom(from!, to);
  return metres.map((m, k) => ({
    seconds: m === null || !isLinked(from!) || !isLinked(to[k]!) ? null : Math.floor(m / WALKING.city.walkingSpeed),
    offsetM: to[k]!.offsetM,
  }));
}

export async function walkingCheck(maps: CityHeatMaps, network: PgRoutingWalkNetwork, sizes: WalkingSizes, concurrency = 2): Promise<WalkingFigures> {
  const centres = await drawCentres(network, WALKING.centres, WALKING.seed, walkingRadiusM());
  const perCentre = await mapConcurrent(centres, concurrency, async (centre, k) => {
    const grid = await maps.heatMap({
      from: centreParameter(centre),
      direct_path: 'only',
      datetime: WALKING.city.datetime,
      max_duration: WALKING.maxDurationSec,
      resolution: WALKING.resolution,
      walking_speed: WALKING.city.walkingSpeed,
    });
    const random = mulberry32(WALKING.seed + 1 + k);
    const reached = sampleReached(grid, share(sizes.reachedCells, centres.length, k), random);
    const disc = sampleDisc(grid, centre, walkingRadiusM(), share(sizes.discCells, centres.length, k), random);
    const pg = await pgRoutingSeconds(network, centre, [...reached, ...disc]);
    const pairs = (cells: Cell[], offset: number): Pair[] => cells.map((c, n) => ({ ours: c.value, reference: pg[offset + n]!.seconds, offsetM: pg[offset + n]!.offsetM }));
    const reachedPairs = pairs(reached, 0);
    const discPairs = pairs(disc, reached.length);
    const reachedInMap = grid.values.reduce((a, col) => a + col.filter((v) => v !== null).length, 0);
    return { centre, reachedInMap, reachedPairs, discPairs };
  });
  const all = (f: (c: (typeof perCentre)[number]) => Pair[]) => perCentre.flatMap(f);
  return {
    centres,
    agreement: agreement(all((c) => c.reachedPairs), WALKING.toleranceSec, WALKING.maxDurationSec),
    misses: misses(all((c) => c.discPairs), WALKING.maxDurationSec, WALKING.toleranceSec),
    perCentre: perCentre.map((c) => ({
      centre: c.centre,
      reachedInMap: c.reachedInMap,
      agreement: agreement(c.reachedPairs, WALKING.toleranceSec, WALKING.maxDurationSec),
      misses: misses(c.discPairs, WALKING.maxDurationSec, WALKING.toleranceSec),
    })),
  };
}

export function walkingLines(f: WalkingFigures): string[] {
  const out = [
    `walking only, ${WALKING.city.id} ${WALKING.city.datetime}, ${f.centres.length} centres, max_duration ${WALKING.maxDurationSec} s, resolution ${WALKING.resolution}, walking_speed ${WALKING.city.walkingSpeed}`,
    ...agreementLines('ours against pgRouting', f.agreement, WALKING.toleranceSec, { minShareWithin: WALKING.minShareWithin }),
    ...missesLines('pgRouting against ours', f.misses, WALKING.toleranceSec, WALKING.maxShareMissed),
    'per centre (lon;lat: reached cells in the map; within ±tolerance; median; null where pgRouting reaches):',
  ];
  for (const c of f.perCentre) {
    out.push(`  ${centreParameter(c.centre)}: ${c.reachedInMap}; ${c.agreement.within}/${c.agreement.cells}; ${c.agreement.p50}; ${c.misses.oursNull}/${c.misses.cells}`);
  }
  return out;
}
