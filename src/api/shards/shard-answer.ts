/**
 * What a replica serving a shard answers before any endpoint (shard-routing.ts): a `lon;lat`
 * request for a point none of its coverages contains goes on to the next shard, and nginx's
 * requests for `/v1/coverage` get the SSI template or one region object.
 */
import type { FastifyRequest } from 'fastify';
import type { CoverageConfig } from '../../service/coverage-config.js';
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import { coverageLinks, regionJson } from '../coverage/coverage-endpoint.js';
import { resolveCoverage } from '../coverage/coverage-resolution.js';
import type { Answer } from '../endpoint.js';
import { parseParams } from '../params.js';
import type { Target } from '../targets.js';
import { COVERAGE_PARAMS } from '../trips/trips-params.js';
import { mergedCoverageTemplate } from './merged-coverage.js';
import { NEXT_SHARD_HEADER, nextShardOf, REGIONS_HEADER, regionsModeOf } from './shard-routing.js';
import { requestNow } from '../../queries/param-table.js';

export interface ShardOptions {
  /** The configuration's coverages this replica does not hold. */
  elsewhere: CoverageConfig[];
}

/** The shard's own answer to `target`, or undefined when the endpoint answers as on a single server. */
export function shardAnswer(req: FastifyRequest, target: Target, registry: CoverageRegistry, shard: ShardOptions): Answer | undefined {
  // a point none of this shard's coverages contains: nginx asks the next shard the same request
  const ref = target.coverageRef;
  const next = nextShardOf(req.headers[NEXT_SHARD_HEADER]);
  if (next && ref?.kind === 'coord' && !registry.resolve(ref.lon, ref.lat)) return { body: '', headers: { 'x-accel-redirect': next } };
  const mode = regionsModeOf(req.headers[REGIONS_HEADER]);
  if (target.kind !== 'coverage' || !mode) return undefined;
  const params = parseParams(COVERAGE_PARAMS, target.info.pairs);
  const disableGeojson = params.disable_geojson;
  if (mode === 'fragment' && ref !== undefined) return { body: JSON.stringify(regionJson(resolveCoverage(registry, ref), disableGeojson)) };
  const url = req.raw.url ?? '';
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const links = coverageLinks(target.info.base, '{regions.id}');
  return { body: mergedCoverageTemplate(registry.list(), shard.elsewhere, links, requestNow(params), disableGeojson, query) };
}
