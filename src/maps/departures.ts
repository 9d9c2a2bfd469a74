/**
 * A request's departures as one value, decided once (queries/departure-window.ts) and read by every
 * step after: the engines' window (its seconds, percentiles and the one a one-band format draws),
 * how many minutes it searches, whether that is a single departure, the labels of its answers, and
 * the time budget it gets on the pool. `null` in a query is Navitia's single departure, asked
 * without a window: its answers have no percentiles.
 */
import type { DepartureWindow, HeatMapResult } from '../routing/heat-map.js';

export interface Departures extends DepartureWindow {
  /** the departures searched, one a minute (1 for a window shorter than two minutes) */
  minutes: number;
  /** one departure: every percentile of one value is that value, so a single search serves them all */
  isSingle: boolean;
  /** how many single maps' time budget its map gets on the pool */
  budgetScale: number;
}

/** The percentile a single departure's travel times are labelled with: every percentile of one value is that value. */
export const SINGLE_DEPARTURE_PERCENTILE = 50;

/** The percentiles a request's answers are labelled with: its window's, or the single departure's. */
export function departureLabels(departures: Departures | null): number[] {
  return departures ? departures.percentiles : [SINGLE_DEPARTURE_PERCENTILE];
}

/** How many searches a request's departures make per origin. */
export function searchesPerOrigin(departures: Departures | null): number {
  return departures ? departures.minutes : 1;
}

/**
 * A single search's map as the window's answer: each percentile of one value is that value. A
 * window engine's map (with its percentiles) is returned as it is.
 */
export function asWindowMap(result: HeatMapResult, departures: Departures | null): HeatMapResult {
  if (!departures || result.percentiles) return result;
  return { ...result, percentiles: departures.percentiles.map((percentile) => ({ percentile, seconds: result.seconds })), selected: departures.selected };
}
