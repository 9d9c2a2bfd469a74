/**
 * How the application refuses: the error handler of every route (and Fastify's framework errors),
 * the checks every request meets first (its id, a Host header, no body), the answer to a path no
 * route serves (404, or 405 for another method on a path a GET route serves), and a shard replica's
 * 503 while it loads. Each refusal is an error of the catalogue (errors.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CoverageRegistry } from '../service/coverage-registry.js';
import { QueryError } from '../queries/query-errors.js';
import { ALLOWED_METHODS, ApiError, apiErrorOf, badRequest, bodyRefused, errorReply, loadingData, methodNotAllowed, notFoundRoute } from './errors.js';
import { clientErrorOf } from './operations/protocol-errors.js';
import { targetOf } from './targets.js';
import { RequestAbandoned } from '../queries/origin-rows.js';

/**
 * The error handler of every route, and Fastify's framework errors: an error of the catalogue as it
 * is, a client error as the catalogue words it (operations/protocol-errors.ts), a request whose
 * client went away 499 with nothing (nobody reads it), logged so that the stopped work shows; anything
 * else is a fault of the server, logged and answered 500.
 */
export function answerError(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RequestAbandoned) {
    req.log.info({ statusCode: 499, url: req.url }, 'request abandoned: the client closed the connection before the answer, its work stopped');
    return reply.code(499).send();
  }
  const refusal = error instanceof ApiError ? error : error instanceof QueryError ? apiErrorOf(error) : clientErrorOf(error);
  if (refusal) return sendError(reply, refusal);
  req.log.error({ err: error }, 'request failed');
  return reply.code(500).type('application/json').send(JSON.stringify({ message: 'Internal Server Error' }));
}

export function sendError(reply: FastifyReply, error: ApiError) {
  const { status, body, headers } = errorReply(error);
  return reply.code(status).headers(headers).type('application/json').send(body);
}

/** The checks every request meets first, before CORS, whose hook ends preflight requests. */
export function registerRequestChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    // every answer carries the request id
    reply.header('navitia-request-id', req.id);
    // HTTP/1.1 requires the Host header (RFC 9112 §3.2); Node's own check is turned off (app.ts)
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      return sendError(reply.header('connection', 'close'), badRequest());
    }
    // no endpoint takes a body: refuse one at once, rather than wait for a client that may trickle it
    if (hasBody(req)) {
      return sendError(reply.header('connection', 'close'), bodyRefused());
    }
  });
}

/**
 * A replica that is not ready refuses the API with 503, which nginx takes as "try the next server"
 * (proxy_next_upstream http_503): it takes no client request before /readyz says ready.
 */
export function registerShardReadiness(app: FastifyInstance, registry: CoverageRegistry): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!(req.raw.url ?? '').startsWith('/v1/') || registry.readiness() === 'ready') return;
    return sendError(reply.header('retry-after', '1'), loadingData());
  });
}

/** A path no route serves: 404, or 405 for another method on a path a GET route serves (as Navitia does). */
export function registerNotFound(app: FastifyInstance): void {
  // The paths GET routes serve, but the coverage's wildcard (isKnownPath): set as routes are added.
  const getPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().includes('GET') && !/[*:]/.test(route.url)) getPaths.add(route.url);
  });
  app.setNotFoundHandler((req, reply) => {
    const known = !ALLOWED_METHODS.includes(req.method) && isKnownPath(app, req, getPaths);
    return sendError(reply, known ? methodNotAllowed() : notFoundRoute());
  });
}

/** A CORS preflight: what a browser sends before a request it may not send without asking. */
export function isPreflight(req: FastifyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** Whether a request comes with a body: a length above 0, or a chunked one. */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Whether a GET route serves the request's path: one of `getPaths`, or a path of a coverage's endpoint. */
function isKnownPath(app: FastifyInstance, req: FastifyRequest, getPaths: Set<string>): boolean {
  const path = (req.raw.url ?? '').split('?')[0]!;
  // as the router reads it (ignoreDuplicateSlashes, ignoreTrailingSlash)
  const normalized = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (getPaths.has(normalized)) return true;
  // a path a GET route with parameters serves (the explorer's per-coverage documents)
  if (!/^\/v1\/coverage(\/|$)/.test(path)) return app.findRoute({ method: 'GET', url: normalized }) !== null;
  try {
    targetOf(req);
    return true;
  } catch {
    return false;
  }
}
