/**
 * The period filter over a set of trips (the `since`/`until` of a trips request, the filter's
 * `vehicle_journey.since/until/between`): the trips with a run at a freshness level whose first
 * departure is inside [sinceSec, untilSec]. Each trip kept is one `Freshness.departsWithin` says
 * yes to, as it always was; what changes is which trips are asked. When the window makes fewer
 * candidates (departure-index.ts) than the set holds, only the candidates, and the trips whose
 * runs the level changed (they may depart at any time), are asked; otherwise the set's own trips.
 * A country's trips leaving in five minutes test a few thousand trips, not the million.
 */
import { DEPARTURE_INDEXES } from './departure-index.js';
import type { Freshness, FreshnessLevel } from './freshness.js';
import type { Referential } from './referential.js';
import { intersect, union } from './sorted-set.js';

/** The trips of `among` (ascending) with a run at `level` departing inside [sinceSec, untilSec], ascending. */
export function departingWithin(ref: Referential, freshness: Freshness, level: FreshnessLevel, sinceSec: number, untilSec: number, among: Uint32Array): Uint32Array {
  const index = DEPARTURE_INDEXES.of(ref);
  const changed = freshness.changedTrips(level);
  let tested = among;
  if (index.candidateCount(ref.days, sinceSec, untilSec) + changed.length < among.length) {
    tested = intersect(among, union(index.candidates(ref.days, sinceSec, untilSec), changed));
  }
  return tested.filter((t) => freshness.departsWithin(t, level, sinceSec, untilSec));
}
