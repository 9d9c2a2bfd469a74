/**
 * One map computed and answered, on whichever thread runs it (a worker of the pool, or the caller's
 * in tests and tools): a single departure on the coverage's engine, a departure window on its
 * window engine, a difference map as two of them (difference-map.ts); on a grid (heat maps,
 * isochrones) or at the points of a set (accessibility, travel times).
 */
import type { HeatMapData, PercentileMap, PointTimes } from '../routing/heat-map.js';
import { computeDifference, type MapQuery } from './difference-map.js';
import type { EngineCache } from '../service/engine-cache.js';
import { renderDifference, renderHeatMap, type HeatMapRender, type RenderedHeatMap } from './heat-map-render.js';
import { WARNINGS } from './map-warnings.js';
import { asWindowMap, departureLabels } from './departures.js';
import { accessibilityBody, measuresBody, travelTimesBody } from './point-answers.js';

export function computeMap(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, mapQuery: MapQuery, render: HeatMapRender): RenderedHeatMap {
  const { comparison, ...query } = mapQuery;
  const format = render.format;
  if (format.kind === 'accessibility' || format.kind === 'travel_times') {
    let reached = 0;
    const sets = format.kind === 'accessibility' ? format.opportunities.map((ref) => ref.set) : format.measures ? format.measures.columns.map((c) => c.set) : [format.set];
    const own = pointTimes(cache, coverageId, dataId, data, query, sets, (n) => (reached += n));
    if (format.kind === 'travel_times') {
      const body = format.measures ? measuresBody(format.measures, data, own) : travelTimesBody(own(format.set));
      return { body, contentType: 'application/octet-stream', encoding: null, warnings: render.warnings };
    }
    const { placeKey, placeJson, requestedDateTime, publishersJson, contextJson } = render;
    const parts = { placeKey, placeJson, requestedDateTime, publishersJson, contextJson, warnings: render.warnings };
    if (reached === 0) parts.warnings = [...render.warnings, WARNINGS.nothingReached(String(render.maxDurationSec))];
    const compared = comparison ? { level: comparison.compareDataFreshness, timesOf: pointTimes(cache, coverageId, dataId, data, { ...query, overlay: comparison.overlay }, sets, () => {}) } : undefined;
    return { body: accessibilityBody(format, data, own, render.maxDurationSec, parts, compared), contentType: 'application/json; charset=utf-8', encoding: null, warnings: parts.warnings };
  }
  if (comparison) return renderDifference(computeDifference(cache, coverageId, dataId, data, query, comparison), render);
  const window = query.window;
  const result = window && !window.isSingle ? cache.window(coverageId, dataId, data).compute(query, window) : asWindowMap(cache.get(coverageId, dataId, data).compute(query), window);
  return renderHeatMap(result, render);
}

/**
 * The travel times of `query` to the point sets `sets`, all off one transit search (RAPTOR once, or
 * once per minute of a window, for them all), then read by set (copies: the engines' results view
 * their scratch, which the next set reuses); `onReached` counts the points reached.
 */
function pointTimes(cache: EngineCache, coverageId: string, dataId: number, data: HeatMapData, query: Omit<MapQuery, 'comparison'>, sets: number[], onReached: (points: number) => void): (set: number) => PercentileMap[] {
  const times = new Map<number, PercentileMap[]>();
  const wanted = [...new Set(sets)];
  const points = wanted.map((set) => data.pointSets![set]!);
  const window = query.window;
  const keep = (k: number, result: PointTimes) => {
    onReached(result.reachedPoints);
    if (result.percentiles) times.set(wanted[k]!, result.percentiles.map((map) => ({ percentile: map.percentile, seconds: map.seconds.slice() })));
    else {
      const seconds = result.seconds.slice();
      times.set(wanted[k]!, departureLabels(window).map((percentile) => ({ percentile, seconds })));
    }
  };
  if (window && !window.isSingle) cache.window(coverageId, dataId, data).computePointSets(query, window, points, keep);
  else cache.get(coverageId, dataId, data).computePointSets(query, points, keep);
  return (set) => times.get(set)!;
}
