/**
 * The types of a RAPTOR search (raptor.ts, which exports them too): its query, its result, the
 * counters of its last search, the service days it is given and those it chose.
 */
import type { RaptorOverlay } from './raptor-overlay.js';
import type { RangeBounds } from './range-bounds.js';

export interface RaptorQuery {
  /** departure: earliest arrival from the access stops leaving at/after t0; arrival: latest departure reaching them by t0 */
  direction: 'departure' | 'arrival';
  /** epoch seconds (whole seconds; a fraction is dropped) */
  t0: number;
  /** bound: labels strictly below min(maxDurationSec, 24 h) */
  maxDurationSec: number;
  /** most transfers (a journey rides at most maxTransfers + 1 vehicles) */
  maxTransfers: number;
  /** a stop counts as reached by a vehicle only via journeys with at least this many transfers */
  minTransfers: number;
  /** access stops and seconds from the centre to them (departure) or from them to the centre (arrival) */
  accessStops: Uint32Array;
  accessSec: Int32Array;
  count: number;
  /** per timetable trip: nonzero = allowed; null: all */
  tripAllowed: Uint8Array | null;
  /** per stop point: nonzero = boarding and alighting allowed there; null: all */
  stopAllowed: Uint8Array | null;
  /** only wheelchair_accessible=1 trips, boarding and alighting at wheelchair_boarding=1 stops */
  wheelchair: boolean;
  /** m/s, for the footpaths */
  walkingSpeed: number;
  /** seconds a rider must be at a stop before the vehicle leaves (see the header) */
  boardSlackSec: number;
  /** the runs of a freshness level over the timetable's; none: the base schedule */
  overlay?: RaptorOverlay | null;
  /** a departure window's searches, latest minute first: the labels of the later minutes (`RangeBounds`) */
  range?: { bounds: RangeBounds; shiftSec: number } | null;
}

export interface RaptorResult {
  /**
   * Per stop point: seconds from t0 of the best journey reaching the stop by a vehicle (departure:
   * arrival time minus t0; arrival: t0 minus the boarding time, plus the board slack: when the rider
   * must be at the stop), within the bound and with at least minTransfers transfers; -1 when none.
   * A view on scratch memory, valid until the next search.
   */
  vehicleSec: Int32Array;
  /** the stops with vehicleSec >= 0 (first reachedCount entries, in the order they were reached) */
  reached: Uint32Array;
  reachedCount: number;
}

/** Service-day origins (epoch seconds) per time zone, as `ServiceDays` computes them. */
export interface ServiceDayOrigins {
  originSec: Float64Array[];
  firstDay: number;
}

/** Counters of the last search, to explain its cost. */
export interface RaptorStats {
  rounds: number;
  routesScanned: number;
  reachedStops: number;
}

/** The service days of a search (raptor.ts chooses them): zone z's are slots [zoneSlotStart[z], zoneSlotStart[z + 1]). */
export interface SearchDays {
  readonly zoneSlotStart: Int32Array;
  /** x of stop time 0 that day, its index in the calendars' bitsets, and that index's word and bit */
  readonly slotOffset: Int32Array;
  readonly slotDay: Int32Array;
  readonly slotWord: Int32Array;
  readonly slotBit: Int32Array;
}
