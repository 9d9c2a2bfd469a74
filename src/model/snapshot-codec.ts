/**
 * The encoding of compiled data for a snapshot file: a tree of plain objects, arrays, strings,
 * numbers, booleans, typed arrays and maps becomes a JSON description plus one binary block in
 * which every typed array's bytes follow each other, each aligned to 8 bytes. Decoding makes every
 * typed array a view on shared memory: no copy, and the worker threads share it like the arrays of
 * a freshly built generation. The block is put on SharedArrayBuffers of a bounded size (the
 * reader's pieces, 1 GiB), cut between arrays (`blockCuts`): V8 posts a buffer's length and a
 * view's offset to a worker thread in 32 bits, so that a view on a buffer past 2^32 bytes (a
 * country's whole block) fails to arrive, or arrives on the wrong bytes.
 *
 * In the description, a typed array is {"$a": kind, "o": byte offset, "n": length}; a map whose
 * values are all Uint32Arrays (the timetable's code and headsign indexes) is {"$mu32": keys,
 * "offsets": …, "values": …}, its values laid end to end; any other map is {"$m": [[key, value]…]};
 * a number JSON cannot write (NaN, ±Infinity) is {"$num": "NaN"}; undefined in an array is
 * {"$undef": 1}. An array met twice is written once and decodes to one view, met twice.
 *
 * Decoding trusts nothing of the description: it refuses what encodeTree could not have written
 * (see decodeTree), so that a crafted file fails here with a message rather than later in a reader.
 */

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

const KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array] as const;
const KIND_NAMES = KINDS.map((k) => k.name);

const ALIGN = 8;

export interface EncodedTree {
  /** The JSON-able description of the tree. */
  description: unknown;
  /** The typed arrays' bytes, in order; each starts at a multiple of 8 (padding chunks included). */
  chunks: Uint8Array[];
  /** Total length of the chunks. */
  byteLength: number;
}

/** Encode a tree; throws on a value it cannot describe (a class instance, a function, a bigint). */
export function encodeTree(tree: unknown): EncodedTree {
  const chunks: Uint8Array[] = [];
  let byteLength = 0;
  const written = new Map<TypedArray, object>();
  const padding = new Uint8Array(ALIGN);

  function place(bytes: Uint8Array): number {
    const offset = byteLength;
    if (bytes.byteLength === 0) return offset;
    chunks.push(bytes);
    byteLength += bytes.byteLength;
    const pad = (ALIGN - (byteLength % ALIGN)) % ALIGN;
    if (pad > 0) {
      chunks.push(padding.subarray(0, pad));
      byteLength += pad;
    }
    return offset;
  }

  function typedArray(a: TypedArray, path: string): object {
    const seen = written.get(a);
    if (seen) return seen;
    const kind = KIND_NAMES.indexOf(a.constructor.name);
    if (kind < 0) throw new Error(`snapshot: ${path} is a ${a.constructor.name}, which a snapshot cannot hold`);
    const ref = { $a: kind, o: place(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)), n: a.length };
    written.set(a, ref);
    return ref;
  }

  function node(v: unknown, path: string): unknown {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : { $num: String(v) };
      case 'undefined':
        return undefined;
      case 'object':
        break;
      default:
        throw new Error(`snapshot: ${path} is a ${typeof v}, which a snapshot cannot hold`);
    }
    if (v === null) return null;
    if (ArrayBuffer.isView(v)) return typedArray(v as TypedArray, path);
    if (Array.isArray(v)) return v.map((x, i) => (x === undefined ? { $undef: 1 } : node(x, `${path}[${i}]`)));
    if (v instanceof Map) return map(v, path);
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw new Error(`snapshot: ${path} is a ${(v as object).constructor?.name}, which a snapshot cannot hold`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k.startsWith('$')) throw new Error(`snapshot: ${path}.${k}: keys starting with $ are reserved`);
      out[k] = node(x, `${path}.${k}`);
    }
    return out;
  }

  function map(m: Map<unknown, unknown>, path: string): object {
    let allU32 = m.size > 0;
    for (const [k, x] of m) {
      if (typeof k !== 'string' || !(x instanceof Uint32Array)) {
        allU32 = false;
        break;
      }
    }
    if (!allU32) return { $m: [...m].map(([k, x], i) => [node(k, `${path}{${i}}`), node(x, `${path}{${i}}`)]) };
    const keys: string[] = [];
    const offsets = new Uint32Array(m.size + 1);
    let total = 0;
    for (const [k, x] of m as Map<string, Uint32Array>) {
      offsets[keys.length] = total;
      keys.push(k);
      total += x.length;
    }
    offsets[keys.length] = total;
    const values = new Uint32Array(total);
    let at = 0;
    for (const x of (m as Map<string, Uint32Array>).values()) {
      values.set(x, at);
      at += x.length;
    }
    return { $mu32: keys, offsets: typedArray(offsets, path), values: typedArray(values, path) };
  }

  const description = node(tree, '');
  return { description, chunks, byteLength };
}

