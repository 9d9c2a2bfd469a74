/**
 * The PT-referential collections: `/v1/coverage/{region | lon;lat}[/{uri}]/{collection}[/{id}]` for
 * networks, lines, routes, stop areas, stop points, physical and commercial modes, companies and
 * vehicle journeys. The trips' pipeline (navitia-trips.md §2) over another object type: the same
 * query, filter evaluator, paging, errors and envelope; objects by depth from pt-objects-json.ts.
 */
import type { Generation } from '../../service/generation.js';
import type { Limits } from '../../service/limits.js';
import { COLLECTION_CAPTIONS } from '../../ptref/object-types.js';
import { odtLevelOnLinesOnly } from '../errors.js';
import { parseParams } from '../params.js';
import { collectionPageJson, collectionQuery, findOrFail, type CollectionRequest } from '../pt-collection.js';
import { ptObjectJson } from '../pt-objects-json.js';
import { objectDisruptionsJson, pageDisruptionsJson } from '../trips/disruption-json.js';
import { collectionParams, type ReferentialCollection } from './referential-params.js';

export interface ReferentialRequest extends CollectionRequest {
  collection: ReferentialCollection;
}

/** Validate parameters first: a bad parameter beats an unknown region; then Navitia's `odt_level` guard. */
export function parseCollectionParams(r: ReferentialRequest, limits: Limits) {
  const params = parseParams(collectionParams(limits, r.collection, r.id === undefined), r.req.pairs);
  if (params.odt_level !== 'all' && r.collection !== 'lines' && r.collection !== 'vehicle_journeys') throw odtLevelOnLinesOnly();
  return params;
}

export function answerCollection(r: ReferentialRequest, generation: Generation, params: ReturnType<typeof parseCollectionParams>, nowSec: number): string {
  const target = COLLECTION_CAPTIONS[r.collection]!;
  const set = findOrFail(generation, target, collectionQuery(r, params, generation.tt.timezone));
  return collectionPageJson(r, generation, set, params, nowSec, {
    collection: r.collection,
    item: (i) => JSON.stringify(ptObjectJson(generation.ref, target, i, params.depth)),
    // a vehicle journey is a trip of the base schedule: the trips' disruptions
    disruptions: (page) => (target === 'vehicle_journey' ? pageDisruptionsJson(generation, page, nowSec) : objectDisruptionsJson(generation, target, page, nowSec)),
  });
}
