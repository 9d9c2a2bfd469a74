/**
 * Every method on every route goes through the same access check, and every refusal is in Navitia's
 * shape (issue 30). With tokens configured: OPTIONS, HEAD, GET, POST, PUT, DELETE, PATCH on each
 * route the app registers (read from the app) and on paths it does not know, without a token, with
 * an unknown one and with a valid one, as a CORS preflight or not. And over raw sockets, what Node's
 * parser or Fastify's router refuse before any route: a whole HTTP answer, its body an error of the
 * catalogue, and the server serving on.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../src/api/app.js';
import {
  ALLOWED_METHODS,
  type ApiError,
  badRequest,
  errorReply,
  expectationFailed,
  headersTooLarge,
  methodNotAllowed,
  noToken,
  notFoundRoute,
  requestTimeout,
  unknownToken,
} from '../../../../src/api/errors.js';
import { APP_DEFAULT_OPERATIONS, type OperationsSettings } from '../../../../src/api/operations/settings.js';
import { clientErrorOf } from '../../../../src/api/operations/protocol-errors.js';
import { NOW, testServer } from '../../../helpers/town-app.js';

const TOKEN = 'k1';
const TIMEOUT_MS = 1000;
const METHODS = ['OPTIONS', 'HEAD', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
type Method = (typeof METHODS)[number];
/** Paths that need no token (operations.ts). */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
/** A path of each wildcard route the app registers. */
const SAMPLE_OF_WILDCARD: Record<string, string> = {
  '/v1/coverage/*': `/v1/coverage/town/trips?${NOW}`,
  '/explorer/coverage/:region/view.json': '/explorer/coverage/town/view.json',
  '/explorer/coverage/:region/basemap.geojson': '/explorer/coverage/town/basemap.geojson',
};
/** Paths no route serves: Navitia's 404 whatever the method. */
const UNKNOWN_PATHS = ['/nope', '/V1/coverage', '/v1/coverage/town/nothing', '/v1/nothing'];
const ORIGIN = 'https://playground.example';

let app: FastifyInstance;
let port: number;

const settings = (over: Partial<OperationsSettings> = {}): OperationsSettings => ({ ...APP_DEFAULT_OPERATIONS, tokens: [TOKEN], requestTimeoutMs: TIMEOUT_MS, ...over });

