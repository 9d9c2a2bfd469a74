/**
 * reroute: on each chosen trip (by `routes` or `patterns`) the stops between `fromStop` (its first
 * visit) and `toStop` (its first visit after fromStop's, or from the start) are replaced by `stops`.
 * Without fromStop the new stops replace the start up to toStop; without toStop, the end after
 * fromStop. `dwellTimes` has one dwell per new stop plus one per anchor given, `hopTimes` one less.
 *
 * Times: with fromStop, everything before it and its arrival are kept, its dwell becomes dwellTimes[0],
 * then each hop and dwell in turn; at toStop the last dwell replaces its own and the trip's own hops
 * and dwells follow. Without fromStop, toStop's arrival is kept and the new stops are timed backwards
 * from it. A trip that does not visit the anchors is left as it is; a pattern named that does not, or
 * routes none of whose trips do, refuse the scenario.
 */
import { chooseTrips, patternKey } from './trip-selection.js';
import { addNewStops, resolvePatternStops } from './new-stops.js';
import type { StopVisit } from './stop-visits.js';
import { emptyReport, numberList, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

export function reroute(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, ids, where } = context;
  const report = emptyReport(context, 'reroute');
  const fromStop = modification['fromStop'] === undefined ? undefined : ids.stop(modification['fromStop'], `${where}.fromStop`);
  const toStop = modification['toStop'] === undefined ? undefined : ids.stop(modification['toStop'], `${where}.toStop`);
  if (fromStop === undefined && toStop === undefined) throw new Error(`${where}: fromStop or toStop is needed`);
  const newStops = resolvePatternStops(context, modification['stops'] ?? [], `${where}.stops`);
  const dwellCount = newStops.length + (fromStop === undefined ? 0 : 1) + (toStop === undefined ? 0 : 1);
  const dwells = numberList(modification['dwellTimes'], dwellCount, `${where}.dwellTimes`);
  const hops = numberList(modification['hopTimes'], dwellCount - 1, `${where}.hopTimes`);

  const chosen = chooseTrips(feed, ids, modification, ['routes', 'patterns'], where).filter((t) => feed.hasTimedEnds(t));
  const unmatchedPatterns = new Set<string>();
  let matched = 0;
  for (const trip of chosen) {
    const stopIds = feed.stopIdsOf(trip);
    const f = fromStop === undefined ? -1 : stopIds.indexOf(fromStop);
    const t = toStop === undefined ? -1 : stopIds.indexOf(toStop, f + 1);
    if ((fromStop !== undefined && f < 0) || (toStop !== undefined && t < 0)) {
      unmatchedPatterns.add(patternKey(feed, trip));
      continue;
    }
    matched++;
    const visits = feed.visitsOf(trip);
    const inserted = newStops.map((s) => s.stopId);
    const next: StopVisit[] = [];
    if (fromStop !== undefined) {
      next.push(...visits.slice(0, f).map((v) => ({ ...v })));
      const anchor = visits[f]!;
      next.push({ ...anchor, departure: anchor.arrival + dwells[0]! });
      const tail = toStop === undefined ? inserted : [...inserted, toStop];
      tail.forEach((stopId, j) => {
        const arrival = next[next.length - 1]!.departure + hops[j]!;
        const source = toStop !== undefined && j === inserted.length ? visits[t]!.source : null;
        next.push({ stopId, arrival, departure: arrival + dwells[j + 1]!, source });
      });
    } else {
      const anchor = visits[t]!;
      const timedBackwards: StopVisit[] = [{ ...anchor, departure: anchor.arrival + dwells[inserted.length]! }];
      for (let j = inserted.length - 1; j >= 0; j--) {
        const departure = timedBackwards[0]!.arrival - hops[j]!;
        timedBackwards.unshift({ stopId: inserted[j]!, arrival: departure - dwells[j]!, departure, source: null });
      }
      next.push(...timedBackwards);
    }
    if (toStop !== undefined) {
      for (let i = t + 1; i < visits.length; i++) {
        const arrival = next[next.length - 1]!.departure + (visits[i]!.arrival - visits[i - 1]!.departure);
        next.push({ ...visits[i]!, arrival, departure: arrival + (visits[i]!.departure - visits[i]!.arrival) });
      }
    }
    if (next[0]!.arrival < 0) throw new Error(`${where}: trip ${trip.id} would start before midnight (${next[0]!.arrival} s)`);
    feed.setVisits(trip, next);
    report.tripsChanged++;
  }
  if (modification['patterns'] !== undefined && unmatchedPatterns.size > 0) throw new Error(`${where}: a pattern named does not visit fromStop/toStop`);
  if (matched === 0) throw new Error(`${where}: no trip of the routes visits fromStop/toStop`);
  report.newStopIds = addNewStops(context, newStops);
  return report;
}
