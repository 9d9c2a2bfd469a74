/** Whether an instant's local day lies in a coverage's production period (the days its timetable runs). */
import type { Generation } from '../service/generation.js';
import { dayNumber } from '../util/calendar.js';
import { formatLocal } from '../util/time-zones.js';
import { isoDay } from '../util/time-words.js';
import { QUERY_DETAILS, refuse } from './query-errors.js';

/** The days a coverage's timetable runs (day numbers; -1 when none): a generation's, or its snapshot's header's before it loads. */
export type ProductionDays = Pick<Generation, 'productionStartDay' | 'productionEndDay'>;

/** A request's date in the production period, else Navitia's error with the period in its details. */
export function checkDay(generation: ProductionDays, t0: number, timeZone: string): void {
  if (!inProduction(generation, t0, timeZone)) throw refuse('outOfProduction').withDetails(outsideProductionDetails(generation, t0, timeZone));
}

/** The local service date of t0 lies in the production period. */
export function inProduction(g: ProductionDays, t0: number, timeZone: string): boolean {
  const day = localDay(t0, timeZone);
  return g.productionStartDay >= 0 && day >= g.productionStartDay && day <= g.productionEndDay;
}

/** The day number of t0's local date. */
function localDay(t0: number, timeZone: string): number {
  const local = formatLocal(t0, timeZone);
  return dayNumber(Number(local.slice(0, 4)), Number(local.slice(4, 6)), Number(local.slice(6, 8)));
}

function outsideProductionDetails(g: ProductionDays, t0: number, timeZone: string): string {
  if (g.productionStartDay < 0) return QUERY_DETAILS.noProductionPeriod();
  return QUERY_DETAILS.outsideProduction(isoDay(localDay(t0, timeZone)), isoDay(g.productionStartDay), isoDay(g.productionEndDay));
}
