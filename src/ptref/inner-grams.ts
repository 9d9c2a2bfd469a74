/**
 * The words of a vocabulary that hold a string past their first character (a place name's
 * substring that starts inside a word: places-index.ts's last rank). Each word's grams of one,
 * two and three characters that start past its first character are listed, and each gram keeps
 * the words it is in (ascending): the words holding `t` past their first character are among
 * those of any of `t`'s grams (all of them start past the word's first character too), so a
 * search reads the list of `t`'s rarest gram (its trigrams', or its one gram when shorter) and
 * checks each word. Typed arrays: a gram's words are a row of one CSR.
 */

/** Grams up to this many characters (UTF-16 code units) are listed. */
const GRAM = 3;
/** How many words a build step reads between two yields. */
const WORDS_PER_STEP = 4096;

/** A gram of up to three code units as one number (no folded text holds U+0000: lengths do not collide). */
function gramKey(text: string, at: number, length: number): number {
  let key = 0;
  for (let k = length - 1; k >= 0; k--) key = key * 65536 + text.charCodeAt(at + k);
  return key;
}

export class InnerGrams {
  private constructor(
    /** gram key → row */
    private readonly rows: Map<number, number>,
    private readonly offsets: Uint32Array,
    /** the words of each row, ascending */
    private readonly wordIds: Uint32Array,
  ) {}

  /** The grams of `words`, built in steps (util/stepwise.ts). */
  static *steps(words: readonly string[]): Generator<void, InnerGrams> {
    // the rows in order of first sight, and each word's rows (a word's repeated gram once)
    const rows = new Map<number, number>();
    const sizes: number[] = [];
    const rowsOfWords: number[] = [];
    const wordEnds = new Uint32Array(words.length);
    for (let w = 0; w < words.length; w++) {
      if (w % WORDS_PER_STEP === WORDS_PER_STEP - 1) yield;
      const word = words[w]!;
      const first = rowsOfWords.length;
      for (let at = 1; at < word.length; at++) {
        for (let length = 1; length <= GRAM && at + length <= word.length; length++) {
          const key = gramKey(word, at, length);
          let row = rows.get(key);
          if (row === undefined) {
            rows.set(key, (row = sizes.length));
            sizes.push(0);
          }
          if (rowsOfWords.indexOf(row, first) >= 0) continue;
          rowsOfWords.push(row);
          sizes[row]!++;
        }
      }
      wordEnds[w] = rowsOfWords.length;
    }
    yield;
    const offsets = new Uint32Array(sizes.length + 1);
    for (let row = 0; row < sizes.length; row++) offsets[row + 1] = offsets[row]! + sizes[row]!;
    const fill = offsets.slice(0, sizes.length);
    const wordIds = new Uint32Array(rowsOfWords.length);
    for (let w = 0, k = 0; w < words.length; w++) {
      if (w % WORDS_PER_STEP === WORDS_PER_STEP - 1) yield;
      for (; k < wordEnds[w]!; k++) wordIds[fill[rowsOfWords[k]!]!++] = w;
    }
    return new InnerGrams(rows, offsets, wordIds);
  }

  /** The words (indexes into the vocabulary built on) holding `t` (not empty) past their first character, ascending. */
  wordsHolding(words: readonly string[], t: string): number[] {
    let best: Uint32Array | undefined;
    const length = Math.min(GRAM, t.length);
    for (let at = 0; at + length <= t.length; at++) {
      const row = this.rows.get(gramKey(t, at, length));
      if (row === undefined) return []; // a gram no word has past its first character
      const list = this.wordIds.subarray(this.offsets[row]!, this.offsets[row + 1]!);
      if (!best || list.length < best.length) best = list;
    }
    const out: number[] = [];
    for (const w of best!) if (words[w]!.indexOf(t, 1) >= 0) out.push(w);
    return out;
  }
}
