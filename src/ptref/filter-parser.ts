/**
 * Parser of the PT-referential filter language (the `filter=` query parameter), producing the AST
 * of `filter-ast.ts`. Hand-written recursive descent: one method per grammar rule below.
 *
 *   filter    := [ expr ]                                   empty or blank input means `all`
 *   expr      := or_expr
 *   or_expr   := and_expr  { ("or" | "OR") and_expr }        lowest precedence
 *   and_expr  := diff_expr { ("and" | "AND") diff_expr }
 *   diff_expr := leaf { "-" leaf }                           set difference, highest precedence
 *   leaf      := "(" expr ")" | pred | ("get" | "GET") IDENT "<-" expr
 *   pred      := "all" | "empty"
 *              | IDENT "." IDENT "(" [ STR { "," STR } ] ")"                 method call
 *              | IDENT "." IDENT "=" STR                                    one-argument sugar
 *              | IDENT "." "coord" "DWITHIN" "(" STR "," STR "," STR ")"    lon, lat, distance
 *   IDENT     := ASCII letter { ASCII letter | digit | "_" }
 *   STR       := 1*( ASCII letter | digit | "_" | "." | ":" | ";" | "|" | "-" )     bare
 *              | '"' { any char but '"' and '\' | '\' any char } '"'          quoted, unescaped
 *
 * Whitespace (space, tab, CR, LF, VT, FF) between tokens is ignored. All binary operators are
 * left-associative. `get` takes everything to its right: the inner expression runs to the end of
 * the enclosing parenthesis or of the input.
 *
 * Matching behaviour (the same as Navitia's engine, which uses a backtracking grammar):
 * - A repetition `{ op operand }` stops, and gives the operator back, when the operand after it
 *   does not parse. So `all and (` parses `all` and leaves `and (` unparsed.
 * - A bare STR is greedy and may contain `-`: `line.uri=A-1` is one value, `line.uri=a-line.uri=b`
 *   reads the value `a-line.uri` (then `=b` is left over), `line.uri=a -line.uri=b` is a
 *   difference (the space ends the value, then `-` is the operator).
 * - Keywords are case-sensitive and only in the spellings listed. `all` and `empty` are tried
 *   before a type name, and a type name before `get` (so `get.uri=x` is a method call).
 *
 * Errors, all `FilterError('unable_to_parse', …)` (the caller adds the `Unable to parse :` prefix):
 * - `Filter: unable to parse <whole input>` when the input does not start with an expression,
 *   when a quoted string is not closed (also after a valid prefix: Navitia aborts there), and past
 *   MAX_FILTER_DEPTH nested parentheses / `get` (our own limit, to bound recursion).
 * - `Filter: Unable to parse the whole string. Not parsed: >><rest><<` when an expression parses
 *   but text remains; `<rest>` starts at the first non-blank character after the parsed prefix and
 *   runs to the end of the input, trailing blanks included.
 *
 * Deliberate differences from Navitia: an empty or blank filter is `all` (Navitia rejects it in
 * the parser and substitutes `all` only for an exactly empty parameter); keywords must be whole
 * words (Navitia also matches them as prefixes, so it accepts `all andempty`, `getline <- all` or
 * `T.coordDWITHIN(…)`, and reports `allx` as a partial parse where we report the whole input;
 * we read `T.coordDWITHIN(…)` as a call of the method `coordDWITHIN`); the nesting limit.
 *
 * Cost: linear in the input. The tokenizer scans character codes (no regular expressions). The
 * alternatives of a rule are told apart within a few tokens, so a failed branch is never
 * re-read by a sibling alternative; it only makes the enclosing repetition or rule fail.
 */
import { FILTER_ERRORS, type FilterError, type FilterExpr } from './filter-ast.js';

/** Most nested parentheses and `get` allowed; deeper input gives the whole-input parse error. */
export const MAX_FILTER_DEPTH = 100;

/** Parse a filter. Throws `FilterError('unable_to_parse', …)`; see the header for the messages. */
export function parseFilter(text: string): FilterExpr {
  const parser = new Parser(text);
  if (parser.tokens.atEnd()) return { kind: 'all' };
  const expr = parser.expr(0);
  if (expr === null) throw wholeInputError(text);
  if (!parser.tokens.atEnd()) {
    throw FILTER_ERRORS.trailing(parser.tokens.rest());
  }
  return expr;
}

/**
 * `value` as a quoted STR of the filter language: `"…"` with `\` and `"` escaped by a backslash.
 * `parseFilter('trip.uri=' + quoteFilterString(x))` gives the argument `x` back for any string.
 */
export function quoteFilterString(value: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === BACKSLASH || c === QUOTE) {
      out += value.slice(from, i) + '\\';
      from = i;
    }
  }
  return out + value.slice(from) + '"';
}

function wholeInputError(text: string): FilterError {
  return FILTER_ERRORS.syntax(text);
}

