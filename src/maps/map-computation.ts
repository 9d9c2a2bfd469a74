/**
 * One map computed and answered, on whichever thread runs it (a worker of the pool, or the caller's
 * in tests and tools): a single departure on the coverage's engine, a departure window on its
 * window engine, a difference map as two of them (difference-map.ts).
 */
import type { HeatMapData } from '../routing/heat-map.js';
import type { EngineCache } from '../service/engine-cache.js';
import { computeDifference, type MapQuery } from './difference-map.js';
import { renderDifference, renderHeatMap, type HeatMapRender, type RenderedHeatMap } from './heat-map-render.js';

export function computeMap(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: MapQuery, render: HeatMapRender): RenderedHeatMap {
  const { comparison, ...map } = query;
  if (comparison) return renderDifference(computeDifference(cache, coverageId, dataId, data, map, comparison), render);
  const result = map.window ? cache.window(coverageId, dataId, data).compute(map, map.window) : cache.get(coverageId, dataId, data).compute(map);
  return renderHeatMap(result, render);
}
