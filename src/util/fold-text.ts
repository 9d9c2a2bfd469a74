/**
 * Text folded for searching: accents stripped (NFD, then the combining marks dropped), lower case,
 * the letters NFD leaves whole spelt out (ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ → d, þ → th), and
 * every run of other characters than letters and digits one space, none at the ends. So
 * "Mannheim-Käfertal, Bahnhof" and "mannheim kafertal bahnhof" fold alike, and a word starts
 * after a space.
 */
const SPELT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th', ı: 'i' };
const SPELT_RE = /[ßæœøłđþı]/g;
const MARKS_RE = /\p{M}+/gu;
const SEPARATORS_RE = /[^\p{L}\p{N}]+/gu;

export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(MARKS_RE, '')
    .toLowerCase()
    .replace(SPELT_RE, (c) => SPELT[c]!)
    .replace(SEPARATORS_RE, ' ')
    .trim();
}
