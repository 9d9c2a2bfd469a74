/**
 * The raw query string as ordered (name, value) pairs: kept as sent, because pagination links must
 * repeat every original parameter (unknown and repeated ones included), and because the mere
 * presence of a `filter` key changes error statuses.
 */
export interface QueryPair {
  name: string;
  value: string;
}

export function parseQueryString(raw: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  if (!raw) return pairs;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    pairs.push({ name, value });
  }
  return pairs;
}

/** Percent-decoding with `+` as a space; malformed escapes are kept as written. */
function decode(s: string): string {
  const t = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(t);
  } catch {
    return t.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
      const c = parseInt(hex, 16);
      return c < 0x80 ? String.fromCharCode(c) : m;
    });
  }
}

/** Values of a parameter: `name[]` and bare `name` forms both count, in order of appearance. */
export function valuesOf(pairs: QueryPair[], name: string): string[] {
  const bracket = `${name}[]`;
  const out: string[] = [];
  for (const p of pairs) if (p.name === name || p.name === bracket) out.push(p.value);
  return out;
}

export function hasKey(pairs: QueryPair[], name: string): boolean {
  return pairs.some((p) => p.name === name);
}

/** Rebuild a query string, replacing (or removing, with `null`) one parameter. */
export function rebuildQuery(pairs: QueryPair[], replace: string, value: string | null): string {
  const out: string[] = [];
  let done = false;
  for (const p of pairs) {
    if (p.name === replace) {
      if (!done && value !== null) out.push(`${encode(p.name)}=${encode(value)}`);
      done = true;
      continue;
    }
    out.push(p.value === '' && !p.name ? '' : `${encode(p.name)}=${encode(p.value)}`);
  }
  if (!done && value !== null) out.push(`${encode(replace)}=${encode(value)}`);
  return out.filter((s) => s).join('&');
}

function encode(s: string): string {
  return encodeURIComponent(s);
}
