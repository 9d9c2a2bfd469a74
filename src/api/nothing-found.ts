/**
 * `error.details` of a PT-referential query that found nothing (trips, lines…): why, as
 * ptref/empty-result.ts finds it, in the words of the catalogue (errors.ts DETAILS).
 */
import type { Generation } from '../service/generation.js';
import { whyEmpty } from '../ptref/empty-result.js';
import { COLLECTION_CAPTIONS, type Caption } from '../ptref/object-types.js';
import type { TripsQuery } from '../ptref/trips-criteria.js';
import { formatLocal } from '../util/time-zones.js';
import { DETAILS } from './errors.js';
import { isoDay, localTimeWords } from '../util/time-words.js';

export function nothingFoundDetails(g: Generation, target: Caption, q: TripsQuery, timeZone: string): string {
  const why = whyEmpty(g.ref, g.freshness, target, q, g.disruptions);
  switch (why.kind) {
    case 'unknown_object':
      return DETAILS.unknownObject(why.type, why.id);
    case 'no_run_in_window': {
      const subject = why.subject ? DETAILS.objectSubject(why.subject.type, why.subject.id) : DETAILS.coverageSubject();
      return DETAILS.noTripInWindow(subject, windowWords(q.sinceSec, q.untilSec, timeZone), isoDay(why.firstDay), isoDay(why.lastDay));
    }
    case 'no_match': {
      const criteria = criteriaWords(q);
      return criteria ? DETAILS.nothingMatches(target, criteria) : DETAILS.noneInCoverage(target);
    }
  }
}

/** since/until as words: one whole local day (00:00 to 23:59:59), two times, or one bound. */
function windowWords(sinceSec: number | undefined, untilSec: number | undefined, timeZone: string): string {
  if (sinceSec !== undefined && untilSec !== undefined) {
    const since = formatLocal(sinceSec, timeZone);
    const until = formatLocal(untilSec, timeZone);
    if (since.slice(0, 8) === until.slice(0, 8) && since.endsWith('T000000') && until.endsWith('T235959')) return DETAILS.onDay(localTimeWords(sinceSec, timeZone).slice(0, 10));
    return DETAILS.between(localTimeWords(sinceSec, timeZone), localTimeWords(untilSec, timeZone));
  }
  if (sinceSec !== undefined) return DETAILS.fromOn(localTimeWords(sinceSec, timeZone));
  return DETAILS.upTo(localTimeWords(untilSec!, timeZone));
}

/** The request's criteria as it gives them (`line L1, filter=…, headsign=…`), or "" when it gives none. */
function criteriaWords(q: TripsQuery): string {
  const words: string[] = [];
  for (let i = 0; i + 1 < q.uri.length; i += 2) {
    const type = COLLECTION_CAPTIONS[q.uri[i]!];
    words.push(type ? DETAILS.objectSubject(type, q.uri[i + 1]!) : `${q.uri[i]}/${q.uri[i + 1]}`);
  }
  if (q.id !== undefined) words.push(`id ${q.id}`);
  if (q.filter) words.push(`filter=${q.filter}`);
  if (q.headsign) words.push(`headsign=${q.headsign}`);
  if (q.tags.length > 0) words.push(`tags[]=${q.tags.join(',')}`);
  if (q.forbiddenUris.length > 0) words.push(`forbidden_uris[]=${q.forbiddenUris.join(',')}`);
  if (q.externalCode !== undefined) words.push(`external_code=${q.externalCode}`);
  if (q.odtLevel !== 'all') words.push(`odt_level=${q.odtLevel}`);
  if (q.dataFreshness !== 'base_schedule') words.push(`data_freshness=${q.dataFreshness}`);
  return words.join(', ');
}
