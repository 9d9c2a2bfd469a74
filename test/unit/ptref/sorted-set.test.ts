/**
 * The set algebra of the filter evaluator and the referential (src/ptref/sorted-set.ts) against plain
 * implementations over `Set` and arrays, on random ascending Uint32Arrays (seeded, so a failure
 * replays): empty sets, singletons, sparse and dense ones, the same set twice, a set and its subset,
 * values above 2^31, a few elements intersected with many (the binary-search path) and with a run of
 * consecutive indexes, and an IndexCollector fed the same indexes again and again, reused across
 * takes and grown past its first 1024 slots. Every operation must leave its inputs as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contains, difference, EMPTY, IndexCollector, intersect, range, union } from '../../../src/ptref/sorted-set.js';
import { mulberry32 } from '../../helpers/random.js';

const random = mulberry32(20240115);
const int = (n: number) => Math.floor(random() * n);

/** An ascending set of `size` draws (fewer when some repeat) below `universe`, or from the `universe` values below 2^32. */
function randomSet(universe: number, size: number, top = false): Uint32Array {
  const values = new Set<number>();
  const offset = top ? 2 ** 32 - universe : 0;
  for (let k = 0; k < size; k++) values.add(offset + int(universe));
  return Uint32Array.from([...values].sort((x, y) => x - y));
}

/** A subset of `set`, each value kept with probability `keep`. */
function subset(set: Uint32Array, keep: number): Uint32Array {
  return set.filter(() => random() < keep);
}

/** Pairs of sets: independent ones of every size and density, and related ones (equal, nested, disjoint). */
function randomPair(): [Uint32Array, Uint32Array] {
  const universe = [1, 2, 3, 8, 40, 300, 5000, 2 ** 31][int(8)]!;
  const size = () => (random() < 0.1 ? 0 : int(Math.min(universe, 600) + 1));
  const top = random() < 0.2;
  const a = randomSet(universe, size(), top);
  switch (int(6)) {
    case 0:
      return [a, a];
    case 1:
      return [a, subset(a, random())];
    case 2:
      return [subset(a, random()), a];
    case 3:
      return [a, EMPTY];
    case 4: {
      // disjoint: the values of `a` shifted out of its range
      const after = a.length > 0 ? a[a.length - 1]! + 1 : 0;
      return [a, Uint32Array.from(randomSet(universe, size()), (v) => (after + v) % 2 ** 32).sort()];
    }
    default:
      return [a, randomSet(universe, size(), top)];
  }
}

const plainUnion = (a: Uint32Array, b: Uint32Array) => [...new Set([...a, ...b])].sort((x, y) => x - y);
function plainIntersection(a: Uint32Array, b: Uint32Array): number[] {
  const inB = new Set(b);
  return [...a].filter((x) => inB.has(x));
}
function plainDifference(a: Uint32Array, b: Uint32Array): number[] {
  const inB = new Set(b);
  return [...a].filter((x) => !inB.has(x));
}

/** A result: a Uint32Array, strictly ascending, with the plain answer's values. */
function assertSet(actual: Uint32Array, expected: number[], what: string): void {
  assert.ok(actual instanceof Uint32Array, `${what}: a Uint32Array`);
  assert.deepEqual([...actual], expected, what);
}

const shown = (s: Uint32Array) => (s.length > 12 ? `[${s.slice(0, 12).join(',')},… ${s.length} values]` : `[${s.join(',')}]`);

test('union, intersect and difference agree with Set on 3,000 random pairs, inputs untouched', () => {
  for (let k = 0; k < 3000; k++) {
    const [a, b] = randomPair();
    const [aBefore, bBefore] = [a.slice(), b.slice()];
    const what = `pair ${k}: a = ${shown(a)}, b = ${shown(b)}`;
    assertSet(union(a, b), plainUnion(a, b), `union of ${what}`);
    assertSet(intersect(a, b), plainIntersection(a, b), `intersect of ${what}`);
    assertSet(difference(a, b), plainDifference(a, b), `difference of ${what}`);
    assertSet(difference(b, a), plainDifference(b, a), `difference the other way of ${what}`);
    assert.deepEqual([a, b], [aBefore, bBefore], `inputs unchanged: ${what}`);
  }
});

