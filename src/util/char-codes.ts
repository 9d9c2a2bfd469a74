/**
 * Character codes and the digit helpers of the datetime and GTFS readers, which scan strings by char
 * code without allocating. charCodeAt past the end gives NaN, which matches nothing: the datetime
 * scanner relies on that; the GTFS parsers stay in bounds because they run per field.
 */
export const ZERO = 48;
export const NINE = 57;
export const SPACE = 32;
export const TAB = 9;
export const COLON = 58;
export const DASH = 45;
export const PLUS = 43;
export const DOT = 46;
export const COMMA = 44;
export const UPPER_T = 84;
export const LOWER_T = 116;
export const UPPER_Z = 90;
export const LOWER_Z = 122;

export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

export function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

export function isTimeDesignator(c: number): boolean {
  return c === UPPER_T || c === LOWER_T;
}

/** Index just past the run of ASCII digits starting at `i`. */
export function digitRunEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** Index of the first non-blank character of text[i, end), or `end`. */
export function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** Value of the two ASCII digits at text[i] and text[i + 1], or -1 if either is not a digit. */
export function twoDigits(text: string, i: number): number {
  const tens = text.charCodeAt(i) - ZERO;
  const units = text.charCodeAt(i + 1) - ZERO;
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1;
}

/** Decimal value of text[start, end), all digits. */
export function digitsValue(text: string, start: number, end: number): number {
  let v = 0;
  for (let k = start; k < end; k++) v = v * 10 + (text.charCodeAt(k) - ZERO);
  return v;
}
