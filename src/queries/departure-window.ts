/**
 * A request's departures from its parameters (docs/api.md, "Departure windows"), decided here once:
 * none when neither `departure_window` nor `percentiles[]` is given (Navitia's single departure,
 * answered as before); else the window, its minutes, its percentiles (50 unless asked) and the one
 * a one-band format draws, its last departure in the production period.
 */
import type { Departures } from '../maps/departures.js';
import { windowBudgetScale, windowMinutes, WINDOW_STEP_SEC } from '../routing/window-heat-map.js';
import type { Generation } from '../service/generation.js';
import type { MapParams } from './journey-params.js';
import { inProduction } from './production-day.js';
import { refuse } from './query-errors.js';

/** The percentile of a window asked without `percentiles[]`: the median minute. */
export const DEFAULT_PERCENTILE = 50;

export type Direction = 'departure' | 'arrival';

/** The departures of a request's words alone: checked before its coverage is read. */
export function departuresOf(params: Pick<MapParams, 'departure_window' | 'percentiles'>, percentile?: number): Departures | null {
  const asked = params.percentiles;
  if (params.departure_window === 0 && asked.length === 0) return null;
  for (let k = 1; k < asked.length; k++) if (asked[k]! <= asked[k - 1]!) throw refuse('percentilesNotAscending');
  const percentiles = asked.length > 0 ? [...asked] : [DEFAULT_PERCENTILE];
  const selected = percentile === undefined ? 0 : percentiles.indexOf(percentile);
  if (selected < 0) throw refuse('percentileNotAsked', { percentile: String(percentile) });
  const windowSec = params.departure_window;
  const minutes = windowMinutes(windowSec);
  return { windowSec, percentiles, selected, minutes, isSingle: minutes === 1, budgetScale: windowBudgetScale(windowSec) };
}

/** The request's departures, the last of them in the production period too. */
export function requestDepartures(generation: Generation, params: MapParams, t0: number, direction: Direction, timeZone: string, percentile?: number): Departures | null {
  const departures = departuresOf(params, percentile);
  if (departures && !inProduction(generation, lastDeparture(departures, t0, direction), timeZone)) throw refuse('windowOutOfProduction');
  return departures;
}

/** The window's last departure (an arrival map's first deadline), epoch seconds. */
export function lastDeparture(departures: Departures, t0: number, direction: Direction): number {
  const span = (departures.minutes - 1) * WINDOW_STEP_SEC;
  return direction === 'departure' ? t0 + span : t0 - span;
}
