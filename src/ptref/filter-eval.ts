/**
 * Evaluate a filter expression to the sorted set of objects of a requested type.
 *
 * Each predicate is computed in its own type (`line.code=1A` gives lines), then converted to the
 * requested type through the referential; `and`, `or` and `-` are set operations in the requested
 * type. Errors carry the engine's ids and messages (docs/api.md, Trips).
 */
import { ODT_LEVEL_NAMES } from '../model/timetable.js';
import { departingWithin } from './departing-trips.js';
import { FILTER_ERRORS, type FilterError, type FilterExpr } from './filter-ast.js';
import { FRESHNESS_LEVELS, type Freshness, type FreshnessLevel } from './freshness.js';
import { isCaption, isTripLike, OBJECT_TYPES, type Caption } from './object-types.js';
import type { Referential } from './referential.js';
import { EMPTY, difference, intersect, union } from './sorted-set.js';
import type { DisruptionLookup } from './disruption-lookup.js';

export interface EvalContext {
  ref: Referential;
  freshness: Freshness;
  /** the generation's disruptions; none when absent */
  disruptions?: DisruptionLookup;
}

export function evaluate(expr: FilterExpr, target: Caption, ctx: EvalContext): Uint32Array {
  switch (expr.kind) {
    case 'all':
      return ctx.ref.all(target);
    case 'empty':
      return EMPTY;
    case 'and': {
      const left = evaluate(expr.left, target, ctx);
      return left.length === 0 ? EMPTY : intersect(left, evaluate(expr.right, target, ctx));
    }
    case 'or':
      return union(evaluate(expr.left, target, ctx), evaluate(expr.right, target, ctx));
    case 'diff': {
      const left = evaluate(expr.left, target, ctx);
      return left.length === 0 ? EMPTY : difference(left, evaluate(expr.right, target, ctx));
    }
    case 'get': {
      const type = checkCaption(expr.type);
      return ctx.ref.convert(type, target, evaluate(expr.expr, type, ctx));
    }
    case 'method': {
      const type = checkCaption(expr.type);
      // disruptions are not referential objects: their methods give the trips they impact
      if (type === 'disruption') return ctx.ref.convert('trip', target, disruptionMethod(expr.method, expr.args, ctx));
      return ctx.ref.convert(type, target, evalMethod(type, expr.method, expr.args, ctx));
    }
    case 'dwithin': {
      const type = checkCaption(expr.type);
      return ctx.ref.convert(type, target, within(type, expr.lon, expr.lat, expr.distance, ctx));
    }
  }
}

function checkCaption(type: string): Caption {
  if (!isCaption(type)) throw FILTER_ERRORS.unknownType(type);
  return type;
}

