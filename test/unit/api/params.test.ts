/** The parameter tables' rules between parameters, their order, and what the schema says of them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseParams, swaggerParameters, unknownParameters } from '../../../src/api/params.js';
import { plainError, type ApiError } from '../../../src/api/errors.js';
import { parseQueryString } from '../../../src/api/query-string.js';
import type { ParamSpec } from '../../../src/queries/param-table.js';

const noCentre = () => plainError(400, 'no centre');
const noDuration = () => plainError(400, 'no duration');
const tooMany = () => plainError(400, 'too many');
const both = () => plainError(400, 'both');

const TABLE = [
  { name: 'from', kind: 'string', required: { error: noCentre, unless: 'to' }, exclusiveWith: { name: 'to', error: both }, description: 'f' },
  { name: 'to', kind: 'string', description: 't' },
  { name: 'max_duration', kind: 'uint', required: { error: noDuration, unless: 'bounds' }, description: 'm' },
  { name: 'bounds', kind: 'int', array: true, maxItems: { count: 2, error: tooMany }, description: 'b' },
  { name: 'count', kind: 'int', default: 25, description: 'c' },
] as const satisfies readonly ParamSpec[];

const messageOf = (query: string): string | undefined => {
  try {
    parseParams(TABLE, parseQueryString(query));
    return undefined;
  } catch (e) {
    return ((e as ApiError).body as { message: string }).message;
  }
};

test('rules run in order: every required, then every item count, then every exclusion', () => {
  assert.equal(messageOf(''), 'no centre');
  assert.equal(messageOf('from=a'), 'no duration');
  assert.equal(messageOf('from=a&to=b'), 'no duration', 'a missing duration comes before two centres');
  assert.equal(messageOf('from=a&to=b&bounds[]=1&bounds[]=2&bounds[]=3'), 'too many', 'too many items come before two centres');
  assert.equal(messageOf('from=a&to=b&max_duration=10'), 'both');
  assert.equal(messageOf('to=b&bounds[]=1&bounds[]=2'), undefined, 'required unless another is given');
  assert.equal(messageOf('from=a&max_duration=10'), undefined);
});

test('empty and zero count as missing', () => {
  assert.equal(messageOf('from=&to=b&max_duration=10'), undefined, 'an empty from with a to is one centre');
  assert.equal(messageOf('from=&max_duration=10'), 'no centre');
  assert.equal(messageOf('from=a&max_duration=0'), 'no duration');
});

test('parsed values are typed from the table: defaults filled, arrays always there', () => {
  const p = parseParams(TABLE, parseQueryString('from=a&max_duration=10'));
  const count: number = p.count;
  const bounds: number[] = p.bounds;
  assert.equal(count, 25);
  assert.deepEqual(bounds, []);
  assert.equal(p.to, undefined);
});

test('the schema marks a parameter required only when nothing else can stand for it', () => {
  const table = [...TABLE, { name: 'key', kind: 'string', required: { error: noCentre }, description: 'k' }] as const satisfies readonly ParamSpec[];
  const required = swaggerParameters(table).filter((p) => p['required'] === true).map((p) => p['name']);
  assert.deepEqual(required, ['key']);
});

test('the unknown parameters of a query are those no spec of the table names, each once, in the order given', () => {
  const pairs = parseQueryString('from=A&resoluton=3&bounds[]=1&bounds=2&cont=2&count=1&cont=3&to[]=B&_x=1');
  // an array's bare and [] forms are known; a scalar's [] form is not
  assert.deepEqual(unknownParameters(TABLE, pairs), ['resoluton', 'cont', 'to[]', '_x']);
  assert.deepEqual(unknownParameters(TABLE, parseQueryString('from=A&count=2')), []);
});
