/**
 * The API's description, generated from the same parameter tables the server validates with:
 * Swagger 2.0 at `/v1/schema` (what Navitia serves and its clients read), and its OpenAPI 3
 * translation at `/v1/openapi.json` (what today's tools read; `/docs` renders it).
 *
 * The probes and metrics (`/healthz`, `/readyz`, `/metrics`) sit outside the base path `/v1`, which
 * Swagger 2.0 cannot give one operation another of: only the OpenAPI 3 document describes them, each
 * path with its own `servers: [{url: '/'}]`; the Swagger document says so in its description.
 *
 * The response schemas are openapi-schemas.ts's; this file holds the operations, their parameters
 * (the tables) and answers, and the two documents.
 */
import { PARQUET_MEDIA_TYPE } from './analysis/travel-time-matrix-endpoint.js';
import { heatMapParams, isochroneParams } from './heat-maps/heat-maps-params.js';
import { accessibilityParams, matrixParams } from '../queries/analysis-params.js';
import { swaggerParameters } from './params.js';
import { type Limits } from '../service/limits.js';
import { COVERAGE_PARAMS, tripsParams } from './trips/trips-params.js';
import { collectionParams, placesNearbyParams, placesParams, REFERENTIAL_COLLECTIONS } from './referential/referential-params.js';
import { VERSION } from '../util/version.js';

import { DEFINITIONS, pascal, PROBE_DEFINITIONS, ref, type Json } from './openapi-schemas.js';


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
      summary: 'The travel times from every point of one point set to every point of another, per percentile (small matrices; larger ones: navette matrix); with format=parquet, a Parquet file of the command\'s columns.',
      pathParams: [REGION],
      query: matrix,
      ok: 'TravelTimeMatrix',
      formats: { [PARQUET_MEDIA_TYPE]: { type: 'string', format: 'binary' } },
    },
    { path: '/coverage/{region}/scenarios', operationId: 'getCoverageRegionScenarios', tag: 'accessibility', summary: 'The coverage\'s scenarios: their status, what they change, their faults and the lines they draw.', pathParams: [REGION], query: [], ok: 'Scenarios' },
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
