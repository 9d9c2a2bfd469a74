/**
 * The autocomplete index of `/places`: the folded names (util/fold-text.ts) of every stop area and
 * every stop point (GTFS-Flex zones left out: their name is left empty, which nothing matches).
 *
 * Ranking (`placeRank`): exact name (quality 100) > name prefix (90) > word prefix (80) > substring
 * (70); then stop areas before stop points, then the shorter name, then the id. Places are numbered
 * in that last order (the tie order), so that the best places of a rank are its lowest numbers.
 *
 * A search reads what it finds, not the coverage. The vocabulary (every distinct word of the
 * names, sorted) keeps, for each word, the places whose first word it is and those where it comes
 * later (ascending CSR rows). A search goes rank by rank; a rank reads rows that hold all of its
 * places (and others) merged in place order, keeps the places `placeRank` gives that rank, and the
 * search stops as soon as it has `count` places:
 * - a one-word `q`: the words that start with it are a range of the vocabulary (binary search);
 *   their first-word rows hold ranks 0 and 1 (rank 0 only in the row of `q` itself), their
 *   later-word rows rank 2; rank 3, `q` inside a word, is in the rows of the words that hold it
 *   past their first character (inner-grams.ts);
 * - a `q` of several words starts a word only where its first word is a whole word of the name:
 *   that word's first-word row holds ranks 0 and 1, its later-word row rank 2; inside a word, the
 *   words after the first are later words of the name, whole but the last (which starts one): the
 *   rows of one of them, the fewest places.
 * Ranks are ordered and only `count` places are answered, so substrings are looked for only when
 * the better ranks found fewer than `count`: a one-letter `q`, which most names hold, reads the
 * places whose names (then words) start with it until `count` are found, never those that merely
 * hold it.
 *
 * Built once per referential, when the data loads (in slices) or on first use (referential-cache.ts).
 */
import { foldText } from '../util/fold-text.js';
import { firstIndex } from '../util/sorted-search.js';
import { InnerGrams } from './inner-grams.js';
import { ReferentialCache } from './referential-cache.js';
import type { Referential } from './referential.js';

/** The quality of each rank: exact, name prefix, word prefix, substring. */
export const PLACE_QUALITIES = [100, 90, 80, 70] as const;

/** How many places a build step reads between two yields. */
const PLACES_PER_STEP = 4096;

export interface PlaceHits {
  /** entry e: stop area e when e < areaCount, else stop point e - areaCount; best first */
  entries: Uint32Array;
  /** rank of each entry (an index of PLACE_QUALITIES) */
  ranks: Uint8Array;
}

/** The rank of a place whose folded name is `name` for the folded `q` (an index of PLACE_QUALITIES), -1 when it does not match. */
export function placeRank(name: string, q: string): number {
  if (name === q) return 0;
  if (name.startsWith(q)) return 1;
  if (name.includes(` ${q}`)) return 2;
  return name.includes(q) ? 3 : -1;
}

/** The index of each referential: built when its data loads, or on first use. */
export const PLACES_INDEXES = new ReferentialCache((ref) => PlacesIndex.steps(ref));

/** The index of a referential. */
export function placesIndexOf(ref: Referential): PlacesIndex {
  return PLACES_INDEXES.of(ref);
}

/** Rows of places by word (vocabulary order): `places[offsets[w] .. offsets[w + 1]]`, ascending. */
interface WordRows {
  offsets: Uint32Array;
  places: Uint32Array;
}

export class PlacesIndex {
  private constructor(
    readonly areaCount: number,
    /** by place number (tie order): its folded name */
    private readonly names: string[],
    /** by place number: its entry (stop area e, or stop point e − areaCount) */
    private readonly entryOf: Uint32Array,
    /** every distinct word of the names, ascending (by code unit) */
    private readonly words: string[],
    /** by word: the places whose first word it is */
    private readonly firstWords: WordRows,
    /** by word: the places where it comes later (once each) */
    private readonly laterWords: WordRows,
    private readonly grams: InnerGrams,
  ) {}

