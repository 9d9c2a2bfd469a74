/**
 * Requests refused before a route reads them, answered in Navitia's shape like every other error
 * (errors.ts): the one place such a refusal becomes an error of the catalogue.
 *
 * - What Node's HTTP parser cannot read (bytes outside ASCII in the URL, a garbage request line, an
 *   unknown method, headers too large) or a client too slow: Node gives the raw socket up
 *   (`clientError`), and the answer is written on it whole before it is closed.
 * - What Node would answer itself, with an empty body: a CONNECT (this is no proxy), an `Expect` it
 *   cannot meet (the missing `Host` is checked in app.ts's first hook instead).
 * - What Fastify refuses before routing (`frameworkErrors`: a URL that does not decode) and its own
 *   client errors reaching the error handler (FST_ERR_*: a body it cannot parse…): by their status.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  ApiError,
  badRequest,
  bodyRefused,
  errorReply,
  expectationFailed,
  headersTooLarge,
  methodNotAllowed,
  notFoundRoute,
  requestTimeout,
  unsupportedMediaType,
  urlTooLong,
} from '../errors.js';

/** The catalogue's error for each client-error status a refusal carries; any other 4xx is a bad request. */
const ERROR_OF_STATUS: Record<number, () => ApiError> = {
  400: badRequest,
  404: notFoundRoute,
  405: methodNotAllowed,
  408: requestTimeout,
  413: bodyRefused,
  414: urlTooLong,
  415: unsupportedMediaType,
  417: expectationFailed,
  431: headersTooLarge,
};

/** Node's errors of a connection that are not a plain 400 (every other `HPE_*` parser error is). */
const STATUS_OF_NODE_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  // the request (or its headers) took longer than `requestTimeoutMs`
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** A request line that reads well but for its method, which the parser does not know (`FROB / HTTP/1.1`). */
const UNKNOWN_METHOD_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.[01]\r?\n/;

/**
 * The catalogue's error for a client error: Fastify's (a 4xx `statusCode`) or Node's parser's (its
 * `code`); undefined for anything else, a fault of the server.
 */
export function clientErrorOf(error: unknown): ApiError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { statusCode, code, rawPacket } = error as { statusCode?: unknown; code?: unknown; rawPacket?: unknown };
  const status = typeof statusCode === 'number' ? statusCode : typeof code === 'string' ? statusOfNodeCode(code, rawPacket) : undefined;
  if (status === undefined || status < 400 || status > 499) return undefined;
  return (ERROR_OF_STATUS[status] ?? badRequest)();
}

function statusOfNodeCode(code: string, rawPacket: unknown): number | undefined {
  const status = STATUS_OF_NODE_CODE[code];
  if (status !== undefined) return status;
  if (!code.startsWith('HPE_')) return undefined;
  // an unknown method on a well-formed request line is a method this server does not allow; other
  // request lines are not HTTP at all
  if (code === 'HPE_INVALID_METHOD' && Buffer.isBuffer(rawPacket) && UNKNOWN_METHOD_LINE.test(rawPacket.toString('latin1'))) return 405;
  return 400;
}

/** The logger the raw-socket answers report to (the app's). */
interface RefusalLog {
  info(obj: object, message: string): void;
}

/**
 * Fastify's `clientErrorHandler`: a connection whose bytes Node's parser gave up on (or that was too
 * slow) gets its refusal written whole, then is closed. A connection the client reset gets nothing.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, log: RefusalLog): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = clientErrorOf(error) ?? badRequest();
  log.info({ code: error.code, status: errorReply(refusal).status }, 'request refused before routing');
  answerOnSocket(socket, refusal);
}

/**
 * `error` as a whole HTTP/1.1 answer on a raw socket, which is closed once it is written. Nothing is
 * written when an answer to an earlier request of the connection is already under way (it would
 * corrupt it), as Node's own handler does.
 */
export function answerOnSocket(socket: Duplex, error: ApiError): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, body, headers } = errorReply(error);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `navitia-request-id: ${randomUUID()}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * The requests Node answers itself unless the server listens for them: a CONNECT (405, its socket
 * closed) and an `Expect` other than `100-continue` (417).
 */
export function answerNodeLevelRequests(server: Server, log: RefusalLog): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    log.info({ method: 'CONNECT', status: 405 }, 'request refused before routing');
    answerOnSocket(socket, methodNotAllowed());
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    log.info({ expect: req.headers['expect'], status: 417 }, 'request refused before routing');
    const { status, body, headers } = errorReply(expectationFailed());
    res.writeHead(status, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'navitia-request-id': randomUUID(),
      connection: 'close',
    });
    res.end(body);
  });
}
