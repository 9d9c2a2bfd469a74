/**
 * Set algebra on ascending Uint32Arrays of object indexes (the filter evaluator's currency).
 * Inputs are never modified. Results must not be modified either: one may be an input itself, the
 * shared EMPTY, or a view on a larger array.
 */
import { lowerBound } from '../util/sorted-search.js';

export const EMPTY: Uint32Array = new Uint32Array(0);

/** When one set is this many times smaller than the other, `intersect` looks its elements up in the other by binary search. */
const LOOKUP_RATIO = 32;

export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return EMPTY;
  // a set of consecutive indexes (every object of a type, say) keeps the other's between its ends
  if (isInterval(b)) return between(a, b[0]!, b[b.length - 1]!);
  if (isInterval(a)) return between(b, a[0]!, a[a.length - 1]!);
  if (a.length * LOOKUP_RATIO < b.length) return lookUp(a, b);
  if (b.length * LOOKUP_RATIO < a.length) return lookUp(b, a);
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) i++;
    else if (x > y) j++;
    else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/** Whether the (ascending, non-empty) set holds every index between its ends. */
function isInterval(set: Uint32Array): boolean {
  return set[set.length - 1]! - set[0]! === set.length - 1;
}

/** The elements of `set` in [lo, hi], a view on it. */
function between(set: Uint32Array, lo: number, hi: number): Uint32Array {
  return set.subarray(lowerBound(set, lo), lowerBound(set, hi + 1));
}

/** The elements of the small set `few` found in `many`: a binary search each, from where the last one stopped. */
function lookUp(few: Uint32Array, many: Uint32Array): Uint32Array {
  const out = new Uint32Array(few.length);
  let n = 0;
  let from = 0;
  for (let i = 0; i < few.length; i++) {
    const x = few[i]!;
    from = lowerBound(many, x, from);
    if (from < many.length && many[from] === x) out[n++] = x;
  }
  return out.subarray(0, n);
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[n++] = x;
      i++;
    } else if (x > y) {
      out[n++] = y;
      j++;
    } else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}

/** Elements of `a` that are not in `b`. */
export function difference(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Uint32Array(a.length);
  let j = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j < b.length && b[j] === x) continue;
    out[n++] = x;
  }
  return out.subarray(0, n);
}

/** Whether the ascending set contains x (binary search). */
export function contains(set: Uint32Array, x: number): boolean {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = set[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** 0..n-1 */
export function range(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/**
 * Collects indexes in any order, without duplicates, and returns them sorted. Its marker array is
 * allocated once per universe size and reused across queries (reset through the touched list).
 */
export class IndexCollector {
  private readonly marked: Uint8Array;
  private touched: Uint32Array;
  private count = 0;

  constructor(readonly universe: number) {
    this.marked = new Uint8Array(universe);
    this.touched = new Uint32Array(Math.min(universe, 1024));
  }

  add(i: number): void {
    if (this.marked[i]) return;
    this.marked[i] = 1;
    if (this.count === this.touched.length) {
      const next = new Uint32Array(Math.min(this.universe, this.touched.length * 2));
      next.set(this.touched);
      this.touched = next;
    }
    this.touched[this.count++] = i;
  }

  addAll(items: Uint32Array): void {
    for (let k = 0; k < items.length; k++) this.add(items[k]!);
  }

  /** The collected indexes, ascending, as a new array; the collector is empty afterwards. */
  take(): Uint32Array {
    const out = this.touched.slice(0, this.count).sort();
    for (let k = 0; k < this.count; k++) this.marked[this.touched[k]!] = 0;
    this.count = 0;
    return out;
  }
}