  /** The index of a referential, built in steps (util/stepwise.ts). */
  static *steps(ref: Referential): Generator<void, PlacesIndex> {
    const tt = ref.tt;
    const areaCount = tt.stopAreas.length;
    const n = areaCount + tt.stopPoints.ids.length;
    const rawName = (e: number) => (e < areaCount ? tt.stopAreas[e]!.name : tt.stopPoints.names[e - areaCount]!);
    const id = (e: number) => (e < areaCount ? tt.stopAreas[e]!.id : tt.stopPoints.ids[e - areaCount]!);
    const order = yield* tieOrder(n, areaCount, (e) => rawName(e).length, id);
    // each distinct name folded and split once (a stop area and its stop points share one, and a
    // country repeats many)
    const numbers = new Map<string, number>();
    const distinct: string[] = [];
    const nameOf = new Uint32Array(n);
    for (let p = 0; p < n; p++) {
      if (p % PLACES_PER_STEP === PLACES_PER_STEP - 1) yield;
      const e = order[p]!;
      const raw = e >= areaCount && tt.stopPoints.isZone[e - areaCount] ? '' : rawName(e);
      let d = numbers.get(raw);
      if (d === undefined) {
        numbers.set(raw, (d = distinct.length));
        distinct.push(foldText(raw));
      }
      nameOf[p] = d;
    }
    const names = Array.from(nameOf, (d) => distinct[d]!);
    const { words, firstWords, laterWords } = yield* vocabulary(distinct, nameOf);
    const grams = yield* InnerGrams.steps(words);
    return new PlacesIndex(areaCount, names, order, words, firstWords, laterWords, grams);
  }

  /**
   * The best `count` entries matching `q`, of the types asked: rank by rank, each rank's places
   * read in place order from rows that hold all of them, until `count` are found.
   */
  search(q: string, areas: boolean, points: boolean, count: number): PlaceHits {
    const folded = foldText(q);
    const found: number[] = [];
    const ranks: number[] = [];
    if (folded !== '' && count > 0 && (areas || points)) {
      // the places of the types asked: [from, to) (stop areas come first)
      const from = areas ? 0 : this.areaCount;
      const to = points ? this.names.length : this.areaCount;
      for (let rank = 0; rank < PLACE_QUALITIES.length && found.length < count; rank++) {
        mergeRows(this.candidates(folded, rank), from, to, (p) => {
          if (placeRank(this.names[p]!, folded) !== rank) return false;
          found.push(this.entryOf[p]!);
          ranks.push(rank);
          return found.length === count;
        });
      }
    }
    return { entries: Uint32Array.from(found), ranks: Uint8Array.from(ranks) };
  }

  /** Rows of words that hold every place of rank `rank` for the folded `q` (and others: each place is checked). */
  private candidates(q: string, rank: number): Row[] {
    const tokens = q.split(' ');
    if (tokens.length === 1) {
      // q starts the name (exact: q is its only word), starts a later word, or is inside a word
      if (rank === 0) return rowsOf(this.firstWords, this.wordIndex(q));
      const [lo, hi] = this.wordsStartingWith(q);
      if (rank === 1) return rowsOf(this.firstWords, lo, hi);
      if (rank === 2) return rowsOf(this.laterWords, lo, hi);
      return this.grams.wordsHolding(this.words, q).flatMap((w) => [...rowsOf(this.firstWords, w), ...rowsOf(this.laterWords, w)]);
    }
    // at a word start, the first token is a whole word: the first one of the name for ranks 0 and 1
    const first = this.wordIndex(tokens[0]!);
    if (rank < 2) return rowsOf(this.firstWords, first);
    if (rank === 2) return rowsOf(this.laterWords, first);
    // inside a word, the tokens after the first are later words, whole but for the last (which
    // starts one): the fewest places of these
    let best = rowsOf(this.laterWords, ...this.wordsStartingWith(tokens.at(-1)!));
    for (const token of tokens.slice(1, -1)) {
      const rows = rowsOf(this.laterWords, this.wordIndex(token));
      if (placesIn(rows) < placesIn(best)) best = rows;
    }
    return best;
  }

