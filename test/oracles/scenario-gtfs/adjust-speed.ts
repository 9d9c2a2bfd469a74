/**
 * adjust-speed: on each chosen trip every hop (arrival at the next stop minus departure from this one)
 * is divided by `scale` and rounded half up; the dwells are kept, or divided too with `scaleDwells`
 * (every dwell of the trip, `hops` or not); the first arrival is kept. With `hops` ([from, to] stop id
 * pairs), only the hops between those consecutive stops change.
 */
import { chooseTrips } from './trip-selection.js';
import { roundHalfUp } from './gtfs-time.js';
import { dwellsOf, hopsOf, retimed } from './stop-visits.js';
import { emptyReport, positiveNumber, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

export function adjustSpeed(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, ids, where } = context;
  const report = emptyReport(context, 'adjust-speed');
  const scale = positiveNumber(modification['scale'], `${where}.scale`);
  const scaleDwells = modification['scaleDwells'] === true;
  let hopKeys: Set<string> | null = null;
  if (modification['hops'] !== undefined) {
    const hops = modification['hops'];
    if (!Array.isArray(hops)) throw new Error(`${where}.hops: not a list`);
    hopKeys = new Set(
      hops.map((pair, k) => {
        if (!Array.isArray(pair) || pair.length !== 2) throw new Error(`${where}.hops[${k}]: not a [from, to] pair`);
        return JSON.stringify([ids.stop(pair[0], `${where}.hops[${k}]`), ids.stop(pair[1], `${where}.hops[${k}]`)]);
      }),
    );
  }
  for (const trip of chooseTrips(feed, ids, modification, ['routes', 'patterns', 'trips'], where).filter((t) => feed.hasTimedEnds(t))) {
    const visits = feed.visitsOf(trip);
    const hops = hopsOf(visits).map((hop, i) => (hopKeys === null || hopKeys.has(JSON.stringify([visits[i]!.stopId, visits[i + 1]!.stopId])) ? roundHalfUp(hop / scale) : hop));
    const dwells = dwellsOf(visits).map((dwell) => (scaleDwells ? roundHalfUp(dwell / scale) : dwell));
    feed.setVisits(trip, retimed(visits, hops, dwells));
    report.tripsChanged++;
  }
  return report;
}
