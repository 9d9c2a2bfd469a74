/**
 * The places index (src/ptref/places-index.ts) on real names: random searches over rnv-mannheim
 * (German: ä, ö, ü, ß, "Hauptbahnhof" inside and after other words), the NYC subway (stations and
 * their platforms, numbers, "St" and "Av"), Porto Alegre's EPTC (Portuguese accents, long names of
 * many words) and Mexico City's eight agencies (Spanish), each equal to the reference that reads
 * every name (test/helpers/places-reference.ts): pieces of names from anywhere (inside words,
 * across words), whole names, prefixes, one and two letters, digits; each of the types; counts
 * from 1 to 1000.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placesIndexOf } from '../../src/ptref/places-index.js';
import { loadGeneration } from '../../src/service/load-coverage.js';
import { PlacesReference } from '../helpers/places-reference.js';
import { mulberry32 } from '../helpers/random.js';
import { sharedFeed } from './coverage-app.js';

const FEEDS = [
  ['rnv-mannheim', 'gtfs.zip'],
  ['nyc', 'subway-gtfs.zip'],
  ['porto-alegre', 'gtfs-eptc.zip'],
  ['edge', 'mexico-city-multiagency-frequencies.zip'],
];
const SEARCHES = 1500;

for (const feed of FEEDS) {
  test(`${feed.join('/')}: ${SEARCHES} random searches answer as the reference`, async () => {
    const { generation } = await loadGeneration({ id: 'places', gtfs: [sharedFeed(...feed)] });
    const { tt } = generation;
    const index = placesIndexOf(generation.ref);
    const reference = new PlacesReference(generation.ref);
    const random = mulberry32(feed[0]!.length);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
    const names = [...tt.stopAreas.map((a) => a.name), ...tt.stopPoints.names];
    const ranks = [0, 0, 0, 0];
    for (let k = 0; k < SEARCHES; k++) {
      const name = pick(names);
      const from = int(name.length);
      const q = pick([
        () => name.slice(from, from + 1 + int(12)),
        () => name.slice(0, 1 + int(name.length)),
        () => name,
        () => pick(['a', 'e', 's', 'x', '1', '2', 'st', 'ss', 'av', 'de', 'str', 'bahnhof', 'ahnhof', 'do s', 'a s', 'st a', 'e s', '1 a', 'ü']),
      ])();
      const [areas, points] = pick([
        [true, false],
        [false, true],
        [true, true],
      ]);
      const count = pick([1, 10, 25, 1000]);
      const got = index.search(q, areas, points, count);
      const want = reference.search(q, areas, points, count);
      assert.deepEqual(
        { entries: [...got.entries], ranks: [...got.ranks] },
        { entries: want.map((h) => h.entry), ranks: want.map((h) => h.rank) },
        `q ${JSON.stringify(q)}, areas ${areas}, points ${points}, count ${count}`,
      );
      for (const rank of got.ranks) ranks[rank]!++;
    }
    // every rank came up
    assert.ok(ranks.every((n) => n > 0), `hits by rank ${ranks.join(', ')}`);
  });
}