test('intersect of a few against many (looked up by binary search) agrees with Set, both ways round', () => {
  for (let k = 0; k < 500; k++) {
    const universe = [2000, 50_000, 2 ** 31][int(3)]!;
    const top = random() < 0.2;
    const many = randomSet(universe, 1000 + int(20_000), top);
    // some of the few from the many (its ends among them), some not
    const picked = [...subset(many, 0.002), many[0]!, many[many.length - 1]!].filter(() => random() < 0.7);
    const few = Uint32Array.from(new Set([...picked, ...randomSet(universe, int(20), top)])).sort();
    const what = `pair ${k}: ${few.length} against ${many.length}`;
    assertSet(intersect(few, many), plainIntersection(few, many), what);
    assertSet(intersect(many, few), plainIntersection(many, few), `${what}, the other way`);
  }
});

test('intersect with a set of consecutive indexes (kept between its ends, a view) agrees with Set, both ways round', () => {
  for (let k = 0; k < 1000; k++) {
    const universe = [10, 2000, 2 ** 31][int(3)]!;
    const top = random() < 0.2;
    const other = randomSet(universe, int(500), top);
    const start = (top ? 2 ** 32 - universe : 0) + int(universe);
    const interval = range(1 + int(Math.min(universe, 3000))).map((i) => Math.min(2 ** 32 - 1, start + i));
    const consecutive = Uint32Array.from(new Set(interval));
    const what = `pair ${k}: ${shown(other)} and ${consecutive.length} from ${start}`;
    assertSet(intersect(other, consecutive), plainIntersection(other, consecutive), what);
    assertSet(intersect(consecutive, other), plainIntersection(consecutive, other), `${what}, the other way`);
  }
});

test('contains agrees with a linear search, for every value of the set, its neighbours and random others', () => {
  for (let k = 0; k < 1000; k++) {
    const [set] = randomPair();
    const probes = [...[...set].flatMap((v) => [v, v - 1, v + 1]), 0, 2 ** 32 - 1, ...Array.from({ length: 20 }, () => int(2 ** 32))];
    for (const x of probes) assert.equal(contains(set, x), set.includes(x), `contains(${shown(set)}, ${x})`);
  }
  assert.equal(contains(EMPTY, 0), false);
});

test('range(n) is 0..n-1, and EMPTY is empty', () => {
  for (const n of [0, 1, 2, 7, 1000]) assertSet(range(n), Array.from({ length: n }, (_, i) => i), `range(${n})`);
  assert.equal(EMPTY.length, 0);
});

test('IndexCollector gives back each index added once, ascending, and starts empty again after take', () => {
  for (const universe of [1, 2, 5, 100, 1023, 1024, 1025, 1500, 5000]) {
    const collector = new IndexCollector(universe);
    for (let round = 0; round < 30; round++) {
      const plain = new Set<number>();
      // few distinct indexes added many times, or many distinct ones (past the first 1024 slots)
      const distinct = random() < 0.5 ? 1 + int(Math.min(universe, 8)) : universe;
      const pool = randomSet(universe, distinct);
      const adds = int(3 * distinct + 1);
      for (let k = 0; k < adds; k++) {
        const i = pool[int(pool.length)]!;
        if (random() < 0.2) {
          const batch = Uint32Array.from({ length: int(5) }, () => pool[int(pool.length)]!);
          const batchBefore = batch.slice();
          collector.addAll(batch);
          assert.deepEqual(batch, batchBefore, 'addAll leaves its input unchanged');
          for (const j of batch) plain.add(j);
        } else {
          collector.add(i);
          plain.add(i);
        }
      }
      const what = `universe ${universe}, round ${round}, ${adds} adds of ${pool.length} indexes`;
      assertSet(collector.take(), [...plain].sort((x, y) => x - y), what);
      assertSet(collector.take(), [], `${what}: empty after take`);
    }
  }
});

test('IndexCollector filled with its whole universe, in descending order, gives it back ascending', () => {
  for (const universe of [1024, 1025, 3000]) {
    const collector = new IndexCollector(universe);
    for (let i = universe - 1; i >= 0; i--) collector.add(i);
    for (let i = 0; i < universe; i++) collector.add(i);
    assertSet(collector.take(), [...range(universe)], `universe ${universe}`);
  }
});
