/**
 * The tasks of the worker pool (`heat-map-pool.ts`), run on a worker thread, which keeps one engine
 * (scratch arrays) per coverage: a grid task computes a map and makes its response there
 * (map-computation.ts); a points task computes travel times to point sets and answers typed arrays
 * (points.ts). The coverage data arrives on shared memory with each task and is only read.
 */
import type { HeatMapData } from '../routing/heat-map.js';
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import type { HeatMapRender } from './heat-map-render.js';
import { computeGrid } from './map-computation.js';
import { computePoints, type PointsRequest } from './points.js';

interface TaskBase {
  coverageId: string;
  /** `StreetData.id` of `data` */
  dataId: number;
  data: HeatMapData;
  limits: EngineLimits;
  query: MapQuery;
}

export type HeatMapTask = (TaskBase & { kind: 'grid'; render: HeatMapRender }) | (TaskBase & { kind: 'points'; request: PointsRequest });

let cache: EngineCache | undefined;

export default function computeHeatMap(task: HeatMapTask) {
  cache ??= new EngineCache(task.limits);
  if (task.kind === 'grid') return computeGrid(cache, task.coverageId, task.dataId, task.data, task.query, task.render);
  return computePoints(cache, task.coverageId, task.dataId, task.data, task.query, task.request);
}