  /** The range [lo, hi) of the vocabulary's words that start with `t`. */
  private wordsStartingWith(t: string): [number, number] {
    const words = this.words;
    const lo = firstIndex(0, words.length, (w) => words[w]! >= t);
    return [lo, firstIndex(lo, words.length, (w) => !words[w]!.startsWith(t))];
  }

  /** The vocabulary's index of the word `t`, or -1. */
  private wordIndex(t: string): number {
    const w = firstIndex(0, this.words.length, (k) => this.words[k]! >= t);
    return this.words[w] === t ? w : -1;
  }
}

/** A part of an ascending row of places: `places[at .. end)`. */
interface Row {
  places: Uint32Array;
  at: number;
  end: number;
}

/** The rows of words [lo, hi) (one word when `hi` is left out; none for a word of -1). */
function rowsOf(rows: WordRows, lo: number, hi = lo + 1): Row[] {
  const out: Row[] = [];
  for (let w = Math.max(0, lo); w < hi; w++) {
    if (rows.offsets[w] !== rows.offsets[w + 1]) out.push({ places: rows.places, at: rows.offsets[w]!, end: rows.offsets[w + 1]! });
  }
  return out;
}

function placesIn(rows: Row[]): number {
  let n = 0;
  for (const row of rows) n += row.end - row.at;
  return n;
}

/**
 * `visit(place)` for the places of `rows` in [from, to), ascending, each once, until it returns
 * true: a merge of the rows over a binary heap of their next places, so that stopping early costs
 * only what was read.
 */
function mergeRows(rows: Row[], from: number, to: number, visit: (place: number) => boolean): void {
  const heap: Row[] = [];
  for (const row of rows) {
    // from the first place of the types asked
    row.at = firstIndex(row.at, row.end, (k) => row.places[k]! >= from);
    if (row.at < row.end && row.places[row.at]! < to) heap.push(row);
  }
  const next = (row: Row) => row.places[row.at]!;
  const down = (k: number) => {
    for (;;) {
      const l = 2 * k + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && next(heap[l + 1]!) < next(heap[l]!) ? l + 1 : l;
      if (next(heap[c]!) >= next(heap[k]!)) return;
      [heap[c], heap[k]] = [heap[k]!, heap[c]!];
      k = c;
    }
  };
  for (let k = (heap.length >> 1) - 1; k >= 0; k--) down(k);
  let last = -1;
  while (heap.length > 0) {
    const row = heap[0]!;
    const place = next(row);
    if (place !== last && visit((last = place))) return;
    row.at++;
    if (row.at === row.end || next(row) >= to) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    down(0);
  }
}

/**
 * The entries in tie order: stop areas (entries below `areaCount`) first, then by raw name length
 * (counted), then by id (compared within each length), then by entry.
 */
