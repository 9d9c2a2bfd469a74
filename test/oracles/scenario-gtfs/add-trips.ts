/**
 * add-trips: a new line `scenario:NAME:M` (route_type `mode`, 3 by default; short name the
 * modification's `name` or `comment`, else `NAME M`; the feed's first agency) whose trips run the
 * `stops` for each timetable entry of `frequencies`: a trip arrives at stop 0 at its start, leaves
 * dwellTimes[0] later, arrives at stop i+1 hopTimes[i] after leaving stop i. Each start is written as
 * a timed trip `scenario:NAME:M:D:E:K` (D its direction_id, E the entry, K the start) on a service of
 * the entry's weekdays over the production period. `bidirectional` (true by default) adds the
 * reverse: stops, hops and dwells reversed, the same starts, the other direction_id (`directionId`,
 * 0 by default, is the forward one's).
 */
import { addNewStops, resolvePatternStops, type PatternStop } from './new-stops.js';
import { entryWeekdays, type EntryPattern, type TimetableEntry } from './timetable-entries.js';
import { visitsFromHopsAndDwells } from './stop-visits.js';
import { emptyReport, numberList, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

interface TimedEntry {
  entry: TimetableEntry;
  hops: number[];
  dwells: number[];
}

function patternOf(context: ModificationContext, modification: Modification): { stops: PatternStop[]; entries: TimedEntry[] } {
  const { where } = context;
  const stops = resolvePatternStops(context, modification['stops'], `${where}.stops`);
  if (stops.length < 2) throw new Error(`${where}.stops: at least two stops are needed`);
  const list = modification['frequencies'];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${where}.frequencies: at least one entry is needed`);
  const entries = list.map((entry: TimetableEntry, e) => ({
    entry,
    hops: numberList(entry.hopTimes, stops.length - 1, `${where}.frequencies[${e}].hopTimes`),
    dwells: numberList(entry.dwellTimes, stops.length, `${where}.frequencies[${e}].dwellTimes`),
  }));
  return { stops, entries };
}

/** Each entry's forward pattern for phasing: the time from the start to each arrival. */
export function addTripsPatterns(context: ModificationContext, modification: Modification): [TimetableEntry, EntryPattern][] {
  const { stops, entries } = patternOf(context, modification);
  const stopIds = stops.map((s) => s.stopId);
  return entries.map(({ entry, hops, dwells }) => [entry, { stopIds, timesToArrival: visitsFromHopsAndDwells(stopIds, 0, hops, dwells).map((v) => v.arrival) }]);
}

export function addTrips(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, where, scenarioName, index } = context;
  const report = emptyReport(context, 'add-trips');
  const { stops, entries } = patternOf(context, modification);
  const mode = modification['mode'] ?? 3;
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0) throw new Error(`${where}.mode: ${JSON.stringify(mode)} is not a route_type`);
  const forwardDirection = modification['directionId'] ?? 0;
  if (forwardDirection !== 0 && forwardDirection !== 1) throw new Error(`${where}.directionId: 0 or 1`);
  const bidirectional = modification['bidirectional'] !== false;

  report.newStopIds = addNewStops(context, stops);
  const routeId = `scenario:${scenarioName}:${index}`;
  const label = [modification['name'], modification['comment']].find((v): v is string => typeof v === 'string' && v !== '') ?? `${scenarioName} ${index}`;
  feed.addRoute({ route_id: routeId, agency_id: feed.firstAgencyId(), route_short_name: label, route_long_name: '', route_type: String(mode) });
  report.newRouteIds.push(routeId);

  const forwardStops = stops.map((s) => s.stopId);
  entries.forEach(({ entry, hops, dwells }, e) => {
    const weekdays = entryWeekdays(entry);
    // an entry on no weekday runs no trip: nothing to write
    if (!weekdays.some(Boolean)) return;
    const serviceId = feed.weekdayService(weekdays);
    const starts = context.entryStarts.startsOf(entry, `${where}.frequencies[${e}]`);
    const directions = [{ direction: forwardDirection, stopIds: forwardStops, hops, dwells }];
    if (bidirectional) {
      directions.push({ direction: 1 - forwardDirection, stopIds: [...forwardStops].reverse(), hops: [...hops].reverse(), dwells: [...dwells].reverse() });
    }
    for (const d of directions) {
      starts.forEach((start, k) => {
        const tripId = `${routeId}:${d.direction}:${e}:${k}`;
        feed.addTrip({ route_id: routeId, service_id: serviceId, trip_id: tripId, direction_id: String(d.direction) }, visitsFromHopsAndDwells(d.stopIds, start, d.hops, d.dwells));
        report.tripsAdded++;
      });
    }
  });
  return report;
}
