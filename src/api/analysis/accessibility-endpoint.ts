/**
 * `/v1/coverage/{region|lon;lat}/accessibility` (Navette's own; docs/api.md, "Accessibility"): how
 * many opportunities of the coverage's point sets a place reaches, by cutoff, decay function and
 * percentile, and the dual access; on the flow of the maps (map-flow.ts), computed at the points of
 * the sets instead of a grid. With `origins=SET` instead of a place: every point of the set
 * (regional-accessibility-endpoint.ts).
 */
import type { Endpoint } from '../endpoint.js';
import { refuse } from '../../queries/query-errors.js';
import { freshnessLevel } from '../../queries/journey-query.js';
import { parseParams } from '../params.js';
import type { TargetOf } from '../targets.js';
import { answerMap, parameterWarnings } from '../heat-maps/map-flow.js';
import { accessibilityParams } from '../../queries/analysis-params.js';
import { measuresOf } from '../../queries/measures.js';
import { opportunityRefs } from '../../queries/point-set-refs.js';
import { answerRegional } from './regional-accessibility-endpoint.js';
import { COMPARE_DATA_FRESHNESS } from '../../queries/journey-params.js';

export const accessibilityEndpoint: Endpoint<TargetOf<'accessibility'>> = {
  params: (_, limits) => accessibilityParams(limits),
  answer(target, ctx) {
    const specs = accessibilityParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    const measures = measuresOf(params, ctx.limits.maxDurationSec);
    const { decay, cutoffsSec, nearest, maxDurationSec } = measures;
    const compareWith = params.compare_data_freshness;
    if (compareWith !== undefined && compareWith === freshnessLevel({ ...params, resolution: 1 })) throw refuse('compareSameFreshness', { level: compareWith, help: COMPARE_DATA_FRESHNESS.description });
    if (params.origins !== undefined && params.origins !== '') {
      if (compareWith !== undefined) throw refuse('regionalComparison');
      return answerRegional(ctx, target.coverageRef, { ...params, origins: params.origins }, measures, parameterWarnings(specs, target.info.pairs));
    }
    return answerMap(ctx, target.coverageRef, {
      collection: 'accessibility',
      params: { ...params, resolution: 1 },
      maxDurationSec,
      ridesharing: 'heatMapRidesharing',
      format: (_t0, _direction, _timeZone, generation) => ({ kind: 'accessibility', opportunities: opportunityRefs(generation, params.opportunities), cutoffsSec, decay, nearest }),
      warnings: parameterWarnings(specs, target.info.pairs),
      ...(compareWith === undefined ? {} : { compareWith }),
    });
  },
};