function* tieOrder(n: number, areaCount: number, lengthOf: (e: number) => number, id: (e: number) => string): Generator<void, Uint32Array> {
  const lengths = new Uint32Array(n);
  let longest = 0;
  for (let e = 0; e < n; e++) longest = Math.max(longest, (lengths[e] = lengthOf(e)));
  yield;
  // bucket b: areas of length b, then points of length b − (longest + 1)
  const bucketOf = (e: number) => (e < areaCount ? 0 : longest + 1) + lengths[e]!;
  const starts = new Uint32Array(2 * (longest + 1) + 1);
  for (let e = 0; e < n; e++) starts[bucketOf(e) + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
  const order = new Uint32Array(n);
  const fill = starts.slice();
  for (let e = 0; e < n; e++) order[fill[bucketOf(e)]!++] = e;
  yield;
  for (let b = 0; b + 1 < starts.length; b++) {
    const bucket = order.subarray(starts[b]!, starts[b + 1]!);
    if (bucket.length < 2) continue;
    const ids = Array.from(bucket, id);
    const byId = Array.from(bucket.keys()).sort((x, y) => (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : bucket[x]! - bucket[y]!));
    bucket.set(byId.map((k) => bucket[k]!));
    yield;
  }
  return order;
}

/**
 * The distinct words of the names, ascending, with the rows of the places they are the first word
 * of and a later word of. `distinct`: the folded names; `nameOf`: each place's.
 */
function* vocabulary(distinct: string[], nameOf: Uint32Array): Generator<void, { words: string[]; firstWords: WordRows; laterWords: WordRows }> {
  // each name's first word and later words (a word twice once) as provisional numbers, in order of first sight
  const numbers = new Map<string, number>();
  const seen: string[] = [];
  const firstOf = new Int32Array(distinct.length).fill(-1);
  const laterStarts = new Uint32Array(distinct.length + 1);
  const later: number[] = [];
  for (let d = 0; d < distinct.length; d++) {
    if (d % PLACES_PER_STEP === PLACES_PER_STEP - 1) yield;
    if (distinct[d] !== '') {
      distinct[d]!.split(' ').forEach((word, k) => {
        let w = numbers.get(word);
        if (w === undefined) {
          numbers.set(word, (w = seen.length));
          seen.push(word);
        }
        if (k === 0) firstOf[d] = w;
        else if (later.indexOf(w, laterStarts[d]) < 0) later.push(w);
      });
    }
    laterStarts[d + 1] = later.length;
  }
  // sorted by code unit, a first code unit at a time (each sort a step)
  const byFirst = new Map<number, string[]>();
  for (const word of seen) {
    const bucket = byFirst.get(word.charCodeAt(0));
    if (bucket) bucket.push(word);
    else byFirst.set(word.charCodeAt(0), [word]);
  }
  const words: string[] = [];
  for (const first of [...byFirst.keys()].sort((a, b) => a - b)) {
    for (const word of byFirst.get(first)!.sort()) words.push(word);
    yield;
  }
  const rank = new Uint32Array(seen.length);
  words.forEach((word, w) => (rank[numbers.get(word)!] = w));
  const firstRank = Int32Array.from(firstOf, (w) => (w < 0 ? -1 : rank[w]!));
  const laterRank = Uint32Array.from(later, (w) => rank[w]!);
  // the rows: counted, then filled in place order (so each ascending)
  const firstWords = { offsets: new Uint32Array(words.length + 1), places: new Uint32Array(0) };
  const laterWords = { offsets: new Uint32Array(words.length + 1), places: new Uint32Array(0) };
  for (let p = 0; p < nameOf.length; p++) {
    if (p % PLACES_PER_STEP === PLACES_PER_STEP - 1) yield;
    const d = nameOf[p]!;
    if (firstRank[d]! >= 0) firstWords.offsets[firstRank[d]! + 1]!++;
    for (let k = laterStarts[d]!; k < laterStarts[d + 1]!; k++) laterWords.offsets[laterRank[k]! + 1]!++;
  }
  for (const rows of [firstWords, laterWords]) {
    for (let w = 0; w < words.length; w++) rows.offsets[w + 1]! += rows.offsets[w]!;
    rows.places = new Uint32Array(rows.offsets[words.length]!);
  }
  const nextFirst = firstWords.offsets.slice(0, words.length);
  const nextLater = laterWords.offsets.slice(0, words.length);
  for (let p = 0; p < nameOf.length; p++) {
    if (p % PLACES_PER_STEP === PLACES_PER_STEP - 1) yield;
    const d = nameOf[p]!;
    if (firstRank[d]! >= 0) firstWords.places[nextFirst[firstRank[d]!]!++] = p;
    for (let k = laterStarts[d]!; k < laterStarts[d + 1]!; k++) laterWords.places[nextLater[laterRank[k]!]!++] = p;
  }
  return { words, firstWords, laterWords };
}
