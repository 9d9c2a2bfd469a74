/** Maps and point answers computed on the calling thread (no queue: a turn's client and deadline do not apply). */
import type { MapQuery } from './difference-map.js';
import { type EngineLimits } from '../service/limits.js';
import { EngineCache } from '../service/engine-cache.js';
import type { Generation } from '../service/generation.js';
import type { HeatMapRender, RenderedHeatMap } from './heat-map-render.js';
import { computeGrid } from './map-computation.js';
import { computePoints, type PointsRequest, type PointsResult } from './points.js';
import type { CacheBytes, HeatMapRunner } from './heat-map-runner.js';

export class InProcessRunner implements HeatMapRunner {
  private readonly cache: EngineCache;
  private held: CacheBytes = { engines: 0, egress_tables: 0, time_zones: 0 };

  constructor(limits: EngineLimits) {
    this.cache = new EngineCache(limits);
  }

  async grid(coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
    const streets = generation.streets!;
    return this.settled(computeGrid(this.cache, coverageId, streets.id, streets.data, query, render));
  }

  async points(coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult> {
    const streets = generation.streets!;
    return this.settled(computePoints(this.cache, coverageId, streets.id, streets.data, query, request));
  }

  /** The work this thread's searches did (bench/floor.ts prints it). */
  work() {
    return this.cache.work();
  }

  cacheBytes(): CacheBytes {
    return this.held;
  }

  /** `result`, the cache brought back within its bound (this thread's time zones are the metrics' own). */
  private settled<T>(result: T): T {
    const { engines, egressTables } = this.cache.settle();
    this.held = { engines, egress_tables: egressTables, time_zones: 0 };
    return result;
  }

  async close(): Promise<void> {}
}
