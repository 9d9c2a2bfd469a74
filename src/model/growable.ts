/**
 * Append-only typed arrays for loaders: amortised doubling, then `finish()` returns an exact-size
 * copy. Used while the final size is unknown (rows of a CSV file).
 */
type TypedArrayCtor<T> = { new (length: number): T };
interface TypedArrayLike {
  length: number;
  [index: number]: number;
  set(array: ArrayLike<number>, offset?: number): void;
  slice(start?: number, end?: number): this;
  subarray(start?: number, end?: number): this;
}

export class Growable<T extends TypedArrayLike> {
  data: T;
  length = 0;

  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    initialCapacity = 1024,
  ) {
    this.data = new ctor(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  /** Make room for `capacity` elements in all. */
  grow(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new this.ctor(Math.max(capacity, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** Empty it and release its memory. */
  clear(): void {
    this.data = new this.ctor(0);
    this.length = 0;
  }

  /** An exact-size copy of the contents. */
  finish(): T {
    return this.data.slice(0, this.length);
  }
}

export const growInt32 = (n = 1024) => new Growable(Int32Array, n);
export const growUint32 = (n = 1024) => new Growable(Uint32Array, n);
export const growUint8 = (n = 1024) => new Growable(Uint8Array, n);
export const growFloat32 = (n = 1024) => new Growable(Float32Array, n);
export const growFloat64 = (n = 1024) => new Growable(Float64Array, n);

/** A copy of `a` in a new array of `n` elements (n >= a.length): scratch grown by its owner. */
export function grownInt32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
