/**
 * One map computed and answered, on whichever thread runs it (a worker of the pool, or the caller's
 * in tests and tools): a single departure on the coverage's engine, a departure window on its
 * window engine.
 */
import type { HeatMapData, HeatMapQuery } from '../routing/heat-map.js';
import type { EngineCache } from '../service/engine-cache.js';
import { renderHeatMap, type HeatMapRender, type RenderedHeatMap } from './heat-map-render.js';

export function computeMap(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: HeatMapQuery, render: HeatMapRender): RenderedHeatMap {
  const result = query.window ? cache.window(coverageId, dataId, data).compute(query, query.window) : cache.get(coverageId, dataId, data).compute(query);
  return renderHeatMap(result, render);
}
