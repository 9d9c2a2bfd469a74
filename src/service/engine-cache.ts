/**
 * One heat-map engine (its scratch memory) per coverage, for the latest street data seen:
 * generations that share their street data (each realtime update makes one) share the engine. Each
 * thread that computes heat maps keeps one cache.
 */
import { HeatMapEngine, type HeatMapData } from '../routing/heat-map.js';
import type { EngineLimits } from './limits.js';

export class EngineCache {
  private readonly engines = new Map<string, { dataId: number; engine: HeatMapEngine }>();

  constructor(private readonly limits: EngineLimits) {}

  get(coverageId: string, dataId: number, data: HeatMapData): HeatMapEngine {
    const cached = this.engines.get(coverageId);
    if (cached && cached.dataId === dataId) return cached.engine;
    const engine = new HeatMapEngine(data, this.limits.maxDurationSec, this.limits.maxResolution);
    this.engines.set(coverageId, { dataId, engine });
    return engine;
  }
}
