/**
 * A scenario file's modifications applied to a generation's timetable (scenarios/apply-scenario.ts),
 * laid out as the RAPTOR overlay the heat-map engine reads, with what `/scenarios` says of it: in
 * steps, so that a server applies it between turns of the event loop, or in one piece for a
 * command or a bench.
 */
import { applyScenarioSteps } from '../scenarios/apply-scenario.js';
import type { ScenarioError, ScenarioFile } from '../scenarios/scenario-file.js';
import { scenarioGeoJson } from '../scenarios/scenario-geojson.js';
import { scenarioOverlaySteps } from '../scenarios/scenario-overlay.js';
import { inOnePiece } from '../util/stepwise.js';
import type { Generation } from './generation.js';
import type { AppliedVersion } from './scenario-lookup.js';
import { TRANSFER_HORIZON_M } from './street-data.js';

/** The scenario applied, or every fault that refuses it. */
export function* compileSteps(generation: Generation, name: string, scenario: ScenarioFile): Generator<void, AppliedVersion | { errors: ScenarioError[] }> {
  const streets = generation.streets;
  if (!streets) return { errors: [{ modification: null, field: '', reason: 'the coverage has no street network: scenarios need one (osm)' }] };
  const { tt } = generation;
  const period = { firstDay: generation.productionStartDay, lastDay: generation.productionEndDay };
  const applied = yield* applyScenarioSteps(tt, period, scenario, name);
  if (applied.errors.length > 0) return { errors: applied.errors };
  // its new stops linked to the streets and joined to their neighbours as the timetable's stops are
  const overlay = yield* scenarioOverlaySteps(tt, streets.data.raptor, applied, { data: streets.data, maxWalkM: TRANSFER_HORIZON_M });
  yield;
  const geojson = scenarioGeoJson(tt, applied);
  yield;
  let masked = 0;
  for (const m of applied.masked) masked += m;
  return {
    name,
    description: scenario.description,
    tt,
    overlay,
    summary: applied.summary,
    geojson,
    newStops: applied.newStops.length,
    newLines: applied.newLines.length,
    trips: applied.trips.length,
    masked,
  };
}

/** `compileSteps` in one piece; a scenario with faults throws them. */
export function compileScenario(generation: Generation, name: string, scenario: ScenarioFile): AppliedVersion {
  const compiled = inOnePiece(compileSteps(generation, name, scenario));
  if (!('overlay' in compiled)) throw new Error(`scenario ${name} refused: ${compiled.errors.map((e) => e.reason).join('; ')}`);
  return compiled;
}
