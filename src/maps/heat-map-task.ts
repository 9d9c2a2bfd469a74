/**
 * The heat-map task of the worker pool (`heat-map-pool.ts`), run on a worker thread: keeps one
 * engine (scratch arrays) per coverage, computes the map and makes its response there. The coverage
 * data arrives on shared memory with each task and is only read.
 */
import type { HeatMapData } from '../routing/heat-map.js';
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import type { HeatMapRender } from './heat-map-render.js';
import { computeMap } from './map-computation.js';

export interface HeatMapTask {
  coverageId: string;
  /** `StreetData.id` of `data` */
  dataId: number;
  data: HeatMapData;
  limits: EngineLimits;
  query: MapQuery;
  render: HeatMapRender;
}

let cache: EngineCache | undefined;

export default function computeHeatMap(task: HeatMapTask) {
  cache ??= new EngineCache(task.limits);
  return computeMap(cache, task.coverageId, task.dataId, task.data, task.query, task.render);
}
