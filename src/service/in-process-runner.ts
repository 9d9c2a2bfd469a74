/** Heat maps computed on the calling thread, and the per-thread cache of engines the workers share. */
import { renderHeatMap, type HeatMapRender, type RenderedHeatMap } from '../api/heat-map-render.js';
import { HeatMapEngine, type HeatMapData, type HeatMapQuery } from '../routing/heat-map.js';
import type { Generation } from './generation.js';
import type { HeatMapLimits, HeatMapRunner } from './heat-map-runner.js';

/**
 * One engine (its scratch memory) per coverage, for the latest street data seen: generations that
 * share their street data (each realtime update makes one) share the engine.
 */
export class EngineCache {
  private readonly engines = new Map<string, { dataId: number; engine: HeatMapEngine }>();

  constructor(private readonly limits: HeatMapLimits) {}

  get(coverageId: string, dataId: number, data: HeatMapData): HeatMapEngine {
    const cached = this.engines.get(coverageId);
    if (cached && cached.dataId === dataId) return cached.engine;
    const engine = new HeatMapEngine(data, this.limits.maxDurationSec, this.limits.maxResolution);
    this.engines.set(coverageId, { dataId, engine });
    return engine;
  }
}

export class InProcessRunner implements HeatMapRunner {
  private readonly cache: EngineCache;

  constructor(limits: HeatMapLimits) {
    this.cache = new EngineCache(limits);
  }

  async run(coverageId: string, generation: Generation, query: HeatMapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    const engine = this.cache.get(coverageId, streets.id, streets.data);
    return renderHeatMap(engine.compute(query), render);
  }

  async close(): Promise<void> {}
}
