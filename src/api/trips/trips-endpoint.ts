/**
 * The eight trips operations: `/v1/coverage/{region | lon;lat}[/{uri}]/trips[/{id}]`, on the road
 * of every endpoint (endpoint.ts): parameters → coverage → `{uri}`, filter and our own criteria
 * (ptref) → page → JSON written as a string (trip-json.ts).
 */
import type { Limits } from '../../service/limits.js';
import { parseParams } from '../params.js';
import { collectionPageJson, collectionQuery, findOrFail } from '../pt-collection.js';
import type { TargetOf } from '../targets.js';
import { inCoverage, ptEnvelopeOf, type Endpoint } from '../endpoint.js';
import { pageDisruptionsJson } from './disruption-json.js';
import { tripJson } from './trip-json.js';
import { tripsParams } from './trips-params.js';
import { requestNow } from '../../queries/param-table.js';

/** The table of a list (`…/trips`) or of one trip (`…/trips/{id}`). */
const paramsOf = (target: TargetOf<'trips'>, limits: Limits) => tripsParams(limits, target.request.id === undefined);

export const tripsEndpoint: Endpoint<TargetOf<'trips'>> = {
  params: paramsOf,
  async answer(target, ctx) {
    const params = parseParams(paramsOf(target, ctx.limits), target.info.pairs);
    const body = await inCoverage(ctx, target.coverageRef, requestNow(params), ptEnvelopeOf(target.info), ({ generation, nowSec, timeZone }) => {
      const trips = findOrFail(generation, 'trip', collectionQuery(target.request, params, timeZone));
      return collectionPageJson(target.request, generation, trips, params, nowSec, {
        collection: 'trips',
        item: (t) => tripJson(generation, t, params.depth, params.disable_geojson),
        disruptions: (page) => pageDisruptionsJson(generation, page, nowSec),
      });
    });
    return { body };
  },
};
