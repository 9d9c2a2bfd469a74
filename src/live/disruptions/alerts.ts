/**
 * GTFS-Realtime ServiceAlerts -> disruptions (realtime information: they are listed and carry tags,
 * they do not change the adapted level).
 *
 * - id: the entity id; effect and cause: the alert's (NO_EFFECT and ACCESSIBILITY_ISSUE, which
 *   Navitia's severities do not have, become OTHER_EFFECT; none is UNKNOWN_EFFECT / unknown cause).
 * - application periods: the active periods (an open bound stays open); none means always.
 * - messages: the header text (channel "title") and the description text (channel "web"), each in
 *   the translation of the coverage's language, else the first one.
 * - impacted objects: each informed entity names its most specific object: a trip (trip_id), else a
 *   stop (stop_id: a stop point, else a stop area), else a route (route_id with direction_id), else a
 *   line (route_id), else a network (agency_id). Ids the coverage does not know are reported.
 */
import type { Alert, EntitySelector, FeedMessage, TranslatedString } from '../realtime/gtfs-rt.js';
import type { Referential } from '../../ptref/referential.js';
import { ALWAYS, EFFECTS, type Disruption, type Effect, type ImpactedObject, type Message } from './disruption.js';

export interface AlertProblem {
  entity: string;
  reason: string;
}

export interface AlertDisruptions {
  disruptions: Disruption[];
  problems: AlertProblem[];
}

const TITLE = { id: 'title', name: 'title', content_type: 'text/plain', types: ['title'] };
const WEB = { id: 'web', name: 'web', content_type: 'text/plain', types: ['web'] };

/** The disruptions of a feed's alerts; `language` (BCP-47, may be empty) picks the translations. */
export function readAlerts(feed: FeedMessage, ref: Referential, language: string): AlertDisruptions {
  const out: AlertDisruptions = { disruptions: [], problems: [] };
  for (const entity of feed.entities) {
    if (!entity.alert || entity.isDeleted) continue;
    const problem = (reason: string) => out.problems.push({ entity: entity.id, reason });
    out.disruptions.push(alertDisruption(entity.id, entity.alert, ref, language, feed.header.timestamp, problem));
  }
  return out;
}

export function alertDisruption(
  id: string,
  alert: Alert,
  ref: Referential,
  language: string,
  feedTime: number | undefined,
  problem: (reason: string) => void,
): Disruption {
  const effect: Effect = alert.effect === undefined ? 'UNKNOWN_EFFECT' : (EFFECTS as readonly string[]).includes(alert.effect) ? (alert.effect as Effect) : 'OTHER_EFFECT';
  const messages: Message[] = [];
  const header = pickTranslation(alert.headerText, language);
  if (header !== undefined) messages.push({ text: header, channel: { ...TITLE, types: [...TITLE.types] } });
  const description = pickTranslation(alert.descriptionText, language);
  if (description !== undefined) messages.push({ text: description, channel: { ...WEB, types: [...WEB.types] } });
  const periods = alert.activePeriods.map((p) => ({ begin: p.start ?? -Infinity, end: p.end ?? Infinity }));
  return {
    id,
    source: 'gtfs-rt',
    tags: [],
    cause: (alert.cause ?? 'UNKNOWN_CAUSE').toLowerCase().replace(/_/g, ' '),
    category: '',
    severity: { name: effect.toLowerCase().replace(/_/g, ' '), effect, color: '', priority: 0 },
    periods: periods.length > 0 ? periods : [ALWAYS],
    messages,
    impacted: informedObjects(alert.informedEntities, ref, problem),
    updatedAtSec: feedTime,
  };
}

/** The translation in `language` (exact, then same primary language), else the first; undefined when none. */
export function pickTranslation(s: TranslatedString | undefined, language: string): string | undefined {
  if (!s || s.translations.length === 0) return undefined;
  const lang = language.toLowerCase();
  if (lang) {
    const exact = s.translations.find((t) => t.language?.toLowerCase() === lang);
    if (exact) return exact.text;
    const primary = lang.split('-')[0];
    const near = s.translations.find((t) => t.language?.toLowerCase().split('-')[0] === primary);
    if (near) return near.text;
  }
  return s.translations[0]!.text;
}

function informedObjects(selectors: EntitySelector[], ref: Referential, problem: (reason: string) => void): ImpactedObject[] {
  const out: ImpactedObject[] = [];
  const seen = new Set<string>();
  const add = (o: ImpactedObject) => {
    const key = `${o.type}:${o.index}`;
    if (!seen.has(key)) out.push(o);
    seen.add(key);
  };
  for (const s of selectors) {
    const o = informedObject(s, ref, problem);
    if (o) add(o);
  }
  return out;
}

function informedObject(s: EntitySelector, ref: Referential, problem: (reason: string) => void): ImpactedObject | undefined {
  const known = (type: ImpactedObject['type'], id: string): ImpactedObject | undefined => {
    const index = ref.indexOf(type, id);
    return index < 0 ? undefined : { type, index };
  };
  const tripId = s.trip?.tripId;
  if (tripId !== undefined) return known('trip', tripId) ?? void problem(`unknown trip ${tripId}`);
  if (s.stopId !== undefined) return known('stop_point', s.stopId) ?? known('stop_area', s.stopId) ?? void problem(`unknown stop ${s.stopId}`);
  const routeId = s.routeId ?? s.trip?.routeId;
  if (routeId !== undefined) {
    const direction = s.directionId ?? s.trip?.directionId;
    if (direction !== undefined) {
      const route = known('route', `route:${routeId}:${direction}`);
      if (route) return route;
    }
    return known('line', routeId) ?? void problem(`unknown route ${routeId}`);
  }
  if (s.agencyId !== undefined) return known('network', s.agencyId) ?? void problem(`unknown agency ${s.agencyId}`);
  problem('an informed entity without agency_id, route_id, trip_id or stop_id (route_type alone is not read)');
  return undefined;
}

/** The coverage's language for alert texts: its first feed_lang, else its first agency_lang ('' when none). */
export function coverageLanguage(tt: Referential['tt']): string {
  return tt.feeds.find((f) => f.lang)?.lang ?? tt.agencies.find((a) => a.lang)?.lang ?? '';
}