before(async () => {
  const { registry } = await testServer();
  app = await buildApp({ registry, operations: settings() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(async () => {
  await app.close();
  await (await testServer()).app.close();
});

/**
 * The paths of the app's GET routes, from the router's own tree (`printRoutes` for one method): a
 * node's path is its ancestors' text and its own.
 */
function getRoutePaths(fastify: FastifyInstance): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of fastify.printRoutes({ method: 'GET' }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?)( \(GET\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    stack.push(m[2]!);
    if (m[3]) paths.push(stack.join(''));
  }
  return paths;
}

interface Case {
  path: string;
  /** a GET route serves it */
  served: boolean;
}

/** Every route's path (a sample for a wildcard), and paths no route serves. */
function cases(): Case[] {
  const paths = getRoutePaths(app);
  for (const expected of ['/', '/healthz', '/readyz', '/metrics', '/v1', '/v1/status', '/v1/schema', '/v1/openapi.json', '/docs', '/v1/coverage', '/v1/coverage/*']) {
    assert.ok(paths.includes(expected), `${expected} among the routes read from the app: ${paths.join(' ')}`);
  }
  const served: Case[] = paths.map((path) => {
    const sample = /[*:]/.test(path) ? SAMPLE_OF_WILDCARD[path] : path;
    assert.ok(sample, `a sample path for the route ${path}`);
    return { path: sample, served: true };
  });
  // the only route without GET is the CORS plugin's `OPTIONS *`: the unknown paths go through it
  return [...served, ...UNKNOWN_PATHS.map((path) => ({ path, served: false }))];
}

/** The status of the answer to `method` on a case with a valid token. */
function expected(method: Method, c: Case, preflight: boolean): number {
  const path = c.path.split('?')[0]!;
  if (method === 'OPTIONS' && preflight) return 204;
  if (!c.served) return 404;
  if (method === 'GET' || method === 'HEAD') return path === '/readyz' ? 503 : 200; // `pending` never loads
  // the schema of a coverage's endpoint; other paths have no OPTIONS route
  if (method === 'OPTIONS') return path.startsWith('/v1/coverage') ? 200 : 404;
  return 405;
}

const bodyOf = (error: ApiError) => JSON.parse(errorReply(error).body);

describe('every method on every route, with tokens configured', () => {
  test('no 5xx; 401 in Navitia\'s shape without a valid token; the normal answer with one; a preflight needs none', async () => {
    let requests = 0;
    for (const c of cases()) {
      for (const method of METHODS) {
        for (const preflight of [false, true]) {
          const cors: Record<string, string> = preflight ? { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } : { origin: ORIGIN };
          for (const token of [undefined, 'k2', TOKEN]) {
            const headers: Record<string, string> = { ...cors, ...(token ? { authorization: token } : {}) };
            const res = await app.inject({ method, url: c.path, headers });
            requests++;
            const what = `${method} ${c.path} token ${token} ${preflight ? 'preflight' : ''}: ${res.statusCode} ${res.body.slice(0, 200)}`;
            const path = c.path.split('?')[0]!;
            const refused = token !== TOKEN && !EXEMPT.has(path) && !(method === 'OPTIONS' && preflight);
            const status = refused ? 401 : expected(method, c, preflight);
            assert.equal(res.statusCode, status, what);
            assert.ok(res.statusCode < 500 || path === '/readyz', what);
            assert.match(String(res.headers['navitia-request-id']), /^[0-9a-f-]{36}$/, what);
            assert.equal(res.headers['access-control-allow-origin'], '*', what);
            if (refused) {
              assert.match(String(res.headers['www-authenticate']), /^Basic /, what);
              if (method !== 'HEAD') assert.deepEqual(JSON.parse(res.body), bodyOf(token === undefined ? noToken() : unknownToken()), what);
            } else if (status === 405) {
              assert.equal(res.headers['allow'], ALLOWED_METHODS.join(', '), what);
              if (method !== 'HEAD') assert.deepEqual(JSON.parse(res.body), bodyOf(methodNotAllowed()), what);
            } else if (status === 204) {
              assert.match(String(res.headers['access-control-allow-methods']), /GET/, what);
            } else if (status === 404 && method !== 'HEAD') {
              assert.deepEqual(JSON.parse(res.body), bodyOf(notFoundRoute()), what);
            }
          }
        }
      }
    }
    assert.ok(requests > 500, `${requests} requests`);
  });

  test('an OPTIONS with Access-Control-Request-Method but no Origin is no preflight: it follows the access rule', async () => {
    const url = `/v1/coverage/town/trips?${NOW}`;
    const headers = { 'access-control-request-method': 'GET' };
    const refused = await app.inject({ method: 'OPTIONS', url, headers });
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(JSON.parse(refused.body), bodyOf(noToken()));
    const served = await app.inject({ method: 'OPTIONS', url, headers: { ...headers, authorization: TOKEN } });
    assert.equal(served.statusCode, 200);
    assert.ok(Array.isArray(JSON.parse(served.body).get.parameters));
  });

  test('past the rate limit, an OPTIONS to any path gets 429 (the CORS plugin\'s route has the app\'s error handler)', async () => {
    const { registry } = await testServer();
    const limited = await buildApp({ registry, operations: settings({ tokens: [], rateLimit: { requestsPerSecond: 1, burst: 1 } }) });
    await limited.ready();
    assert.equal((await limited.inject({ method: 'OPTIONS', url: '/nope' })).statusCode, 404);
    const refused = await limited.inject({ method: 'OPTIONS', url: '/nope' });
    assert.equal(refused.statusCode, 429);
    assert.match(JSON.parse(refused.body).message, /^too many requests/);
    await limited.close();
  });

  test('Fastify\'s own client errors get the catalogue\'s words: an empty JSON body on OPTIONS is a bad request', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: `/v1/coverage/town/trips?${NOW}`,
      headers: { authorization: TOKEN, 'content-type': 'application/json', 'content-length': '0' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(JSON.parse(res.body), bodyOf(badRequest()));
  });

  test('client errors by Fastify status and Node parser code; a fault of the server is none', () => {
    const statusOf = (error: unknown) => (clientErrorOf(error) ? errorReply(clientErrorOf(error)!).status : undefined);
    assert.equal(statusOf({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }), 415);
    assert.equal(statusOf({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), 413);
    assert.equal(statusOf({ code: 'FST_ERR_MAX_PARAM_LENGTH', statusCode: 414 }), 414);
    assert.equal(statusOf({ statusCode: 418 }), 400, 'a 4xx the catalogue does not word is a bad request');
    assert.equal(statusOf({ code: 'HPE_HEADER_OVERFLOW' }), 431);
    assert.equal(statusOf({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }), 408);
    assert.equal(statusOf({ code: 'HPE_INVALID_URL' }), 400);
    assert.equal(statusOf({ code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from('FROB / HTTP/1.1\r\n\r\n') }), 405);
    assert.equal(statusOf({ code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from('this is not http\r\n\r\n') }), 400);
    for (const fault of [new Error('boom'), { statusCode: 500 }, { code: 'ENOENT' }, undefined, 'text']) assert.equal(statusOf(fault), undefined);
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** the server closed the connection */
  closed: boolean;
}

/** `bytes` sent on a fresh connection; the answer read until the server closes it (or `waitMs` passes). */
function rawExchange(bytes: string | Buffer, waitMs = 3000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no whole head in ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]);
      resolve({ status, headers, body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8'), closed });
    };
    const timer = setTimeout(() => (socket.destroy(), finish()), waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(bytes);
  });
}

/** The answer is whole (its length as announced), the catalogue's `error`, and its connection closed. */
function assertRefusal(answer: RawAnswer, error: ApiError, what: string) {
  const { status, body } = errorReply(error);
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer)}`);
  assert.equal(Buffer.byteLength(answer.body), Number(answer.headers['content-length']), `${what}: the whole body`);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/, what);
  assert.deepEqual(JSON.parse(answer.body), JSON.parse(body), what);
  assert.match(answer.headers['navitia-request-id'] ?? '', /^[0-9a-f-]{36}$/, what);
  assert.ok(answer.closed, `${what}: the connection closed`);
}

async function assertStillServing() {
  const res = await fetch(`http://127.0.0.1:${port}/v1/coverage/town/trips?count=1&${NOW}`, { headers: { authorization: TOKEN } });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
}

describe('refused before any route, over raw sockets', () => {
  const line = (requestLine: string, headers = 'Host: localhost\r\n') => `${requestLine}\r\n${headers}\r\n`;
  const cases: [string, string | Buffer, ApiError][] = [
    ['unencoded UTF-8 bytes in the query', Buffer.concat([Buffer.from('GET /v1/coverage/town/places?q=k'), Buffer.from('äfer', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]), badRequest()],
    ['unencoded UTF-8 bytes in the path', Buffer.concat([Buffer.from('GET /v1/coverage/'), Buffer.from('zürich', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]), badRequest()],
    ['a header too long', line('GET /v1/coverage HTTP/1.1', `Host: localhost\r\nX-Long: ${'x'.repeat(20_000)}\r\n`), headersTooLarge()],
    ['a garbage request line', 'this is not http\r\n\r\n', badRequest()],
    ['a space in the URL', line('GET /v1/cov erage HTTP/1.1'), badRequest()],
    ['an HTTP version the server does not speak', line('GET /v1/coverage HTTP/3.7'), badRequest()],
    ['HTTP/2 without negotiation', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', badRequest()],
    ['an unknown method', line('FROB /v1/coverage HTTP/1.1'), methodNotAllowed()],
    ['a method in lower case', line('get /v1/coverage HTTP/1.1'), methodNotAllowed()],
    ['CONNECT', line('CONNECT example.org:443 HTTP/1.1', 'Host: example.org:443\r\n'), methodNotAllowed()],
    ['a bad Content-Length', line('GET /v1/coverage HTTP/1.1', 'Host: localhost\r\nContent-Length: abc\r\n'), badRequest()],
    ['a URL that does not decode (Fastify\'s router)', line('GET /v1/coverage/%E0%A4%A HTTP/1.1', 'Host: localhost\r\nConnection: close\r\n'), badRequest()],
    ['HTTP/1.1 without Host', 'GET /v1/coverage HTTP/1.1\r\n\r\n', badRequest()],
    ['an Expect the server cannot meet', line('GET /v1/coverage HTTP/1.1', 'Host: localhost\r\nExpect: teapot\r\n'), expectationFailed()],
  ];
  for (const [what, bytes, error] of cases) {
    test(`${what}: ${errorReply(error).status} in Navitia's shape, the server serving on`, async () => {
      const answer = await rawExchange(bytes);
      assertRefusal(answer, error, what);
      await assertStillServing();
    });
  }

  test('an unknown method and CONNECT carry Allow', async () => {
    for (const bytes of [line('FROB /v1/coverage HTTP/1.1'), line('CONNECT example.org:443 HTTP/1.1', 'Host: example.org:443\r\n')]) {
      assert.equal((await rawExchange(bytes)).headers['allow'], ALLOWED_METHODS.join(', '));
    }
  });

  test('a request slower than requestTimeoutMs: 408 in Navitia\'s shape', async () => {
    const answer = await rawExchange('GET /v1/coverage HTTP/1.1\r\nHost: localhost\r\n', TIMEOUT_MS * 4);
    assertRefusal(answer, requestTimeout(), 'timeout');
    await assertStillServing();
  });

  test('OPTIONS without a token over a socket: 401 in Navitia\'s shape (it was a 500)', async () => {
    const answer = await rawExchange(line('OPTIONS /nope HTTP/1.1', 'Host: localhost\r\nConnection: close\r\n'));
    assert.equal(answer.status, 401);
    assert.deepEqual(JSON.parse(answer.body), bodyOf(noToken()));
  });
});
