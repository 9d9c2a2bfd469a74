/** Heat maps computed on the calling thread, and the per-thread cache of engines the workers share. */
import { renderHeatMap, type HeatMapRender, type RenderedHeatMap } from '../api/heat-map-render.js';
import { HeatMapEngine, type HeatMapData, type HeatMapQuery } from '../routing/heat-map.js';
import type { Generation } from './generation.js';
import type { HeatMapLimits, HeatMapRunner } from './heat-map-runner.js';

/** One engine (its scratch memory) per coverage, for the latest generation seen. */
export class EngineCache {
  private readonly engines = new Map<string, { generation: number; engine: HeatMapEngine }>();

  constructor(private readonly limits: HeatMapLimits) {}

  get(coverageId: string, generationNumber: number, data: HeatMapData): HeatMapEngine {
    const cached = this.engines.get(coverageId);
    if (cached && cached.generation === generationNumber) return cached.engine;
    const engine = new HeatMapEngine(data, this.limits.maxDurationSec, this.limits.maxResolution);
    this.engines.set(coverageId, { generation: generationNumber, engine });
    return engine;
  }
}

export class InProcessRunner implements HeatMapRunner {
  private readonly cache: EngineCache;

  constructor(limits: HeatMapLimits) {
    this.cache = new EngineCache(limits);
  }

  async run(coverageId: string, generation: Generation, query: HeatMapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const engine = this.cache.get(coverageId, generation.number, generation.streets!.data);
    return renderHeatMap(engine.compute(query), render);
  }

  async close(): Promise<void> {}
}
