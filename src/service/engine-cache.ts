/**
 * One heat-map engine (its scratch memory, and the egress tables it keeps) per coverage, for the
 * latest street data seen: generations that share their street data (each realtime update makes one)
 * share the engine. Each thread that computes heat maps keeps one cache.
 *
 * Bounded in bytes (`engineCacheBytes`, Limits): after each computation (`settle`) the cache measures
 * what its engines hold and, past the bound, drops the engines of the coverages used longest ago, then
 * the egress tables of the engine just used, used longest ago first. The engine just used and its
 * latest table are kept whatever their size (the next origin of a matrix needs them), so a thread
 * holds at most the bound or one engine with one table, whichever is more.
 */
import { HeatMapEngine, type HeatMapData } from '../routing/heat-map.js';
import { WindowEngine } from '../routing/window-heat-map.js';
import { WorkCounts } from '../routing/work-counts.js';
import { reachable, typedArrayBytes } from '../util/typed-array-bytes.js';
import { DEFAULT_LIMITS, MAX_DEPARTURE_WINDOW_SEC, type EngineLimits } from './limits.js';

interface Entry {
  dataId: number;
  engine: HeatMapEngine;
  window?: WindowEngine;
  /** what the engine reads and does not own: the coverage's data (measured apart) */
  data: ReadonlySet<unknown>;
}

/** What a cache holds, bytes: the engines' scratch, and the egress tables they keep. */
export interface EngineCacheBytes {
  engines: number;
  egressTables: number;
}

export class EngineCache {
  /** per coverage, the one used longest ago first */
  private readonly engines = new Map<string, Entry>();
  private readonly maxBytes: number;

  constructor(private readonly limits: EngineLimits) {
    this.maxBytes = limits.engineCacheBytes ?? DEFAULT_LIMITS.engineCacheBytes;
  }

  get(coverageId: string, dataId: number, data: HeatMapData): HeatMapEngine {
    return this.entry(coverageId, dataId, data).engine;
  }

  /** The engine of departure windows over the same data (its scratch made on the first windowed map). */
  window(coverageId: string, dataId: number, data: HeatMapData): WindowEngine {
    const entry = this.entry(coverageId, dataId, data);
    entry.window ??= new WindowEngine(entry.engine, MAX_DEPARTURE_WINDOW_SEC);
    return entry.window;
  }

  /** The work its engines' searches did, summed (the floor bench's counts: bench/floor.ts). */
  work(): WorkCounts {
    const total = new WorkCounts();
    for (const { engine, window } of this.engines.values()) {
      total.add(engine.raptor.work);
      if (window) total.add(window.work);
    }
    return total;
  }

  /** The coverages whose engines the cache holds, the one used longest ago first. */
  get coverages(): string[] {
    return [...this.engines.keys()];
  }

  /** What the cache holds now, bytes. */
  bytes(): EngineCacheBytes {
    let engines = 0;
    let egressTables = 0;
    for (const entry of this.engines.values()) {
      egressTables += entry.engine.egressBytes;
      // the egress tables are on shared memory (one thread makes them for every thread of a
      // matrix), which the walk leaves out: counted apart, above
      engines += typedArrayBytes([entry.engine, entry.window], entry.data);
    }
    return { engines, egressTables };
  }

  /**
   * After a computation: back within the bound, dropping the engines used longest ago, then the
   * egress tables of the one used last (its latest kept); what is held then.
   */
  settle(): EngineCacheBytes {
    let held = this.bytes();
    for (const coverageId of this.coverages.slice(0, -1)) {
      if (held.engines + held.egressTables <= this.maxBytes) return held;
      this.engines.delete(coverageId);
      held = this.bytes();
    }
    if (held.engines + held.egressTables <= this.maxBytes) return held;
    const last = [...this.engines.values()].at(-1);
    last?.engine.trimEgressTables(Math.max(0, this.maxBytes - held.engines));
    return this.bytes();
  }

  private entry(coverageId: string, dataId: number, data: HeatMapData): Entry {
    const cached = this.engines.get(coverageId);
    // the latest used last: the map's order is the order of use
    this.engines.delete(coverageId);
    if (cached && cached.dataId === dataId) {
      this.engines.set(coverageId, cached);
      return cached;
    }
    const entry: Entry = { dataId, engine: new HeatMapEngine(data, this.limits.maxDurationSec, this.limits.maxResolution), data: reachable(data) };
    this.engines.set(coverageId, entry);
    return entry;
  }
}
