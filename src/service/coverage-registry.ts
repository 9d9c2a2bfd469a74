/**
 * The coverages a server answers for, each with its status and its current data generation.
 */
import { ringContains } from '../model/coverage-shape.js';
import type { CoverageConfig } from './coverage-config.js';
import type { LiveTarget } from './live-target.js';
import type { Generation } from './generation.js';
import type { DisruptionSource } from './disruption-source.js';
import type { RealtimeUpdater } from './realtime-updater.js';
import type { Scenarios } from './scenario-lookup.js';

export type CoverageStatus = 'loading_data' | 'running' | 'dead';

export class Coverage implements LiveTarget {
  status: CoverageStatus = 'loading_data';
  generation: Generation | undefined;
  /** Why the last load failed (status dead). */
  error: string | undefined;
  /** Its realtime sources, once they are polled. */
  realtime: RealtimeUpdater | undefined;
  /** Its disruptions file, once it is read. */
  disruptionSource: DisruptionSource | undefined;
  /** Its scenarios, once they are read. */
  scenarios: Scenarios | undefined;
  /** Called with each generation swapped in (after it is current): what is made ahead of the first request. */
  private readonly swapListeners: ((generation: Generation) => void)[] = [];

  constructor(readonly config: CoverageConfig) {}

  /** Call `listener` with every generation swapped in from now on (a listener must not throw). */
  onSwap(listener: (generation: Generation) => void): void {
    this.swapListeners.push(listener);
  }

  get id(): string {
    return this.config.id;
  }

  /**
   * Install a freshly loaded generation, the disruptions file's and the realtime sources' current
   * state applied on it first: requests never see the new data without them.
   */
  install(loaded: Generation): void {
    let generation = loaded;
    if (this.disruptionSource?.hasState) generation = this.disruptionSource.applyTo(generation);
    if (this.realtime?.hasState) generation = this.realtime.applyTo(generation);
    this.swap(generation.scenarios || !this.scenarios ? generation : { ...generation, scenarios: this.scenarios });
  }

  /** Swap in a generation; requests that started earlier keep the one they took. */
  swap(generation: Generation): void {
    this.generation = generation;
    this.status = 'running';
    this.error = undefined;
    for (const listener of this.swapListeners) listener(generation);
  }

  fail(error: string): void {
    this.error = error;
    if (!this.generation) this.status = 'dead';
  }
}

export class CoverageRegistry {
  private readonly byId = new Map<string, Coverage>();

  add(coverage: Coverage): void {
    if (this.byId.has(coverage.id)) throw new Error(`two coverages have the id ${coverage.id}`);
    this.byId.set(coverage.id, coverage);
  }

  get(id: string): Coverage | undefined {
    return this.byId.get(id);
  }

  /** All coverages, sorted by id. */
  list(): Coverage[] {
    return [...this.byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Ready once no coverage is still loading and one at least answers (what /readyz says, and what a
   * replica behind nginx waits for before it takes requests).
   */
  readiness(): 'ready' | 'loading' | 'dead' {
    const all = this.list();
    if (all.some((c) => c.status === 'loading_data')) return 'loading';
    return all.some((c) => c.status === 'running') ? 'ready' : 'dead';
  }

  /** The coverage whose shape strictly contains the point (the smallest id when several do). */
  resolve(lon: number, lat: number): Coverage | undefined {
    return this.list().find((c) => c.generation && ringContains(c.generation.shape, lon, lat));
  }
}