/**
 * The one key refused anywhere in the JSON of a snapshot (meta or description). JSON.parse makes it
 * an ordinary own property, but an assignment or Object.assign of that object would set a
 * prototype instead: a crafted file could then change what every object of the process inherits.
 */
export const PROTOTYPE_KEY = '__proto__';

/** The path of the first `__proto__` key in a parsed JSON value, or undefined when it has none. */
export function prototypeKeyPath(value: unknown, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = prototypeKeyPath(value[i], `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key === PROTOTYPE_KEY) return `${at}.${key}`;
    const found = prototypeKeyPath((value as Record<string, unknown>)[key], `${at}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The strings encodeTree writes for the numbers JSON cannot write. */
const NON_FINITE = new Map<unknown, number>([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
]);

/**
 * The tree `description` stood for, its typed arrays views on `block`. Throws when the description
 * is not one encodeTree could have written: a reference that is not an array kind, a whole aligned
 * offset and a whole length inside the block; a map of arrays whose offsets do not cut its values;
 * a `__proto__` key. What the tree must hold beyond that is its reader's business (for a coverage,
 * service/snapshot-schema.ts).
 */
export function decodeTree(description: unknown, block: SharedArrayBuffer | ArrayBuffer | BlockPieces): unknown {
  const pieces: BlockPieces = block instanceof SharedArrayBuffer || block instanceof ArrayBuffer ? { starts: [0], buffers: [block], byteLength: block.byteLength } : block;
  const views = new Map<string, TypedArray>();

  function view(ref: unknown, at: string): TypedArray {
    const { $a: kind, o: offset, n: length } = (ref ?? {}) as Record<string, unknown>;
    if (!isWhole(kind) || kind >= KINDS.length || !isWhole(offset) || !isWhole(length)) {
      throw new Error(`${where(at)} is not an array reference (a kind, a whole offset and a whole length)`);
    }
    const key = `${kind}:${offset}:${length}`;
    let v = views.get(key);
    if (!v) {
      const Kind = KINDS[kind]!;
      const end = offset + length * Kind.BYTES_PER_ELEMENT;
      if (offset % ALIGN !== 0 || end > pieces.byteLength) throw new Error(`${where(at)} lies outside the data block (${key})`);
      const k = pieceAt(pieces.starts, offset);
      const pieceEnd = k + 1 < pieces.starts.length ? pieces.starts[k + 1]! : pieces.byteLength;
      // (the cuts are made between the arrays: only a crafted description puts one across a cut)
      if (end > pieceEnd && length > 0) throw new Error(`${where(at)} lies across two pieces of the data block (${key})`);
      v = new Kind(pieces.buffers[k] as ArrayBuffer, offset - pieces.starts[k]!, length);
      views.set(key, v);
    }
    return v;
  }

  /** A map whose values are all Uint32Arrays: its keys, and offsets that cut its values in order. */
  function arrayMap(o: Record<string, unknown>, at: string): Map<string, Uint32Array> {
    const keys = o['$mu32'];
    const offsets = view(o['offsets'], join(at, 'offsets'));
    const values = view(o['values'], join(at, 'values'));
    if (!Array.isArray(keys) || !(offsets instanceof Uint32Array) || !(values instanceof Uint32Array) || offsets.length !== keys.length + 1) {
      throw new Error(`${where(at)} is not a map of arrays (a list of keys, Uint32Array values, and Uint32Array offsets one more than the keys)`);
    }
    if (offsets[0] !== 0 || offsets[keys.length] !== values.length) throw new Error(`${where(at)}: the offsets do not span the values`);
    const m = new Map<string, Uint32Array>();
    for (let i = 0; i < keys.length; i++) {
      const k: unknown = keys[i];
      if (typeof k !== 'string') throw new Error(`${where(at)}: key ${i} is not a string`);
      if (offsets[i + 1]! < offsets[i]!) throw new Error(`${where(at)}: the offsets decrease at key ${i}`);
      m.set(k, values.subarray(offsets[i]!, offsets[i + 1]!));
    }
    return m;
  }

  function node(v: unknown, at: string): unknown {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        // (the path of an element is made only for an element that is an object)
        if (x !== null && typeof x === 'object') v[i] = node(x, `${at}[${i}]`);
      }
      return v;
    }
    const o = v as Record<string, unknown>;
    if (Object.hasOwn(o, '$a')) return view(o, at);
    if (Object.hasOwn(o, '$mu32')) return arrayMap(o, at);
    if (Object.hasOwn(o, '$m')) {
      const entries = o['$m'];
      if (!Array.isArray(entries)) throw new Error(`${where(at)} is not a map (a list of entries)`);
      const m = new Map<unknown, unknown>();
      for (let i = 0; i < entries.length; i++) {
        const entry: unknown = entries[i];
        if (!Array.isArray(entry) || entry.length !== 2) throw new Error(`${where(at)}: entry ${i} is not a [key, value] pair`);
        m.set(node(entry[0], `${at}{${i}}`), node(entry[1], `${at}{${i}}`));
      }
      return m;
    }
    if (Object.hasOwn(o, '$num')) {
      const n = NON_FINITE.get(o['$num']);
      if (n === undefined) throw new Error(`${where(at)} is not a number JSON cannot write (NaN, Infinity, -Infinity)`);
      return n;
    }
    if (Object.hasOwn(o, '$undef')) return undefined;
    for (const k of Object.keys(o)) {
      if (k === PROTOTYPE_KEY) throw new Error(`${join(at, k)}: a key the description may not hold`);
      const x = o[k];
      if (x !== null && typeof x === 'object') o[k] = node(x, join(at, k));
    }
    return o;
  }

  return node(description, '');
}

