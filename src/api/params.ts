/**
 * The API's side of the parameter tables (queries/param-table.ts): the query string as what a table
 * reads, the parameters it does not know, the tables only the API has, and their Swagger objects.
 */
import { parseParams as parseGiven, type ParamKind, type ParamSpec, type ParamsOf } from '../queries/param-table.js';
import { valuesOf, type QueryPair } from './query-string.js';

/** The parameters of `specs` from the query string: an array's `name[]` and bare `name` forms, a scalar's `name`. */
export function parseParams<const T extends readonly ParamSpec[]>(specs: T, pairs: QueryPair[]): ParamsOf<T> {
  return parseGiven(specs, (spec) => (spec.array ? valuesOf(pairs, spec.name) : pairs.filter((p) => p.name === spec.name).map((p) => p.value)));
}

/**
 * The query parameters of `pairs` that no spec of the table names (`resoluton`, `cont`…), each
 * once, in the order given: Navitia ignores them, and so do we, but the endpoints with a
 * `warnings` list say so. The known names are the table's own (an array's bare and `[]` forms).
 */
export function unknownParameters(specs: readonly ParamSpec[], pairs: QueryPair[]): string[] {
  const known = new Set<string>();
  for (const spec of specs) {
    known.add(spec.name);
    if (spec.array) known.add(`${spec.name}[]`);
  }
  const unknown: string[] = [];
  for (const { name } of pairs) if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  return unknown;
}


// The parameters several tables share, each defined once (their help text is the table's own).

export const START_PAGE = { name: 'start_page', kind: 'int', default: 0, min: 0, description: 'Index of the page to return, from 0.' } as const satisfies ParamSpec;

/** Objects per page, `byDefault` unless asked, at most the server's `maxCount`. */
export const pageCount = <D extends number>(maxCount: number, byDefault: D, description: string) =>
  ({ name: 'count', kind: 'int', default: byDefault, min: 0, clampMax: maxCount, description }) as const satisfies ParamSpec;

/** Level of detail of the objects written, 0 to 3, 1 unless asked. */
export const depthParam = (description: string) => ({ name: 'depth', kind: 'int', default: 1, min: 0, max: 3, description }) as const satisfies ParamSpec;

export const disableGeojsonParam = (description: string) => ({ name: 'disable_geojson', kind: 'bool', default: false, description }) as const satisfies ParamSpec;

/** Swagger 2.0 query parameter objects of a table (hidden parameters left out), for `OPTIONS ?schema=true`. */
export function swaggerParameters(specs: readonly ParamSpec[]): Record<string, unknown>[] {
  const typeOf = (kind: ParamKind) => (kind === 'int' || kind === 'uint' ? 'integer' : kind === 'float' ? 'number' : kind === 'bool' ? 'boolean' : 'string');
  return specs
    .filter((spec) => !spec.hidden)
    .map((spec) => {
      const item: Record<string, unknown> = { type: typeOf(spec.kind) };
      if (spec.values) item['enum'] = [...spec.values];
      const required = spec.required !== undefined && spec.required.unless === undefined;
      const p: Record<string, unknown> = { name: spec.array ? `${spec.name}[]` : spec.name, in: 'query', required, description: spec.description };
      if (spec.array) Object.assign(p, { type: 'array', items: item, collectionFormat: 'multi' });
      else Object.assign(p, item);
      if (spec.default !== undefined) p['default'] = spec.default;
      else if (spec.fallback !== undefined) p['default'] = spec.fallback;
      if (spec.min !== undefined) p['minimum'] = spec.min;
      if (spec.max !== undefined) p['maximum'] = spec.max;
      if (spec.deprecated) p['x-deprecated'] = true; // Swagger 2.0 parameters have no `deprecated`
      return p;
    });
}
