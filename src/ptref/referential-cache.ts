/**
 * What a referential derives once and keeps (the places index, the trips by first departure): built
 * when its data loads, in slices beside the requests being answered (service/generation.ts), so
 * that no request pays for it; or, where nothing built it (a test, a tool), on first use, in one
 * piece. Cached per referential, so once per data generation: the realtime generations share their
 * referential, so share what it derives.
 */
import { inOnePiece, inSlices } from '../util/stepwise.js';
import type { Referential } from './referential.js';

export class ReferentialCache<T> {
  private readonly cache = new WeakMap<Referential, T>();

  /** `steps(ref)`: the build, yielding between its steps (util/stepwise.ts). */
  constructor(private readonly steps: (ref: Referential) => Generator<void, T>) {}

  /** The value of `ref`, built now in one piece if nothing built it before. */
  of(ref: Referential): T {
    let value = this.cache.get(ref);
    if (value === undefined) this.cache.set(ref, (value = inOnePiece(this.steps(ref))));
    return value;
  }

  /** Whether the value of `ref` is built. */
  has(ref: Referential): boolean {
    return this.cache.has(ref);
  }

  /** Builds the value of `ref` in slices, unless it is built already. */
  async prepare(ref: Referential): Promise<void> {
    if (this.cache.has(ref)) return;
    const value = await inSlices(this.steps(ref));
    // a request may have built it in one piece meanwhile: keep the one it has
    if (!this.cache.has(ref)) this.cache.set(ref, value);
  }
}
