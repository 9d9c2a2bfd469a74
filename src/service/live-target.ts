/**
 * What a live source (the realtime feeds of realtime-updater.ts, the disruptions file of
 * disruption-source.ts) asks of the coverage it updates: its id, its current generation, and a way
 * to swap in the next one. The coverage (coverage-registry.ts) implements it.
 */
import type { Generation } from './generation.js';

export interface LiveTarget {
  readonly id: string;
  readonly generation: Generation | undefined;
  /** Swap in a generation; requests that started earlier keep the one they took. */
  swap(generation: Generation): void;
}
