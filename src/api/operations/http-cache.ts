/**
 * HTTP validators for answers that follow from the data generation and the request alone (trips,
 * heat maps, coverages): a weak ETag worked out before any work, so that a matching
 * `If-None-Match` is answered 304 without computing anything, and `Cache-Control`.
 *
 *   W/"<coverage>-<generation>-<hash>"       trips, heat maps, one coverage
 *   W/"coverages-<hash>"                     the coverage list
 *
 * The hash covers the base URL (links carry the host), the path and the query pairs as sent (their
 * order shows in pagination links). Coverage answers also hash each coverage's status and the state of
 * its realtime sources, which change without a new generation. Without `_current_datetime`, "now"
 * shows in the answer (`context.current_datetime`, a heat map's default `datetime`, disruption
 * statuses): the tag then also holds the current UTC minute, so a revalidation within the minute gets
 * 304 and keeps the first answer of that minute, and the next minute gets a fresh one. Weak, because
 * the body is the same JSON whatever its compression.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { resolveCoverage, type CoverageRef } from '../coverage/coverage-resolution.js';
import type { RequestInfo } from '../links.js';
import { hasKey } from '../query-string.js';
import type { Coverage, CoverageRegistry } from '../../service/coverage-registry.js';
import type { CacheSettings } from './settings.js';

/** Validators belong to full answers only: an error answer loses the ones set before the work. */
export const cacheValidators = fp(
  async (app) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 200 && reply.statusCode !== 304 && reply.hasHeader('etag')) {
        reply.removeHeader('etag');
        reply.removeHeader('cache-control');
      }
      return payload;
    });
  },
  { name: 'navette-cache-validators', fastify: '5.x' },
);

export interface CacheTarget {
  kind: 'coverage' | 'trips' | 'heat_maps' | 'isochrones' | 'street_network' | 'collection' | 'places' | 'places_nearby' | 'accessibility' | 'travel_time_matrix' | 'point_sets' | 'scenarios';
  /** the coverage of the path; none for the coverage list */
  ref: CoverageRef | undefined;
  info: RequestInfo;
}

export interface Validator {
  etag: string;
  cacheControl: string;
}

export class HttpCache {
  constructor(
    private readonly registry: CoverageRegistry,
    private readonly settings: CacheSettings,
  ) {}

  /** The ETag and Cache-Control of an answer, or none (unknown coverage, data not loaded). */
  validator(target: CacheTarget, nowSec = Math.floor(Date.now() / 1000)): Validator | undefined {
    const { info } = target;
    let request = `${info.base}\n${info.path}\n${info.pairs.map((p) => `${p.name}=${p.value}`).join('&')}`;
    const minute = hasKey(info.pairs, '_current_datetime') ? '' : `m${Math.floor(nowSec / 60)}-`;
    if (target.kind === 'coverage' && target.ref === undefined) {
      const coverages = this.registry.list();
      for (const c of coverages) request += `\n${coverageState(c)}`;
      return { etag: `W/"coverages-${minute}${hash(request)}"`, cacheControl: this.cacheControl(coverages.some(hasRealtime)) };
    }
    let coverage: Coverage;
    try {
      coverage = resolveCoverage(this.registry, target.ref!);
    } catch {
      return undefined;
    }
    const generation = coverage.generation;
    if (target.kind === 'coverage') request += `\n${coverageState(coverage)}`;
    // a scenario's new version changes the answers that read it, the timetable staying the same
    if (coverage.scenarios) request += `\nscenarios ${coverage.scenarios.version}`;
    else if (!generation) return undefined;
    const tag = `${encodeURIComponent(coverage.id)}-${generation?.number ?? 0}-${minute}${hash(request)}`;
    return { etag: `W/"${tag}"`, cacheControl: this.cacheControl(hasRealtime(coverage)) };
  }

  /**
   * Set the validator's headers on the reply; when the request's `If-None-Match` names it, answer
   * 304 at once and say so (the caller then stops).
   */
  answerIfFresh(req: FastifyRequest, reply: FastifyReply, target: CacheTarget): boolean {
    const v = this.validator(target);
    if (!v) return false;
    reply.header('etag', v.etag).header('cache-control', v.cacheControl);
    const header = req.headers['if-none-match'];
    if (header === undefined || !matches(header, v.etag)) return false;
    reply.code(304).send();
    return true;
  }

  private cacheControl(realtime: boolean): string {
    const maxAge = realtime ? this.settings.realtimeMaxAgeSec : this.settings.maxAgeSec;
    return maxAge > 0 ? `public, max-age=${maxAge}` : 'public, no-cache';
  }
}

/** `If-None-Match` against an ETag, by weak comparison (RFC 9110 §13.1.2): `*` or any listed tag. */
export function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === wanted);
}

const hasRealtime = (c: Coverage) => (c.config.realtime?.length ?? 0) > 0 || c.realtime !== undefined;

/** What a coverage answer shows beyond its generation. */
function coverageState(c: Coverage): string {
  return `${c.id} ${c.status} ${c.generation?.number ?? 0} ${c.error ?? ''} ${c.realtime ? JSON.stringify(c.realtime.status()) : ''}`;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