function evalMethod(type: Caption, method: string, args: string[], ctx: EvalContext): Uint32Array {
  const { ref } = ctx;
  const unknown = () => FILTER_ERRORS.unknownFunction(`${type}.${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
  const arity = (...allowed: number[]) => {
    if (!allowed.includes(args.length)) throw unknown();
  };
  switch (method) {
    case 'uri':
    case 'id': {
      arity(1);
      const i = ref.indexOf(type, args[0]!);
      return i < 0 ? EMPTY : Uint32Array.of(i);
    }
    case 'name': {
      arity(1);
      return ref.named(type, args[0]!);
    }
    case 'has_code': {
      arity(2);
      return hasCode(ref, type, args[0]!, args[1]!);
    }
    case 'has_code_type': {
      if (args.length === 0) throw unknown();
      return OBJECT_TYPES[type].codes && args.includes('source') ? ref.all(type) : EMPTY;
    }
    case 'since':
    case 'until':
    case 'between':
    case 'active_at':
      return periodFilter(type, method, args, ctx, unknown);
    default:
      break;
  }
  switch (`${type}.${method}`) {
    case 'vehicle_journey.has_headsign':
      arity(1);
      return ref.tt.headsignTrips.get(args[0]!) ?? EMPTY;
    case 'vehicle_journey.has_disruption':
      arity(0);
      return ctx.disruptions?.noServiceTrips ?? EMPTY;
    case 'line.code':
      arity(1);
      return scan(ref, 'line', (i) => ref.tt.lines[i]!.code === args[0]);
    case 'line.odt_level': {
      arity(1);
      const level = (ODT_LEVEL_NAMES as readonly string[]).indexOf(args[0]!);
      if (level < 0) return ref.all('line');
      return scan(ref, 'line', (i) => ((ref.lineOdtLevels[i]! >>> level) & 1) === 1);
    }
    case 'route.has_direction_type': {
      if (args.length === 0) throw unknown();
      return scan(ref, 'route', (i) => {
        const dir = ref.tt.routes[i]!.direction;
        return args.includes(dir === 0 ? 'forward' : dir === 1 ? 'backward' : '');
      });
    }
    case 'stop_point.within':
    case 'stop_area.within': {
      arity(2);
      const [lon, lat] = args[1]!.split(';');
      return within(type, lon ?? '', lat ?? '', args[0]!, ctx);
    }
    default:
      if (method === 'within') throw FILTER_ERRORS.noWithin(type);
      throw unknown();
  }
}

/**
 * `disruption.tag(x)`, `disruption.tags(x, y, …)` (exact tag names, any of them), `disruption.id(x)`
 * / `uri`, `disruption.since/until/between(dt…)` (a period meets the window): the trips impacted by
 * the disruptions selected (Navitia's evident intent; its engine never matches trips, quirk Q3).
 */
function disruptionMethod(method: string, args: string[], ctx: EvalContext): Uint32Array {
  const index = ctx.disruptions;
  const unknown = () => FILTER_ERRORS.unknownFunction(`disruption.${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
  switch (method) {
    case 'tag':
    case 'tags':
      if (args.length === 0) throw unknown();
      return index?.tripsTagged(args) ?? EMPTY;
    case 'id':
    case 'uri': {
      if (args.length !== 1) throw unknown();
      const i = index?.indexOf(args[0]!) ?? -1;
      return i < 0 ? EMPTY : index!.tripsOf(i);
    }
    case 'since':
    case 'until':
    case 'between': {
      if (args.length !== (method === 'between' ? 2 : 1)) throw unknown();
      const { since, until } = filterWindow(method, args);
      return index?.tripsInForceWithin(since, until) ?? EMPTY;
    }
    default:
      return evalMethod('disruption', method, args, ctx); // the generic methods (none matches) or the engine's error
  }
}

/** The objects with the code `key`=`value`: only `source` codes, the feed's own ids (object-types.ts, `codes`). */
function hasCode(ref: Referential, type: Caption, key: string, value: string): Uint32Array {
  if (!OBJECT_TYPES[type].codes) return EMPTY;
  if (isTripLike(type)) {
    if (key === 'source') {
      const i = ref.indexOf('trip', value);
      return i < 0 ? EMPTY : Uint32Array.of(i);
    }
    return EMPTY;
  }
  if (key !== 'source') return EMPTY;
  const i = ref.indexOf(type, value);
  return i < 0 ? EMPTY : Uint32Array.of(i);
}

function scan(ref: Referential, type: Caption, keep: (i: number) => boolean): Uint32Array {
  const n = ref.count(type);
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) out.push(i);
  return Uint32Array.from(out);
}

function within(type: Caption, lonText: string, latText: string, distanceText: string, ctx: EvalContext): Uint32Array {
  if (type === 'poi') return EMPTY;
  if (type !== 'stop_point' && type !== 'stop_area') throw FILTER_ERRORS.noWithin(type);
  const lon = Number(lonText);
  const lat = Number(latText);
  const distance = Number(distanceText);
  if (lonText.trim() === '' || latText.trim() === '' || !Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90) {
    throw FILTER_ERRORS.badCoordinate(`${lonText};${latText}`);
  }
  if (distanceText.trim() === '' || !Number.isFinite(distance)) throw FILTER_ERRORS.badDistance(distanceText);
  return ctx.ref.within(type, lon, lat, distance);
}

/** `vehicle_journey.since/until/between/active_at(datetime…[, level])`. */
function periodFilter(type: Caption, method: string, args: string[], ctx: EvalContext, unknown: () => FilterError): Uint32Array {
  if (type !== 'vehicle_journey') throw FILTER_ERRORS.noValidityPeriod();
  const dates = method === 'between' ? 2 : 1;
  if (args.length !== dates && args.length !== dates + 1) throw unknown();
  const level: FreshnessLevel = (FRESHNESS_LEVELS as readonly string[]).includes(args[dates] ?? '') ? (args[dates] as FreshnessLevel) : 'base_schedule';
  const { since, until } = filterWindow(method, args);
  const { ref, freshness } = ctx;
  if (method === 'active_at') return scan(ref, 'trip', (t) => freshness.activeAt(t, level, since));
  return departingWithin(ref, freshness, level, since, until, ref.all('trip'));
}

/**
 * The window of `since(dt)`, `until(dt)`, `between(dt1, dt2)` or `active_at(dt)` (the instant
 * itself), from the method's first arguments; both bounds inclusive.
 */
export function filterWindow(method: string, args: string[]): { since: number; until: number } {
  const first = parseFilterDatetime(args[0]!);
  if (method === 'between') {
    const until = parseFilterDatetime(args[1]!);
    if (until < first) throw FILTER_ERRORS.invalidPeriod();
    return { since: first, until };
  }
  return { since: method === 'until' ? -Infinity : first, until: method === 'since' ? Infinity : first };
}

/** Datetimes inside filters: `YYYYMMDDTHHMMSS[.fff]Z`, UTC only. */
export function parseFilterDatetime(text: string): number {
  if (!text.endsWith('Z')) {
    throw FILTER_ERRORS.notUtc(text);
  }
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(?:[.,]\d+)?Z$/.exec(text);
  if (m) {
    const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h < 24 && mi < 60 && s < 60) return ms / 1000;
  }
  throw FILTER_ERRORS.badDatetime(text);
}
