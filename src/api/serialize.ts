/** JSON pieces shared by responses: context, feed publishers, the engine-error envelope. */
import { formatUtc } from '../util/calendar.js';
import { formatLocal } from '../util/time-zones.js';
import type { Generation } from '../service/generation.js';
import { engineStatus, type EngineErrorId } from './errors.js';

export function contextJson(nowSec: number, timeZone: string): string {
  return JSON.stringify({ current_datetime: formatLocal(nowSec, timeZone), timezone: timeZone });
}

/** Coverage-level publishers: one per feed that names its publisher in feed_info.txt. */
export function publishersJson(g: Generation | undefined): string {
  return JSON.stringify(g?.publishers ?? []);
}

/**
 * Family C: an engine error inside the PT envelope (zeroed pagination, no collection, no links),
 * with Navitia's 400 → 404 rewrite when the query string has no `filter` key.
 */
export function engineErrorResponse(
  id: EngineErrorId,
  message: string,
  hasFilterKey: boolean,
  g: Generation | undefined,
  nowSec: number,
  timeZone: string,
): { status: number; body: string } {
  const mapped = engineStatus(id, hasFilterKey);
  const body =
    `{"error":${JSON.stringify({ id: mapped.id, message })}` +
    `,"pagination":{"total_result":0,"start_page":0,"items_per_page":0,"items_on_page":0}` +
    `,"disruptions":[],"feed_publishers":${publishersJson(g)},"context":${contextJson(nowSec, timeZone)}}`;
  return { status: mapped.status, body };
}

export { formatUtc };
