/** Maps and point answers computed on the calling thread. */
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import { computeGrid } from './map-computation.js';
import { computePoints, type PointsRequest, type PointsResult } from './points.js';
import type { HeatMapRunner } from './heat-map-runner.js';

export class InProcessRunner implements HeatMapRunner {
  private readonly cache: EngineCache;

  constructor(limits: EngineLimits) {
    this.cache = new EngineCache(limits);
  }

  async grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    return computeGrid(this.cache, coverageId, streets.id, streets.data, query, render);
  }

  async points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult> {
    const streets = generation.streets!;
    return computePoints(this.cache, coverageId, streets.id, streets.data, query, request);
  }

  async close(): Promise<void> {}
}
