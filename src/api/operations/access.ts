/**
 * Who may ask, and how often: access tokens (`Authorization`) and a request rate per client.
 *
 * A token is read as Navitia reads it: the user name of `Authorization: Basic base64(token:)`, or the
 * header's raw value. Without configured tokens every request passes and a token sent is ignored;
 * with tokens, a request without one or with another one gets 401.
 *
 * The rate limit keys a client by its token when it is a configured one, else by its address (so
 * made-up tokens cannot buy a fresh bucket each): `req.ip`, the socket's peer, or behind trusted
 * proxies the client they name (trust-proxy.ts). Past it: 429 with `Retry-After`.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitSettings } from './settings.js';
import { TokenBuckets } from './token-buckets.js';
import { noToken, tooManyRequests, unknownToken } from '../errors.js';

/** The token of an `Authorization` header value, if any. */
export function tokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const basic = /^basic\s+(\S+)$/i.exec(value);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    return user === '' ? undefined : user;
  }
  return value === '' ? undefined : value;
}

/**
 * Who a request is, for the rate limit and the worker pool's turns: its token when it is a
 * configured one, else its address (`req.ip`: behind trusted proxies, the client they name).
 */
export function clientOf(req: FastifyRequest, tokens: ReadonlySet<string>): string {
  const header = req.headers['authorization'];
  const token = tokenOf(Array.isArray(header) ? header[0] : header);
  return token !== undefined && tokens.has(token) ? `token ${token}` : `address ${req.ip}`;
}

export interface AccessOptions {
  rateLimit: RateLimitSettings;
  tokens: string[];
  /** paths that neither count nor need a token (health checks, metrics) */
  exempt: (path: string) => boolean;
}

/** The onRequest hook of both checks (after CORS, whose preflight answers end before it). */
export const access = fp<AccessOptions>(
  async (app, options) => {
    const tokens = new Set(options.tokens);
    const { requestsPerSecond, burst } = options.rateLimit;
    const buckets = requestsPerSecond > 0 ? new TokenBuckets({ ratePerSec: requestsPerSecond, burst }) : undefined;
    if (!buckets && tokens.size === 0) return;
    app.addHook('onRequest', async (req: FastifyRequest, reply) => {
      if (reply.sent || options.exempt(pathOf(req.url))) return;
      const header = req.headers['authorization'];
      const token = tokenOf(Array.isArray(header) ? header[0] : header);
      const known = token !== undefined && tokens.has(token);
      if (buckets) {
        const taken = buckets.take(clientOf(req, tokens));
        if (!taken.allowed) throw tooManyRequests(requestsPerSecond, burst, taken.retryAfterSec);
      }
      if (tokens.size > 0 && !known) throw token === undefined ? noToken() : unknownToken();
    });
  },
  { name: 'navette-access', fastify: '5.x' },
);

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
