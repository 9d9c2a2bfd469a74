/** remove-trips: every trip of the `routes`, `patterns` or `trips` named is removed (with its frequencies.txt rows). */
import { chooseTrips } from './trip-selection.js';
import { emptyReport, type Modification, type ModificationContext, type ModificationReport } from './modification-context.js';

export function removeTrips(context: ModificationContext, modification: Modification): ModificationReport {
  const report = emptyReport(context, 'remove-trips');
  for (const trip of chooseTrips(context.feed, context.ids, modification, ['routes', 'patterns', 'trips'], context.where)) {
    context.feed.removeTrip(trip);
    report.tripsRemoved++;
  }
  return report;
}
