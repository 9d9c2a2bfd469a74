/**
 * Application periods as a sorted list of disjoint ones, so that "does [from, to] meet one of them"
 * is a binary search however many periods a disruption (or all those naming one object) has.
 */
import type { Period } from './disruption.js';

/** Sorted, disjoint, closed periods (epoch seconds; open bounds are infinite). */
export class DisjointPeriods {
  constructor(
    private readonly begins: Float64Array,
    private readonly ends: Float64Array,
  ) {}

  get count(): number {
    return this.begins.length;
  }

  get first(): number {
    return this.begins[0]!;
  }

  get last(): number {
    return this.ends[this.ends.length - 1]!;
  }

  /** Whether [from, to] meets one of the periods of one of `lists`. */
  static meetAny(lists: DisjointPeriods[], from: number, to: number): boolean {
    for (let i = 0; i < lists.length; i++) if (lists[i]!.meets(from, to)) return true;
    return false;
  }

  /** Whether [from, to] meets one of the periods. */
  meets(from: number, to: number): boolean {
    // the first period that ends at or after `from`
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.begins.length && this.begins[lo]! <= to;
  }
}

/**
 * The union of closed periods as disjoint ones. The begins and the ends are sorted apart (typed
 * arrays, no comparator): walking both in order, a merged period opens when the count of open
 * periods leaves 0 and closes when it comes back to 0, a begin before an end at the same instant.
 */
export function mergePeriods(lists: Period[][]): DisjointPeriods {
  let n = 0;
  for (const l of lists) n += l.length;
  if (n === 1) {
    const only = lists.find((l) => l.length === 1)![0]!;
    return new DisjointPeriods(Float64Array.of(only.begin), Float64Array.of(only.end));
  }
  const begins = new Float64Array(n);
  const ends = new Float64Array(n);
  let i = 0;
  for (const l of lists) {
    for (const p of l) {
      begins[i] = p.begin;
      ends[i++] = p.end;
    }
  }
  begins.sort();
  ends.sort();
  const outBegins: number[] = [];
  const outEnds: number[] = [];
  let b = 0;
  let open = 0;
  for (let e = 0; e < n; ) {
    if (b < n && begins[b]! <= ends[e]!) {
      if (open++ === 0) outBegins.push(begins[b]!);
      b++;
    } else {
      if (--open === 0) outEnds.push(ends[e]!);
      e++;
    }
  }
  return new DisjointPeriods(Float64Array.from(outBegins), Float64Array.from(outEnds));
}
