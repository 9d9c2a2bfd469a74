/**
 * The grid task of the pool: one map computed and answered on whichever thread runs it (a worker of
 * the pool, or the caller's in tests and tools): a single departure on the coverage's engine, a
 * departure window on its window engine, a difference map as two of them (difference-map.ts), then
 * rendered and compressed there (heat-map-render.ts).
 */
import type { HeatMapData } from '../routing/heat-map.js';
import { computeDifference, type MapQuery } from './difference-map.js';
import type { EngineCache } from '../service/engine-cache.js';
import { renderDifference, renderHeatMap, type HeatMapRender, type RenderedHeatMap } from './heat-map-render.js';
import { asWindowMap } from './departures.js';

export function computeGrid(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, mapQuery: MapQuery, render: HeatMapRender): RenderedHeatMap {
  const { comparison, ...query } = mapQuery;
  if (comparison) return renderDifference(computeDifference(cache, coverageId, dataId, data, query, comparison), render);
  const window = query.window;
  const result = window && !window.isSingle ? cache.window(coverageId, dataId, data).compute(query, window) : asWindowMap(cache.get(coverageId, dataId, data).compute(query), window);
  return renderHeatMap(result, render);
}
