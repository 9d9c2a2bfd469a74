/**
 * The API's description, generated from the same parameter tables the server validates with:
 * Swagger 2.0 at `/v1/schema` (what Navitia serves and its clients read), and its OpenAPI 3
 * translation at `/v1/openapi.json` (what today's tools read; `/docs` renders it).
 *
 * The probes and metrics (`/healthz`, `/readyz`, `/metrics`) sit outside the base path `/v1`, which
 * Swagger 2.0 cannot give one operation another of: only the OpenAPI 3 document describes them, each
 * path with its own `servers: [{url: '/'}]`; the Swagger document says so in its description.
 *
 * Response schemas forbid unknown properties: the contract tests validate every answer against
 * them, so a field added to a response without its schema fails the tests. Swagger 2.0 has no null
 * type: values that may be null carry `x-nullable`, which the OpenAPI 3 translation turns into
 * `nullable`.
 */
import { heatMapParams, isochroneParams } from './heat-maps/heat-maps-params.js';
import { accessibilityParams, matrixParams } from '../queries/analysis-params.js';
import { swaggerParameters } from './params.js';
import { type Limits } from '../service/limits.js';
import { COVERAGE_PARAMS, tripsParams } from './trips/trips-params.js';
import { collectionParams, placesNearbyParams, placesParams, REFERENTIAL_COLLECTIONS, type ReferentialCollection } from './referential/referential-params.js';
import { ODT_LEVEL_NAMES } from '../model/timetable.js';
import { COLLECTION_CAPTIONS } from '../ptref/object-types.js';
import { VERSION } from '../util/version.js';

type Json = Record<string, unknown>;


// ---------------------------------------------------------------------------------------------
// Response schemas

const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const arrayOf = (items: Json) => ({ type: 'array', items });
const nullable = (schema: Json) => ({ ...schema, 'x-nullable': true });

