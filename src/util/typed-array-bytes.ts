/**
 * The bytes of the typed arrays an object holds, however deep (through its fields, arrays, maps and
 * sets), each buffer counted once: what a cache of scratch arrays and tables retains, measured rather
 * than estimated by each class that holds some. What `exclude` holds is not counted nor walked (a
 * cache's engines read the coverage's data, which is the data's own memory, not the cache's: see
 * `reachable`), nor is shared memory unless `countShared` (the data a worker thread is handed: a
 * thread's own scratch is never shared, and the views on shared memory are new objects at each
 * task). Numbers, strings and small objects are left out: next to the arrays they are noise.
 */
export function typedArrayBytes(root: unknown, exclude?: ReadonlySet<unknown>, countShared = false): number {
  let bytes = 0;
  walk(root, new Set(), exclude, (buffer) => (bytes += countShared || !(buffer instanceof SharedArrayBuffer) ? buffer.byteLength : 0));
  return bytes;
}

/** The objects and buffers reachable from `root`: what `typedArrayBytes` is told to leave out. */
export function reachable(root: unknown): Set<unknown> {
  const seen = new Set<unknown>();
  walk(root, seen, undefined, () => {});
  return seen;
}

function walk(root: unknown, seen: Set<unknown>, exclude: ReadonlySet<unknown> | undefined, onBuffer: (buffer: ArrayBufferLike) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value) || exclude?.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      const buffer = value.buffer;
      if (!seen.has(buffer) && !exclude?.has(buffer)) {
        seen.add(buffer);
        onBuffer(buffer);
      }
    } else if (value instanceof Map) {
      for (const [k, v] of value) stack.push(k, v);
    } else if (value instanceof Set) {
      for (const v of value) stack.push(v);
    } else if (Array.isArray(value)) {
      for (const v of value) if (v !== null && typeof v === 'object') stack.push(v);
    } else {
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        if (v !== null && typeof v === 'object') stack.push(v);
      }
    }
  }
}
