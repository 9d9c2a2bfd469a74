import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FilterError, type FilterExpr } from '../../../src/ptref/filter-ast.js';
import { MAX_FILTER_DEPTH, parseFilter, quoteFilterString } from '../../../src/ptref/filter-parser.js';

// ---------------------------------------------------------------------------------------------
// Helpers

/** A compact, fully parenthesised rendering, in the style of Navitia's own AST printer. */
function show(e: FilterExpr): string {
  switch (e.kind) {
    case 'all':
    case 'empty':
      return e.kind;
    case 'and':
      return `(${show(e.left)} AND ${show(e.right)})`;
    case 'or':
      return `(${show(e.left)} OR ${show(e.right)})`;
    case 'diff':
      return `(${show(e.left)} - ${show(e.right)})`;
    case 'get':
      return `(GET ${e.type} <- ${show(e.expr)})`;
    case 'method':
      return `${e.type}.${e.method}(${e.args.map(q).join(', ')})`;
    case 'dwithin':
      return `${e.type}.coord DWITHIN(${[e.lon, e.lat, e.distance].map(q).join(', ')})`;
  }
}

/** Quote for `show`, written independently of quoteFilterString. */
function q(s: string): string {
  return '"' + s.split('\\').join('\\\\').split('"').join('\\"') + '"';
}

function parsesAs(input: string, expected: string): void {
  assert.equal(show(parseFilter(input)), expected, `input: ${JSON.stringify(input)}`);
}

function method(type: string, name: string, ...args: string[]): FilterExpr {
  return { kind: 'method', type, method: name, args };
}

