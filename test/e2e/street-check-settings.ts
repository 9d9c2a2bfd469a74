/**
 * Every setting of the pgRouting checks of issue 25 in one place: the cities, the requests, the
 * walking rules both checks follow, the sample sizes (npm test and the bench) and the targets.
 * Definitions: test/e2e/walking-vs-pgrouting.ts (walking-only maps against pgRouting) and
 * test/e2e/transit-vs-street-oracle.ts (walk + transit maps against a connection scan that walks
 * pgRouting's streets).
 */
import path from 'node:path';
import { LINK_RADIUS_M } from '../../src/model/street-graph.js';
import { DEFAULT_BOARD_SLACK_SEC } from '../../src/service/coverage-config.js';
import { TRANSFER_HORIZON_M } from '../../src/service/street-data.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { MAP_FALLBACKS } from '../../src/queries/journey-params.js';

export interface City {
  /** also the coverage id */
  id: string;
  gtfs: string[];
  osm: string;
  /** naive local datetime of every map */
  datetime: string;
  /** m/s, given to the API as `walking_speed` and used by the oracles */
  walkingSpeed: number;
}

export const PORTO_ALEGRE: City = {
  id: 'porto-alegre',
  gtfs: [path.join(SHARED_DATA, 'porto-alegre', 'gtfs-eptc.zip'), path.join(SHARED_DATA, 'porto-alegre', 'gtfs-trensurb.zip')],
  osm: path.join(SHARED_DATA, 'porto-alegre', 'osm.pbf'),
  // r5r's and the Ipea accessibility book's examples on this data (a Monday; the bus feed runs 11:00 to 17:00)
  datetime: '20190513T140000',
  walkingSpeed: 1.0,
};

export const RNV_MANNHEIM: City = {
  id: 'rnv-mannheim',
  gtfs: [path.join(SHARED_DATA, 'rnv-mannheim', 'gtfs.zip')],
  osm: path.join(SHARED_DATA, 'rnv-mannheim', 'osm.pbf'),
  datetime: '20161108T080000',
  walkingSpeed: MAP_FALLBACKS['walking_speed']!,
};

/** How the centres are drawn: seeded, at most one per stratum of the network's box, near a street. */
export const CENTRES = {
  /** strata per centre wanted (some hold no acceptable point: a lake, fields far from any stop) */
  strataPerCentre: 2,
  /** a centre lies at most this far from its nearest edge (else another draw) */
  nearStreetM: 25,
  /** draws per stratum before passing over it */
  drawsPerStratum: 500,
} as const;

/** 1. Walking-only maps (`direct_path=only`) on Porto Alegre against pgRouting. */
export const WALKING = {
  city: PORTO_ALEGRE,
  centres: 10,
  seed: 25_2019_05,
  maxDurationSec: 1800,
  resolution: 300,
  /** |ours − pgRouting| within this counts as agreeing */
  toleranceSec: 60,
  /** targets */
  minShareWithin: 0.95,
  maxShareMissed: 0.05,
  /** cells sampled over all the centres: our reached cells, disc cells (npm test; the bench) */
  test: { reachedCells: 2000, discCells: 2000 },
  bench: { reachedCells: 2000, discCells: 4000 },
} as const;

/**
 * The walking rules of both checks (issue 25's; the engine's constants where it exports them: the
 * checks hold it to them).
 */
export const RULES = {
  /** a point (centre, stop, cell centre) farther than this from every street is not linked: nobody walks to or from it */
  linkRadiusM: LINK_RADIUS_M,
  /** longest walk from the centre to a stop, and from a stop to a cell (the API's default max_duration_to_pt) */
  accessMaxSec: MAP_FALLBACKS['max_duration_to_pt']!,
  egressMaxSec: MAP_FALLBACKS['max_duration_to_pt']!,
  /** longest walk between two vehicles (offsets included) */
  transferMaxM: TRANSFER_HORIZON_M,
  /** a rider is at the stop this long before the vehicle leaves, at every boarding (60 s) */
  boardSlackSec: DEFAULT_BOARD_SLACK_SEC,
} as const;

/** 2. Walk + transit maps against the street oracle (street-transit-oracle.ts), on both cities. */
export const TRANSIT = {
  cities: [PORTO_ALEGRE, RNV_MANNHEIM],
  seed: 25_2016_11,
  maxDurationSec: 2700,
  resolution: 200,
  /** centres keep this far from the edge of the street network's box */
  insetM: 1000,
  /** … and lie this close to a stop, in a straight line */
  centreNearStopM: 500,
  /** |ours − oracle| within this counts as agreeing */
  toleranceSec: 120,
  /** targets: share within the tolerance, and |median of ours − oracle| */
  minShareWithin: 0.9,
  maxAbsMedianSec: 30,
  /** per city: centres, our reached cells and cells of the whole grid sampled per map */
  test: { centres: 3, reachedCellsPerMap: 150, gridCellsPerMap: 150 },
  bench: { centres: 10, reachedCellsPerMap: 300, gridCellsPerMap: 300 },
} as const;

/** Reports only: a cell centre farther than this from any street is counted apart among our nulls. */
export const FAR_FROM_STREET_M = 100;

/** Worker threads of the heat-map pool. */
export const THREADS = 2;
