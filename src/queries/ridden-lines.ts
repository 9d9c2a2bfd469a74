/**
 * The lines a skim's journeys ride (`routes` with a matrix's breakdown): the trips the engine
 * reports named by their lines' ids, as the API names lines. A timetable trip (or a scenario's or
 * realtime's change of one, which keeps its number) by its line; a trip an overlay adds, numbered
 * past the timetable's (routing/raptor-overlay.ts), by the line the overlay keeps for it: a realtime
 * trip's route's line, a scenario's new line by the id /scenarios gives it (`scenario:NAME:M`).
 */
import { NO_LINE } from '../model/realtime-runs.js';
import type { Timetable } from '../model/timetable.js';
import type { JourneyParts } from '../routing/heat-map-types.js';
import type { RaptorOverlay } from '../routing/raptor-overlay.js';

/**
 * The id written for a ride on a trip that has no line: a realtime trip whose TripUpdate names no
 * route_id (one naming an unknown route is dropped when read). Empty rather than left out, so the
 * ids still count the vehicles boarded (`rides`).
 */
export const NO_LINE_ID = '';

/** The timetable a search ran on: the compiled one, and the overlay laid over it (null: none). */
export interface SearchTimetable {
  tt: Timetable;
  overlay: RaptorOverlay | null;
}

/** The ids of the lines destination d's journey rides, in order. */
export function linesRidden(on: SearchTimetable, parts: JourneyParts, d: number): string[] {
  const { tt } = on;
  const { tripsFrom, trips } = parts;
  const tripCount = tt.trips.line.length;
  const ids: string[] = [];
  for (let x = tripsFrom[d]!; x < tripsFrom[d + 1]!; x++) {
    const t = trips[x]!;
    ids.push(t < tripCount ? tt.lines[tt.trips.line[t]!]!.id : addedTripLineId(on, t - tripCount));
  }
  return ids;
}

/** The line id of the overlay's added trip k (trip tripCount + k). */
function addedTripLineId({ tt, overlay }: SearchTimetable, k: number): string {
  if (overlay === null || k >= overlay.addedTripLine.length) throw new Error(`trip ${tt.trips.line.length + k} is past the timetable's trips and its overlay's: the journey was searched on another timetable`);
  const line = overlay.addedTripLine[k]!;
  if (line === NO_LINE) return NO_LINE_ID;
  return line < tt.lines.length ? tt.lines[line]!.id : overlay.newLineIds![line - tt.lines.length]!;
}
