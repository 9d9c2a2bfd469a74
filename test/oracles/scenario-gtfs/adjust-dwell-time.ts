/**
 * adjust-dwell-time: at the `stops` named (every stop when none), on each chosen trip, the dwell
 * (departure minus arrival) becomes `dwellSecs`, or is multiplied by `scale` and rounded half up;
 * the hops are kept and the first arrival is kept.
 */
import { chooseTrips } from './trip-selection.js';
import { roundHalfUp } from './gtfs-time.js';
import { dwellsOf, hopsOf, retimed } from './stop-visits.js';
import { emptyReport, positiveNumber, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

export function adjustDwellTime(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, ids, where } = context;
  const report = emptyReport(context, 'adjust-dwell-time');
  const hasDwell = modification['dwellSecs'] !== undefined;
  if (hasDwell === (modification['scale'] !== undefined)) throw new Error(`${where}: give exactly one of dwellSecs and scale`);
  let newDwell: (dwell: number) => number;
  if (hasDwell) {
    const secs = positiveNumber(modification['dwellSecs'], `${where}.dwellSecs`, true);
    if (!Number.isInteger(secs)) throw new Error(`${where}.dwellSecs: not a whole number`);
    newDwell = () => secs;
  } else {
    const scale = positiveNumber(modification['scale'], `${where}.scale`, true);
    newDwell = (dwell) => roundHalfUp(dwell * scale);
  }
  const stopsGiven = modification['stops'];
  // an empty list names no stop, so it is read as "every stop", as a missing one
  let stops: Set<string> | null = null;
  if (stopsGiven !== undefined && !(Array.isArray(stopsGiven) && stopsGiven.length === 0)) {
    if (!Array.isArray(stopsGiven)) throw new Error(`${where}.stops: not a list`);
    stops = new Set(stopsGiven.map((id) => ids.stop(id, `${where}.stops`)));
  }
  for (const trip of chooseTrips(feed, ids, modification, ['routes', 'patterns', 'trips'], where).filter((t) => feed.hasTimedEnds(t))) {
    const visits = feed.visitsOf(trip);
    const dwells = dwellsOf(visits).map((dwell, i) => (stops === null || stops.has(visits[i]!.stopId) ? newDwell(dwell) : dwell));
    feed.setVisits(trip, retimed(visits, hopsOf(visits), dwells));
    report.tripsChanged++;
  }
  return report;
}
