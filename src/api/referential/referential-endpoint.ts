/**
 * The PT-referential collections: `/v1/coverage/{region | lon;lat}[/{uri}]/{collection}[/{id}]` for
 * networks, lines, routes, stop areas, stop points, physical and commercial modes, companies and
 * vehicle journeys. The trips' road (endpoint.ts) over another object type: the same
 * query, filter evaluator, paging, errors and envelope; objects by depth from pt-objects-json.ts.
 */
import type { Limits } from '../../service/limits.js';
import { COLLECTION_CAPTIONS } from '../../ptref/object-types.js';
import { odtLevelOnLinesOnly } from '../errors.js';
import { parseParams } from '../params.js';
import { collectionPageJson, collectionQuery, findOrFail } from '../pt-collection.js';
import type { TargetOf } from '../targets.js';
import { inCoverage, ptEnvelopeOf, type Endpoint } from '../endpoint.js';
import { ptObjectJson } from '../pt-objects-json.js';
import { objectDisruptionsJson, pageDisruptionsJson } from '../trips/disruption-json.js';
import { collectionParams } from './referential-params.js';
import { requestNow } from '../../queries/param-table.js';

/** The table of a list or of one object of the collection. */
const paramsOf = (target: TargetOf<'collection'>, limits: Limits) => collectionParams(limits, target.request.collection, target.request.id === undefined);

export const collectionEndpoint: Endpoint<TargetOf<'collection'>> = {
  params: paramsOf,
  async answer(target, ctx) {
    const r = target.request;
    const params = parseParams(paramsOf(target, ctx.limits), target.info.pairs);
    // Navitia's own guard, after the table: odt_level on lines and vehicle journeys only
    if (params.odt_level !== 'all' && r.collection !== 'lines' && r.collection !== 'vehicle_journeys') throw odtLevelOnLinesOnly();
    const body = await inCoverage(ctx, target.coverageRef, requestNow(params), ptEnvelopeOf(target.info), ({ generation, nowSec, timeZone }) => {
      const type = COLLECTION_CAPTIONS[r.collection]!;
      const set = findOrFail(generation, type, collectionQuery(r, params, timeZone));
      return collectionPageJson(r, generation, set, params, nowSec, {
        collection: r.collection,
        item: (i) => JSON.stringify(ptObjectJson(generation.ref, type, i, params.depth)),
        // a vehicle journey is a trip of the base schedule: the trips' disruptions
        disruptions: (page) => (type === 'vehicle_journey' ? pageDisruptionsJson(generation, page, nowSec) : objectDisruptionsJson(generation, type, page, nowSec)),
      });
    });
    return { body };
  },
};
