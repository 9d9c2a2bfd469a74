/**
 * A map's departure window from its parameters (docs/api.md, "Departure windows"): none when
 * neither `departure_window` nor `percentiles[]` is given (Navitia's single departure, answered as
 * before); else the window, its percentiles (50 unless asked) and the one a one-band format draws.
 */
import type { DepartureWindow } from '../../routing/heat-map.js';
import { windowMinutes, WINDOW_STEP_SEC } from '../../routing/window-heat-map.js';
import { percentileNotAsked, percentilesNotAscending } from '../errors.js';
import type { MapParams } from './heat-maps-params.js';

/** The percentile of a window asked without `percentiles[]`: the median minute. */
export const DEFAULT_PERCENTILE = 50;

export function departureWindow(params: MapParams, percentile: number | undefined): DepartureWindow | null {
  const asked = params.percentiles;
  if (params.departure_window === 0 && asked.length === 0) return null;
  for (let k = 1; k < asked.length; k++) if (asked[k]! <= asked[k - 1]!) throw percentilesNotAscending();
  const percentiles = asked.length > 0 ? [...asked] : [DEFAULT_PERCENTILE];
  const selected = percentile === undefined ? 0 : percentiles.indexOf(percentile);
  if (selected < 0) throw percentileNotAsked(String(percentile));
  return { windowSec: params.departure_window, percentiles, selected };
}

/** The window's last departure (an arrival map's first deadline), epoch seconds. */
export function lastDeparture(window: DepartureWindow, t0: number, direction: 'departure' | 'arrival'): number {
  const span = (windowMinutes(window.windowSec) - 1) * WINDOW_STEP_SEC;
  return direction === 'departure' ? t0 + span : t0 - span;
}
