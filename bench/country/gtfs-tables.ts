/**
 * What copying a feed into a tile does to each GTFS table (feed-copy.ts): the files kept, and what
 * each column becomes. Every other column is copied as it is (times of day included).
 *
 * - ids get the tile's prefix (`t12:`), so that no two tiles share one, references included;
 * - positions move with the tile (feed-placement.ts);
 * - dates move onto the common week (service-week.ts);
 * - time zones become Europe/Berlin: every tile's times of day are read in the country's zone.
 */

/** The files copied: GTFS's timetable and what refers to it. Others (Trillium's extras, attributions…) are left out. */
export const COPIED_FILES = [
  'agency.txt',
  'feed_info.txt',
  'stops.txt',
  'levels.txt',
  'pathways.txt',
  'routes.txt',
  'calendar.txt',
  'calendar_dates.txt',
  'trips.txt',
  'stop_times.txt',
  'frequencies.txt',
  'transfers.txt',
  'shapes.txt',
  'fare_attributes.txt',
  'fare_rules.txt',
] as const;

/** Columns holding an id of the feed or a reference to one (GTFS's own names). */
export const ID_COLUMNS: ReadonlySet<string> = new Set([
  'agency_id',
  'stop_id',
  'parent_station',
  'level_id',
  'zone_id',
  'pathway_id',
  'from_stop_id',
  'to_stop_id',
  'route_id',
  'from_route_id',
  'to_route_id',
  'network_id',
  'service_id',
  'trip_id',
  'from_trip_id',
  'to_trip_id',
  'block_id',
  'shape_id',
  'fare_id',
  'origin_id',
  'destination_id',
  'contains_id',
  'area_id',
  'location_id',
  'location_group_id',
]);

/** Columns holding a date `YYYYMMDD`. */
export const DATE_COLUMNS: ReadonlySet<string> = new Set(['start_date', 'end_date', 'date', 'feed_start_date', 'feed_end_date']);

/** Columns holding a time zone, and the one zone they all get. */
export const TIMEZONE_COLUMNS: ReadonlySet<string> = new Set(['agency_timezone', 'stop_timezone']);
export const COUNTRY_TIMEZONE = 'Europe/Berlin';

/** The position columns of the files that have them: a stop is placed, a shape point mapped (feed-placement.ts). */
export const POSITION_COLUMNS: Readonly<Record<string, { lon: string; lat: string; kind: 'stop' | 'shape' }>> = {
  'stops.txt': { lon: 'stop_lon', lat: 'stop_lat', kind: 'stop' },
  'shapes.txt': { lon: 'shape_pt_lon', lat: 'shape_pt_lat', kind: 'shape' },
};