// ---------------------------------------------------------------------------------------------
// Tokenizer

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

type Punct = '(' | ')' | ',' | '.' | '=' | '-' | '<-';

/** A token in operator/identifier position. `end` is the offset just after it. */
type Token =
  | { kind: 'word'; text: string; end: number }
  | { kind: 'punct'; text: Punct; end: number }
  | { kind: 'invalid'; end: number }
  | { kind: 'end'; end: number };

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d); // space, \t \n \v \f \r
}
function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isIdentChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 0x5f; // _
}
/** Characters of a bare STR: letters, digits and `_ . : ; | -`. */
function isBareStrChar(c: number): boolean {
  return (
    isIdentChar(c) ||
    c === 0x2e || // .
    c === 0x3a || // :
    c === 0x3b || // ;
    c === 0x7c || // |
    c === 0x2d // -
  );
}

/**
 * Reads tokens from a position that the parser saves and restores to backtrack. Two modes: `peek`
 * and `next` read operator/identifier tokens (a word is IDENT-shaped, maximal); `readStr` reads a
 * STR, asked for only where the grammar expects one, since a bare STR overlaps words, numbers and
 * the `-` operator.
 */
class Tokenizer {
  pos = 0;
  private cachedAt = -1;
  private cached: Token = { kind: 'end', end: 0 };

  constructor(readonly text: string) {}

  private skipSpace(from: number): number {
    const { text } = this;
    let i = from;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    return i;
  }

  atEnd(): boolean {
    return this.skipSpace(this.pos) >= this.text.length;
  }

  /** The input from the next non-blank character to the end. */
  rest(): string {
    return this.text.slice(this.skipSpace(this.pos));
  }

  peek(): Token {
    if (this.cachedAt !== this.pos) {
      this.cached = this.scan(this.skipSpace(this.pos));
      this.cachedAt = this.pos;
    }
    return this.cached;
  }

  next(): Token {
    const token = this.peek();
    this.pos = token.end;
    return token;
  }

  private scan(start: number): Token {
    const { text } = this;
    if (start >= text.length) return { kind: 'end', end: start };
    const c = text.charCodeAt(start);
    if (isLetter(c)) {
      let end = start + 1;
      while (end < text.length && isIdentChar(text.charCodeAt(end))) end++;
      return { kind: 'word', text: text.slice(start, end), end };
    }
    switch (c) {
      case 0x28:
        return { kind: 'punct', text: '(', end: start + 1 };
      case 0x29:
        return { kind: 'punct', text: ')', end: start + 1 };
      case 0x2c:
        return { kind: 'punct', text: ',', end: start + 1 };
      case 0x2e:
        return { kind: 'punct', text: '.', end: start + 1 };
      case 0x3d:
        return { kind: 'punct', text: '=', end: start + 1 };
      case 0x2d:
        return { kind: 'punct', text: '-', end: start + 1 };
      case 0x3c: // <
        if (text.charCodeAt(start + 1) === 0x2d) return { kind: 'punct', text: '<-', end: start + 2 };
        break;
    }
    return { kind: 'invalid', end: start + 1 };
  }

  /**
   * A STR at the current position, unescaped, or null (position unchanged) if there is none.
   * An unclosed quoted string throws the whole-input error.
   */
  readStr(): string | null {
    const { text } = this;
    const start = this.skipSpace(this.pos);
    if (start >= text.length) return null;
    if (text.charCodeAt(start) === QUOTE) {
      let value = '';
      let from = start + 1;
      let i = from;
      for (;;) {
        if (i >= text.length) throw wholeInputError(text);
        const c = text.charCodeAt(i);
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          if (i + 1 >= text.length) throw wholeInputError(text);
          value += text.slice(from, i);
          from = i + 1; // the escaped character starts the next chunk
          i += 2;
        } else {
          i++;
        }
      }
      this.pos = i + 1;
      return value + text.slice(from, i);
    }
    let end = start;
    while (end < text.length && isBareStrChar(text.charCodeAt(end))) end++;
    if (end === start) return null;
    this.pos = end;
    return text.slice(start, end);
  }
}

// ---------------------------------------------------------------------------------------------
// Parser: each rule returns its node and advances, or returns null and leaves the position as it
// found it.

class Parser {
  readonly tokens: Tokenizer;

  constructor(readonly text: string) {
    this.tokens = new Tokenizer(text);
  }

  /** expr := or_expr. `depth` counts the enclosing parentheses and `get`. */
  expr(depth: number): FilterExpr | null {
    if (depth > MAX_FILTER_DEPTH) throw wholeInputError(this.text);
    return this.orExpr(depth);
  }

  /** or_expr := and_expr { ("or" | "OR") and_expr } */
  private orExpr(depth: number): FilterExpr | null {
    let left = this.andExpr(depth);
    if (left === null) return null;
    for (;;) {
      const save = this.tokens.pos;
      if (!this.acceptKeyword('or', 'OR')) break;
      const right = this.andExpr(depth);
      if (right === null) {
        this.tokens.pos = save;
        break;
      }
      left = { kind: 'or', left, right };
    }
    return left;
  }