function filterError(input: string): FilterError {
  try {
    parseFilter(input);
  } catch (e) {
    assert.ok(e instanceof FilterError, `expected a FilterError for ${JSON.stringify(input)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be rejected`);
}

/** The "nothing parses" error: the message quotes the whole input. */
function rejectsWhole(input: string): void {
  const e = filterError(input);
  assert.equal(e.id, 'unable_to_parse');
  assert.equal(e.message, `Filter: unable to parse ${input}`);
}

/** The "a prefix parses" error: the message quotes what is left. */
function rejectsRest(input: string, rest: string): void {
  const e = filterError(input);
  assert.equal(e.id, 'unable_to_parse');
  assert.equal(e.message, `Filter: Unable to parse the whole string. Not parsed: >>${rest}<<`);
}

// ---------------------------------------------------------------------------------------------

describe('parseFilter: empty input and constants', () => {
  test('an empty string is read as all', () => {
    assert.deepEqual(parseFilter(''), { kind: 'all' });
  });

  test('a string of blanks (spaces, tabs, newlines) is read as all', () => {
    assert.deepEqual(parseFilter('  \t\r\n  '), { kind: 'all' });
  });

  test('all and empty parse, with blanks around them', () => {
    assert.deepEqual(parseFilter('  all  '), { kind: 'all' });
    assert.deepEqual(parseFilter('  empty  '), { kind: 'empty' });
  });

  test('all and empty are case-sensitive', () => {
    rejectsWhole('ALL');
    rejectsWhole('Empty');
  });
});

describe('parseFilter: predicates', () => {
  test('a method call without arguments has an empty argument list', () => {
    assert.deepEqual(parseFilter('line . a ( ) '), method('line', 'a'));
    assert.deepEqual(parseFilter('vehicle_journey.has_disruption()'), method('vehicle_journey', 'has_disruption'));
  });

  test('a method call takes bare and quoted arguments, separated by commas', () => {
    assert.deepEqual(
      parseFilter('vehicle_journey . has_code ( external_code , "OIF:42" ) '),
      method('vehicle_journey', 'has_code', 'external_code', 'OIF:42'),
    );
    assert.deepEqual(parseFilter('T.m(a, "b")'), method('T', 'm', 'a', 'b'));
    parsesAs('vehicle_journey . has_code_type ( external_code ) ', 'vehicle_journey.has_code_type("external_code")');
    parsesAs('route . has_direction_type ( forward ) ', 'route.has_direction_type("forward")');
    parsesAs('route.has_direction_type(forward,backward)', 'route.has_direction_type("forward", "backward")');
  });

  test('T.m=X is sugar for a one-argument call', () => {
    assert.deepEqual(parseFilter('trip.uri=vjA'), method('trip', 'uri', 'vjA'));
    parsesAs('stop_area . uri ( "OIF:42" ) ', 'stop_area.uri("OIF:42")');
    parsesAs('stop_area . uri = "OIF:42" ', 'stop_area.uri("OIF:42")');
    parsesAs('stop_area . uri = OIF:42 ', 'stop_area.uri("OIF:42")');
    parsesAs('stop_area . uri = foo ', 'stop_area.uri("foo")');
    parsesAs('stop_area . uri = 42 ', 'stop_area.uri("42")');
    parsesAs('stop_area . uri = 1ee7_: ', 'stop_area.uri("1ee7_:")');
  });

  test('a bare value takes letters, digits and _ . : ; | -', () => {
    assert.deepEqual(parseFilter('line.uri=aZ09_.:;|-x'), method('line', 'uri', 'aZ09_.:;|-x'));
    assert.deepEqual(parseFilter('line.uri=-0.5'), method('line', 'uri', '-0.5'));
  });

  test('a bare value ends at any other character', () => {
    rejectsRest('line.uri=a&b', '&b');
    rejectsRest('line.uri=a/b', '/b');
    rejectsRest('line.uri=a b', 'b');
  });

  test('non-ASCII values must be quoted', () => {
    rejectsWhole('line.uri=é');
    rejectsRest('line.uri=aé', 'é');
    assert.deepEqual(parseFilter('line.uri="é"'), method('line', 'uri', 'é'));
  });

  test('the legacy equality tests of the engine parse as one-argument calls', () => {
    parsesAs('stop_areas.uri=42', 'stop_areas.uri("42")');
    parsesAs('line.code=42', 'line.code("42")');
    parsesAs('  stop_areas.uri    =  42    ', 'stop_areas.uri("42")');
    parsesAs('stop_areas.uri = 42 and  line.name=bus', '(stop_areas.uri("42") AND line.name("bus"))');
    parsesAs('stop_areas.uri="42"', 'stop_areas.uri("42")');
    parsesAs('stop_areas.uri="4-2"', 'stop_areas.uri("4-2")');
    parsesAs('stop_areas.uri="4|2"', 'stop_areas.uri("4|2")');
    parsesAs('stop_areas.uri="42."', 'stop_areas.uri("42.")');
    parsesAs('stop_areas.uri="42 12"', 'stop_areas.uri("42 12")');
    parsesAs('stop_areas.uri="  42  "', 'stop_areas.uri("  42  ")');
    parsesAs('stop_areas.uri="4&2"', 'stop_areas.uri("4&2")');
    parsesAs('stop_areas.uri="bob the coolest"', 'stop_areas.uri("bob the coolest")');
    parsesAs('stop_areas.uri="bob the coolést"', 'stop_areas.uri("bob the coolést")');
    parsesAs('vehicle_journey.has_headsign("john")', 'vehicle_journey.has_headsign("john")');
  });

  test('the predicates of the trips spec parse with their arguments as written', () => {
    assert.deepEqual(
      parseFilter('vehicle_journey.between("20240101T000000Z","20240101T235959Z",realtime)'),
      method('vehicle_journey', 'between', '20240101T000000Z', '20240101T235959Z', 'realtime'),
    );
    assert.deepEqual(
      parseFilter('vehicle_journey.since(20240101T000000Z, base_schedule)'),
      method('vehicle_journey', 'since', '20240101T000000Z', 'base_schedule'),
    );
    assert.deepEqual(
      parseFilter('vehicle_journey.active_at("20210910T151500Z", "realtime")'),
      method('vehicle_journey', 'active_at', '20210910T151500Z', 'realtime'),
    );
    assert.deepEqual(parseFilter('line.odt_level=zonal'), method('line', 'odt_level', 'zonal'));
    assert.deepEqual(parseFilter('line.code=1A'), method('line', 'code', '1A'));
    assert.deepEqual(parseFilter('vehicle_journey.name="vjA"'), method('vehicle_journey', 'name', 'vjA'));
    assert.deepEqual(
      parseFilter('vehicle_journey.has_code(source, source_code_vjA)'),
      method('vehicle_journey', 'has_code', 'source', 'source_code_vjA'),
    );
    assert.deepEqual(parseFilter('disruption.tag="my_tag name"'), method('disruption', 'tag', 'my_tag name'));
    assert.deepEqual(
      parseFilter('disruption.tags("tag_0 name", "tag_2 name")'),
      method('disruption', 'tags', 'tag_0 name', 'tag_2 name'),
    );
  });

  test('within takes a distance and a "lon;lat" pair as plain arguments', () => {
    parsesAs('stop_point.within(42, -2.2;4.9e-2)', 'stop_point.within("42", "-2.2;4.9e-2")');
    assert.deepEqual(parseFilter('stop_point.within(200, "2.37;48.84")'), method('stop_point', 'within', '200', '2.37;48.84'));
  });

  test('an identifier starts with an ASCII letter, then letters, digits and underscores', () => {
    assert.deepEqual(parseFilter('a1_b.c_2=x'), method('a1_b', 'c_2', 'x'));
    rejectsWhole('1line.uri=a');
    rejectsWhole('_line.uri=a');
    rejectsWhole('line._uri=a');
    rejectsWhole('lïne.uri=a');
  });

  test('a predicate needs its type, its method and its value', () => {
    rejectsWhole('line');
    rejectsWhole('line.');
    rejectsWhole('line.uri');
    rejectsWhole('line.uri=');
    rejectsWhole('.uri=a');
    rejectsWhole('line.uri(a');
    rejectsWhole('line.uri(a,)');
    rejectsWhole('line.uri(,a)');
    rejectsWhole('line.uri(a b)');
    rejectsWhole('line uri=a');
  });

  test('the words all and empty are read as constants even before a dot', () => {
    rejectsRest('all.uri=1', '.uri=1');
    rejectsRest('empty.uri=1', '.uri=1');
  });

  test('other keywords may name a type, and a type name wins over get', () => {
    assert.deepEqual(parseFilter('get.uri=1'), method('get', 'uri', '1'));
    assert.deepEqual(parseFilter('and.uri=1'), method('and', 'uri', '1'));
    assert.deepEqual(parseFilter('get get <- all'), { kind: 'get', type: 'get', expr: { kind: 'all' } });
  });
});

describe('parseFilter: DWITHIN', () => {
  test('T.coord DWITHIN(lon, lat, distance) gives a dwithin node with the arguments as written', () => {
    assert.deepEqual(parseFilter('stop_point.coord DWITHIN(2.37, 48.84, 200)'), {
      kind: 'dwithin',
      type: 'stop_point',
      lon: '2.37',
      lat: '48.84',
      distance: '200',
    });
  });

  test('DWITHIN accepts negative and exponent numbers, quoted arguments and blanks', () => {
    assert.deepEqual(parseFilter('stop_point . coord DWITHIN ( -2.2 , 4.9e-2 , 42 ) '), {
      kind: 'dwithin',
      type: 'stop_point',
      lon: '-2.2',
      lat: '4.9e-2',
      distance: '42',
    });
    assert.deepEqual(parseFilter('stop_area.coord DWITHIN("-0.5", "45", "1e3")'), {
      kind: 'dwithin',
      type: 'stop_area',
      lon: '-0.5',
      lat: '45',
      distance: '1e3',
    });
  });

  test('DWITHIN combines with the other operators', () => {
    parsesAs(
      'stop_point.coord DWITHIN(1, 2, 3) and line.uri=L - stop_point.uri=S',
      '(stop_point.coord DWITHIN("1", "2", "3") AND (line.uri("L") - stop_point.uri("S")))',
    );
  });

  test('DWITHIN needs exactly three arguments', () => {
    rejectsWhole('stop_point.coord DWITHIN(1, 2)');
    rejectsWhole('stop_point.coord DWITHIN(1, 2, 3, 4)');
    rejectsWhole('stop_point.coord DWITHIN()');
    rejectsWhole('stop_point.coord DWITHIN(1, 2, 3');
  });

  test('DWITHIN is case-sensitive and follows only coord', () => {
    rejectsWhole('stop_point.coord dwithin(1, 2, 3)');
    rejectsWhole('stop_point.coords DWITHIN(1, 2, 3)');
  });

  test('coord glued to DWITHIN is one method name, left for the evaluator to refuse', () => {
    assert.deepEqual(parseFilter('stop_point.coordDWITHIN(1, 2, 3)'), method('stop_point', 'coordDWITHIN', '1', '2', '3'));
  });

  test('coord is an ordinary method name outside DWITHIN', () => {
    assert.deepEqual(parseFilter('stop_point.coord=x'), method('stop_point', 'coord', 'x'));
    assert.deepEqual(parseFilter('stop_point.coord(x)'), method('stop_point', 'coord', 'x'));
  });
});

describe('parseFilter: operators and precedence', () => {
  test('a and b or c and d means (a AND b) OR (c AND d)', () => {
    parsesAs('all and all or empty and all', '((all AND all) OR (empty AND all))');
  });

  test('a - b and c - d means (a - b) AND (c - d)', () => {
    parsesAs('all - all and empty - all', '((all - all) AND (empty - all))');
  });

  test('difference binds tighter than or', () => {
    parsesAs('all - all or empty - all', '((all - all) OR (empty - all))');
    parsesAs('all - all and empty - empty or empty - all', '(((all - all) AND (empty - empty)) OR (empty - all))');
  });

  test('every operator is left-associative', () => {
    parsesAs(' all - empty - all ', '((all - empty) - all)');
    parsesAs(' all and empty and all ', '((all AND empty) AND all)');
    parsesAs(' all or empty or all ', '((all OR empty) OR all)');
    parsesAs('all and all or empty and all or empty and all', '(((all AND all) OR (empty AND all)) OR (empty AND all))');
  });

  test('the difference tree is left-deep, so a - b - c removes both b and c from a', () => {
    assert.deepEqual(parseFilter('a.x=1 - b.x=2 - c.x=3'), {
      kind: 'diff',
      left: { kind: 'diff', left: method('a', 'x', '1'), right: method('b', 'x', '2') },
      right: method('c', 'x', '3'),
    });
  });

  test('both spellings of and and or are accepted', () => {
    parsesAs('all AND empty OR all', '((all AND empty) OR all)');
    parsesAs('all and empty or all', '((all AND empty) OR all)');
  });

  test('other spellings of and and or are rejected', () => {
    rejectsRest('all And empty', 'And empty');
    rejectsRest('all Or empty', 'Or empty');
    rejectsRest('all && empty', '&& empty');
    rejectsRest('all || empty', '|| empty');
  });

  test('operators need no blanks around punctuation', () => {
    parsesAs('all-empty', '(all - empty)');
    parsesAs('(all)and(empty)', '(all AND empty)');
    parsesAs('line.uri="a"-line.uri="b"', '(line.uri("a") - line.uri("b"))');
    parsesAs('line.uri=a and(line.uri=b)or line.uri=c', '((line.uri("a") AND line.uri("b")) OR line.uri("c"))');
  });

  test('keywords are whole words', () => {
    rejectsWhole('allx');
    rejectsRest('all andempty', 'andempty');
    rejectsRest('all and emptyx', 'and emptyx');
  });

  test('blanks of every kind separate tokens', () => {
    parsesAs('\tline.uri=a\nand\r\nline.uri=b\f', '(line.uri("a") AND line.uri("b"))');
  });
});

describe('parseFilter: parentheses', () => {
  test('parentheses around a single leaf leave it unchanged', () => {
    parsesAs(' ( all ) ', 'all');
    parsesAs('((((all))))', 'all');
  });

  test('parentheses override precedence', () => {
    parsesAs('( all and all ) - ( empty and all )', '((all AND all) - (empty AND all))');
    parsesAs('( all and all ) - ( empty or all ) ', '((all AND all) - (empty OR all))');
    parsesAs('all and (empty or all)', '(all AND (empty OR all))');
    parsesAs('all - (empty - all)', '(all - (empty - all))');
  });

  test('an unbalanced parenthesis is an error', () => {
    rejectsWhole('(all');
    rejectsWhole('(all and)');
    rejectsWhole('()');
    rejectsRest('all)', ')');
    rejectsRest('(all))', ')');
  });

  test(`up to ${MAX_FILTER_DEPTH} nested parentheses are accepted`, () => {
    const input = '('.repeat(MAX_FILTER_DEPTH) + 'line.uri=a' + ')'.repeat(MAX_FILTER_DEPTH);
    assert.deepEqual(parseFilter(input), method('line', 'uri', 'a'));
  });

  test('deeper nesting gives the whole-input error instead of overflowing the stack', () => {
    const n = MAX_FILTER_DEPTH + 1;
    rejectsWhole('('.repeat(n) + 'all' + ')'.repeat(n));
    rejectsWhole('all and ' + '('.repeat(5000) + 'all' + ')'.repeat(5000));
    rejectsWhole('get line <- '.repeat(n) + 'all');
  });
});

describe('parseFilter: get', () => {
  test('get T <- expr converts the inner expression from type T', () => {
    assert.deepEqual(parseFilter('get line <- all'), { kind: 'get', type: 'line', expr: { kind: 'all' } });
    parsesAs('GET line <- all', '(GET line <- all)');
    parsesAs('get line<-all', '(GET line <- all)');
  });

  test('get binds everything to its right', () => {
    parsesAs('get line <- empty and get stop_area <- all', '(GET line <- (empty AND (GET stop_area <- all)))');
    parsesAs('get line <- all or empty - all', '(GET line <- (all OR (empty - all)))');
    parsesAs('all and get line <- empty or all', '(all AND (GET line <- (empty OR all)))');
    parsesAs('all - get line <- empty and all', '(all - (GET line <- (empty AND all)))');
  });

  test('get stops at the closing parenthesis that encloses it', () => {
    parsesAs(
      '(get vehicle_journey <- stop_area.id=stop2) - stop_area.id=stop2',
      '((GET vehicle_journey <- stop_area.id("stop2")) - stop_area.id("stop2"))',
    );
    parsesAs('(get connection <- line.id=A) - line.id=A', '((GET connection <- line.id("A")) - line.id("A"))');
  });

  test(`get nests up to ${MAX_FILTER_DEPTH} levels`, () => {
    let expected = 'all';
    for (let i = 0; i < MAX_FILTER_DEPTH; i++) expected = `(GET line <- ${expected})`;
    parsesAs('get line <- '.repeat(MAX_FILTER_DEPTH) + 'all', expected);
  });

  test('get needs a type name, the arrow and an expression', () => {
    rejectsWhole('get <- all');
    rejectsWhole('get line all');
    rejectsWhole('get line <-');
    rejectsWhole('get line < - all');
    rejectsWhole('get 1 <- all');
    rejectsWhole('Get line <- all');
    rejectsRest('all and get line <-', 'and get line <-');
  });
});

describe('parseFilter: the difference operator and bare values', () => {
  test('a bare value may contain a dash', () => {
    assert.deepEqual(parseFilter('line.uri=A-1'), method('line', 'uri', 'A-1'));
    assert.deepEqual(parseFilter('line.uri=A-'), method('line', 'uri', 'A-'));
  });

  test('a dash after a blank is the difference operator', () => {
    parsesAs('line.uri=a - line.uri=b', '(line.uri("a") - line.uri("b"))');
    parsesAs('line.uri=a -line.uri=b', '(line.uri("a") - line.uri("b"))');
  });

  test('a dash glued to a bare value belongs to the value', () => {
    rejectsRest('line.uri=a- line.uri=b', 'line.uri=b');
    rejectsRest('line.uri=a-line.uri=b', '=b');
  });

  test('a dash after a quoted value or a parenthesis is the operator', () => {
    parsesAs('line.uri="a"- line.uri=b', '(line.uri("a") - line.uri("b"))');
    parsesAs('line.uri(a)-line.uri(b)', '(line.uri("a") - line.uri("b"))');
  });

  test('there is no NOT: all - X is the way to negate', () => {
    rejectsWhole('not line.uri=a');
    rejectsWhole('NOT line.uri=a');
    rejectsWhole('- line.uri=a');
    parsesAs('all - line.uri=a', '(all - line.uri("a"))');
  });
});

describe('parseFilter: quoted strings', () => {
  test('a quoted string may be empty or blank', () => {
    assert.deepEqual(parseFilter('a.a("")'), method('a', 'a', ''));
    assert.deepEqual(parseFilter('a.a("  ")'), method('a', 'a', '  '));
    assert.deepEqual(parseFilter('a.a = ""'), method('a', 'a', ''));
  });

  test('a backslash escapes a quote or a backslash, and the stored value is unescaped', () => {
    assert.deepEqual(parseFilter('a.a("\\"")'), method('a', 'a', '"'));
    assert.deepEqual(parseFilter('a.a("\\\\")'), method('a', 'a', '\\'));
    assert.deepEqual(parseFilter('stop_areas.uri="bob the \\"coolést\\""'), method('stop_areas', 'uri', 'bob the "coolést"'));
    assert.deepEqual(parseFilter('stop_areas.uri="bob the \\\\ er"'), method('stop_areas', 'uri', 'bob the \\ er'));
  });

  test('a backslash escapes any other character to itself', () => {
    assert.deepEqual(parseFilter('a.a="\\n\\t\\a"'), method('a', 'a', 'nta'));
    assert.deepEqual(parseFilter('a.a="x\\😀y"'), method('a', 'a', 'x😀y'));
  });

  test('a quoted string keeps operators, parentheses and blanks as text', () => {
    assert.deepEqual(parseFilter('a.a=") and (b.b=c or "'), method('a', 'a', ') and (b.b=c or '));
    assert.deepEqual(parseFilter('a.a("x, y", "<-")'), method('a', 'a', 'x, y', '<-'));
  });

  test('a quoted string holds any Unicode text', () => {
    assert.deepEqual(parseFilter('line.name="Gare de l’Est — 東京 🚆"'), method('line', 'name', 'Gare de l’Est — 東京 🚆'));
  });

  test('an unclosed quoted string gives the whole-input error, even after a valid prefix', () => {
    rejectsWhole('a.a="42');
    rejectsWhole('a.a="42\\"');
    rejectsWhole('a.a="42\\');
    rejectsWhole('all and line.uri="abc');
    rejectsWhole('all - a.a("x", "y)');
  });

  test('a quote where no value is expected is left unparsed', () => {
    rejectsRest('all "abc', '"abc');
  });

  test('quoted strings are not accepted as type or method names', () => {
    rejectsWhole('"line".uri=a');
    rejectsWhole('line."uri"=a');
  });
});

describe('parseFilter: error messages', () => {
  test('input that does not start with an expression quotes the whole input', () => {
    rejectsWhole('mouuuhh bliiii');
    rejectsWhole('stop_areas.uri==42');
    rejectsWhole('  line.uri=é and all  ');
  });

  test('the whole-input error is a FilterError with the unable_to_parse id', () => {
    const e = filterError('???');
    assert.equal(e.name, 'FilterError');
    assert.equal(e.id, 'unable_to_parse');
    assert.equal(e.message, 'Filter: unable to parse ???');
  });

  test('a trailing remainder is quoted from its first non-blank character to the end', () => {
    rejectsRest('all and', 'and');
    rejectsRest('all   and   ', 'and   ');
    rejectsRest('all or  empty )  ', ')  ');
    rejectsRest('line.uri=a line.uri=b', 'line.uri=b');
    rejectsRest('all and (all or)', 'and (all or)');
    rejectsRest('all and empty or', 'or');
    rejectsRest('all - ', '- ');
    rejectsRest('all\n\tfoo', 'foo');
  });

  test('the remainder starts after the longest expression that parses', () => {
    rejectsRest('line.uri=a and line.uri=b or line.code', 'or line.code');
    rejectsRest('(line.uri=a or line.uri=b) - x', '- x');
  });
});

describe('parseFilter: rejected old syntaxes', () => {
  test('HAVING is rejected', () => {
    rejectsWhole('stop_areas HAVING (line.uri=1)');
  });

  test('>= is rejected', () => {
    rejectsWhole('line.uri>=2');
  });

  test('<= is rejected', () => {
    rejectsWhole('line.uri<=2');
  });

  test('<> is rejected', () => {
    rejectsWhole('line.uri<>2');
  });

  test('AFTER(...) is rejected', () => {
    rejectsWhole('AFTER(stop_area.uri=stop2)');
  });

  test('the old syntaxes after a valid prefix leave the rest unparsed', () => {
    rejectsRest('all and line.uri>=2', 'and line.uri>=2');
    rejectsRest('all HAVING (line.uri=1)', 'HAVING (line.uri=1)');
  });
});

describe('parseFilter: size and speed', () => {
  test('a 10 KB filter of many clauses parses into a left-deep tree', { timeout: 5000 }, () => {
    const clauses = Array.from({ length: 500 }, (_, i) => `line.uri="L-${i}"`);
    const input = clauses.join(' or ');
    assert.ok(input.length >= 9000);
    let e = parseFilter(input);
    for (let i = 499; i > 0; i--) {
      assert.equal(e.kind, 'or');
      if (e.kind !== 'or') return;
      assert.deepEqual(e.right, method('line', 'uri', `L-${i}`));
      e = e.left;
    }
    assert.deepEqual(e, method('line', 'uri', 'L-0'));
  });

  test('long and pathological inputs fail fast', { timeout: 5000 }, () => {
    const big = 10_000;
    assert.deepEqual(parseFilter('a.b=' + 'x'.repeat(big)), method('a', 'b', 'x'.repeat(big)));
    assert.deepEqual(parseFilter('a.b="' + '\\"'.repeat(big / 2) + '"'), method('a', 'b', '"'.repeat(big / 2)));
    rejectsWhole('a.b="' + 'x'.repeat(big));
    rejectsWhole('('.repeat(big));
    rejectsRest('all' + ' and ('.repeat(1500), 'and (' + ' and ('.repeat(1499));
    rejectsRest('all' + ' -'.repeat(big / 2), '-' + ' -'.repeat(big / 2 - 1));
  });
});

describe('quoteFilterString', () => {
  test('it wraps the value in quotes and escapes backslashes and quotes', () => {
    assert.equal(quoteFilterString('abc'), '"abc"');
    assert.equal(quoteFilterString(''), '""');
    assert.equal(quoteFilterString('a"b'), '"a\\"b"');
    assert.equal(quoteFilterString('a\\b'), '"a\\\\b"');
    assert.equal(quoteFilterString('\\"'), '"\\\\\\""');
  });

  const tricky = [
    '',
    ' ',
    'vjA',
    'trip:1-2',
    'a b',
    '"',
    '""',
    '\\',
    '\\\\',
    '\\"',
    'ends with backslash\\',
    '"quoted"',
    'coolést',
    '東京',
    '🚆 train',
    'line\nbreak\ttab',
    ') or all or (',
    'and',
    '<-',
    'x" or all or a.b="y',
  ];

  test('parsing a quoted value gives the value back for tricky strings', () => {
    for (const value of tricky) {
      assert.deepEqual(parseFilter(`trip.uri=${quoteFilterString(value)}`), method('trip', 'uri', value), JSON.stringify(value));
    }
  });

  test('quoted values round-trip as method arguments and inside larger filters', () => {
    for (const value of tricky) {
      const input = `(all) and vehicle_journey.has_headsign(${quoteFilterString(value)}) - disruption.tags(${quoteFilterString(value)}, ${quoteFilterString(value + 'x')})`;
      assert.deepEqual(parseFilter(input), {
        kind: 'and',
        left: { kind: 'all' },
        right: {
          kind: 'diff',
          left: method('vehicle_journey', 'has_headsign', value),
          right: method('disruption', 'tags', value, value + 'x'),
        },
      });
    }
  });
});
