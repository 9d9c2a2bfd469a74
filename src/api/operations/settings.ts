/**
 * Operating settings of the HTTP server: request rate per client, access tokens, HTTP caching, the
 * proxies trusted to name the client, the time a client has to send its request, who may read
 * `/metrics`. Declared once here with their defaults; the configuration file
 * reads them (`cli/config.ts`).
 */
import { addressListOf } from './address-list.js';
import { trustProxyOf, type TrustProxy } from './trust-proxy.js';

export interface RateLimitSettings {
  /** requests per second per client, sustained; 0 disables the limit */
  requestsPerSecond: number;
  /** requests a client may send at once (the bucket size) */
  burst: number;
}

export interface CacheSettings {
  /** `Cache-Control: public, max-age` of answers over static data, seconds (0: `no-cache`) */
  maxAgeSec: number;
  /** the same for coverages with realtime sources, whose data changes at each update (0: `no-cache`) */
  realtimeMaxAgeSec: number;
}

export interface OperationsSettings {
  rateLimit: RateLimitSettings;
  /** accepted tokens; empty: no token is needed (one sent is ignored) */
  tokens: string[];
  cache: CacheSettings;
  /** the proxies whose `X-Forwarded-*` headers name the client (trust-proxy.ts); false: none */
  trustProxy: TrustProxy;
  /**
   * the longest a client may take to send a request, its headers and its body (none is taken),
   * milliseconds: a client that trickles its request is cut off then
   */
  requestTimeoutMs: number;
  /** the clients (addresses, CIDR ranges, range names: address-list.ts) that may read `/metrics` */
  metricsAllow: string[];
}

/** What a server gets when its configuration says nothing. */
export const DEFAULT_OPERATIONS: OperationsSettings = {
  rateLimit: { requestsPerSecond: 50, burst: 100 },
  tokens: [],
  cache: { maxAgeSec: 60, realtimeMaxAgeSec: 0 },
  // a client reaching the server directly must not choose its own address
  trustProxy: false,
  requestTimeoutMs: 10_000,
  // the host itself and private networks (a Prometheus beside the server, in a container network…)
  metricsAllow: ['loopback', 'uniquelocal'],
};

/** The burst of a rate given alone: two seconds' worth of requests, at least one request. */
export function defaultBurst(requestsPerSecond: number): number {
  return Math.max(1, Math.ceil(2 * requestsPerSecond));
}

/** What `buildApp` gets without settings (tests, tools): the same, without a rate limit. */
export const APP_DEFAULT_OPERATIONS: OperationsSettings = { ...DEFAULT_OPERATIONS, rateLimit: { requestsPerSecond: 0, burst: 0 } };

/**
 * The `rateLimit`, `tokens`, `cache`, `trustProxy`, `requestTimeoutMs` and `metricsAllow` keys of a
 * configuration object; `fail` reports a bad value (its message names the key).
 */
export function operationsSettingsOf(obj: Record<string, unknown>, fail: (message: string) => never): OperationsSettings {
  const d = DEFAULT_OPERATIONS;
  const section = (key: string): Record<string, unknown> => {
    const v = obj[key];
    if (v === undefined) return {};
    if (!v || typeof v !== 'object' || Array.isArray(v)) fail(`${key} must be an object`);
    return v as Record<string, unknown>;
  };
  const count = (o: Record<string, unknown>, key: string, name: string, fallback: number): number => {
    const v = o[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`${name} must be a number, 0 or more`);
    return v as number;
  };
  const rate = section('rateLimit');
  const requestsPerSecond = count(rate, 'requestsPerSecond', 'rateLimit.requestsPerSecond', d.rateLimit.requestsPerSecond);
  const burst = count(rate, 'burst', 'rateLimit.burst', rate['requestsPerSecond'] === undefined ? d.rateLimit.burst : defaultBurst(requestsPerSecond));
  if (requestsPerSecond > 0 && burst < 1) fail('rateLimit.burst must be at least 1');
  const tokens = obj['tokens'] ?? [];
  if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string' && t !== '')) fail('tokens must be a list of non-empty strings');
  const cache = section('cache');
  const maxAgeSec = count(cache, 'maxAgeSec', 'cache.maxAgeSec', d.cache.maxAgeSec);
  return {
    rateLimit: { requestsPerSecond, burst },
    tokens: tokens as string[],
    cache: { maxAgeSec: Math.floor(maxAgeSec), realtimeMaxAgeSec: Math.floor(count(cache, 'realtimeMaxAgeSec', 'cache.realtimeMaxAgeSec', d.cache.realtimeMaxAgeSec)) },
    trustProxy: obj['trustProxy'] === undefined ? d.trustProxy : trustProxyOf(obj['trustProxy'], 'trustProxy', fail),
    requestTimeoutMs: requestTimeoutOf(count(obj, 'requestTimeoutMs', 'requestTimeoutMs', d.requestTimeoutMs), fail),
    metricsAllow: obj['metricsAllow'] === undefined ? d.metricsAllow : addressListOf(obj['metricsAllow'], 'metricsAllow', fail),
  };
}

/** A request timeout: whole milliseconds, at least one second (a shorter one would cut off slow but honest clients). */
function requestTimeoutOf(ms: number, fail: (message: string) => never): number {
  if (!Number.isInteger(ms) || ms < 1000) fail('requestTimeoutMs must be a whole number of milliseconds, 1000 or more');
  return ms;
}
