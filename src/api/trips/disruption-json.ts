/**
 * Disruptions as Navitia's disruption objects (one impact each: `id`, `impact_id` and `uri` are the
 * disruption's id, like `disruption_id` and `disruption_uri`). Datetimes are coverage-local; an
 * open application period is shown bounded by the production period.
 */
import { IMPACTED_TYPES, statusAt, type Disruption, type ImpactedObject, type ImpactedType } from '../../live/disruptions/disruption.js';
import type { Generation } from '../../service/generation.js';
import { formatDayNumber } from '../../util/calendar.js';
import { formatLocal } from '../../util/time-zones.js';
import type { Caption } from '../../ptref/object-types.js';

/** Most disruptions one page of trips embeds. */
export const PAGE_DISRUPTIONS_MAX = 100;
/** Most impacted objects shown of one disruption embedded in a page. */
export const PAGE_IMPACTED_OBJECTS_MAX = 100;

/**
 * The disruptions impacting `trips`, each once, in the index's order (file entries, then alerts):
 * at most PAGE_DISRUPTIONS_MAX of them, each with at most PAGE_IMPACTED_OBJECTS_MAX impacted objects,
 * so that a page stays small whatever the file says (docs/realtime-and-disruptions.md, "Disruptions").
 */
export function pageDisruptionsJson(g: Generation, trips: Uint32Array, nowSec: number): string {
  const order = [...g.disruptions.firstOfTrips(trips, PAGE_DISRUPTIONS_MAX)];
  if (order.length === 0) return '[]';
  return `[${order.map((i) => JSON.stringify(disruptionJson(g, g.disruptions.all[i]!, nowSec, PAGE_IMPACTED_OBJECTS_MAX))).join(',')}]`;
}

export function disruptionJson(g: Generation, d: Disruption, nowSec: number, maxImpacted = Infinity): Record<string, unknown> {
  const tz = g.tt.timezone;
  const begin = (sec: number) => (sec === -Infinity ? `${formatDayNumber(Math.max(0, g.productionStartDay))}T000000` : formatLocal(sec, tz));
  const end = (sec: number) => (sec === Infinity ? `${formatDayNumber(Math.max(0, g.productionEndDay))}T235959` : formatLocal(sec, tz));
  return {
    id: d.id,
    disruption_id: d.id,
    impact_id: d.id,
    uri: d.id,
    disruption_uri: d.id,
    contributor: d.source === 'file' ? 'disruptions_file' : 'gtfs_rt',
    status: statusAt(d, nowSec),
    severity: { ...d.severity },
    application_periods: d.periods.map((p) => ({ begin: begin(p.begin), end: end(p.end) })),
    messages: d.messages.map((m) => ({ text: m.text, channel: { ...m.channel, types: [...m.channel.types] } })),
    tags: [...d.tags],
    cause: d.cause,
    category: d.category,
    updated_at: formatLocal(d.updatedAtSec ?? g.loadedAtSec, tz),
    impacted_objects: d.impacted.slice(0, maxImpacted).map((o) => ({ pt_object: ptObjectJson(g, o) })),
  };
}

function ptObjectJson(g: Generation, o: ImpactedObject): Record<string, unknown> {
  const { tt, ref } = g;
  const id = ref.id(o.type, o.index);
  const name = ref.name(o.type, o.index);
  let embedded: Record<string, unknown>;
  switch (o.type) {
    case 'line': {
      const line = tt.lines[o.index]!;
      embedded = { id, name, code: line.code, color: line.color, text_color: line.textColor };
      break;
    }
    case 'route':
      embedded = { id, name, direction_id: tt.routes[o.index]!.direction, line: { id: tt.lines[tt.routes[o.index]!.line]!.id, name: tt.lines[tt.routes[o.index]!.line]!.name } };
      break;
    case 'stop_point':
      embedded = { id, name, coord: { lon: String(tt.stopPoints.lon[o.index]), lat: String(tt.stopPoints.lat[o.index]) } };
      break;
    case 'stop_area':
      embedded = { id, name, coord: { lon: String(tt.stopAreas[o.index]!.lon), lat: String(tt.stopAreas[o.index]!.lat) } };
      break;
    default:
      embedded = { id, name };
  }
  return { id, name, quality: 0, embedded_type: o.type, [o.type]: embedded };
}

/**
 * The disruptions impacting one of `objects` (ascending indexes of type `type`) directly, each once,
 * in the index's order, bounded as those of a page of trips.
 */
export function objectDisruptionsJson(g: Generation, type: Caption, objects: Uint32Array, nowSec: number): string {
  const impactedType = type === 'company' ? 'network' : type;
  if (!(IMPACTED_TYPES as readonly string[]).includes(impactedType)) return '[]';
  const found = g.disruptions.firstNaming(impactedType as ImpactedType, objects, PAGE_DISRUPTIONS_MAX);
  return JSON.stringify([...found].map((i) => disruptionJson(g, g.disruptions.all[i]!, nowSec, PAGE_IMPACTED_OBJECTS_MAX)));
}
