/**
 * A coverage loaded from real feeds and served by the HTTP application, for the end-to-end tests:
 * the same path as the server (registry, loadCoverage, buildApp), queried with `inject`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Problem } from '../../src/gtfs/load-report.js';
import { Coverage } from '../../src/service/coverage-registry.js';
import type { Generation } from '../../src/service/generation.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { getJson, serveCoverages } from '../helpers/app.js';
import { navitiaError } from '../helpers/http.js';

export const COVERAGE = 'e2e';

/** A file of the shared data folder. */
export function sharedFeed(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

export interface Served {
  app: FastifyInstance;
  generation: Generation;
  /** the coverage served, for tests that swap in another generation (realtime) */
  coverage: Coverage;
  problems: Problem[];
  close(): Promise<void>;
}

export async function serve(feeds: string[], timezone?: string): Promise<Served> {
  const served = await serveCoverages([{ id: COVERAGE, gtfs: feeds, timezone }]);
  const { app, problems } = served;
  return { app, generation: served.generations.get(COVERAGE)!, coverage: served.coverages.get(COVERAGE)!, problems, close: served.close };
}

/** `/v1/coverage/<coverage>/<segments…>/trips?<query>`, the segments URL-encoded. */
export function tripsUrl(segments: string[], query: Record<string, string | number> = {}): string {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return `/v1/coverage/${COVERAGE}/${[...segments, 'trips'].map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`;
}

/** total_result of a trips query; an empty result must be Navitia's 404 `unknown_object`, counted 0. */
export async function tripCount(app: FastifyInstance, segments: string[], query: Record<string, string | number> = {}): Promise<number> {
  const { status, json, body } = await getJson(app, tripsUrl(segments, { ...query, count: 0 }));
  if (status === 404) {
    assert.deepEqual(navitiaError(json.error), { id: 'unknown_object', message: 'ptref : Filters: Unable to find object' });
    return 0;
  }
  assert.equal(status, 200, body);
  return json.pagination.total_result;
}

/** Every trip id of a trips query, paging 1000 at a time. */
export async function tripIds(app: FastifyInstance, segments: string[], query: Record<string, string | number> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const { status, json, body } = await getJson(app, tripsUrl(segments, { ...query, count: 1000, start_page: page }));
    if (status === 404 && page === 0) {
      assert.equal(json.error.id, 'unknown_object');
      return [];
    }
    assert.equal(status, 200, body);
    for (const t of json.trips ?? []) ids.push(t.id);
    if (ids.length >= json.pagination.total_result || (json.trips ?? []).length === 0) {
      assert.equal(ids.length, json.pagination.total_result);
      return ids;
    }
  }
}

/** Sorted copy, to compare sets of ids. */
export function sorted(ids: Iterable<string>): string[] {
  return [...ids].sort();
}
