/**
 * The parts of a skim (docs/analysis.md, "Skims"), in the order every output writes them: the API's
 * breakdown, the command's columns and matrices; and what a request asks of them.
 */
import type { JourneyParts } from '../routing/heat-map-types.js';
import { refuse } from './query-errors.js';

export const PART_NAMES = ['access', 'wait', 'ride', 'transfer', 'egress', 'rides'] as const satisfies readonly (keyof JourneyParts)[];

/** A matrix request's skims, `routes` refused without `breakdown` (the lines are those of its journeys). */
export function skimsOf(params: { breakdown: boolean; routes: boolean }): { breakdown: boolean; routes: boolean } {
  if (params.routes && !params.breakdown) throw refuse('routesWithoutBreakdown');
  return { breakdown: params.breakdown, routes: params.routes };
}