/** A data block on several buffers: piece k is `buffers[k]`, from byte `starts[k]` of the block (starts[0] is 0). */
export interface BlockPieces {
  starts: readonly number[];
  buffers: readonly (SharedArrayBuffer | ArrayBuffer)[];
  byteLength: number;
}

/** The piece holding byte `offset` of the block (the last piece for its end). */
function pieceAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where to cut a block of `byteLength` bytes into pieces of at most `maxPiece` bytes, between the
 * arrays `description` refers to: the starts of the pieces (0 first). An array longer than
 * `maxPiece` gets a piece of its own. References that are not well formed are left for decodeTree
 * to refuse.
 */
export function blockCuts(description: unknown, byteLength: number, maxPiece: number): number[] {
  const ranges: [number, number][] = [];
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const o = v as Record<string, unknown>;
    const { $a: kind, o: offset, n: length } = o;
    if (isWhole(kind) && kind < KINDS.length && isWhole(offset) && isWhole(length)) ranges.push([offset, offset + length * KINDS[kind]!.BYTES_PER_ELEMENT]);
    else for (const k of Object.keys(o)) walk(o[k]);
  };
  walk(description);
  ranges.sort((a, b) => a[0] - b[0]);
  const starts = [0];
  for (const [offset, end] of ranges) {
    const start = starts[starts.length - 1]!;
    if (offset > start && end - start > maxPiece && offset < byteLength) starts.push(offset);
  }
  return starts;
}

/** The value at path `at`, as an error names it. */
function where(at: string): string {
  return at || 'its tree';
}

/** The path of field `key` of the value at `at` ('' for the tree). */
function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

/** A whole number that may index or size an array: not negative, not a fraction, not a string. */
function isWhole(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}