  /** and_expr := diff_expr { ("and" | "AND") diff_expr } */
  private andExpr(depth: number): FilterExpr | null {
    let left = this.diffExpr(depth);
    if (left === null) return null;
    for (;;) {
      const save = this.tokens.pos;
      if (!this.acceptKeyword('and', 'AND')) break;
      const right = this.diffExpr(depth);
      if (right === null) {
        this.tokens.pos = save;
        break;
      }
      left = { kind: 'and', left, right };
    }
    return left;
  }

  /** diff_expr := leaf { "-" leaf } */
  private diffExpr(depth: number): FilterExpr | null {
    let left = this.leaf(depth);
    if (left === null) return null;
    for (;;) {
      const save = this.tokens.pos;
      if (!this.acceptPunct('-')) break;
      const right = this.leaf(depth);
      if (right === null) {
        this.tokens.pos = save;
        break;
      }
      left = { kind: 'diff', left, right };
    }
    return left;
  }

  /** leaf := "(" expr ")" | pred | ("get" | "GET") IDENT "<-" expr */
  private leaf(depth: number): FilterExpr | null {
    const save = this.tokens.pos;
    if (this.acceptPunct('(')) {
      const inner = this.expr(depth + 1);
      if (inner !== null && this.acceptPunct(')')) return inner;
      this.tokens.pos = save;
      return null;
    }
    return this.pred() ?? this.getExpr(depth);
  }

  /** ("get" | "GET") IDENT "<-" expr */
  private getExpr(depth: number): FilterExpr | null {
    const save = this.tokens.pos;
    if (this.acceptKeyword('get', 'GET')) {
      const type = this.ident();
      if (type !== null && this.acceptPunct('<-')) {
        const expr = this.expr(depth + 1);
        if (expr !== null) return { kind: 'get', type, expr };
      }
    }
    this.tokens.pos = save;
    return null;
  }

  /**
   * pred := "all" | "empty"
   *       | IDENT "." IDENT ( "(" args ")" | "=" STR | "DWITHIN" dwithin_args )
   * (`DWITHIN` only after the method name `coord`.)
   */
  private pred(): FilterExpr | null {
    if (this.acceptKeyword('all')) return { kind: 'all' };
    if (this.acceptKeyword('empty')) return { kind: 'empty' };
    const save = this.tokens.pos;
    const node = this.call();
    if (node === null) this.tokens.pos = save;
    return node;
  }

  /** The IDENT "." IDENT forms of pred; may leave the position moved when returning null. */
  private call(): FilterExpr | null {
    const type = this.ident();
    if (type === null || !this.acceptPunct('.')) return null;
    const method = this.ident();
    if (method === null) return null;
    if (this.acceptPunct('(')) {
      const args = this.args();
      return args === null ? null : { kind: 'method', type, method, args };
    }
    if (this.acceptPunct('=')) {
      const value = this.tokens.readStr();
      return value === null ? null : { kind: 'method', type, method, args: [value] };
    }
    if (method === 'coord' && this.acceptKeyword('DWITHIN')) return this.dwithin(type);
    return null;
  }

  /** After "(": [ STR { "," STR } ] ")" */
  private args(): string[] | null {
    const args: string[] = [];
    if (this.acceptPunct(')')) return args;
    for (;;) {
      const value = this.tokens.readStr();
      if (value === null) return null;
      args.push(value);
      if (this.acceptPunct(')')) return args;
      if (!this.acceptPunct(',')) return null;
    }
  }

  /** After "DWITHIN": "(" STR "," STR "," STR ")" */
  private dwithin(type: string): FilterExpr | null {
    if (!this.acceptPunct('(')) return null;
    const lon = this.tokens.readStr();
    if (lon === null || !this.acceptPunct(',')) return null;
    const lat = this.tokens.readStr();
    if (lat === null || !this.acceptPunct(',')) return null;
    const distance = this.tokens.readStr();
    if (distance === null || !this.acceptPunct(')')) return null;
    return { kind: 'dwithin', type, lon, lat, distance };
  }

  /** IDENT: any word, keywords included (`and.uri=1` names the type `and`). */
  private ident(): string | null {
    const token = this.tokens.peek();
    if (token.kind !== 'word') return null;
    this.tokens.next();
    return token.text;
  }

  private acceptKeyword(spelling: string, other?: string): boolean {
    const token = this.tokens.peek();
    if (token.kind !== 'word' || (token.text !== spelling && token.text !== other)) return false;
    this.tokens.next();
    return true;
  }

  private acceptPunct(text: Punct): boolean {
    const token = this.tokens.peek();
    if (token.kind !== 'punct' || token.text !== text) return false;
    this.tokens.next();
    return true;
  }
}
