/**
 * One map computed and answered, on whichever thread runs it (a worker of the pool, or the caller's
 * in tests and tools): a single departure on the coverage's engine, a departure window on its
 * window engine, a difference map as two of them (difference-map.ts); on a grid (heat maps,
 * isochrones) or at the points of a set (accessibility, travel times).
 */
import type { HeatMapData, HeatMapQuery, PercentileMap } from '../routing/heat-map.js';
import { computeDifference, type MapQuery } from './difference-map.js';
import type { EngineCache } from '../service/engine-cache.js';
import { renderDifference, renderHeatMap, type HeatMapRender, type RenderedHeatMap } from './heat-map-render.js';
import { WARNINGS } from './map-warnings.js';
import { windowMinutes } from '../routing/window-heat-map.js';
import { accessibilityBody, measuresBody, travelTimesBody } from './point-answers.js';

export function computeMap(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, mapQuery: MapQuery, render: HeatMapRender): RenderedHeatMap {
  const { comparison, ...query } = mapQuery;
  const format = render.format;
  if (format.kind === 'accessibility' || format.kind === 'travel_times') {
    let reached = 0;
    const own = pointTimes(cache, coverageId, dataId, data, query, (n) => (reached += n));
    if (format.kind === 'travel_times') {
      const times = own(format.set);
      const body = format.measures ? measuresBody({ ...format, measures: format.measures }, data, times) : travelTimesBody(times);
      return { body, contentType: 'application/octet-stream', encoding: null, warnings: render.warnings };
    }
    const { placeKey, placeJson, requestedDateTime, publishersJson, contextJson } = render;
    const parts = { placeKey, placeJson, requestedDateTime, publishersJson, contextJson, warnings: render.warnings };
    // the sets are computed as the body asks for them; "nothing reached" once they all are
    for (const ref of format.opportunities) own(ref.set);
    if (reached === 0) parts.warnings = [...render.warnings, WARNINGS.nothingReached(String(render.maxDurationSec))];
    const compared = comparison ? { level: comparison.compareDataFreshness, timesOf: pointTimes(cache, coverageId, dataId, data, { ...query, overlay: comparison.overlay }, () => {}) } : undefined;
    return { body: accessibilityBody(format, data, own, render.maxDurationSec, parts, compared), contentType: 'application/json; charset=utf-8', encoding: null, warnings: parts.warnings };
  }
  if (comparison) return renderDifference(computeDifference(cache, coverageId, dataId, data, query, comparison), render);
  const result = query.window ? cache.window(coverageId, dataId, data).compute(query, query.window) : cache.get(coverageId, dataId, data).compute(query);
  return renderHeatMap(result, render);
}

/**
 * The travel times of `query` to each point set, computed once per set when first asked (copies:
 * the engines' results view their scratch, which the next set reuses); `onReached` counts the
 * points reached.
 */
function pointTimes(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: HeatMapQuery, onReached: (points: number) => void): (set: number) => PercentileMap[] {
  const times = new Map<number, PercentileMap[]>();
  return (set) => {
    let known = times.get(set);
    if (!known) {
      const points = data.pointSets![set]!;
      const window = query.window;
      // a window of one departure is that departure: every percentile of one value is that value
      if (window && windowMinutes(window.windowSec) > 1) {
        const result = cache.window(coverageId, dataId, data).computePoints(query, window, points);
        onReached(result.reachedPoints);
        known = result.percentiles!.map((map) => ({ percentile: map.percentile, seconds: map.seconds.slice() }));
      } else {
        const result = cache.get(coverageId, dataId, data).computePoints(query, points);
        onReached(result.reachedPoints);
        const seconds = result.seconds.slice();
        known = (window?.percentiles ?? [SINGLE_DEPARTURE_PERCENTILE]).map((percentile) => ({ percentile, seconds }));
      }
      times.set(set, known);
    }
    return known;
  };
}

/** The percentile a single departure's travel times are labelled with: every percentile of one value is that value. */
export const SINGLE_DEPARTURE_PERCENTILE = 50;
