/** The trips.txt values of a trip copied from another (adjust-frequency): the same row, a new id and service, no block. */
import type { OracleFeed, TripRecord } from './oracle-feed.js';

export function addedTripValues(feed: OracleFeed, source: TripRecord, tripId: string, serviceId: string): Record<string, string> {
  const trips = feed.table('trips.txt');
  const values: Record<string, string> = {};
  trips.header.forEach((name, i) => (values[name] = source.row[i] ?? ''));
  values['trip_id'] = tripId;
  values['service_id'] = serviceId;
  if ('block_id' in values) values['block_id'] = '';
  return values;
}
