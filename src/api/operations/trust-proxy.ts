/**
 * Which proxies the server believes about a client: Fastify's `trustProxy` option, given by the
 * configuration file's `trustProxy` or `--trust-proxy`. It decides `req.ip`, the address the rate
 * limit keys a client without a token by, and `req.protocol`, the scheme of links.
 *
 *   false (default)  no proxy: the client is the socket's peer and `X-Forwarded-*` are ignored, so
 *                    a client cannot forge them
 *   true             every hop: the client is the first address of `X-Forwarded-For`; safe only
 *                    when every request comes through a proxy that replaces the header
 *   addresses        the proxies at these addresses or CIDR ranges (or `loopback`, `linklocal`,
 *                    `uniquelocal`): the client is the nearest address of the chain that is not one
 *
 * A number of hops is refused: Fastify dropped that form in 5.12.1 (a hop count cannot tell the
 * proxy from a client that reaches the server directly with an `X-Forwarded-For` of its own), and a
 * number passed on would silently trust no proxy at all.
 */
import { addressListOf } from './address-list.js';

export type TrustProxy = boolean | string[];

/**
 * `true`, `false` (or their text, as the command line gives them), or addresses and CIDR ranges as
 * one comma-separated string or a list of strings. `fail` reports a bad value; `name` (the key or the
 * option) starts its message.
 */
export function trustProxyOf(value: unknown, name: string, fail: (message: string) => never): TrustProxy {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (typeof value === 'number' || (typeof value === 'string' && /^\s*\d+\s*$/.test(value))) {
    fail(
      `${name}: a number of proxy hops is not accepted (it cannot tell the proxy from a client that reaches the server directly); give the proxies' addresses or CIDR ranges, e.g. 10.0.0.0/8`,
    );
  }
  if (typeof value !== 'string' && !(Array.isArray(value) && value.every((e) => typeof e === 'string'))) fail(`${name} must be true, false, or the proxies' addresses or CIDR ranges, e.g. "10.0.0.1,192.168.0.0/16"`);
  const addresses = addressListOf(value, name, fail);
  return addresses.length > 0 ? addresses : false;
}
