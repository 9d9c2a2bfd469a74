/**
 * `/v1/coverage/{region}/scenarios` (Navette's own): the coverage's scenarios, what `scenario` and
 * `compare_scenario` name (docs/scenarios.md): each with its status, what its modifications do,
 * every fault of its last version read, and the patterns it adds or changes as GeoJSON.
 */
import type { ScenarioReport } from '../../service/scenario-lookup.js';
import { inCoverage, type Endpoint } from '../endpoint.js';
import type { TargetOf } from '../targets.js';
import { contextJson } from '../serialize.js';

export const scenariosEndpoint: Endpoint<TargetOf<'scenarios'>> = {
  params: () => [],
  answer: (target, ctx) => {
    const nowSec = Math.floor(Date.now() / 1000);
    const envelopeOf = (_g: unknown, now: number, timeZone: string) => ({
      hasFilterKey: false,
      wrap: (errorJson: string) => `{"scenarios":[],"context":${contextJson(now, timeZone)},"error":${errorJson}}`,
    });
    return inCoverage(ctx, target.coverageRef, nowSec, envelopeOf, ({ generation, timeZone }) => {
      const scenarios = (generation.scenarios?.reports(generation) ?? []).map(scenarioJson);
      return { body: `{"scenarios":${JSON.stringify(scenarios)},"context":${contextJson(nowSec, timeZone)}}` };
    });
  },
};

function scenarioJson(r: ScenarioReport) {
  const a = r.applied;
  return {
    name: r.name,
    file: r.file.split(/[\\/]/).pop()!,
    status: r.status,
    description: a?.description ?? null,
    modifications: (a?.summary ?? []).map((m) => ({
      index: m.index,
      type: m.type,
      trips_removed: m.tripsRemoved,
      trips_changed: m.tripsChanged,
      trips_added: m.tripsAdded,
      stops_added: m.stopsAdded,
    })),
    trips: a?.trips ?? 0,
    timetable_trips_replaced: a?.masked ?? 0,
    new_stops: a?.newStops ?? 0,
    new_lines: a?.newLines ?? 0,
    errors: r.errors.map((e) => ({ modification: e.modification, field: e.field, value: e.value === undefined ? null : e.value, reason: e.reason })),
    last_load_at: r.lastLoadAt,
    loads: r.loads,
    failures: r.failures,
    geojson: a?.geojson ?? { type: 'FeatureCollection', features: [] },
  };
}
