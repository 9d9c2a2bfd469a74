/**
 * Which timetable a request computes on, and which one it is compared with: a freshness level
 * (`data_freshness`, `compare_data_freshness`) or a scenario (`scenario`, `compare_scenario`,
 * docs/scenarios.md). A scenario is a plan over the base schedule: it is refused with the adapted
 * or realtime levels, which describe today's operations, and a request compares either levels or
 * scenarios, not both.
 */
import type { Comparison } from '../maps/difference-map.js';
import type { FreshnessLevel } from '../ptref/freshness.js';
import type { RaptorOverlay } from '../routing/raptor-overlay.js';
import { BASE_SCENARIO } from '../service/coverage-config.js';
import type { Generation } from '../service/generation.js';
import { SCENARIO_CHECK_INTERVAL_SEC } from '../service/scenario-library.js';
import { COMPARE_DATA_FRESHNESS, COMPARE_SCENARIO, SCENARIO } from './journey-params.js';
import { refuse } from './query-errors.js';

/** What a request is compared with, by the parameter that names it. */
export type ComparedSide = { param: 'compare_data_freshness'; level: FreshnessLevel } | { param: 'compare_scenario'; scenario: string };

/** The parameters that choose the timetables. */
export interface TimetableParams {
  data_freshness?: FreshnessLevel | undefined;
  disruption_active: boolean;
  scenario?: string | undefined;
  compare_data_freshness?: FreshnessLevel | undefined;
  compare_scenario?: string | undefined;
}

/** data_freshness, else realtime when the deprecated disruption_active=true, else base_schedule (Navitia's order). */
export function freshnessLevel(params: Pick<TimetableParams, 'data_freshness' | 'disruption_active'>): FreshnessLevel {
  return params.data_freshness ?? (params.disruption_active ? 'realtime' : 'base_schedule');
}

/** The request's compared side, checked against its own (undefined: no comparison). */
export function comparedSide(params: TimetableParams): ComparedSide | undefined {
  const level = params.compare_data_freshness;
  const scenario = params.compare_scenario;
  if (level !== undefined && scenario !== undefined) throw refuse('compareTwoWays');
  if (level !== undefined) {
    if (level === freshnessLevel(params)) throw refuse('compareSameFreshness', { level, help: COMPARE_DATA_FRESHNESS.description });
    if (params.scenario !== undefined) throw refuse('scenarioWithFreshnessComparison');
    return { param: 'compare_data_freshness', level };
  }
  if (scenario !== undefined) {
    if (scenario === (params.scenario ?? BASE_SCENARIO)) throw refuse('compareSameScenario', { scenario, help: COMPARE_SCENARIO.description });
    return { param: 'compare_scenario', scenario };
  }
  return undefined;
}

/** The overlay of the request's own timetable: its scenario's, else its freshness level's (null: the base schedule). */
export function ownOverlay(params: TimetableParams, g: Generation): RaptorOverlay | null {
  const level = freshnessLevel(params);
  if (params.scenario === undefined) return g.overlays?.of(level) ?? null;
  if (level !== 'base_schedule') throw refuse('scenarioWithFreshness', { level, help: SCENARIO.description });
  return scenarioOverlay('scenario', params.scenario, g);
}

/** A difference's other side, beside the request's own, as the answer quotes them. */
export function comparisonOf(params: TimetableParams, g: Generation, side: ComparedSide): Comparison {
  if (side.param === 'compare_data_freshness') {
    return { quoted: { data_freshness: freshnessLevel(params), compare_data_freshness: side.level }, overlay: g.overlays?.of(side.level) ?? null };
  }
  return { quoted: { scenario: params.scenario ?? BASE_SCENARIO, compare_scenario: side.scenario }, overlay: scenarioOverlay('compare_scenario', side.scenario, g) };
}

/** The overlay of scenario `name` (BASE_SCENARIO: none) as the coverage has it applied now, or the refusal that says why not. */
function scenarioOverlay(param: 'scenario' | 'compare_scenario', name: string, g: Generation): RaptorOverlay | null {
  if (param === 'compare_scenario' && name === BASE_SCENARIO) return null;
  const help = (param === 'scenario' ? SCENARIO : COMPARE_SCENARIO).description;
  const found = g.scenarios?.lookup(name, g) ?? { kind: 'unknown' as const, known: [] };
  switch (found.kind) {
    case 'ok':
      return found.applied.overlay;
    case 'unknown':
      throw refuse('unknownScenario', { param, scenario: name, known: found.known.length > 0 ? found.known.join(', ') : 'none', help });
    case 'refused': {
      const first = found.errors[0];
      const where = first && first.modification !== null ? `modifications[${first.modification}]${first.field ? `.${first.field}` : ''}: ` : '';
      throw refuse('refusedScenario', { param, scenario: name, reason: first ? `${where}${first.reason}` : 'unusable', faults: String(found.errors.length), help });
    }
    case 'preparing':
      throw refuse('scenarioPreparing', { scenario: name, retryAfterSec: String(SCENARIO_CHECK_INTERVAL_SEC) });
  }
}
