/**
 * remove-stops: the `stops` leave every chosen trip (by `routes` or `patterns`). The first kept stop
 * keeps its times; between two consecutive kept stops with removed stops between them, the new hop is
 * the old time between them (arrival at the second minus departure from the first) less the dwells at
 * the removed stops, less `secondsSavedAtEachStop` per removed stop, and at least 1 s. A hop with no
 * removed stop inside is kept as it is (even a 0 s one: the floor is there so that savings cannot make
 * a hop vanish or go backwards). Each kept stop keeps its dwell. A trip left with fewer than two stops
 * is removed.
 */
import { chooseTrips } from './trip-selection.js';
import type { StopVisit } from './stop-visits.js';
import { emptyReport, positiveNumber, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

export function removeStops(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, ids, where } = context;
  const report = emptyReport(context, 'remove-stops');
  const given = modification['stops'];
  if (!Array.isArray(given) || given.length === 0) throw new Error(`${where}.stops: at least one stop is needed`);
  const removed = new Set(given.map((id) => ids.stop(id, `${where}.stops`)));
  const saved = positiveNumber(modification['secondsSavedAtEachStop'] ?? 0, `${where}.secondsSavedAtEachStop`, true);
  if (!Number.isInteger(saved)) throw new Error(`${where}.secondsSavedAtEachStop: not a whole number`);
  for (const trip of chooseTrips(feed, ids, modification, ['routes', 'patterns'], where).filter((t) => feed.hasTimedEnds(t))) {
    const visits = feed.visitsOf(trip);
    if (!visits.some((v) => removed.has(v.stopId))) continue;
    const kept = visits.flatMap((v, i) => (removed.has(v.stopId) ? [] : [i]));
    if (kept.length < 2) {
      feed.removeTrip(trip);
      report.tripsRemoved++;
      continue;
    }
    const first = visits[kept[0]!]!;
    const next: StopVisit[] = [{ ...first }];
    for (let k = 1; k < kept.length; k++) {
      const from = visits[kept[k - 1]!]!;
      const to = visits[kept[k]!]!;
      const skipped = visits.slice(kept[k - 1]! + 1, kept[k]!);
      let hop = to.arrival - from.departure;
      if (skipped.length > 0) {
        const skippedDwells = skipped.reduce((sum, v) => sum + v.departure - v.arrival, 0);
        hop = Math.max(1, hop - skippedDwells - saved * skipped.length);
      }
      const arrival = next[k - 1]!.departure + hop;
      next.push({ ...to, arrival, departure: arrival + (to.departure - to.arrival) });
    }
    feed.setVisits(trip, next);
    report.tripsChanged++;
  }
  return report;
}
