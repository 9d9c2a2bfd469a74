/**
 * `/v1/coverage/{region | lon;lat}/places?q=…`: autocomplete over the stop areas and stop points
 * (ptref/places-index.ts ranks them), as Navitia's places.
 */
import { placesIndexOf, PLACE_QUALITIES } from '../../ptref/places-index.js';
import { searchWordAbsent } from '../errors.js';
import { parseParams } from '../params.js';
import { placeJson } from '../pt-objects-json.js';
import { valuesOf } from '../query-string.js';
import { contextJson, publishersJson } from '../serialize.js';
import type { TargetOf } from '../targets.js';
import { inCoverage, ptEnvelopeOf, type Endpoint } from '../endpoint.js';
import { placesParams } from './referential-params.js';
import { placeLinks } from './places-nearby-endpoint.js';
import { requestNow } from '../../queries/param-table.js';

/** Navitia's default types of `/places`. */
const DEFAULT_TYPES = ['stop_area', 'address', 'poi', 'administrative_region'];

export const placesEndpoint: Endpoint<TargetOf<'places'>> = {
  params: (_, limits) => placesParams(limits),
  async answer(target, ctx) {
    // an empty `q` is Navitia's own error, before the table's
    const q = valuesOf(target.info.pairs, 'q');
    if (q.length > 0 && q[0]!.trim() === '') throw searchWordAbsent();
    const params = parseParams(placesParams(ctx.limits), target.info.pairs);
    const body = await inCoverage(ctx, target.coverageRef, requestNow(params), ptEnvelopeOf(target.info), ({ generation, nowSec }) => {
      const types: readonly string[] = params.type.length > 0 ? params.type : DEFAULT_TYPES;
      const index = placesIndexOf(generation.ref);
      const hits = index.search(params.q, types.includes('stop_area'), types.includes('stop_point'), params.count);
      const places: string[] = [];
      for (let k = 0; k < hits.entries.length; k++) {
        const e = hits.entries[k]!;
        const quality = PLACE_QUALITIES[hits.ranks[k]!]!;
        const place = e < index.areaCount ? placeJson(generation.ref, 'stop_area', e, params.depth, quality) : placeJson(generation.ref, 'stop_point', e - index.areaCount, params.depth, quality);
        places.push(JSON.stringify(place));
      }
      const links = placeLinks(target.info, target.coverageRef, hits.entries.some((e) => e < index.areaCount), hits.entries.some((e) => e >= index.areaCount));
      return (
        `{"places":[${places.join(',')}]` +
        `,"feed_publishers":${publishersJson(generation)}` +
        `,"context":${contextJson(nowSec, generation.tt.timezone)}` +
        `,"links":${JSON.stringify(links)}}`
      );
    });
    return { body };
  },
};
