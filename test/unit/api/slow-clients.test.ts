/**
 * Clients that would hold the server: requests trickled byte by byte, bodies announced and never
 * sent. Over real sockets on the loopback: a client that takes longer than `requestTimeoutMs` to
 * send its request is cut off, a body is refused at once (no endpoint takes one), and other clients
 * are served meanwhile. And who may read `/metrics`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/api/app.js';
import { APP_DEFAULT_OPERATIONS } from '../../../src/api/operations/settings.js';
import { addressMatcher } from '../../../src/api/operations/address-list.js';
import { testServer } from '../../helpers/town-app.js';

const TIMEOUT_MS = 1000;
let app: FastifyInstance;
let port: number;

before(async () => {
  const { registry } = await testServer();
  app = await buildApp({ registry, operations: { ...APP_DEFAULT_OPERATIONS, requestTimeoutMs: TIMEOUT_MS } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
after(async () => {
  await app.close();
  await (await testServer()).app.close();
});

/** A raw connection: what it received, and whether the server closed it. */
function rawClient(): { socket: Socket; received: () => string; closed: Promise<void>; isClosed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => {});
  return {
    socket,
    received: () => text,
    closed: new Promise((resolve) => socket.on('close', () => ((closed = true), resolve()))),
    isClosed: () => closed,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send `text` a byte every `everyMs` until done or the server closes the socket; the bytes sent. */
async function trickle(client: ReturnType<typeof rawClient>, text: string, everyMs: number): Promise<number> {
  let sent = 0;
  while (sent < text.length && !client.isClosed()) {
    client.socket.write(text[sent++]!);
    await sleep(everyMs);
  }
  return sent;
}

describe('slow clients', () => {
  test('headers trickled for longer than the timeout: cut off, while another client is served', async () => {
    const client = rawClient();
    // 200 bytes at 100 ms each would take 20 s; the timeout is 1 s (checked every second)
    const request = `GET /v1/coverage HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(150)}\r\n\r\n`;
    const sending = trickle(client, request, 100);
    await sleep(300);
    const other = await fetch(`http://127.0.0.1:${port}/v1/coverage/town/trips?count=1`);
    assert.equal(other.status, 200, 'another client is served meanwhile');
    await client.closed;
    const sent = await sending;
    assert.ok(sent < request.length / 2, `cut off after ${sent} of ${request.length} bytes`);
    // Node answers 408 when it can; either way the request was not served
    assert.doesNotMatch(client.received(), /^HTTP\/1\.1 200/);
  });

  test('a body announced and never sent: refused at once with 413, the connection closed', async () => {
    for (const method of ['POST', 'OPTIONS', 'GET', 'PUT']) {
      const client = rawClient();
      client.socket.write(`${method} /v1/coverage/town/trips HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\nContent-Type: text/plain\r\n\r\nab`);
      const answered = await Promise.race([client.closed.then(() => 'closed'), sleep(TIMEOUT_MS / 2).then(() => 'waiting')]);
      assert.equal(answered, 'closed', `${method}: closed before the request timeout`);
      const text = client.received();
      assert.match(text, /^HTTP\/1\.1 413 /, method);
      assert.match(text, /This service takes no request body/);
    }
  });

  test('a chunked body trickled: refused at once', async () => {
    const client = rawClient();
    client.socket.write('POST /v1/coverage HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab');
    await client.closed;
    assert.match(client.received(), /^HTTP\/1\.1 413 /);
  });

  test('a request without a body, or with an empty one, is served', async () => {
    const empty = await fetch(`http://127.0.0.1:${port}/v1/coverage`, { headers: { 'content-length': '0' } });
    assert.equal(empty.status, 200);
    const preflight = await fetch(`http://127.0.0.1:${port}/v1/coverage/town/trips`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.org', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
  });
});

describe('who may read /metrics', () => {
  test('the loopback and private networks by default; others get 403', async () => {
    const { registry } = await testServer();
    const local = await buildApp({ registry });
    for (const remoteAddress of ['127.0.0.1', '::1', '10.1.2.3', '172.17.0.2', '192.168.1.9', '::ffff:10.0.0.7', 'fd12::1']) {
      assert.equal((await local.inject({ url: '/metrics', remoteAddress })).statusCode, 200, remoteAddress);
    }
    for (const remoteAddress of ['203.0.113.5', '8.8.8.8', '2001:db8::1', '::ffff:8.8.4.4']) {
      const res = await local.inject({ url: '/metrics', remoteAddress });
      assert.equal(res.statusCode, 403, remoteAddress);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /served only to the addresses of the metricsAllow setting/);
    }
    await local.close();
  });

  test('metricsAllow names the addresses and ranges', async () => {
    const { registry } = await testServer();
    const only = await buildApp({ registry, operations: { ...APP_DEFAULT_OPERATIONS, metricsAllow: ['203.0.113.0/24'] } });
    assert.equal((await only.inject({ url: '/metrics', remoteAddress: '203.0.113.5' })).statusCode, 200);
    assert.equal((await only.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode, 403);
    // the probes stay open to every client
    assert.equal((await only.inject({ url: '/healthz', remoteAddress: '8.8.8.8' })).statusCode, 200);
    await only.close();
  });

  test('address matching', () => {
    const allowed = addressMatcher(['loopback', '10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    assert.equal(allowed('127.5.0.1'), true);
    assert.equal(allowed('10.255.0.1'), true);
    assert.equal(allowed('11.0.0.1'), false);
    assert.equal(allowed('2001:db8:1::5'), true);
    assert.equal(allowed('192.0.2.7'), true);
    assert.equal(allowed('192.0.2.8'), false);
    assert.equal(allowed('not an address'), false);
  });
});
