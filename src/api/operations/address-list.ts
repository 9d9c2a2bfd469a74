/**
 * Lists of client addresses in the configuration: IP addresses, CIDR ranges (`10.0.0.0/8`) and the
 * range names Fastify's `trustProxy` knows (`loopback`, `linklocal`, `uniquelocal`). One reader for
 * every such list, and a matcher over node's BlockList.
 */
import { BlockList, isIP } from 'node:net';

/** The ranges of each name, as proxy-addr (Fastify's `trustProxy`) defines them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An address, `address/prefix-length`, or a range name. */
export function isAddressOrRange(text: string): boolean {
  if (Object.hasOwn(NAMED_RANGES, text)) return true;
  const slash = text.lastIndexOf('/');
  const version = isIP(slash < 0 ? text : text.slice(0, slash));
  if (version === 0) return false;
  if (slash < 0) return true;
  const bits = text.slice(slash + 1);
  return /^\d+$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Addresses and ranges as one comma-separated string or a list of strings, trimmed; `fail` reports
 * a bad value, its message starting with `name` (the key or the option).
 */
export function addressListOf(value: unknown, name: string, fail: (message: string) => never): string[] {
  const entries = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(entries) || !entries.every((e) => typeof e === 'string')) {
    fail(`${name} must be addresses or CIDR ranges, e.g. "10.0.0.1,192.168.0.0/16"`);
  }
  const addresses = entries.map((e) => e.trim());
  for (const a of addresses) {
    if (!isAddressOrRange(a)) fail(`${name}: "${a}" is not an IP address, a CIDR range (e.g. 10.0.0.0/8) or one of ${Object.keys(NAMED_RANGES).join(', ')}`);
  }
  return addresses;
}

/** Whether an address (as `req.ip` gives it, IPv4-mapped IPv6 included) is in the list. */
export function addressMatcher(list: string[]): (address: string) => boolean {
  const blocks = new BlockList();
  const add = (entry: string) => {
    const slash = entry.lastIndexOf('/');
    const address = slash < 0 ? entry : entry.slice(0, slash);
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (slash < 0) blocks.addAddress(address, type);
    else blocks.addSubnet(address, Number(entry.slice(slash + 1)), type);
  };
  for (const entry of list) for (const e of NAMED_RANGES[entry] ?? [entry]) add(e);
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1]! : address;
    const version = isIP(plain);
    return version !== 0 && blocks.check(plain, version === 6 ? 'ipv6' : 'ipv4');
  };
}
