/**
 * The places index (src/ptref/places-index.ts) on names made here: each rank found where the
 * vocabulary's rows put it (names that start with `q`, later words that do, `q` inside a word, a
 * `q` of several words), the ties, the types, `count`; then thousands of random searches over
 * random names of few words and letters (so that words repeat, start one another, come first and
 * later, twice in a name), each equal to the reference that reads every name
 * (test/helpers/places-reference.ts). The same on real feeds: test/e2e/places-index-feeds.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlacesIndex, placeRank } from '../../../src/ptref/places-index.js';
import type { Referential } from '../../../src/ptref/referential.js';
import { inOnePiece, inSlices } from '../../../src/util/stepwise.js';
import { PlacesReference } from '../../helpers/places-reference.js';
import { mulberry32 } from '../../helpers/random.js';

interface Place {
  id: string;
  name: string;
  zone?: boolean;
}

/** A referential of just what the index reads: stop areas, stop points (some GTFS-Flex zones). */
function referential(areas: Place[], points: Place[]): Referential {
  return {
    tt: {
      stopAreas: areas.map((a) => ({ id: a.id, name: a.name })),
      stopPoints: { ids: points.map((p) => p.id), names: points.map((p) => p.name), isZone: Uint8Array.from(points, (p) => (p.zone ? 1 : 0)) },
    },
  } as unknown as Referential;
}

/** [id, rank] of each hit. */
function hits(ref: Referential, index: PlacesIndex, q: string, areas = true, points = true, count = 50): [string, number][] {
  const found = index.search(q, areas, points, count);
  const tt = ref.tt;
  return Array.from(found.entries, (e, k) => [e < index.areaCount ? tt.stopAreas[e]!.id : tt.stopPoints.ids[e - index.areaCount]!, found.ranks[k]!]);
}

const AREAS: Place[] = [
  { id: 'A-GARE', name: 'Gare' },
  { id: 'A-GARE-NORD', name: 'Gare du Nord' },
  { id: 'A-NORD', name: 'Nord Gare' },
  { id: 'A-BAHNHOF', name: 'Mannheim Hauptbahnhof' },
  { id: 'A-KAFERTAL', name: 'Käfertal, Bahnhof' },
  { id: 'A-TWICE', name: 'Gare Gare' },
];
const POINTS: Place[] = [
  { id: 'P-GARE-1', name: 'Gare quai 1' },
  { id: 'P-GARE-2', name: 'Gare quai 2' },
  { id: 'P-GARE', name: 'GARE' },
  { id: 'P-MEGARE', name: 'Mégare' },
  { id: 'P-HBF', name: 'Hauptbahnhof Süd' },
  { id: 'P-ZONE', name: 'Gare zone', zone: true },
  { id: 'P-EMPTY', name: '--' },
];

test('placeRank: exact, name prefix, word prefix, substring, none', () => {
  assert.equal(placeRank('gare', 'gare'), 0);
  assert.equal(placeRank('gare du nord', 'gare'), 1);
  assert.equal(placeRank('gare du nord', 'gare du'), 1);
  assert.equal(placeRank('nord gare', 'gare'), 2);
  assert.equal(placeRank('megare', 'gare'), 3);
  assert.equal(placeRank('megare gare', 'gare'), 2, 'the best of its occurrences');
  assert.equal(placeRank('kafertal bahnhof', 'al bahn'), 3);
  assert.equal(placeRank('gare', 'gares'), -1);
});

test('each rank from its rows, best first; then stop areas, shorter names, ids; zones and empty names never match', () => {
  const ref = referential(AREAS, POINTS);
  const index = inOnePiece(PlacesIndex.steps(ref));
  assert.deepEqual(hits(ref, index, 'gare'), [
    ['A-GARE', 0],
    ['P-GARE', 0],
    ['A-TWICE', 1],
    ['A-GARE-NORD', 1],
    ['P-GARE-1', 1],
    ['P-GARE-2', 1],
    ['A-NORD', 2],
    ['P-MEGARE', 3],
  ]);
  // several words: at a name start, at a later word, inside a word
  assert.deepEqual(hits(ref, index, 'gare quai'), [
    ['P-GARE-1', 1],
    ['P-GARE-2', 1],
  ]);
  assert.deepEqual(hits(ref, index, 'Quai 2'), [['P-GARE-2', 2]]);
  assert.deepEqual(hits(ref, index, 'rtal bahn'), [['A-KAFERTAL', 3]]);
  assert.deepEqual(hits(ref, index, 'heim haupt'), [['A-BAHNHOF', 3]]);
  assert.deepEqual(hits(ref, index, 'e du n'), [['A-GARE-NORD', 3]]);
  assert.deepEqual(hits(ref, index, 'bahnhof'), [
    ['A-KAFERTAL', 2],
    ['A-BAHNHOF', 3],
    ['P-HBF', 3],
  ]);
  assert.deepEqual(hits(ref, index, 'zone'), [], 'a zone is not a stop point');
  assert.deepEqual(hits(ref, index, '-'), [], 'nothing to search');
  assert.deepEqual(hits(ref, index, 'nowhere'), []);
});

