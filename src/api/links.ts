/**
 * Navitia links: absolute hrefs from the request's host (scheme overridable by `X-Scheme`), with
 * `{`, `}` and `;` left unescaped as Navitia's link cleaner does.
 */
import { rebuildQuery, type QueryPair } from './query-string.js';

export interface Link {
  href: string;
  templated: boolean;
  rel?: string;
  type: string;
}

export interface RequestInfo {
  /** `scheme://host` */
  base: string;
  /** Path of the request, as received (percent-encoded), without the query. */
  path: string;
  pairs: QueryPair[];
}

export function baseUrl(headers: Record<string, string | string[] | undefined>, encrypted: boolean): string {
  const scheme = firstHeader(headers['x-scheme']) || (encrypted ? 'https' : 'http');
  const host = firstHeader(headers['host']) || 'localhost';
  return `${scheme}://${host}`;
}

function firstHeader(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** Navitia's `clean_links`: `%7B`, `%7D`, `%3B` back to `{`, `}`, `;`. */
export function cleanHref(href: string): string {
  return href.replace(/%7B/gi, '{').replace(/%7D/gi, '}').replace(/%3B/gi, ';');
}

export interface PageInfo {
  totalResult: number;
  startPage: number;
  itemsPerPage: number;
  itemsOnPage: number;
}

/** previous / next / last / first links (Navitia's, docs/api.md, Trips). */
/** The templated link to one object of a coverage's collection (`…/lines/{lines.id}`). */
export function objectLink(base: string, coverage: string, collection: string): Link {
  return { href: cleanHref(`${base}/v1/coverage/${coverage}/${collection}/{${collection}.id}`), templated: true, rel: collection, type: collection };
}

/** Navitia's `pagination` object of a page, as JSON text. */
export function paginationJson(page: PageInfo): string {
  return `{"total_result":${page.totalResult},"start_page":${page.startPage},"items_per_page":${page.itemsPerPage},"items_on_page":${page.itemsOnPage}}`;
}

export function paginationLinks(req: RequestInfo, page: PageInfo): Link[] {
  const href = (startPage: number | null) => {
    const q = rebuildQuery(req.pairs, 'start_page', startPage === null ? null : String(startPage));
    return cleanHref(`${req.base}${req.path}${q ? `?${q}` : ''}`);
  };
  const links: Link[] = [];
  if (page.startPage > 0) links.push({ href: href(page.startPage - 1), type: 'previous', templated: false });
  if (page.totalResult > page.itemsPerPage * page.startPage + page.itemsOnPage) {
    links.push({ href: href(page.startPage + 1), type: 'next', templated: false });
    if (page.itemsPerPage !== 0) links.push({ href: href(Math.floor((page.totalResult - 1) / page.itemsPerPage)), type: 'last', templated: false });
  }
  links.push({ href: href(null), type: 'first', templated: false });
  return links;
}

/** Python's float formatting of a coordinate in URLs and messages: 2 → "2.0", 2.35 → "2.35". */
export function pyFloat(v: number): string {
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}
