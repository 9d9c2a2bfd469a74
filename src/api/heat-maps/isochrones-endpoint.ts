/**
 * `/v1/coverage/{region|lon;lat}/isochrones`: Navitia's isochrones, drawn from the same street-exact
 * travel-time field as the heat map (contours, not circles around stops). The checks and the flow
 * are the heat maps' (map-flow.ts); the bands come from min_duration, boundary_duration[] and
 * max_duration as Navitia builds them (`bandsOf`).
 */
import { refuse } from '../../queries/query-errors.js';
import type { Endpoint } from '../endpoint.js';
import { parseParams } from '../params.js';
import type { TargetOf } from '../targets.js';
import { isochroneParams } from './heat-maps-params.js';
import { answerMap, bandsOf, parameterWarnings } from './map-flow.js';
import { COMPARE_DATA_FRESHNESS, COMPARE_SCENARIO } from '../../queries/journey-params.js';

export const isochronesEndpoint: Endpoint<TargetOf<'isochrones'>> = {
  params: (_, limits) => isochroneParams(limits),
  variesByEncoding: true,
  answer(target, ctx) {
    const specs = isochroneParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    // refused rather than ignored as an unknown parameter: the caller asked for a difference and would get a plain map
    const compare = target.info.pairs.find((p) => p.name === COMPARE_DATA_FRESHNESS.name || p.name === COMPARE_SCENARIO.name);
    if (compare) throw refuse('compareOnIsochrones', { param: compare.name });
    // without max_duration the last boundary closes the last band (Navitia)
    const maxDurationSec = params.max_duration ?? Math.max(...params.boundary_duration);
    const warnings = parameterWarnings(specs, target.info.pairs, { minSec: params.min_duration, boundaries: params.boundary_duration, maxSec: maxDurationSec });
    return answerMap(ctx, target.coverageRef, {
      collection: 'isochrones',
      params,
      maxDurationSec,
      ridesharing: 'isochroneRidesharing',
      warnings,
      format: (t0, direction, timeZone) => ({
        kind: 'isochrones',
        bands: bandsOf(params.min_duration, params.boundary_duration, maxDurationSec, t0, direction, timeZone),
        simplifyM: params.simplify,
      }),
    });
  },
};
