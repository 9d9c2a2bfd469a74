/**
 * The response schemas of the API's description (openapi.ts): one definition per answer and per
 * object it holds, each forbidding unknown properties, so that the contract tests fail on a field
 * added to a response without its schema. Swagger 2.0 has no null type: values that may be null
 * carry `x-nullable`, which the OpenAPI 3 translation turns into `nullable`.
 */
import { REFERENTIAL_COLLECTIONS, type ReferentialCollection } from './referential/referential-params.js';
import { ODT_LEVEL_NAMES } from '../model/timetable.js';
import { COLLECTION_CAPTIONS } from '../ptref/object-types.js';

export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Response schemas

const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
export const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const arrayOf = (items: Json) => ({ type: 'array', items });
export const nullable = (schema: Json) => ({ ...schema, 'x-nullable': true });

/** An object with exactly these properties, `required` among them. */
export function object(properties: Record<string, Json>, required: string[] = Object.keys(properties)): Json {
  // both meta-schemas refuse an empty `required`
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** A copy of `properties` without `keys`. */
const omit = (properties: Record<string, Json>, keys: string[]) => Object.fromEntries(Object.entries(properties).filter(([k]) => !keys.includes(k)));

const count = { type: 'integer', minimum: 0 };
/** The fields around a map's (or an analysis's) answer: publishers, links, warnings, context, and an engine error. */
const MAP_ENVELOPE = {
  feed_publishers: arrayOf(ref('FeedPublisher')),
  links: arrayOf(ref('Link')),
  warnings: arrayOf(ref('Warning')),
  context: ref('Context'),
  error: ref('EngineError'),
};
/** An instant as `formatUtc` writes it. */
const utcDatetime = { type: 'string', pattern: '^[0-9]{8}T[0-9]{6}$' };
const coverageStatus = { type: 'string', enum: ['loading_data', 'running', 'dead'] };
const idName = object({ id: str, name: str });
export const coord = object({ lon: str, lat: str });

/** A coverage as `/v1/coverage` answers it (coverage-endpoint.ts). */
const REGION_PROPERTIES: Record<string, Json> = {
  id: str,
  name: str,
  status: coverageStatus,
  start_production_date: str,
  end_production_date: str,
  last_load_at: str,
  dataset_created_at: str,
  shape: nullable(str),
  error: object({ code: str, value: str }),
  realtime_sources: arrayOf(ref('RealtimeSource')),
  disruptions_source: ref('DisruptionsSource'),
};
const REGION_REQUIRED = ['id', 'name', 'status', 'start_production_date', 'end_production_date', 'last_load_at', 'dataset_created_at', 'shape'];

const hhmmss = { type: 'string', pattern: '^[0-9]{6}$' };

/** `stop_areas` → `StopAreas`: the name of a collection's answer schema and of its operations. */
export const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** The schema of each collection's objects: its type's caption in PascalCase (`stop_points` → StopPoint). */
const COLLECTION_ITEMS = Object.fromEntries(REFERENTIAL_COLLECTIONS.map((c) => [c, pascal(COLLECTION_CAPTIONS[c]!)])) as Record<ReferentialCollection, string>;

/** A page of a PT-referential collection, like the trips' (an engine error in the same envelope). */
function collectionAnswer(name: string, item: string): Json {
  return object(
    {
      pagination: ref('Pagination'),
      [name]: arrayOf(ref(item)),
      disruptions: arrayOf(ref('Disruption')),
      feed_publishers: arrayOf(ref('FeedPublisher')),
      context: ref('Context'),
      links: arrayOf(ref('Link')),
      error: ref('EngineError'),
    },
    ['pagination', 'disruptions', 'feed_publishers', 'context'],
  );
}

export const DEFINITIONS: Record<string, Json> = {
  Context: object({ current_datetime: str, timezone: str }),
  Link: object({ href: str, templated: bool, rel: str, type: str }, ['href', 'type']),
  Pagination: object({ total_result: int, start_page: int, items_per_page: int, items_on_page: int }),
  FeedPublisher: object({ id: str, name: str, url: str, license: str }),
  EngineError: object(
    {
      id: str,
      message: str,
      details: { type: 'string', description: "Navette's own: what is wrong in the request's terms (the unknown id and its type, the days a line runs…); Navitia's id and message are kept as Navitia words them." },
    },
    ['id', 'message'],
  ),
  Warning: {
    ...object({ id: str, message: str }),
    description:
      "Why a map is empty or partial (centre_off_street_network, centre_outside_data, no_service, no_service_in_feed, stops_off_street_network, nothing_reached) or what of the request was ignored (unknown_parameter, boundary_duration_dropped). A map answer, whatever its format, also lists the ids in its Navette-Warnings header.",
  },
  StopTime: object(
    { stop_point: idName, departure_time: { type: 'string', pattern: '^[0-9]{6}$' }, arrival_time: { type: 'string', pattern: '^[0-9]{6}$' } },
    ['stop_point'],
  ),
  Trip: object(
    {
      id: str,
      name: str,
      headsign: str,
      short_name: str,
      odt_level: { type: 'string', enum: [...ODT_LEVEL_NAMES] },
      route: object({ id: str, name: str, direction_id: int }),
      line: object({ id: str, code: str, name: str, color: str, text_color: str }),
      network: idName,
      physical_mode: idName,
      commercial_mode: idName,
      first_stop_time: ref('StopTime'),
      last_stop_time: ref('StopTime'),
      geojson: object({ type: { type: 'string', enum: ['LineString'] }, coordinates: arrayOf(arrayOf(num)) }),
    },
    ['id', 'name'],
  ),
  Disruption: object(
    {
      id: str,
      disruption_id: str,
      impact_id: str,
      uri: str,
      disruption_uri: str,
      contributor: str,
      status: { type: 'string', enum: ['past', 'active', 'future'] },
      severity: object({ name: str, effect: str, color: str, priority: int }, ['name', 'effect']),
      application_periods: arrayOf(object({ begin: str, end: str })),
      messages: arrayOf(object({ text: str, channel: object({ id: str, name: str, content_type: str, types: arrayOf(str) }) })),
      tags: arrayOf(str),
      cause: str,
      category: str,
      updated_at: str,
      impacted_objects: arrayOf(object({ pt_object: ref('ImpactedObject') })),
    },
    ['id', 'disruption_id', 'impact_id', 'status', 'severity', 'application_periods', 'messages', 'tags', 'cause', 'updated_at', 'impacted_objects'],
  ),
  ImpactedObject: object(
    {
      id: str,
      name: str,
      quality: int,
      embedded_type: { type: 'string', enum: ['network', 'line', 'route', 'trip', 'stop_area', 'stop_point'] },
      network: idName,
      line: object({ id: str, name: str, code: str, color: str, text_color: str }),
      route: object({ id: str, name: str, direction_id: int, line: idName }),
      trip: idName,
      stop_area: object({ id: str, name: str, coord }),
      stop_point: object({ id: str, name: str, coord }),
    },
    ['id', 'name', 'quality', 'embedded_type'],
  ),
  Trips: collectionAnswer('trips', 'Trip'),
  StopArea: object(
    { id: str, name: str, label: str, coord, timezone: str, administrative_regions: arrayOf({ type: 'object' }), links: arrayOf(ref('Link')) },
    ['id', 'name', 'label', 'coord', 'timezone', 'links'],
  ),
  StopPoint: object(
    {
      id: str,
      name: str,
      label: str,
      coord,
      administrative_regions: arrayOf({ type: 'object' }),
      equipments: arrayOf(str),
      platform_code: str,
      links: arrayOf(ref('Link')),
      stop_area: ref('StopArea'),
    },
    ['id', 'name', 'label', 'coord', 'links'],
  ),
  Network: idName,
  Company: idName,
  PhysicalMode: idName,
  CommercialMode: idName,
  Line: object(
    {
      id: str,
      code: str,
      name: str,
      color: str,
      text_color: str,
      network: ref('Network'),
      commercial_mode: ref('CommercialMode'),
      physical_modes: arrayOf(ref('PhysicalMode')),
      routes: arrayOf(ref('Route')),
    },
    ['id', 'code', 'name', 'color', 'text_color'],
  ),
  Route: object(
    { id: str, name: str, direction_type: { type: 'string', enum: ['forward', 'backward', ''] }, is_frequence: str, line: ref('Line'), direction: ref('Place') },
    ['id', 'name', 'direction_type', 'is_frequence'],
  ),
  VehicleJourneyStopTime: object({
    arrival_time: hhmmss,
    departure_time: hhmmss,
    headsign: str,
    pickup_allowed: bool,
    drop_off_allowed: bool,
    skipped_stop: bool,
    stop_point: ref('StopPoint'),
  }),
  VehicleJourney: object(
    {
      id: str,
      name: str,
      headsign: str,
      disruptions: arrayOf({ type: 'object' }),
      trip: idName,
      journey_pattern: idName,
      stop_times: arrayOf(ref('VehicleJourneyStopTime')),
      start_time: hhmmss,
      end_time: hhmmss,
      headway_secs: int,
    },
    ['id', 'name', 'headsign', 'disruptions'],
  ),
  ...Object.fromEntries(REFERENTIAL_COLLECTIONS.map((c) => [pascal(c), collectionAnswer(c, COLLECTION_ITEMS[c])])),
  PlaceNearby: object(
    { id: str, name: str, quality: int, embedded_type: { type: 'string', enum: ['stop_point', 'stop_area'] }, stop_point: ref('StopPoint'), stop_area: ref('StopArea'), distance: str },
    ['id', 'name', 'quality', 'embedded_type', 'distance'],
  ),
  Places: object({ places: arrayOf(ref('Place')), feed_publishers: arrayOf(ref('FeedPublisher')), context: ref('Context'), links: arrayOf(ref('Link')) }),
  PlacesNearby: object({
    places_nearby: arrayOf(ref('PlaceNearby')),
    pagination: ref('Pagination'),
    feed_publishers: arrayOf(ref('FeedPublisher')),
    context: ref('Context'),
    links: arrayOf(ref('Link')),
  }),
  Address: object({ id: str, name: str, label: str, coord, house_number: int }),
  Place: object(
    {
      id: str,
      name: str,
      quality: int,
      embedded_type: { type: 'string', enum: ['stop_point', 'stop_area', 'address'] },
      stop_point: ref('StopPoint'),
      stop_area: ref('StopArea'),
      address: ref('Address'),
    },
    ['id', 'name', 'quality', 'embedded_type'],
  ),
  HeatMatrix: object({
    line_headers: arrayOf(object({ cell_lat: object({ min_lat: num, center_lat: num, max_lat: num }) })),
    lines: arrayOf(object({ cell_lon: object({ min_lon: num, center_lon: num, max_lon: num }), duration: arrayOf(nullable(int)) })),
  }),
  HeatMap: object(
    {
      heat_matrix: ref('HeatMatrix'),
      from: ref('Place'),
      to: ref('Place'),
      requested_date_time: str,
      // a departure window's map (docs/api.md, "Departure windows")
      percentile: int,
      // a difference map's sides (levels or scenarios) and counts (docs/api.md, "Difference maps")
      difference: object({
        data_freshness: str,
        compare_data_freshness: str,
        scenario: str,
        compare_scenario: str,
        lost_cells: int,
        gained_cells: int,
        slower_cells: int,
        faster_cells: int,
      }),
    },
    ['heat_matrix', 'requested_date_time'],
  ),
  HeatMaps: object(
    {
      heat_maps: arrayOf(ref('HeatMap')),
      feed_publishers: arrayOf(ref('FeedPublisher')),
      links: arrayOf(ref('Link')),
      warnings: arrayOf(ref('Warning')),
      context: ref('Context'),
      error: ref('EngineError'),
    },
    ['heat_maps', 'feed_publishers', 'links', 'warnings', 'context'],
  ),
  // Accessibility, travel-time matrices and point sets (docs/api.md, "Accessibility")
  Accessibility: object(
    {
      accessibility: arrayOf(
        object(
          { opportunities: str, percentile: int, cutoff: int, decay_function: str, value: num, compare_data_freshness: str, compare_scenario: str, compared_value: num, difference: num },
          ['opportunities', 'percentile', 'cutoff', 'decay_function', 'value'],
        ),
      ),
      nearest: arrayOf(
        object({ opportunities: str, percentile: int, n: int, duration: nullable(int), compare_data_freshness: str, compare_scenario: str, compared_value: nullable(int), difference: nullable(int) }, [
          'opportunities',
          'percentile',
          'n',
          'duration',
        ]),
      ),
      // with origins=SET: every origin of the set, one value per origin in each measure
      accessibility_by_origin: nullable(
        object({
          origins: arrayOf(str),
          lon: arrayOf(num),
          lat: arrayOf(num),
          measures: arrayOf(object({ opportunities: str, percentile: int, cutoff: int, decay_function: str, values: arrayOf(nullable(num)) })),
          nearest: arrayOf(object({ opportunities: str, percentile: int, n: int, durations: arrayOf(nullable(int)) })),
        }),
      ),
      from: ref('Place'),
      to: ref('Place'),
      requested_date_time: str,
      ...MAP_ENVELOPE,
    },
    // one place's answer has accessibility and nearest; every origin's, accessibility_by_origin
    ['feed_publishers', 'links', 'warnings', 'context'],
  ),
  TravelTimeMatrix: object(
    {
      travel_time_matrix: nullable(
        object({ origins: arrayOf(str), destinations: arrayOf(str), percentiles: arrayOf(int), durations: arrayOf(arrayOf(arrayOf(nullable(int)))) }),
      ),
      requested_date_time: str,
      ...MAP_ENVELOPE,
    },
    ['travel_time_matrix', 'feed_publishers', 'links', 'warnings', 'context'],
  ),
  PointSets: object(
    {
      point_sets: arrayOf(
        object({ name: str, file: str, points: count, unlinked_points: count, columns: arrayOf(object({ name: str, total: num, opportunities: str })) }),
      ),
      context: ref('Context'),
      error: ref('EngineError'),
    },
    ['point_sets', 'context'],
  ),
  Scenarios: object(
    {
      scenarios: arrayOf(
        object(
          {
            name: str,
            file: str,
            status: { type: 'string', enum: ['ok', 'refused', 'preparing'] },
            description: nullable(str),
            modifications: arrayOf(object({ index: count, type: str, trips_removed: count, trips_changed: count, trips_added: count, stops_added: count })),
            trips: count,
            timetable_trips_replaced: count,
            new_stops: count,
            new_lines: count,
            errors: arrayOf(object({ modification: nullable(count), field: str, value: {}, reason: str }, ['modification', 'field', 'reason'])),
            last_load_at: nullable(int),
            loads: count,
            failures: count,
            geojson: object({ type: str, features: arrayOf(object({})) }),
          },
          ['name', 'file', 'status', 'modifications', 'errors', 'geojson'],
        ),
      ),
      context: ref('Context'),
      error: ref('EngineError'),
    },
    ['scenarios', 'context'],
  ),
  MultiPolygon: object({ type: { type: 'string', enum: ['MultiPolygon'] }, coordinates: arrayOf(arrayOf(arrayOf(arrayOf(num)))) }),
  Isochrone: object(
    {
      geojson: ref('MultiPolygon'),
      max_duration: int,
      min_duration: int,
      from: ref('Place'),
      to: ref('Place'),
      requested_date_time: str,
      min_date_time: str,
      max_date_time: str,
    },
    ['geojson', 'max_duration', 'min_duration', 'requested_date_time', 'min_date_time', 'max_date_time'],
  ),
  Isochrones: object(
    {
      isochrones: arrayOf(ref('Isochrone')),
      feed_publishers: arrayOf(ref('FeedPublisher')),
      links: arrayOf(ref('Link')),
      warnings: arrayOf(ref('Warning')),
      context: ref('Context'),
      error: ref('EngineError'),
    },
    ['isochrones', 'feed_publishers', 'links', 'warnings', 'context'],
  ),
  /** Not in Navitia: the isochrone bands of a heat map as GeoJSON (`format=geojson`). */
  Bands: object({
    type: { type: 'string', enum: ['FeatureCollection'] },
    features: arrayOf(
      object({
        type: { type: 'string', enum: ['Feature'] },
        properties: object({ min_duration: int, max_duration: int, min_date_time: str, max_date_time: str }),
        geometry: ref('MultiPolygon'),
      }),
    ),
  }),
  /** Not in Navitia: the state of a realtime source of the coverage (times in epoch seconds). */
  RealtimeSource: object({
    source: str,
    last_success_at: nullable(int),
    last_error: nullable(str),
    last_error_at: nullable(int),
    trip_updates: int,
    vehicle_positions: int,
    alerts: int,
    successes: int,
    failures: int,
  }),
  /** Not in Navitia: the state of the coverage's disruptions file (times in epoch seconds). */
  DisruptionsSource: object({
    path: str,
    last_load_at: nullable(int),
    last_error: nullable(str),
    last_error_at: nullable(int),
    disruptions: int,
    problems: int,
    loads: int,
    failures: int,
  }),
  Region: object(REGION_PROPERTIES, REGION_REQUIRED),
  /** Not in Navitia: a coverage in `/v1/status` (health.ts), its region without `id` and `shape`. */
  RegionStatus: object(
    {
      region_id: str,
      ...omit(REGION_PROPERTIES, ['id', 'shape']),
      generation: nullable(int),
      loaded_from: nullable({ type: 'string', description: '`snapshot` or `sources`: where the data in force was loaded from; null before any load' }),
      is_realtime_loaded: bool,
    },
    ['region_id', ...REGION_REQUIRED.filter((k) => k !== 'id' && k !== 'shape'), 'generation', 'loaded_from', 'is_realtime_loaded'],
  ),
  /** Not in Navitia: what `/v1/status` answers. */
  Status: object({
    status: object({
      navette_version: str,
      started_at: utcDatetime,
      uptime_sec: count,
      regions: arrayOf(ref('RegionStatus')),
      heat_maps: object({ queue_depth: count }),
    }),
  }),
  Coverages: object({ regions: arrayOf(ref('Region')), links: arrayOf(ref('Link')), context: ref('Context') }),
  /** Every error shape (docs/api.md, The error catalogue): a message, an http error, or an engine error in its envelope. */
  Error: object(
    {
      message: str,
      error: ref('EngineError'),
      pagination: ref('Pagination'),
      disruptions: arrayOf(ref('Disruption')),
      feed_publishers: arrayOf(ref('FeedPublisher')),
      context: ref('Context'),
      heat_maps: arrayOf(ref('HeatMap')),
      links: arrayOf(ref('Link')),
      warnings: arrayOf(ref('Warning')),
    },
    [],
  ),
};

/** The probes' answers (health.ts): outside `/v1`, in the OpenAPI 3 document only. */
export const PROBE_DEFINITIONS: Record<string, Json> = {
  Health: object({ status: { type: 'string', enum: ['ok'] } }),
  CoverageReadiness: object({ id: str, status: coverageStatus }),
  Ready: object({ status: { type: 'string', enum: ['ready'] }, coverages: arrayOf(ref('CoverageReadiness')) }),
  NotReady: object({ status: { type: 'string', enum: ['loading', 'dead'] }, coverages: arrayOf(ref('CoverageReadiness')) }),
};
