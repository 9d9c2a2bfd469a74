/**
 * The `/v1/coverage…` routes: the path names a target (targets.ts), the table below names its
 * endpoint, and every endpoint travels the same road (endpoint.ts). The HTTP cache answers 304
 * before any work; a shard replica may answer first (shards/shard-answer.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CoverageRegistry } from '../service/coverage-registry.js';
import type { Limits } from '../service/limits.js';
import type { HeatMapRunner } from '../maps/heat-map-runner.js';
import { coverageEndpoint } from './coverage/coverage-endpoint.js';
import { accessibilityEndpoint } from './analysis/accessibility-endpoint.js';
import { scenariosEndpoint } from './analysis/scenarios-endpoint.js';
import { pointSetsEndpoint } from './analysis/point-sets-endpoint.js';
import { travelTimeMatrixEndpoint } from './analysis/travel-time-matrix-endpoint.js';
import { streetNetworkEndpoint } from './coverage/street-network-endpoint.js';
import type { Answer, Endpoint } from './endpoint.js';
import { heatMapsEndpoint } from './heat-maps/heat-maps-endpoint.js';
import { isochronesEndpoint } from './heat-maps/isochrones-endpoint.js';
import type { HttpCache } from './operations/http-cache.js';
import { swaggerParameters } from './params.js';
import { placesEndpoint } from './referential/places-endpoint.js';
import { placesNearbyEndpoint } from './referential/places-nearby-endpoint.js';
import { collectionEndpoint } from './referential/referential-endpoint.js';
import { shardAnswer, type ShardOptions } from './shards/shard-answer.js';
import { cacheTargetOf, targetOf, type Target, type TargetKind, type TargetOf } from './targets.js';
import { tripsEndpoint } from './trips/trips-endpoint.js';

/** Each target kind's endpoint: adding an endpoint is its module and a row here. */
const ENDPOINTS: { [K in TargetKind]: Endpoint<TargetOf<K>> } = {
  coverage: coverageEndpoint,
  trips: tripsEndpoint,
  collection: collectionEndpoint,
  places: placesEndpoint,
  places_nearby: placesNearbyEndpoint,
  heat_maps: heatMapsEndpoint,
  isochrones: isochronesEndpoint,
  street_network: streetNetworkEndpoint,
  accessibility: accessibilityEndpoint,
  travel_time_matrix: travelTimeMatrixEndpoint,
  point_sets: pointSetsEndpoint,
  scenarios: scenariosEndpoint,
};

const endpointOf = (target: Target) => ENDPOINTS[target.kind] as Endpoint<Target>;

export interface CoverageRoutesOptions {
  registry: CoverageRegistry;
  limits: Limits;
  heatMaps: HeatMapRunner;
  cache: HttpCache;
  shard: ShardOptions | undefined;
  /** who asked, for the worker pool's turns between the clients of a coverage */
  clientOf(req: FastifyRequest): string;
}

export function registerCoverageRoutes(app: FastifyInstance, options: CoverageRoutesOptions): void {
  const { registry, limits, heatMaps, cache, shard, clientOf } = options;
  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    const target = targetOf(req);
    const endpoint = endpointOf(target);
    reply.type('application/json');
    if (endpoint.variesByEncoding) reply.header('vary', 'Accept-Encoding');
    const fromShard = shard && shardAnswer(req, target, registry, shard);
    if (fromShard) return send(reply, fromShard);
    // ETag and Cache-Control; a matching If-None-Match is answered 304 before any work
    if (cache.answerIfFresh(req, reply, cacheTargetOf(target))) return reply;
    const abandoned = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abandoned.abort();
    });
    return send(reply, await endpoint.answer(target, { registry, limits, heatMaps, acceptEncoding: req.headers['accept-encoding'], signal: abandoned.signal, client: clientOf(req) }));
  };
  app.get('/v1/coverage', answer);
  app.get('/v1/coverage/*', answer);
  // `OPTIONS <endpoint>?schema=true`: the endpoint's query parameters as Swagger 2.0 objects
  const schema = (req: FastifyRequest, reply: FastifyReply) => {
    const target = targetOf(req);
    const parameters = swaggerParameters(endpointOf(target).params(target, limits));
    return reply.header('allow', 'GET, HEAD, OPTIONS').type('application/json').send(JSON.stringify({ get: { parameters } }));
  };
  app.options('/v1/coverage', schema);
  app.options('/v1/coverage/*', schema);
}

function send(reply: FastifyReply, answer: Answer) {
  // a map's body comes compressed already (maps/heat-map-render.ts): the compression plugin leaves it
  return reply.headers(answer.headers ?? {}).send(answer.body);
}
