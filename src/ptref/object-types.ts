/**
 * The object types of the public-transport referential, with their filter caption and their
 * collection name in URLs (`/lines/L1/trips` → caption `line`).
 */
export const CAPTIONS = [
  'validity_pattern',
  'line',
  'line_group',
  'journey_pattern',
  'vehicle_journey',
  'stop_point',
  'stop_area',
  'network',
  'physical_mode',
  'commercial_mode',
  'connection',
  'journey_pattern_point',
  'company',
  'route',
  'poi',
  'poi_type',
  'contributor',
  'calendar',
  'trip',
  'disruption',
  'dataset',
  'access_point',
] as const;

export type Caption = (typeof CAPTIONS)[number];

const CAPTION_SET: ReadonlySet<string> = new Set(CAPTIONS);

export function isCaption(s: string): s is Caption {
  return CAPTION_SET.has(s);
}

/** Collection name (URL segment) → caption, for the `{uri}` part of a path. */
export const COLLECTION_CAPTIONS: Readonly<Record<string, Caption>> = {
  networks: 'network',
  lines: 'line',
  routes: 'route',
  line_groups: 'line_group',
  commercial_modes: 'commercial_mode',
  physical_modes: 'physical_mode',
  companies: 'company',
  stop_areas: 'stop_area',
  stop_points: 'stop_point',
  journey_patterns: 'journey_pattern',
  journey_pattern_points: 'journey_pattern_point',
  vehicle_journeys: 'vehicle_journey',
  trips: 'trip',
  datasets: 'dataset',
  contributors: 'contributor',
  calendars: 'calendar',
  connections: 'connection',
  disruptions: 'disruption',
  pois: 'poi',
  poi_types: 'poi_type',
  access_points: 'access_point',
  validity_patterns: 'validity_pattern',
};

/** Collection names that take a coordinate value (`coord/2.3;48.8`). */
export const COORD_COLLECTIONS: ReadonlySet<string> = new Set(['coord', 'coords', 'addresses']);
