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

/** The prefix of the evaluator's messages (Navitia's). */
const PARSE = 'Unable to parse :';

/**
 * The filter's errors, each once, as a factory of its error (the values a message quotes are its
 * arguments): Navitia's ids and words. The API's catalogue lists them with its own (api/errors.ts).
 */
export const FILTER_ERRORS = {
  syntax: (text: string) => new FilterError('unable_to_parse', `Filter: unable to parse ${text}`),
  trailing: (rest: string) => new FilterError('unable_to_parse', `Filter: Unable to parse the whole string. Not parsed: >>${rest}<<`),
  unknownType: (type: string) => new FilterError('unable_to_parse', `${PARSE}Filter Unknown object type: ${type}`),
  unknownFunction: (call: string) => new FilterError('unable_to_parse', `${PARSE}Unknown function: ${call}`),
  noWithin: (type: string) => new FilterError('unable_to_parse', `${PARSE}${type} doesn't implement within`),
  badCoordinate: (coord: string) => new FilterError('unable_to_parse', `${PARSE}Bad coordinate: ${coord}`),
  badDistance: (distance: string) => new FilterError('unable_to_parse', `${PARSE}Bad distance: ${distance}`),
  noValidityPeriod: () => new FilterError('unable_to_parse', `${PARSE}cannot filter on validity period for this type`),
  notUtc: (text: string) => new FilterError('unable_to_parse', `${PARSE}only UTC datetime are allowed (must finish with 'Z'): ${text}`),
  badDatetime: (text: string) => new FilterError('unable_to_parse', `${PARSE}failed to parse datetime ${text}`),
  invalidPeriod: () => new FilterError('bad_filter', 'ptref : invalid filtering period'),
  nothingFound: () => new FilterError('bad_filter', 'ptref : Filters: Unable to find object'),
} as const;

/** A filter error met while parsing the query's own filter, as Navitia words it. */
export const unparsable = (e: FilterError) => new FilterError(e.id, `${PARSE}${e.message}`);

