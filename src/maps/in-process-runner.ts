/** Heat maps computed on the calling thread. */
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import { computeMap } from './map-computation.js';
import type { HeatMapRunner } from './heat-map-runner.js';

export class InProcessRunner implements HeatMapRunner {
  private readonly cache: EngineCache;

  constructor(limits: EngineLimits) {
    this.cache = new EngineCache(limits);
  }

  async run(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    return computeMap(this.cache, coverageId, streets.id, streets.data, query, render);
  }

  async close(): Promise<void> {}
}
