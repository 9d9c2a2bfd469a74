/**
 * `/v1/coverage/{region}/accessibility?origins=SET` (docs/api.md, "Regional accessibility"): the
 * accessibility of every point of a set, each a departure from its position, in one JSON answer.
 * The travel times are the matrix's (one search per origin on the worker pool, to the points of
 * each opportunities' set), reduced to the measures in the worker (`originMeasureValues`): a row
 * holds a number per point of the set, up to a million, which the main thread never handles; it
 * gathers a few numbers per origin.
 * Bounded by MAX_ACCESSIBILITY_SEARCHES (origins × departures); larger runs are `navette accessibility`'s.
 */
import { RegionalAccumulator } from '../../analysis/regional-accessibility.js';
import { measureCount } from '../../analysis/travel-time-reducer.js';
import { warningsJson, type Warning } from '../../maps/map-warnings.js';
import { formatLocal } from '../../util/time-zones.js';
import { inCoverage, type Answer, type EndpointContext } from '../endpoint.js';
import { contextJson } from '../serialize.js';
import type { CoverageRef } from '../coverage/coverage-resolution.js';
import { failedAnswerEnvelope, manyOriginsWarnings, publishersWithOsm } from '../heat-maps/map-flow.js';
import { mapStart, refuseRidesharing } from '../../queries/map-prologue.js';
import type { accessibilityParams } from '../../queries/analysis-params.js';
import { measuresRequest, type Measures } from '../../queries/measures.js';
import { jobPercentiles, originJob, originMeasureValues, admitManyOrigins, deadlineFrom } from '../../queries/origin-rows.js';
import { opportunityRefs, pointSetIndex } from '../../queries/point-set-refs.js';
import { type ParamsOf, requestNow } from '../../queries/param-table.js';
import { ORIGINS_IN_FLIGHT } from '../../service/limits.js';

type AccessibilityParams = ParamsOf<ReturnType<typeof accessibilityParams>>;

export async function answerRegional(ctx: EndpointContext, coverageRef: CoverageRef, params: AccessibilityParams & { origins: string }, measures: Measures, warnings: Warning[]): Promise<Answer> {
  refuseRidesharing(params);
  return inCoverage(ctx, coverageRef, requestNow(params), failedAnswerEnvelope('accessibility_by_origin', 'null'), async ({ coverage, generation, nowSec, timeZone }) => {
    const { t0, streets } = mapStart(generation, params, nowSec, timeZone);
    const origins = pointSetIndex(generation, 'origins', params.origins);
    const refs = opportunityRefs(generation, params.opportunities);
    const originSet = streets.data.pointSets![origins]!;
    const originCount = originSet.lon.length;
    // refused before the window's production check: the size of the request is known from its words
    admitManyOrigins(generation, { kind: 'accessibility', set: params.origins, origins: originCount, params });
    // (the destinations: the opportunities' sets, below)
    const job = originJob({ coverage, generation, params, t0, timeZone, maxDurationSec: measures.maxDurationSec, destinations: refs[0]!.set, originLon: originSet.lon, originLat: originSet.lat });
    const percentiles = jobPercentiles(job);
    const answerWarnings = [...warnings, ...manyOriginsWarnings(generation, job, timeZone)];
    // one search per origin for every set the opportunities are in, every column reduced in the
    // workers from the origin's rows: a few numbers come back per origin
    const reduce = measuresRequest(measures, refs, percentiles.length);
    const regional = new RegionalAccumulator(refs.map((ref) => ref.label), percentiles, reduce.layout, originCount);
    const per = measureCount(reduce.layout);
    await originMeasureValues(ctx.heatMaps, job, reduce, 0, originCount, ORIGINS_IN_FLIGHT, (origin, values) => {
      refs.forEach((_, k) => regional.add(k, origin, values, k * per));
    }, { signal: ctx.signal, deadline: deadlineFrom(ctx.limits.requestDeadlineSec), client: ctx.client });
    const decayName = JSON.stringify(measures.decay.name);
    const cumulative = regional.measures.cumulative.map(
      (m) => `{"opportunities":${JSON.stringify(m.opportunities)},"percentile":${m.percentile},"cutoff":${m.cutoff},"decay_function":${decayName},"values":${JSON.stringify(m.values)}}`,
    );
    const nearest = regional.measures.nearest.map((m) => `{"opportunities":${JSON.stringify(m.opportunities)},"percentile":${m.percentile},"n":${m.n},"durations":${JSON.stringify(m.durations)}}`);
    const byOrigin =
      `{"origins":${JSON.stringify(streets.pointSets[origins]!.ids)},"lon":${JSON.stringify(Array.from(originSet.lon))},"lat":${JSON.stringify(Array.from(originSet.lat))},` +
      `"measures":[${cumulative.join(',')}],"nearest":[${nearest.join(',')}]}`;
    const body =
      `{"accessibility_by_origin":${byOrigin},"requested_date_time":"${formatLocal(t0, timeZone)}","feed_publishers":${publishersWithOsm(generation)},` +
      `"links":[],"warnings":${warningsJson(answerWarnings)},"context":${contextJson(nowSec, timeZone)}}`;
    return { body };
  });
}