/** An object with exactly these properties, `required` among them. */
function object(properties: Record<string, Json>, required: string[] = Object.keys(properties)): Json {
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
const coord = object({ lon: str, lat: str });

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
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

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

const DEFINITIONS: Record<string, Json> = {
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
      // a difference map's levels and counts (docs/api.md, "Difference maps")
      difference: object({
        data_freshness: str,
        compare_data_freshness: str,
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
          { opportunities: str, percentile: int, cutoff: int, decay_function: str, value: num, compare_data_freshness: str, compared_value: num, difference: num },
          ['opportunities', 'percentile', 'cutoff', 'decay_function', 'value'],
        ),
      ),
      nearest: arrayOf(
        object({ opportunities: str, percentile: int, n: int, duration: nullable(int), compare_data_freshness: str, compared_value: nullable(int), difference: nullable(int) }, [
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
const PROBE_DEFINITIONS: Record<string, Json> = {
  Health: object({ status: { type: 'string', enum: ['ok'] } }),
  CoverageReadiness: object({ id: str, status: coverageStatus }),
  Ready: object({ status: { type: 'string', enum: ['ready'] }, coverages: arrayOf(ref('CoverageReadiness')) }),
  NotReady: object({ status: { type: 'string', enum: ['loading', 'dead'] }, coverages: arrayOf(ref('CoverageReadiness')) }),
};

// ---------------------------------------------------------------------------------------------
// Operations

const pathParam = (name: string, type: 'string' | 'number', description: string): Json => ({
  name,
  in: 'path',
  required: true,
  type,
  ...(type === 'number' ? { format: 'double' } : {}),
  description,
});
const REGION = pathParam('region', 'string', 'The region to query.');
const LON = pathParam('lon', 'number', 'Longitude of the coordinate to query.');
const LAT = pathParam('lat', 'number', 'Latitude of the coordinate to query.');
const URI = pathParam('uri', 'string', 'First part of the uri of an object (type/id pairs, e.g. lines/L1); narrows the query to that object.');
const ID = pathParam('id', 'string', 'Identifier of the trip to fetch.');
const OBJECT_ID = pathParam('id', 'string', 'Identifier of the object to fetch.');
const POINT_LON = pathParam('lon', 'number', 'Longitude of the point whose places are searched.');
const POINT_LAT = pathParam('lat', 'number', 'Latitude of the point whose places are searched.');

/** The answers besides 200 of the `/v1` operations; all but 304 carry an Error. */
const OTHER_ANSWERS = {
  304: 'Not modified: the If-None-Match ETag is the answer\'s (same data generation and query).',
  400: 'A parameter or the filter is invalid.',
  401: 'Tokens are configured and the request has no known one.',
  404: 'Unknown region, object or route, or nothing found.',
  413: 'The request has a body (a Content-Length above 0 or a Transfer-Encoding): no endpoint takes one.',
  429: 'Too many requests from this client: retry after the Retry-After header\'s seconds.',
  503: 'The server is busy or the region is not loaded.',
};
type OtherAnswer = keyof typeof OTHER_ANSWERS;
const COVERAGE_ANSWERS: OtherAnswer[] = [304, 400, 401, 404, 413, 429, 503];

function responses(okSchema: string, description: string, others: OtherAnswer[]): Json {
  const out: Json = { 200: { description, schema: ref(okSchema) } };
  for (const code of others) out[code] = code === 304 ? { description: OTHER_ANSWERS[code] } : { description: OTHER_ANSWERS[code], schema: ref('Error') };
  return out;
}

interface Operation {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  pathParams: Json[];
  query: Json[];
  ok: string;
  /** default: COVERAGE_ANSWERS */
  others?: OtherAnswer[];
  /** other media types of the success answer, with their schema */
  formats?: Record<string, Json>;
}

/** The heat map's other formats (`format=tiff|png|geojson`). */
const HEAT_MAP_MEDIA: Record<string, Json> = {
  'image/tiff': { type: 'string', format: 'binary' },
  'image/png': { type: 'string', format: 'binary' },
  'application/geo+json': ref('Bands'),
};

function operations(limits: Limits): Operation[] {
  const coverage = swaggerParameters(COVERAGE_PARAMS);
  const list = swaggerParameters(tripsParams(limits, true));
  const one = swaggerParameters(tripsParams(limits, false));
  const heat = swaggerParameters(heatMapParams(limits));
  const iso = swaggerParameters(isochroneParams(limits));
  const access = swaggerParameters(accessibilityParams(limits));
  const matrix = swaggerParameters(matrixParams(limits));
  const ops: Operation[] = [
    { path: '/coverage', operationId: 'getCoverage', tag: 'coverage', summary: 'The coverages served.', pathParams: [], query: coverage, ok: 'Coverages' },
    { path: '/coverage/{region}', operationId: 'getCoverageRegion', tag: 'coverage', summary: 'One coverage.', pathParams: [REGION], query: coverage, ok: 'Coverages' },
    { path: '/coverage/{lon};{lat}', operationId: 'getCoverageLonLat', tag: 'coverage', summary: 'The coverage of a coordinate.', pathParams: [LON, LAT], query: coverage, ok: 'Coverages' },
  ];
  for (const [form, params, name] of [
    ['{region}', [REGION], 'Region'],
    ['{lon};{lat}', [LON, LAT], 'LonLat'],
  ] as const) {
    ops.push(
      { path: `/coverage/${form}/trips`, operationId: `getCoverage${name}Trips`, tag: 'trips', summary: 'List the trips.', pathParams: [...params], query: list, ok: 'Trips' },
      { path: `/coverage/${form}/trips/{id}`, operationId: `getCoverage${name}TripsId`, tag: 'trips', summary: 'One trip.', pathParams: [...params, ID], query: one, ok: 'Trips' },
      { path: `/coverage/${form}/{uri}/trips`, operationId: `getCoverage${name}UriTrips`, tag: 'trips', summary: 'List the trips of an object.', pathParams: [...params, URI], query: list, ok: 'Trips' },
      { path: `/coverage/${form}/{uri}/trips/{id}`, operationId: `getCoverage${name}UriTripsId`, tag: 'trips', summary: 'One trip of an object.', pathParams: [...params, URI, ID], query: one, ok: 'Trips' },
      {
        path: `/coverage/${form}/heat_maps`,
        operationId: `getCoverage${name}HeatMaps`,
        tag: 'heat_maps',
        summary: 'A grid of travel durations from or to a place; with format, the same map as a GeoTIFF, a PNG or GeoJSON bands.',
        pathParams: [...params],
        query: heat,
        ok: 'HeatMaps',
        formats: HEAT_MAP_MEDIA,
      },
      {
        path: `/coverage/${form}/isochrones`,
        operationId: `getCoverage${name}Isochrones`,
        tag: 'isochrones',
        summary: 'The areas reachable within duration bands from or to a place, contoured from the street-exact travel times (not circles around stops).',
        pathParams: [...params],
        query: iso,
        ok: 'Isochrones',
      },
      {
        path: `/coverage/${form}/accessibility`,
        operationId: `getCoverage${name}Accessibility`,
        tag: 'accessibility',
        summary: 'How many opportunities of the coverage\'s point sets a place reaches: by cutoff, decay function and percentile, and the least time to reach N of them.',
        pathParams: [...params],
        query: access,
        ok: 'Accessibility',
      },
    );
  }
  ops.push(
    {
      path: '/coverage/{region}/travel_time_matrix',
      operationId: 'getCoverageRegionTravelTimeMatrix',
      tag: 'accessibility',
      summary: 'The travel times from every point of one point set to every point of another, per percentile (small matrices; larger ones: navette matrix).',
      pathParams: [REGION],
      query: matrix,
      ok: 'TravelTimeMatrix',
    },
    { path: '/coverage/{region}/point_sets', operationId: 'getCoverageRegionPointSets', tag: 'accessibility', summary: 'The coverage\'s point sets, their columns and totals.', pathParams: [REGION], query: [], ok: 'PointSets' },
  );
  for (const c of REFERENTIAL_COLLECTIONS) {
    const name = pascal(c);
    const noun = c.replace(/_/g, ' ');
    const cList = swaggerParameters(collectionParams(limits, c, true));
    const cOne = swaggerParameters(collectionParams(limits, c, false));
    // the region forms only: the lon;lat forms are served alike (README), and would double the document
    for (const [form, params, formName] of [['{region}', [REGION], 'Region']] as const) {
      ops.push(
        { path: `/coverage/${form}/${c}`, operationId: `getCoverage${formName}${name}`, tag: 'referential', summary: `List the ${noun}.`, pathParams: [...params], query: cList, ok: name },
        { path: `/coverage/${form}/${c}/{id}`, operationId: `getCoverage${formName}${name}Id`, tag: 'referential', summary: `One of the ${noun}.`, pathParams: [...params, OBJECT_ID], query: cOne, ok: name },
        { path: `/coverage/${form}/{uri}/${c}`, operationId: `getCoverage${formName}Uri${name}`, tag: 'referential', summary: `List the ${noun} of an object.`, pathParams: [...params, URI], query: cList, ok: name },
        {
          path: `/coverage/${form}/{uri}/${c}/{id}`,
          operationId: `getCoverage${formName}Uri${name}Id`,
          tag: 'referential',
          summary: `One of the ${noun} of an object.`,
          pathParams: [...params, URI, OBJECT_ID],
          query: cOne,
          ok: name,
        },
      );
    }
  }
  const places = swaggerParameters(placesParams(limits));
  ops.push(
    { path: '/coverage/{region}/places', operationId: 'getCoverageRegionPlaces', tag: 'places', summary: 'Stop areas and stop points whose name matches a text, best first.', pathParams: [REGION], query: places, ok: 'Places' },
    {
      path: '/coverage/{region}/coords/{lon};{lat}/places_nearby',
      operationId: 'getCoverageRegionCoordsPlacesNearby',
      tag: 'places',
      summary: 'Stop areas and stop points near a point, nearest first (also at coord/{lon};{lat}/places_nearby).',
      pathParams: [REGION, POINT_LON, POINT_LAT],
      query: swaggerParameters(placesNearbyParams(limits)),
      ok: 'PlacesNearby',
    },
  );
  ops.push({
    path: '/status',
    operationId: 'getStatus',
    tag: 'operations',
    summary: 'The server\'s state: version, uptime, each coverage, the heat-map queue.',
    pathParams: [],
    query: [],
    ok: 'Status',
    // tokens and the rate limit apply; no parameter, no ETag, nothing to be not found
    others: [401, 413, 429],
  });
  return ops;
}

/**
 * The probes and metrics, at the server root (operations/operations.ts): Swagger 2.0 path items, which the
 * OpenAPI 3 translation reads and the Swagger document leaves out. They need no token and are not
 * rate limited.
 */
const ROOT_PATHS: Record<string, { get: Json }> = {
  '/healthz': probe('getHealthz', 'Liveness: 200 while the process serves, loading or not.', {
    200: { description: 'The process serves.', schema: ref('Health') },
  }),
  '/readyz': probe('getReadyz', 'Readiness, with the state of each coverage.', {
    200: { description: 'No coverage is still loading, and one at least answers.', schema: ref('Ready') },
    503: { description: 'A coverage is still loading, or none answers.', schema: ref('NotReady') },
  }),
  '/metrics': probe(
    'getMetrics',
    'Prometheus metrics.',
    {
      200: { description: 'The Prometheus text exposition format, version 0.0.4.', schema: { type: 'string' } },
      403: { description: 'The client is not one of the metricsAllow setting\'s addresses: a line of text that says so.', schema: { type: 'string' } },
    },
    'text/plain',
  ),
};

function probe(operationId: string, summary: string, responses: Json, type = 'application/json'): { get: Json } {
  return { get: { operationId, tags: ['operations'], summary, produces: [type], parameters: [], responses } };
}

const DESCRIPTION = 'A Navitia-compatible public transport API: the PT referential (trips, lines, stop areas… and places), heat maps and isochrones.';

/** The Swagger 2.0 document. */
export function swaggerDocument(limits: Limits): Json {
  const paths: Json = {};
  for (const op of operations(limits)) {
    paths[op.path] = {
      get: {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        produces: ['application/json', ...Object.keys(op.formats ?? {})],
        parameters: [...op.pathParams, ...op.query],
        responses: responses(op.ok, op.summary, op.others ?? COVERAGE_ANSWERS),
        ...(op.formats ? { 'x-formats': op.formats } : {}),
      },
    };
  }
  return {
    swagger: '2.0',
    info: {
      title: 'Navette',
      version: VERSION,
      description: `${DESCRIPTION} The probes and metrics (/healthz, /readyz, /metrics) sit outside the base path /v1: the OpenAPI 3 document (/v1/openapi.json) describes them.`,
    },
    basePath: '/v1',
    schemes: ['http', 'https'],
    produces: ['application/json'],
    paths,
    definitions: DEFINITIONS,
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAPI 3

/** The OpenAPI 3.0 translation of the Swagger 2.0 document. */
export function openApiDocument(limits: Limits): Json {
  const swagger = swaggerDocument(limits);
  const paths: Json = {};
  for (const [path, item] of Object.entries(swagger['paths'] as Record<string, { get: Json }>)) paths[path] = { get: operation3(item.get) };
  // outside /v1: the server root
  for (const [path, item] of Object.entries(ROOT_PATHS)) paths[path] = { servers: [{ url: '/' }], get: operation3(item.get) };
  const schemas: Json = {};
  for (const [name, s] of Object.entries({ ...DEFINITIONS, ...PROBE_DEFINITIONS })) schemas[name] = schema3(s);
  return {
    openapi: '3.0.3',
    info: { ...(swagger['info'] as Json), description: `${DESCRIPTION} The probes and metrics (/healthz, /readyz, /metrics) are at the server root.` },
    servers: [{ url: '/v1' }],
    paths,
    components: { schemas },
  };
}

/** A Swagger 2.0 operation as OpenAPI 3: each answer's schema under the operation's media type. */
function operation3(get: Json): Json {
  const type = (get['produces'] as string[])[0]!;
  const formats = (get['x-formats'] ?? {}) as Record<string, Json>;
  const responses: Json = {};
  for (const [code, r] of Object.entries(get['responses'] as Record<string, { description: string; schema: Json }>)) {
    const content: Json = { [type]: { schema: schema3(r.schema) } };
    if (code === '200') for (const [media, schema] of Object.entries(formats)) content[media] = { schema: schema3(schema) };
    responses[code] = { description: r.description, content };
  }
  return {
    operationId: get['operationId'],
    tags: get['tags'],
    summary: get['summary'],
    parameters: (get['parameters'] as Json[]).map(parameter3),
    responses,
  };
}

/** A Swagger 2.0 parameter as an OpenAPI 3 one: its type in `schema`, repeated arrays as form/explode. */
function parameter3(p: Json): Json {
  const { name, in: where, required, description, type, format, items, enum: values, default: dflt, minimum, maximum, collectionFormat, 'x-deprecated': deprecated } = p;
  const schema: Json = { type };
  if (format !== undefined) schema['format'] = format;
  if (items !== undefined) schema['items'] = items;
  if (values !== undefined) schema['enum'] = values;
  if (dflt !== undefined) schema['default'] = dflt;
  if (minimum !== undefined) schema['minimum'] = minimum;
  if (maximum !== undefined) schema['maximum'] = maximum;
  const out: Json = { name, in: where, required, description, schema };
  if (collectionFormat === 'multi') Object.assign(out, { style: 'form', explode: true });
  if (deprecated) out['deprecated'] = true;
  return out;
}

/** A Swagger 2.0 schema as OpenAPI 3: references moved to components, x-nullable to nullable. */
function schema3(s: unknown): Json {
  if (Array.isArray(s)) return s.map(schema3) as unknown as Json;
  if (s === null || typeof s !== 'object') return s as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref') out[k] = (v as string).replace('#/definitions/', '#/components/schemas/');
    else if (k === 'x-nullable') out['nullable'] = v;
    else if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, p]) => [name, schema3(p)]));
    else out[k] = typeof v === 'object' ? schema3(v) : v;
  }
  return out;
}
