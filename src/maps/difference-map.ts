/**
 * A difference map (docs/api.md, "Difference maps"): the map at its own freshness level minus the
 * same map at another level (`compare_data_freshness`), per cell and, with a departure window, per
 * percentile, in whole seconds. "What today's disruptions cost": realtime minus base schedule.
 *
 * Both maps are valued on one grid, the union of their two boxes, so that a place reached only at
 * the compared level (lost access) shows even where the map's own box does not reach. A single
 * departure asks the engine for each level's grid first (access and RAPTOR only), then values both
 * on the union. A window's grid needs every minute's RAPTOR, which is most of a windowed map's work,
 * so each level's window is computed on its own box and computed again on the union only when its
 * box is not already the union (at most four windowed computations, two when one box holds the other).
 *
 * A cell's value, T being max_duration (a map's values are whole seconds from 0 to T − 1, so a real
 * difference lies strictly between −T and T):
 *
 *   both unreached            DIFFERENCE_NULL (null in JSON, nodata in a GeoTIFF)
 *   both reached              own − compared
 *   lost access               +T (reached at the compared level only)
 *   gained access             −T (reached at the map's own level only)
 */
import type { FreshnessLevel } from '../ptref/freshness.js';
import type { HeatMapData, HeatMapQuery, HeatMapResult } from '../routing/heat-map.js';
import { asWindowMap, type Departures } from './departures.js';
import type { RaptorOverlay } from '../routing/raptor-overlay.js';
import { gridUnion, sameGrid, type Grid } from '../routing/grid.js';
import type { EngineCache } from '../service/engine-cache.js';

/** What a map is compared with: the other timetable (a freshness level or a scenario) and its runs. */
export interface Comparison {
  /** the map's own side and the compared one, as the answer quotes them */
  quoted: { data_freshness: FreshnessLevel; compare_data_freshness: FreshnessLevel } | { scenario: string; compare_scenario: string };
  /** the runs of the compared side (null: the base schedule) */
  overlay: RaptorOverlay | null;
}

/** A map's query, and the level it is compared with when it is a difference map. */
export type MapQuery = Omit<HeatMapQuery, 'window'> & { window: Departures | null; comparison?: Comparison | null };

/**
 * A difference map computes two maps in one task: the pool gives it twice the time budget of one
 * (times a window's scale; a window whose two boxes each stick out of the other's is computed four
 * times, the worst case, not the usual one).
 */
export const DIFFERENCE_BUDGET_SCALE = 2;

/** A cell unreached at both levels: the one value no difference takes (JSON null, GeoTIFF nodata). */
export const DIFFERENCE_NULL = -0x80000000;

/** How many cells of a difference map changed, and how. */
export interface DifferenceCounts {
  /** reached at the compared level only (the +max_duration marker) */
  lost: number;
  /** reached at the map's own level only (the −max_duration marker) */
  gained: number;
  /** reached at both, later at the map's own level */
  slower: number;
  /** reached at both, sooner at the map's own level */
  faster: number;
}

export interface DifferenceMap {
  /** with a departure window, the percentile both maps were taken at */
  percentile?: number;
  /** R × R cells (i * R + j): the difference, a marker, or DIFFERENCE_NULL */
  seconds: Int32Array;
  counts: DifferenceCounts;
}

export interface DifferenceResult {
  grid: Grid;
  comparison: Comparison;
  /** one per percentile of a window (in the order asked), else one */
  maps: DifferenceMap[];
  /** the map a one-band format draws (a window's `percentile`) */
  selected: number;
  /** the map's own level, for its warnings (nothing reached, stops off the streets) */
  own: Pick<HeatMapResult, 'reachedCells' | 'vehicleStops' | 'unlinkedStops'>;
}

/** A result's maps copied out of the engine's scratch memory (the next computation reuses it). */
interface Kept {
  grid: Grid;
  maps: { percentile?: number; seconds: Int32Array }[];
  stats: DifferenceResult['own'];
}

const kept = (r: HeatMapResult): Kept => ({
  grid: r.grid,
  maps: r.percentiles ? r.percentiles.map((m) => ({ percentile: m.percentile, seconds: Int32Array.from(m.seconds) })) : [{ seconds: Int32Array.from(r.seconds) }],
  stats: { reachedCells: r.reachedCells, vehicleStops: r.vehicleStops, unlinkedStops: r.unlinkedStops },
});

/** Both levels' maps of `query` on one grid, and their difference. */
export function computeDifference(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: Omit<MapQuery, 'comparison'>, comparison: Comparison): DifferenceResult {
  const compared = { ...query, overlay: comparison.overlay };
  let ownMap: Kept;
  let comparedMap: Kept;
  const window = query.window;
  if (window && !window.isSingle) {
    const engine = cache.window(coverageId, dataId, data);
    ownMap = kept(engine.compute(query, window));
    comparedMap = kept(engine.compute(compared, window));
    const grid = gridUnion(ownMap.grid, comparedMap.grid);
    if (!sameGrid(ownMap.grid, grid)) ownMap = kept(engine.compute(query, window, grid));
    if (!sameGrid(comparedMap.grid, grid)) comparedMap = kept(engine.compute(compared, window, grid));
  } else {
    const engine = cache.get(coverageId, dataId, data);
    const grid = gridUnion(engine.gridOf(query), engine.gridOf(compared));
    ownMap = kept(asWindowMap(engine.compute(query, grid), window));
    comparedMap = kept(asWindowMap(engine.compute(compared, grid), window));
  }
  const T = query.maxDurationSec;
  const maps = ownMap.maps.map((own, k) => ({
    ...(own.percentile === undefined ? {} : { percentile: own.percentile }),
    ...cellDifferences(own.seconds, comparedMap.maps[k]!.seconds, T),
  }));
  return { grid: ownMap.grid, comparison, maps, selected: window?.selected ?? 0, own: ownMap.stats };
}

/** Per cell, `own` − `compared` (whole seconds, -1 unreached) with the markers of lost and gained access, and the counts. */
function cellDifferences(own: Int32Array, compared: Int32Array, maxDurationSec: number): { seconds: Int32Array; counts: DifferenceCounts } {
  const seconds = new Int32Array(own.length);
  const counts: DifferenceCounts = { lost: 0, gained: 0, slower: 0, faster: 0 };
  for (let c = 0; c < own.length; c++) {
    const a = own[c]!;
    const b = compared[c]!;
    if (a < 0 && b < 0) seconds[c] = DIFFERENCE_NULL;
    else if (a < 0) {
      seconds[c] = maxDurationSec;
      counts.lost++;
    } else if (b < 0) {
      seconds[c] = -maxDurationSec;
      counts.gained++;
    } else {
      const d = a - b;
      seconds[c] = d;
      if (d > 0) counts.slower++;
      else if (d < 0) counts.faster++;
    }
  }
  return { seconds, counts };
}
