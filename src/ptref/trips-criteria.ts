/**
 * What a trips request (or a request of another PT-referential collection) asks for, once its
 * parameters are read: the input of the query (trips-query.ts).
 */
import type { ODT_LEVEL_NAMES } from '../model/timetable.js';
import type { FreshnessLevel } from './freshness.js';

export interface TripsQuery {
  /** `{uri}` path segments, e.g. ['lines', 'L1', 'stop_areas', 'SA1']. */
  uri: string[];
  /** `{id}` of the id forms. */
  id?: string;
  /** The `filter` parameter (list forms only). */
  filter?: string;
  headsign?: string;
  tags: string[];
  forbiddenUris: string[];
  externalCode?: string;
  odtLevel: 'all' | (typeof ODT_LEVEL_NAMES)[number];
  dataFreshness: FreshnessLevel;
  sinceSec?: number;
  untilSec?: number;
  /** Metres, for coordinates in `{uri}`. */
  distance: number;
}
