/**
 * The encoding of compiled data for a snapshot file: a tree of plain objects, arrays, strings,
 * numbers, booleans, typed arrays and maps becomes a JSON description plus one binary block in
 * which every typed array's bytes follow each other, each aligned to 8 bytes. Decoding puts the
 * block on one SharedArrayBuffer and makes every typed array a view on it: no copy, and the
 * worker threads share it like the arrays of a freshly built generation.
 *
 * In the description, a typed array is {"$a": kind, "o": byte offset, "n": length}; a map whose
 * values are all Uint32Arrays (the timetable's code and headsign indexes) is {"$mu32": keys,
 * "offsets": …, "values": …}, its values laid end to end; any other map is {"$m": [[key, value]…]};
 * a number JSON cannot write (NaN, ±Infinity) is {"$num": "NaN"}; undefined in an array is
 * {"$undef": 1}. An array met twice is written once and decodes to one view, met twice.
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

/** The tree `description` stood for, its typed arrays views on `block`. */
export function decodeTree(description: unknown, block: SharedArrayBuffer | ArrayBuffer): unknown {
  const views = new Map<string, TypedArray>();

  function view(ref: { $a: number; o: number; n: number }): TypedArray {
    const key = `${ref.$a}:${ref.o}:${ref.n}`;
    let v = views.get(key);
    if (!v) {
      const Kind = KINDS[ref.$a];
      if (!Kind || ref.o % ALIGN !== 0 || ref.o + ref.n * Kind.BYTES_PER_ELEMENT > block.byteLength) {
        throw new Error(`snapshot: an array lies outside the data block (${key})`);
      }
      v = new Kind(block as ArrayBuffer, ref.o, ref.n);
      views.set(key, v);
    }
    return v;
  }

  function node(v: unknown): unknown {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x !== null && typeof x === 'object') v[i] = node(x);
      }
      return v;
    }
    const o = v as Record<string, unknown>;
    if ('$a' in o) return view(o as { $a: number; o: number; n: number });
    if ('$mu32' in o) {
      const keys = o['$mu32'] as string[];
      const offsets = view(o['offsets'] as { $a: number; o: number; n: number }) as Uint32Array;
      const values = view(o['values'] as { $a: number; o: number; n: number }) as Uint32Array;
      const m = new Map<string, Uint32Array>();
      for (let i = 0; i < keys.length; i++) m.set(keys[i]!, values.subarray(offsets[i]!, offsets[i + 1]!));
      return m;
    }
    if ('$m' in o) return new Map((o['$m'] as [unknown, unknown][]).map(([k, x]) => [node(k), node(x)]));
    if ('$num' in o) return Number(o['$num']);
    if ('$undef' in o) return undefined;
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (x !== null && typeof x === 'object') o[k] = node(x);
    }
    return o;
  }

  return node(description);
}
