/**
 * Which added trips (added-trips.ts) a trips query keeps at the realtime level: the same filter
 * expression, query filters and since/until window as for the static trips, decided trip by trip.
 *
 * The filter is evaluated as membership: each node gives a mask of the added trips inside its set
 * of trips, and `and`, `or`, `-` combine masks as the static evaluator combines sets. A predicate on
 * trips (`trip.uri=…`, `vehicle_journey.since(…, realtime)`…) is decided from the added trip's own
 * id, name and times. A predicate on another type (`line.uri=…`, `stop_area.uri=…`,
 * `stop_point.coord DWITHIN(…)`…) is evaluated by the static evaluator in its own type, then an added
 * trip is inside when one of its objects is in that set: its line, route, network (company), physical
 * and commercial modes, stop points, stop areas.
 *
 * The static evaluation of the same expression runs first (trips-query.ts) and reports malformed
 * filters, so a predicate on trips that it would refuse simply matches nothing here. Limits: `get T <-
 * …` to a type T other than trips converts through the static timetable only (an added trip does not
 * give its stop point a new line); added trips have no headsign, dataset, journey pattern, validity
 * pattern nor disruption, and their ODT level is `scheduled`.
 */
import { NO_LINE, NO_ROUTE } from '../model/realtime-runs.js';
import { NO_NETWORK, type AddedTrips } from './added-trips.js';
import type { FilterExpr } from './filter-ast.js';
import { evaluate, filterWindow, type EvalContext } from './filter-eval.js';
import { isCaption, type Caption } from './object-types.js';
import { contains } from './sorted-set.js';
import type { TripsQuery } from './trips-criteria.js';

/** Trip indexes of the added trips that the query keeps, ascending (feed order). */
export function addedTripsMatching(added: AddedTrips, expr: FilterExpr, q: TripsQuery, ctx: EvalContext): Uint32Array {
  const inside = membership(expr, added, ctx);
  const windowed = q.sinceSec !== undefined || q.untilSec !== undefined;
  const since = q.sinceSec ?? -Infinity;
  const until = q.untilSec ?? Infinity;
  const out: number[] = [];
  for (let i = 0; i < added.count; i++) {
    if (!inside[i]) continue;
    // external codes of an added trip: its trip_id only
    if (q.externalCode !== undefined && q.externalCode !== added.runs[i]!.tripId) continue;
    if (q.odtLevel !== 'all' && q.odtLevel !== 'scheduled') continue;
    const departure = added.firstDepartureSec[i]!;
    if (windowed && !(departure >= since && departure <= until)) continue;
    out.push(added.firstIndex + i);
  }
  return Uint32Array.from(out);
}

/** 1 for each added trip inside the set of trips of `expr`. */
function membership(expr: FilterExpr, added: AddedTrips, ctx: EvalContext): Uint8Array {
  const n = added.count;
  switch (expr.kind) {
    case 'all':
      return new Uint8Array(n).fill(1);
    case 'empty':
      return new Uint8Array(n);
    case 'and':
    case 'or':
    case 'diff': {
      const left = membership(expr.left, added, ctx);
      // like the static evaluator, an empty left side of `and` and `-` leaves the right unevaluated
      if (expr.kind !== 'or' && !left.includes(1)) return left;
      const right = membership(expr.right, added, ctx);
      for (let i = 0; i < n; i++) {
        left[i] = expr.kind === 'and' ? left[i]! & right[i]! : expr.kind === 'or' ? left[i]! | right[i]! : left[i]! & (1 - right[i]!);
      }
      return left;
    }
    case 'get':
    case 'method':
    case 'dwithin': {
      if (!isCaption(expr.type)) {
        evaluate(expr, 'trip', ctx); // an unknown type: throws the static evaluator's error
        return new Uint8Array(n);
      }
      const type: Caption = expr.type;
      if (!isTripLike(type)) return related(added, type, evaluate(expr, type, ctx));
      if (expr.kind === 'get') return membership(expr.expr, added, ctx);
      if (expr.kind === 'method') return tripMethod(added, type, expr.method, expr.args);
      return new Uint8Array(n); // trips have no coordinates
    }
  }
}

/** `trip.m(…)` / `vehicle_journey.m(…)` on the added trips. */
function tripMethod(added: AddedTrips, type: Caption, method: string, args: string[]): Uint8Array {
  const n = added.count;
  const out = new Uint8Array(n);
  const each = (keep: (i: number) => boolean) => {
    for (let i = 0; i < n; i++) out[i] = keep(i) ? 1 : 0;
    return out;
  };
  const id = (i: number) => (type === 'vehicle_journey' ? `vehicle_journey:${added.runs[i]!.tripId}` : added.runs[i]!.tripId);
  switch (method) {
    case 'uri':
    case 'id':
      return args.length === 1 ? each((i) => id(i) === args[0]) : out;
    case 'name':
      return args.length === 1 ? each((i) => added.names[i] === args[0]) : out;
    case 'has_code':
      return args.length === 2 && args[0] === 'source' ? each((i) => added.runs[i]!.tripId === args[1]) : out;
    case 'has_code_type':
      return args.includes('source') ? out.fill(1) : out;
    case 'since':
    case 'until':
    case 'between':
    case 'active_at': {
      const dates = method === 'between' ? 2 : 1;
      // added trips run at the realtime level only
      if (type !== 'vehicle_journey' || args.length !== dates + 1 || args[dates] !== 'realtime') return out;
      const { since, until } = filterWindow(method, args);
      const departs = added.firstDepartureSec;
      if (method === 'active_at') return each((i) => departs[i]! <= since && since <= added.lastArrivalSec[i]!);
      return each((i) => departs[i]! >= since && departs[i]! <= until);
    }
    default:
      return out; // no headsign, no disruption
  }
}

/** 1 for each added trip related to an object of `set` (objects of `type`, ascending). */
function related(added: AddedTrips, type: Caption, set: Uint32Array): Uint8Array {
  const tt = added.ref.tt;
  const out = new Uint8Array(added.count);
  if (set.length === 0) return out;
  for (let i = 0; i < added.count; i++) {
    const run = added.runs[i]!;
    const line = run.line === NO_LINE ? undefined : tt.lines[run.line]!;
    let inside = false;
    switch (type) {
      case 'line':
        inside = line !== undefined && contains(set, run.line);
        break;
      case 'route':
        inside = run.route !== NO_ROUTE && contains(set, run.route);
        break;
      case 'network':
      case 'company':
        inside = added.network[i] !== NO_NETWORK && contains(set, added.network[i]!);
        break;
      case 'physical_mode':
        inside = line !== undefined && contains(set, line.physicalMode);
        break;
      case 'commercial_mode':
        inside = line !== undefined && contains(set, line.commercialMode);
        break;
      case 'stop_point':
        inside = run.stops.some((s) => contains(set, s));
        break;
      case 'stop_area':
        inside = run.stops.some((s) => contains(set, tt.stopPoints.area[s]!));
        break;
      default:
        break; // no dataset, journey pattern, validity pattern…
    }
    out[i] = inside ? 1 : 0;
  }
  return out;
}

function isTripLike(type: Caption): boolean {
  return type === 'trip' || type === 'vehicle_journey';
}
