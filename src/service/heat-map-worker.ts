/**
 * Worker-thread side of the heat-map pool: keeps one engine (scratch arrays) per coverage and
 * computes the tasks it is given. The coverage data arrives on shared memory with each task and is
 * only read.
 */
import { renderHeatMap, type HeatMapRender } from '../api/heat-map-render.js';
import type { HeatMapData, HeatMapQuery } from '../routing/heat-map.js';
import type { HeatMapLimits } from './heat-map-runner.js';
import { EngineCache } from './in-process-runner.js';

export interface HeatMapTask {
  coverageId: string;
  /** `StreetData.id` of `data` */
  dataId: number;
  data: HeatMapData;
  limits: HeatMapLimits;
  query: HeatMapQuery;
  render: HeatMapRender;
}

let cache: EngineCache | undefined;

export default function computeHeatMap(task: HeatMapTask) {
  cache ??= new EngineCache(task.limits);
  const engine = cache.get(task.coverageId, task.dataId, task.data);
  return renderHeatMap(engine.compute(task.query), task.render);
}
