/**
 * What one scenario may ask for, as a disruptions file has its limits: past any of them the scenario
 * is refused with the limit named, and the coverage and its other scenarios are untouched.
 */
import { MAX_OVERLAY_STOPS } from '../routing/overlay-stops.js';

export interface ScenarioLimits {
  /** largest file, bytes */
  maxFileBytes: number;
  /** most modifications in a file */
  maxModifications: number;
  /** most trips the scenario adds or changes (each is laid out as a route-trip of the overlay) */
  maxTrips: number;
  /** most stop times of those trips */
  maxStopTimes: number;
  /** most new stops (each is linked to the streets and given walking transfers; the engines keep room for MAX_OVERLAY_STOPS) */
  maxNewStops: number;
}

export const SCENARIO_LIMITS: ScenarioLimits = {
  // Conveyal's projects hold tens of modifications; a file of a thousand is a generated one
  maxFileBytes: 8 << 20,
  maxModifications: 1_000,
  // a whole city's timetable changed at once (a speed-up of every bus of rnv is about 30,000 trips)
  maxTrips: 200_000,
  maxStopTimes: 5_000_000,
  maxNewStops: MAX_OVERLAY_STOPS,
};
