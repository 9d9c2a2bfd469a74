/**
 * Which rings of a set cross themselves or each other: the check a simplified outline must pass.
 * Segments are binned on a uniform grid of about one segment per bin, so the test is close to
 * linear; two segments meet when they share a point other than the vertex two consecutive segments
 * of one ring share.
 */
import type { Ring } from './rings.js';

export function anyCrossing(rings: Ring[]): Set<number> {
  const out = new Set<number>();
  let count = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    count += ring.length - 1;
    for (const [x, y] of ring) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  if (count === 0) return out;
  const side = Math.max(1, Math.ceil(Math.sqrt(count)));
  const w = (maxX - minX) / side || 1;
  const h = (maxY - minY) / side || 1;
  const bins = new Map<number, number[]>(); // bin → (ring, segment) pairs, flattened
  const binOf = (x: number, y: number) => [Math.min(side - 1, Math.floor((x - minX) / w)), Math.min(side - 1, Math.floor((y - minY) / h))] as const;
  rings.forEach((ring, r) => {
    for (let s = 0; s + 1 < ring.length; s++) {
      const [x0, y0] = ring[s]!;
      const [x1, y1] = ring[s + 1]!;
      const [i0, j0] = binOf(Math.min(x0, x1), Math.min(y0, y1));
      const [i1, j1] = binOf(Math.max(x0, x1), Math.max(y0, y1));
      for (let i = i0; i <= i1; i++) {
        for (let j = j0; j <= j1; j++) {
          const key = j * side + i;
          let list = bins.get(key);
          if (!list) bins.set(key, (list = []));
          for (let k = 0; k < list.length; k += 2) {
            const r2 = list[k]!;
            const s2 = list[k + 1]!;
            if (r2 === r && adjacent(s, s2, ring.length - 1)) continue;
            if (meet(ring[s]!, ring[s + 1]!, rings[r2]![s2]!, rings[r2]![s2 + 1]!)) {
              out.add(r);
              out.add(r2);
            }
          }
          list.push(r, s);
        }
      }
    }
  });
  return out;
}

/** consecutive segments of a ring of n segments (the last and the first too) */
function adjacent(a: number, b: number, n: number): boolean {
  const d = Math.abs(a - b);
  return d === 0 || d === 1 || d === n - 1;
}

function orientation(a: readonly number[], b: readonly number[], c: readonly number[]): number {
  const v = (b[1]! - a[1]!) * (c[0]! - b[0]!) - (b[0]! - a[0]!) * (c[1]! - b[1]!);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: readonly number[], b: readonly number[], p: readonly number[]): boolean {
  return Math.min(a[0]!, b[0]!) <= p[0]! && p[0]! <= Math.max(a[0]!, b[0]!) && Math.min(a[1]!, b[1]!) <= p[1]! && p[1]! <= Math.max(a[1]!, b[1]!);
}

/** segments pq and rs share a point */
function meet(p: readonly number[], q: readonly number[], r: readonly number[], s: readonly number[]): boolean {
  const o1 = orientation(p, q, r);
  const o2 = orientation(p, q, s);
  const o3 = orientation(r, s, p);
  const o4 = orientation(r, s, q);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(p, q, r)) || (o2 === 0 && onSegment(p, q, s)) || (o3 === 0 && onSegment(r, s, p)) || (o4 === 0 && onSegment(r, s, q));
}
