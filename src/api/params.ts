/**
 * Query parameters declared as data: one table per endpoint drives parsing, validation messages
 * (Navitia's family-A errors), and the API documents. No parameter is described twice.
 */
import { DatetimeParseError, parseDatetimeParam } from '../util/api-datetime.js';
import { parameterError } from './errors.js';
import { valuesOf, type QueryPair } from './query-string.js';

export type ParamKind = 'int' | 'uint' | 'float' | 'bool' | 'string' | 'enum' | 'datetime';

export interface ParamSpec {
  /** Name in the query string (snake_case; `[]` is added for arrays). */
  name: string;
  kind: ParamKind;
  /** Repeatable: `name[]=a&name[]=b` (the bare `name=a` form is accepted too). */
  array?: boolean;
  default?: number | string | boolean;
  /** Allowed values of an enum (or of each item of an enum array). */
  values?: readonly string[];
  description: string;
  /** Values below `min` or above `max` are refused; above `clampMax` they are lowered to it. */
  min?: number;
  max?: number;
  clampMax?: number;
  /** Not advertised in documents (still parsed). */
  hidden?: boolean;
  deprecated?: boolean;
}

export type ParamValue = number | string | boolean | string[] | undefined;
export type ParsedParams = Record<string, ParamValue>;

/**
 * Parse and validate the parameters of `specs` from the query pairs. A scalar given several times
 * is validated each time and the first value is used. Unknown parameters are ignored.
 * Datetimes are validated here and returned as written (their time zone is the coverage's).
 */
export function parseParams(specs: readonly ParamSpec[], pairs: QueryPair[]): ParsedParams {
  const out: ParsedParams = {};
  for (const spec of specs) {
    const raw = spec.array ? valuesOf(pairs, spec.name) : pairs.filter((p) => p.name === spec.name).map((p) => p.value);
    if (spec.array) {
      out[spec.name] = raw.map((v) => String(parseOne(spec, v)));
      continue;
    }
    if (raw.length === 0) {
      out[spec.name] = spec.default;
      continue;
    }
    const values = raw.map((v) => parseOne(spec, v));
    out[spec.name] = values[0];
  }
  return out;
}

function parseOne(spec: ParamSpec, text: string): number | string | boolean {
  const fail = (reason: string) => parameterError(spec.name + (spec.array ? '[]' : ''), reason, spec.description);
  switch (spec.kind) {
    case 'string':
      return text;
    case 'int': {
      if (!/^\s*[+-]?\d+\s*$/.test(text)) throw fail(`invalid literal for int() with base 10: '${text}'`);
      const v = Number(text.trim());
      return checkRange(spec, v, fail);
    }
    case 'uint': {
      if (!/^\s*[+-]?\d+\s*$/.test(text)) throw fail(`Unable to evaluate, invalid literal for int() with base 10: '${text}'`);
      const v = Number(text.trim());
      if (v < 0) throw fail('Unable to evaluate, invalid unsigned int');
      return checkRange(spec, v, fail);
    }
    case 'float': {
      const v = Number(text);
      if (text.trim() === '' || !Number.isFinite(v)) throw fail(`could not convert string to float: '${text}'`);
      if (spec.min !== undefined && spec.max !== undefined && (v < spec.min || v > spec.max)) {
        throw fail(`The ${spec.name} argument has to be in range [${spec.min}, ${spec.max}], you gave : ${text}`);
      }
      return checkRange(spec, v, fail);
    }
    case 'bool': {
      const lower = text.toLowerCase();
      if (lower === '') throw fail('boolean type must be non-null');
      if (lower === 'true' || lower === '1') return true;
      if (lower === 'false' || lower === '0') return false;
      throw fail(`Invalid literal for boolean(): ${lower}`);
    }
    case 'enum': {
      const name = spec.name + (spec.array ? '[]' : '');
      if (!spec.values!.includes(text)) throw fail(`The ${name} argument must be in list ${pythonList(spec.values!)}, you gave ${text}`);
      return text;
    }
    case 'datetime': {
      try {
        parseDatetimeParam(text, 'UTC');
      } catch (e) {
        if (e instanceof DatetimeParseError) throw fail(`Unable to parse datetime, ${e.reason}`);
        throw e;
      }
      return text;
    }
  }
}

function checkRange(spec: ParamSpec, v: number, fail: (reason: string) => Error): number {
  if (!Number.isSafeInteger(Math.trunc(v)) && spec.kind !== 'float') throw fail(`The ${spec.name} argument is too large, you gave : ${v}`);
  if (spec.min !== undefined && v < spec.min) throw fail(`The ${spec.name} argument has to be >= ${spec.min}, you gave : ${v}`);
  if (spec.max !== undefined && v > spec.max) throw fail(`The ${spec.name} argument has to be <= ${spec.max}, you gave : ${v}`);
  if (spec.clampMax !== undefined && v > spec.clampMax) return spec.clampMax;
  return v;
}

function pythonList(values: readonly string[]): string {
  return `[${values.map((v) => `'${v}'`).join(', ')}]`;
}

/** Resolve a validated datetime parameter in the coverage's time zone (epoch seconds). */
export function resolveDatetime(text: string | undefined, timeZone: string): number | undefined {
  return text === undefined ? undefined : parseDatetimeParam(text, timeZone);
}

/** Swagger 2.0 query parameter objects of a table (hidden parameters left out), for `OPTIONS ?schema=true`. */
export function swaggerParameters(specs: readonly ParamSpec[]): Record<string, unknown>[] {
  const typeOf = (kind: ParamKind) => (kind === 'int' || kind === 'uint' ? 'integer' : kind === 'float' ? 'number' : kind === 'bool' ? 'boolean' : 'string');
  return specs
    .filter((spec) => !spec.hidden)
    .map((spec) => {
      const item: Record<string, unknown> = { type: typeOf(spec.kind) };
      if (spec.values) item['enum'] = [...spec.values];
      const p: Record<string, unknown> = { name: spec.array ? `${spec.name}[]` : spec.name, in: 'query', required: false, description: spec.description };
      if (spec.array) Object.assign(p, { type: 'array', items: item, collectionFormat: 'multi' });
      else Object.assign(p, item);
      if (spec.default !== undefined) p['default'] = spec.default;
      if (spec.min !== undefined) p['minimum'] = spec.min;
      if (spec.max !== undefined) p['maximum'] = spec.max;
      if (spec.deprecated) p['x-deprecated'] = true; // Swagger 2.0 parameters have no `deprecated`
      return p;
    });
}
