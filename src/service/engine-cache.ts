/**
 * One heat-map engine (its scratch memory) per coverage, for the latest street data seen:
 * generations that share their street data (each realtime update makes one) share the engine. Each
 * thread that computes heat maps keeps one cache.
 */
import { HeatMapEngine, type HeatMapData } from '../routing/heat-map.js';
import { WindowEngine } from '../routing/window-heat-map.js';
import { MAX_DEPARTURE_WINDOW_SEC, type EngineLimits } from './limits.js';

interface Entry {
  dataId: number;
  engine: HeatMapEngine;
  window?: WindowEngine;
}

export class EngineCache {
  private readonly engines = new Map<string, Entry>();

  constructor(private readonly limits: EngineLimits) {}

  get(coverageId: string, dataId: number, data: HeatMapData): HeatMapEngine {
    return this.entry(coverageId, dataId, data).engine;
  }

  /** The engine of departure windows over the same data (its scratch made on the first windowed map). */
  window(coverageId: string, dataId: number, data: HeatMapData): WindowEngine {
    const entry = this.entry(coverageId, dataId, data);
    entry.window ??= new WindowEngine(entry.engine, MAX_DEPARTURE_WINDOW_SEC);
    return entry.window;
  }

  private entry(coverageId: string, dataId: number, data: HeatMapData): Entry {
    const cached = this.engines.get(coverageId);
    if (cached && cached.dataId === dataId) return cached;
    const entry: Entry = { dataId, engine: new HeatMapEngine(data, this.limits.maxDurationSec, this.limits.maxResolution) };
    this.engines.set(coverageId, entry);
    return entry;
  }
}