test('types and count: the best of the types asked, cut at count', () => {
  const ref = referential(AREAS, POINTS);
  const index = inOnePiece(PlacesIndex.steps(ref));
  assert.deepEqual(hits(ref, index, 'gare', true, false, 3), [
    ['A-GARE', 0],
    ['A-TWICE', 1],
    ['A-GARE-NORD', 1],
  ]);
  assert.deepEqual(hits(ref, index, 'gare', false, true, 2), [
    ['P-GARE', 0],
    ['P-GARE-1', 1],
  ]);
  assert.deepEqual(hits(ref, index, 'gare', false, false), []);
  assert.deepEqual(hits(ref, index, 'gare', true, true, 0), []);
});

test('built in slices or in one piece, the same index', async () => {
  const ref = referential(AREAS, POINTS);
  const sliced = await inSlices(PlacesIndex.steps(ref), 0);
  const whole = inOnePiece(PlacesIndex.steps(ref));
  for (const q of ['gare', 'a', 'bahnhof', 'quai 2', 'al bahn']) assert.deepEqual(hits(ref, sliced, q), hits(ref, whole, q), q);
});

/** Random names of one to four words over a few syllables (words repeat, start one another, hold one another). */
function randomPlaces(random: () => number, count: number, prefix: string): Place[] {
  const syllables = ['a', 'ba', 'an', 'na', 'ban', 'e', 'ß', 'é', 'o', 'ob', 'bo', '1', '12', 'st', 'str'];
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(syllables)).join('');
  const separator = () => pick([' ', ' ', ' ', '-', ', ', ' (']);
  return Array.from({ length: count }, (_, k) => {
    const words = Array.from({ length: 1 + Math.floor(random() * 4) }, word);
    const name = words.reduce((text, w) => text + separator() + (random() < 0.3 ? w.toUpperCase() : w));
    return { id: `${prefix}${Math.floor(random() * count)}-${k}`, name: random() < 0.02 ? '' : name, zone: random() < 0.02 };
  });
}

test('random names and queries: the index answers as the reference that reads every name', () => {
  const random = mulberry32(43);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  for (let round = 0; round < 20; round++) {
    const areas = randomPlaces(random, 50 + Math.floor(random() * 300), 'a');
    const points = randomPlaces(random, 50 + Math.floor(random() * 300), 'p');
    const ref = referential(areas, points);
    const index = inOnePiece(PlacesIndex.steps(ref));
    const reference = new PlacesReference(ref);
    for (let k = 0; k < 300; k++) {
      // a piece of a name (from anywhere, maybe across words), a whole name, or a syllable or two
      const name = pick([...areas, ...points]).name;
      const from = Math.floor(random() * name.length);
      const q = pick([
        () => name.slice(from, from + 1 + Math.floor(random() * 8)),
        () => name,
        () => pick(['a', 'b', 'ba', 'an', 'n', 'ss', 'e', 'st', 'str', 'a b', 'a ban', 'n a', 'o 1', '2 a', 'ab a b', 'z']),
      ])();
      const [areasToo, pointsToo] = pick([
        [true, false],
        [false, true],
        [true, true],
      ]);
      const count = pick([1, 3, 10, 40, 1000]);
      const got = index.search(q, areasToo, pointsToo, count);
      const want = reference.search(q, areasToo, pointsToo, count);
      assert.deepEqual(
        { entries: [...got.entries], ranks: [...got.ranks] },
        { entries: want.map((h) => h.entry), ranks: want.map((h) => h.rank) },
        `round ${round}, q ${JSON.stringify(q)}, areas ${areasToo}, points ${pointsToo}, count ${count}`,
      );
    }
  }
});
