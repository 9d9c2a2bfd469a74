/**
 * `/v1/coverage/{region | lon;lat}/coords/{lon};{lat}/places_nearby` (and `coord/`): the stop areas
 * and stop points within `distance` metres of a point, nearest first (then stop areas before stop
 * points, then feed order), as Navitia's places_nearby; what names a clicked point.
 */
import type { Generation } from '../../service/generation.js';
import { crowFlyMetres } from '../../util/geodesy.js';
import { objectLink, paginationJson, paginationLinks, type Link, type RequestInfo } from '../links.js';
import { parseParams } from '../params.js';
import { placeJson } from '../pt-objects-json.js';
import { contextJson, publishersJson } from '../serialize.js';
import type { CoverageRef } from '../coverage/coverage-resolution.js';
import type { TargetOf } from '../targets.js';
import { inCoverage, ptEnvelopeOf, type Endpoint } from '../endpoint.js';
import { placesNearbyParams } from './referential-params.js';
import { requestNow, type ParamsOf } from '../../queries/param-table.js';

/** Navitia's default types of `/places_nearby`. */
const DEFAULT_TYPES = ['stop_area', 'stop_point', 'poi'];

/** The templated links to the stop areas and stop points a places answer embeds. */
export function placeLinks(info: RequestInfo, coverageRef: CoverageRef, areas: boolean, points: boolean): Link[] {
  const links: Link[] = [];
  for (const [collection, present] of [
    ['stop_areas', areas],
    ['stop_points', points],
  ] as const) {
    if (!present) continue;
    links.push(objectLink(info.base, coverageRef.text, collection));
  }
  return links;
}

export const placesNearbyEndpoint: Endpoint<TargetOf<'places_nearby'>> = {
  params: (_, limits) => placesNearbyParams(limits),
  async answer(target, ctx) {
    const params = parseParams(placesNearbyParams(ctx.limits), target.info.pairs);
    const body = await inCoverage(ctx, target.coverageRef, requestNow(params), ptEnvelopeOf(target.info), ({ generation, nowSec }) => nearbyJson(target, generation, params, nowSec));
    return { body };
  },
};

function nearbyJson(r: TargetOf<'places_nearby'>, generation: Generation, params: ParamsOf<ReturnType<typeof placesNearbyParams>>, nowSec: number): string {
  const types: readonly string[] = params.type.length > 0 ? params.type : DEFAULT_TYPES;
  const { ref, tt } = generation;
  const found: { type: 'stop_area' | 'stop_point'; i: number; metres: number }[] = [];
  for (const type of ['stop_area', 'stop_point'] as const) {
    if (!types.includes(type)) continue;
    for (const i of ref.within(type, r.lon, r.lat, params.distance)) {
      if (type === 'stop_point' && tt.stopPoints.isZone[i]) continue;
      const [lon, lat] = type === 'stop_area' ? [tt.stopAreas[i]!.lon, tt.stopAreas[i]!.lat] : [tt.stopPoints.lon[i]!, tt.stopPoints.lat[i]!];
      found.push({ type, i, metres: crowFlyMetres(r.lon, r.lat, lon, lat) });
    }
  }
  found.sort((a, b) => a.metres - b.metres || (a.type === b.type ? a.i - b.i : a.type === 'stop_area' ? -1 : 1));
  const { start_page: startPage, count } = params;
  const page = found.slice(startPage * count, startPage * count + count);
  const items = page.map((p) => JSON.stringify({ ...placeJson(ref, p.type, p.i, params.depth), distance: String(Math.round(p.metres)) }));
  const info = { totalResult: found.length, startPage, itemsPerPage: count, itemsOnPage: page.length };
  const links = placeLinks(r.info, r.coverageRef, page.some((p) => p.type === 'stop_area'), page.some((p) => p.type === 'stop_point'));
  if (r.coverageRef.kind === 'region') links.push(...paginationLinks(r.info, info));
  return (
    `{"places_nearby":[${items.join(',')}]` +
    `,"pagination":${paginationJson(info)}` +
    `,"feed_publishers":${publishersJson(generation)}` +
    `,"context":${contextJson(nowSec, tt.timezone)}` +
    `,"links":${JSON.stringify(links)}}`
  );
}
