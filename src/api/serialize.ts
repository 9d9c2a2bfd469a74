/** JSON pieces shared by responses: context, feed publishers, the engine-error envelope. */
import { formatUtc } from '../util/calendar.js';
import { formatLocal } from '../util/time-zones.js';
import type { Generation } from '../service/generation.js';
import type { EngineEnvelope } from './errors.js';

export function contextJson(nowSec: number, timeZone: string): string {
  return JSON.stringify({ current_datetime: formatLocal(nowSec, timeZone), timezone: timeZone });
}

/** Coverage-level publishers: one per feed that names its publisher in feed_info.txt. */
export function publishersJson(g: Generation | undefined): string {
  return JSON.stringify(g?.publishers ?? []);
}

/**
 * Family C: the envelope of an engine error in the PT collections (zeroed pagination, no
 * collection, no links).
 */
export function ptEnvelope(g: Generation | undefined, nowSec: number, timeZone: string, hasFilterKey: boolean): EngineEnvelope {
  return {
    hasFilterKey,
    wrap: (errorJson) =>
      `{"error":${errorJson}` +
      `,"pagination":{"total_result":0,"start_page":0,"items_per_page":0,"items_on_page":0}` +
      `,"disruptions":[],"feed_publishers":${publishersJson(g)},"context":${contextJson(nowSec, timeZone)}}`,
  };
}

export { formatUtc };
