/**
 * Typed arrays on SharedArrayBuffers: the compiled data of a generation lives in them so that every
 * worker thread sees the same memory (posting such an array to a worker shares it, never copies it).
 */
type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

interface TypedArrayCtor<T extends TypedArray> {
  new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** A zero-filled typed array of `length` elements on a fresh SharedArrayBuffer. */
export function sharedArray<T extends TypedArray>(ctor: TypedArrayCtor<T>, length: number): T {
  return new ctor(new SharedArrayBuffer(Math.max(1, length) * ctor.BYTES_PER_ELEMENT), 0, length);
}

/** A copy of `source` on a SharedArrayBuffer. */
export function sharedCopy<T extends TypedArray>(ctor: TypedArrayCtor<T>, source: ArrayLike<number>): T {
  const out = sharedArray(ctor, source.length);
  (out as unknown as { set(a: ArrayLike<number>): void }).set(source);
  return out;
}
