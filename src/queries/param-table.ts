/**
 * Parameters declared as data: one table per request drives parsing, validation messages and the
 * API's documents, and both front doors read it (the API from its query string, the command line
 * from its options: `GivenValues`). No parameter is described twice.
 */
import { DatetimeParseError, parseDatetimeParam } from '../util/api-datetime.js';
import { refuse } from './query-errors.js';

export type ParamKind = 'int' | 'uint' | 'float' | 'bool' | 'string' | 'enum' | 'datetime';

export interface ParamSpec {
  /** Name in the query string (snake_case; `[]` is added for arrays). */
  name: string;
  kind: ParamKind;
  /** Repeatable: `name[]=a&name[]=b` (the bare `name=a` form is accepted too). */
  array?: boolean;
  default?: number | string | boolean;
  /**
   * The value when neither the request nor what stands in for it (a heat map's traveller profile)
   * gives one: shown as the default in the documents, applied by the endpoint, which knows the order.
   */
  fallback?: number;
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
  /** Refused when missing (absent, empty or 0) unless the parameter named `unless` (or one of them) is given. */
  required?: { error: () => Error; unless?: string | readonly string[] };
  /** Refused with `error` when given together with the parameter `name` (or one of them). */
  exclusiveWith?: { name: string | readonly string[]; error: () => Error };
  /** An array refused with `error` when it has more than `count` items. */
  maxItems?: { count: number; error: () => Error };
}

interface KindValues {
  int: number;
  uint: number;
  float: number;
  bool: boolean;
  string: string;
  enum: string;
  datetime: string;
}

/** The value type of one parameter: its enum's values, else its kind's type. */
type ValueOf<S extends ParamSpec> = S extends { kind: 'enum'; values: readonly (infer V extends string)[] } ? V : KindValues[S['kind']];

/** Arrays are always there (maybe empty); scalars with a default or always required are always there. */
type ParsedValue<S extends ParamSpec> = S extends { array: true }
  ? ValueOf<S>[]
  : S extends { default: number | string | boolean }
    ? ValueOf<S>
    : S extends { required: infer R }
      ? R extends { unless: string | readonly string[] }
        ? ValueOf<S> | undefined
        : ValueOf<S>
      : ValueOf<S> | undefined;

/** The parsed parameters of a table, typed from the table itself. */
export type ParamsOf<T extends readonly ParamSpec[]> = { [S in T[number] as S['name']]: ParsedValue<S> };

type ParamValue = number | string | boolean | string[] | number[] | undefined;

/**
 * The raw values a front door was given for one parameter of a table, in order: the API reads them
 * from its query string (`name` and `name[]`), the command line from its `--kebab-case` options.
 */
export type GivenValues = (spec: ParamSpec) => string[];

/**
 * Parse and validate the parameters of `specs` from what was given. A scalar given several times
 * is validated each time and the first value is used. Unknown parameters are ignored.
 * Datetimes are validated here and returned as written (their time zone is the coverage's).
 * Then the rules between parameters, in Navitia's order: every `required` in table order, then every
 * `maxItems`, then every `exclusiveWith`.
 */
export function parseParams<const T extends readonly ParamSpec[]>(specs: T, given: GivenValues): ParamsOf<T> {
  const out = parseValues(specs, given);
  const isGiven = (name: string) => {
    const v = out[name];
    return v !== undefined && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0);
  };
  const anyGiven = (names: string | readonly string[]) => (typeof names === 'string' ? isGiven(names) : names.some(isGiven));
  for (const spec of specs) {
    if (spec.required && !isGiven(spec.name) && !(spec.required.unless !== undefined && anyGiven(spec.required.unless))) throw spec.required.error();
  }
  for (const spec of specs) {
    if (spec.maxItems && (out[spec.name] as unknown[]).length > spec.maxItems.count) throw spec.maxItems.error();
  }
  for (const spec of specs) {
    if (spec.exclusiveWith && isGiven(spec.name) && anyGiven(spec.exclusiveWith.name)) throw spec.exclusiveWith.error();
  }
  return out as ParamsOf<T>;
}

function parseValues(specs: readonly ParamSpec[], given: GivenValues): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const spec of specs) {
    const raw = given(spec);
    if (spec.array) {
      out[spec.name] = raw.map((v) => parseOne(spec, v)) as string[] | number[];
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
  const fail = (reason: string) => refuse('invalidParameter', { name: spec.name + (spec.array ? '[]' : ''), reason, help: spec.description });
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

/** Hidden parameter of every endpoint: the "now" of the request, in UTC. */
export const CURRENT_DATETIME = {
  name: '_current_datetime',
  kind: 'datetime',
  description: 'The date and time taken as now (UTC), for tests and for statuses relative to now.',
  hidden: true,
} as const satisfies ParamSpec;

/** The request's now in epoch seconds: `_current_datetime` when given, else the clock. */
export function requestNow(params: { _current_datetime?: string | undefined }): number {
  const text = params._current_datetime;
  return text !== undefined ? parseDatetimeParam(text, 'UTC') : Math.floor(Date.now() / 1000);
}

/** Resolve a validated datetime parameter in the coverage's time zone (epoch seconds). */
export function resolveDatetime(text: string | undefined, timeZone: string): number | undefined {
  return text === undefined ? undefined : parseDatetimeParam(text, timeZone);
}
