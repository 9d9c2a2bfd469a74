/**
 * `/v1/coverage/{region|lon;lat}/accessibility` (Navette's own; docs/api.md, "Accessibility"): how
 * many opportunities of the coverage's point sets a place reaches, by cutoff, decay function and
 * percentile, and the dual access; on the prologue of the maps (queries/map-prologue.ts), computed at the points of
 * the sets instead of a grid. With `origins=SET` instead of a place: every point of the set
 * (regional-accessibility-endpoint.ts).
 */
import type { Endpoint } from '../endpoint.js';
import { refuse } from '../../queries/query-errors.js';
import { comparedSide } from '../../queries/timetable-choice.js';
import { parseParams } from '../params.js';
import type { TargetOf } from '../targets.js';
import { answerHeaders, failedAnswerEnvelope, parameterWarnings, placeEnvelope, placeWarnings } from '../heat-maps/map-flow.js';
import { inCoverage, type Answer, type EndpointContext } from '../endpoint.js';
import { resolveCoverage, type CoverageRef } from '../coverage/coverage-resolution.js';
import { placeAccessibilityJson } from './accessibility-json.js';
import { departureLabels } from '../../maps/departures.js';
import { WARNINGS, type Warning } from '../../maps/map-warnings.js';
import { placeMap, refuseRidesharing } from '../../queries/map-prologue.js';
import { measuresOf, measuresRequest, type Measures } from '../../queries/measures.js';
import { requestNow, type ParamsOf } from '../../queries/param-table.js';
import { requestTurn, runPoints } from '../../queries/run-computation.js';
import { setsOf, type PointsRequest } from '../../maps/points.js';
import { accessibilityParams } from '../../queries/analysis-params.js';
import { opportunityRefs } from '../../queries/point-set-refs.js';
import { answerRegional } from './regional-accessibility-endpoint.js';

type AccessibilityParams = ParamsOf<ReturnType<typeof accessibilityParams>>;

export const accessibilityEndpoint: Endpoint<TargetOf<'accessibility'>> = {
  params: (_, limits) => accessibilityParams(limits),
  answer(target, ctx) {
    const specs = accessibilityParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    const measures = measuresOf(params, ctx.limits.maxDurationSec);
    const compareWith = comparedSide(params);
    const warnings = parameterWarnings(specs, target.info.pairs);
    if (params.origins !== undefined && params.origins !== '') {
      if (compareWith !== undefined) throw refuse('regionalComparison', { param: compareWith.param });
      return answerRegional(ctx, target.coverageRef, { ...params, origins: params.origins }, measures, warnings);
    }
    return answerPlace(ctx, target.coverageRef, params, measures, warnings);
  },
};

/**
 * The accessibility of one place: the regional reduction with one origin (the points task's
 * measures), on the maps' prologue (the coverage, ridesharing, the centre, the production period),
 * its JSON written here from the reducer's numbers.
 */
function answerPlace(ctx: EndpointContext, coverageRef: CoverageRef, params: AccessibilityParams, measures: Measures, parameterWarnings: Warning[]): Promise<Answer> {
  resolveCoverage(ctx.registry, coverageRef);
  refuseRidesharing(params);
  const compareWith = comparedSide(params);
  const { maxDurationSec } = measures;
  return inCoverage(ctx, coverageRef, requestNow(params), failedAnswerEnvelope('accessibility', '[]'), async ({ coverage, generation, nowSec, timeZone }) => {
    const place = placeMap(coverage, generation, { params: { ...params, resolution: 1 }, maxDurationSec, compareWith }, nowSec, timeZone);
    const warnings = [...parameterWarnings, ...placeWarnings(generation, place, maxDurationSec, timeZone)];
    const refs = opportunityRefs(generation, params.opportunities);
    const percentiles = departureLabels(place.query.window);
    const reduce = measuresRequest(measures, refs, percentiles.length);
    const request: PointsRequest = { kind: 'measures', ...reduce };
    const turn = requestTurn(ctx.client, ctx.limits.accessibilityDeadlineSec, place.query, setsOf(request).length);
    const result = await runPoints(ctx.heatMaps, coverage.id, generation, place.query, request, turn);
    if (result.reachedPoints === 0) warnings.push(WARNINGS.nothingReached(String(maxDurationSec)));
    const accessibility = {
      labels: refs.map((ref) => ref.label),
      percentiles,
      layout: reduce.layout,
      decayName: measures.decay.name,
      measures: result.measures!,
      compared: compareWith === undefined ? null : { param: compareWith.param, name: compareWith.param === 'compare_data_freshness' ? compareWith.level : compareWith.scenario, measures: result.compared! },
    };
    return { body: placeAccessibilityJson(accessibility, { ...placeEnvelope(generation, place, nowSec, timeZone), warnings }), headers: answerHeaders('application/json; charset=utf-8', warnings) };
  });
}
