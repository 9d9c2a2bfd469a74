/**
 * What one request may ask of the server: the configuration's `maxCount` and `heatMaps.maxDurationSec`
 * / `heatMaps.maxResolution`, with Navitia's values as defaults. The parameter tables cap or refuse
 * against them, and heat-map engines size their scratch memory by them.
 */
export interface Limits {
  /** The longest a request of many origins (a matrix, regional accessibility) may take in all, seconds. */
  requestDeadlineSec: number;
  /**
   * The longest a heat map or an isochrone may take in all, its wait in the pool's queue and its run,
   * seconds, times its budget's scale (a window's minutes, a difference map: maps/heat-map-pool.ts).
   */
  mapDeadlineSec: number;
  /** The same for an accessibility from one place (times the point sets it values, as its budget). */
  accessibilityDeadlineSec: number;
  /**
   * The bytes a worker thread keeps in its engine cache (service/engine-cache.ts): the engines'
   * scratch, per coverage, and the egress tables they keep. Past it the coverages' engines used
   * longest ago are dropped, then the egress tables used longest ago.
   */
  engineCacheBytes: number;
  /** Largest `count`; larger values are lowered to it (Navitia: 1000). */
  maxCount: number;
  /** Largest heat-map `resolution`; larger values are lowered to it (Navitia: 1000). */
  maxResolution: number;
  /** Largest heat-map `max_duration`, seconds; larger values are refused. */
  maxDurationSec: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxCount: 1000,
  maxResolution: 1000,
  maxDurationSec: 86400,
  requestDeadlineSec: 60,
  // a map's budget (10 s) and as long again, twice, for its turn in the queue
  mapDeadlineSec: 30,
  accessibilityDeadlineSec: 30,
  engineCacheBytes: 256 * 2 ** 20,
};

/**
 * Longest departure window of a heat map or isochrone (`departure_window`), seconds: three hours,
 * 180 departures (docs/api.md, "Departure windows").
 */
export const MAX_DEPARTURE_WINDOW_SEC = 10_800;

/** The largest map a heat-map engine is sized for, and the bytes a thread's engines keep (default: DEFAULT_LIMITS's). */
export type EngineLimits = Pick<Limits, 'maxDurationSec' | 'maxResolution'> & Partial<Pick<Limits, 'engineCacheBytes'>>;

/** Most `cutoffs[]` of an accessibility request (R5's regional analyses take 12). */
export const MAX_CUTOFFS = 12;
/** Most `nearest[]` of an accessibility request. */
export const MAX_NEAREST = 5;

/**
 * Most origins × destinations of one `travel_time_matrix` request, and most origins (each one is a
 * search): a few seconds of work at most. Larger matrices are `navette matrix`'s.
 */
export const MAX_MATRIX_PAIRS = 250_000;
export const MAX_MATRIX_ORIGINS = 200;

/**
 * Regional accessibility through the API (`accessibility?origins=SET`): most searches of one
 * request, origins × departures of the window (each is one search; a window's minutes share some
 * work, so this overcounts them a little). Measured on Porto Alegre's 1,227 hexagons, walk and
 * transit, 2019-05-13 14:00, 30-minute cutoff, on this 2-core machine (shared, load 3 to 6): one
 * departure 2.1 to 2.9 s, a 2-minute window (2,454 searches) 5.8 s, a 10-minute one (12,270) 10.8 s.
 * So 2,500: Porto Alegre with one or two departures, or 2,000 origins with one, in a few seconds.
 * The bound does not weigh how far the searches go: a 60-minute cutoff took 7.5 s at one departure.
 * Larger runs are `navette accessibility`'s (docs/api.md, "Regional accessibility").
 */
export const MAX_ACCESSIBILITY_SEARCHES = 2500;

/** Most isochrone `boundary_duration[]` (Navitia's limit). */
export const MAX_BOUNDARIES = 10;
/** Most `percentiles[]` of a departure window. */
export const MAX_PERCENTILES = 5;

/** The cutoff of an accessibility request that gives none: half an hour, the field's usual measure. */
export const DEFAULT_CUTOFF_SEC = 1800;
/** The matrix's journeys unless `max_duration` says otherwise: longer ones are null. */
export const MATRIX_MAX_DURATION_SEC = 3600;

/**
 * Origins computed at once per API request (travel_time_matrix, accessibility?origins=): the pool's
 * threads stay busy, its queue stays open to other requests. An origin's task may wait behind the
 * others of its request: its time budget counts them (maps/heat-map-pool.ts).
 */
export const ORIGINS_IN_FLIGHT = 4;
/** Origins in flight per worker thread for the commands: each thread has its next origin waiting. */
export const COMMAND_ORIGINS_PER_THREAD = 2;
/** Most `--threads` of a command per core of the machine: each holds an engine's scratch memory. */
export const COMMAND_THREADS_PER_CORE = 4;

/** `navette accessibility --grid METRES`: the cell sizes it takes, metres. */
export const GRID_CELL_MIN_M = 10;
export const GRID_CELL_MAX_M = 10_000;
