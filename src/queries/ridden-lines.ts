/**
 * The lines a skim's journeys ride (`routes` with a matrix's breakdown): the trips the engine
 * reports (timetable trip indices) named by their lines' ids, as the API names lines. A trip a
 * scenario or realtime adds (numbered past the timetable's) has no line of the timetable: its id is
 * ADDED_TRIP_LINE.
 */
import type { Timetable } from '../model/timetable.js';
import type { JourneyParts } from '../routing/heat-map-types.js';

/** The line id written for a trip the timetable does not have. */
export const ADDED_TRIP_LINE = '';

/** The ids of the lines destination d's journey rides, in order. */
export function linesRidden(tt: Timetable, parts: JourneyParts, d: number): string[] {
  const { tripsFrom, trips } = parts;
  const ids: string[] = [];
  for (let x = tripsFrom[d]!; x < tripsFrom[d + 1]!; x++) {
    const t = trips[x]!;
    ids.push(t < tt.trips.line.length ? tt.lines[tt.trips.line[t]!]!.id : ADDED_TRIP_LINE);
  }
  return ids;
}
