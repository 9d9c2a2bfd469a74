/**
 * Abstract syntax tree of the PT-referential filter language (the `filter=` query parameter).
 *
 * The grammar (operators left-associative, `-` binds tightest, then `and`, then `or`):
 *
 *   expr      := and_expr { ("OR" | "or") and_expr }
 *   and_expr  := diff_expr { ("AND" | "and") diff_expr }
 *   diff_expr := leaf { "-" leaf }
 *   leaf      := "(" expr ")" | ("get" | "GET") IDENT "<-" expr | pred
 *   pred      := "all" | "empty"
 *              | IDENT "." IDENT "(" [ STR { "," STR } ] ")"     method call
 *              | IDENT "." IDENT "=" STR                        sugar for a one-argument call
 *              | IDENT "." "coord" "DWITHIN" "(" STR "," STR "," STR ")"
 *
 * The parser knows only syntax: whether a type or method exists is decided by the evaluator.
 */
export type FilterExpr =
  | { kind: 'all' }
  | { kind: 'empty' }
  | { kind: 'and'; left: FilterExpr; right: FilterExpr }
  | { kind: 'or'; left: FilterExpr; right: FilterExpr }
  /** Set difference: objects of `left` that are not in `right`. */
  | { kind: 'diff'; left: FilterExpr; right: FilterExpr }
  /** `get T <- expr`: evaluate `expr` as objects of type `T`, then convert to the requested type. */
  | { kind: 'get'; type: string; expr: FilterExpr }
  /** `T.m(a, b)` and its sugar `T.m=a` (one argument). Arguments are unquoted and unescaped. */
  | { kind: 'method'; type: string; method: string; args: string[] }
  /** `T.coord DWITHIN(lon, lat, distance)`: the three arguments as written (unquoted). */
  | { kind: 'dwithin'; type: string; lon: string; lat: string; distance: string };

/** A filter that cannot be parsed or evaluated, with the engine's error id and message. */
export class FilterError extends Error {
  constructor(
    readonly id: 'unable_to_parse' | 'bad_filter' | 'unknown_object',
    message: string,
  ) {
    super(message);
    this.name = 'FilterError';
  }
}
