/**
 * adjust-frequency: every trip of `route` is removed, and each of `entries` runs its `sourceTrip`'s
 * stops and times shifted to start at each of its start times (the dwell at the first stop dropped:
 * the trip leaves stop 0 at its start), on its weekdays over the production period. New trip ids
 * are `scenario:NAME:M:E:K` (E the entry, K the start); the rest of the trips.txt row is the source
 * trip's, without its block_id (the copies are not one vehicle's chain).
 *
 * With `retainTripsOutsideFrequencyEntries`, a removed trip still runs on the dates whose weekday no
 * frequency entry (one with startTime/endTime, not firstDepartures) covers at the trip's first
 * departure (startTime ≤ departure < endTime): it keeps its service when no weekday is covered, gets
 * a service of its remaining dates (listed in calendar_dates.txt) when some are, and is removed when
 * none remains.
 */
import { addedTripValues } from './added-trip-row.js';
import { entryWeekdays, isFrequencyEntry, type EntryPattern, type TimetableEntry } from './timetable-entries.js';
import { weekdayOf } from './service-calendar.js';
import type { StopVisit } from './stop-visits.js';
import type { OracleFeed, TripRecord } from './oracle-feed.js';
import { emptyReport, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

interface SourcedEntry {
  entry: TimetableEntry;
  source: TripRecord;
}

function entriesOf(context: ModificationContext, modification: Modification): { routeId: string; entries: SourcedEntry[] } {
  const { feed, ids, where } = context;
  const routeId = ids.route(modification['route'], `${where}.route`);
  const list = modification['entries'];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${where}.entries: at least one entry is needed`);
  const entries = list.map((entry: TimetableEntry, e) => {
    const source = feed.trips.get(ids.trip(entry.sourceTrip, `${where}.entries[${e}].sourceTrip`))!;
    if (feed.tripField(source, 'route_id') !== routeId) throw new Error(`${where}.entries[${e}].sourceTrip: trip ${entry.sourceTrip} is not on route ${routeId}`);
    return { entry, source };
  });
  return { routeId, entries };
}

/** Each entry's pattern for phasing: its source trip's stops, timed from its departure at stop 0. */
export function adjustFrequencyPatterns(context: ModificationContext, modification: Modification): [TimetableEntry, EntryPattern][] {
  return entriesOf(context, modification).entries.map(({ entry, source }) => {
    const visits = context.feed.visitsOf(source);
    const start = visits[0]!.departure;
    return [entry, { stopIds: visits.map((v) => v.stopId), timesToArrival: visits.map((v, i) => (i === 0 ? 0 : v.arrival - start)) }];
  });
}

function shiftedVisits(visits: StopVisit[], start: number): StopVisit[] {
  const offset = start - visits[0]!.departure;
  return visits.map((v, i) => (i === 0 ? { ...v, arrival: start, departure: start } : { ...v, arrival: v.arrival + offset, departure: v.departure + offset }));
}

export function adjustFrequency(context: ModificationContext, modification: Modification): ModificationReport {
  const { feed, where } = context;
  const report = emptyReport(context, 'adjust-frequency');
  const { routeId, entries } = entriesOf(context, modification);
  const retain = modification['retainTripsOutsideFrequencyEntries'] === true;

  const added: { values: Record<string, string>; visits: StopVisit[] }[] = [];
  entries.forEach(({ entry, source }, e) => {
    const weekdays = entryWeekdays(entry);
    // an entry on no weekday runs no trip: nothing to write
    if (!weekdays.some(Boolean)) return;
    const serviceId = feed.weekdayService(weekdays);
    const sourceVisits = feed.visitsOf(source);
    context.entryStarts.startsOf(entry, `${where}.entries[${e}]`).forEach((start, k) => {
      const values = addedTripValues(feed, source, `scenario:${context.scenarioName}:${context.index}:${e}:${k}`, serviceId);
      added.push({ values, visits: shiftedVisits(sourceVisits, start) });
    });
  });

  const removed = [...feed.trips.values()].filter((t) => feed.tripField(t, 'route_id') === routeId);
  for (const trip of removed) {
    // a trip the loader leaves out (an untimed end) has no departure to keep it by
    const keptDates = retain && feed.hasTimedEnds(trip) ? retainedDates(feed, trip, entries.map((s) => s.entry)) : [];
    const serviceId = feed.tripField(trip, 'service_id');
    if (keptDates.length === 0) {
      feed.removeTrip(trip);
      report.tripsRemoved++;
    } else if (keptDates.length < (feed.datesOfService.get(serviceId)?.size ?? 0)) {
      const lostWeekdays = new Set(
        [...(feed.datesOfService.get(serviceId) ?? [])].filter((d) => !keptDates.includes(d)).map(weekdayOf),
      );
      const mask = [0, 1, 2, 3, 4, 5, 6].map((d) => (lostWeekdays.has(d) ? '1' : '0')).join('');
      const retainedService = feed.explicitDatesService(`scenario-oracle-retain-${serviceId}-without-${mask}`, keptDates);
      feed.table('trips.txt').set(trip.row, 'service_id', retainedService);
      report.tripsChanged++;
    }
  }
  for (const { values, visits } of added) feed.addTrip(values, visits);
  report.tripsAdded = added.length;
  return report;
}

/** The dates a trip keeps: those of its service whose weekday no frequency entry covers at its first departure. */
function retainedDates(feed: OracleFeed, trip: TripRecord, entries: TimetableEntry[]): string[] {
  const departure = feed.visitsOf(trip)[0]!.departure;
  const covered = new Set<number>();
  for (const entry of entries) {
    if (!isFrequencyEntry(entry) || entry.startTime === undefined || entry.endTime === undefined) continue;
    if (entry.startTime <= departure && departure < entry.endTime) entryWeekdays(entry).forEach((on, d) => on && covered.add(d));
  }
  const dates = [...(feed.datesOfService.get(feed.tripField(trip, 'service_id')) ?? [])].sort();
  return dates.filter((date) => !covered.has(weekdayOf(date)));
}
