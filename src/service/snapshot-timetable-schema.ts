/**
 * The timetable's part of a snapshot's schema (snapshot-schema.ts gives the rules): its tables'
 * fields and kinds, their lengths and offsets, the indexes between them, the calendar within GTFS
 * dates and the frequencies' headways above 0.
 */
import { ODT_LEVEL_NAMES, type Agency, type FeedMeta, type Line, type NamedObject, type Route, type StopArea, type Timetable } from '../model/timetable.js';
import { dayNumber } from '../util/calendar.js';
import { Checker, describe, isBoolean, isFiniteNumber, isIndexOf, isInteger, isLatitude, isLongitude, isString, isTimeZone, isWithin } from './snapshot-checker.js';

const TIMETABLE_FIELDS: Record<keyof Timetable, true> = {
  feeds: true,
  timezone: true,
  agencies: true,
  timezones: true,
  agencyTimezone: true,
  physicalModes: true,
  commercialModes: true,
  lines: true,
  routes: true,
  stopAreas: true,
  stopPoints: true,
  trips: true,
  stopTimes: true,
  frequencies: true,
  patterns: true,
  services: true,
  transfers: true,
  headsignTrips: true,
  tripCodes: true,
};

/** GTFS dates run from 0001-01-01 to 9999-12-31 (util/gtfs-times.ts): a calendar outside them was not compiled. */
const FIRST_GTFS_DAY = dayNumber(1, 1, 1);
const LAST_GTFS_DAY = dayNumber(9999, 12, 31);

export function checkTimetable(c: Checker, value: unknown, feedCount: number): Timetable {
  const tt = c.fields<Timetable>(value, 'tt', TIMETABLE_FIELDS);
  const feeds = c.records<FeedMeta>(tt.feeds, 'tt.feeds', {
    key: isString,
    location: isString,
    publisherName: isString,
    publisherUrl: isString,
    lang: isString,
    version: isString,
    createdAtSec: isFiniteNumber,
  });
  // one feed per GTFS source of the coverage (generation.ts spreads their dates into Math.max's arguments)
  if (feeds.length !== feedCount) c.refuse('tt.feeds', `holds ${feeds.length} feeds, the coverage has ${feedCount} GTFS sources`);
  c.value(tt.timezone, 'tt.timezone', isTimeZone);
  const timezones = c.strings(tt.timezones, 'tt.timezones');
  c.distinctTimeZones(timezones, 'tt.timezones');
  const agencies = c.records<Agency>(tt.agencies, 'tt.agencies', {
    id: isString,
    name: isString,
    url: isString,
    timezone: isString,
    lang: isString,
    phone: isString,
    feed: isIndexOf(feeds.length, 'tt.feeds'),
  });
  c.below(c.typed(tt.agencyTimezone, Uint16Array, 'tt.agencyTimezone', agencies.length), 'tt.agencyTimezone', timezones.length, 'tt.timezones');
  const physicalModes = c.records<NamedObject>(tt.physicalModes, 'tt.physicalModes', { id: isString, name: isString });
  const commercialModes = c.records<NamedObject>(tt.commercialModes, 'tt.commercialModes', { id: isString, name: isString });
  const lines = c.records<Line>(tt.lines, 'tt.lines', {
    id: isString,
    code: isString,
    name: isString,
    color: isString,
    textColor: isString,
    routeType: isInteger,
    agency: isIndexOf(agencies.length, 'tt.agencies'),
    physicalMode: isIndexOf(physicalModes.length, 'tt.physicalModes'),
    commercialMode: isIndexOf(commercialModes.length, 'tt.commercialModes'),
    feed: isIndexOf(feeds.length, 'tt.feeds'),
  });
  const routes = c.records<Route>(tt.routes, 'tt.routes', { id: isString, name: isString, line: isIndexOf(lines.length, 'tt.lines'), direction: isWithin(-1, 1) });
  const stopAreas = c.records<StopArea>(tt.stopAreas, 'tt.stopAreas', { id: isString, name: isString, lon: isLongitude, lat: isLatitude, fromStation: isBoolean });

  const sp = c.fields<Timetable['stopPoints']>(tt.stopPoints, 'tt.stopPoints', { ids: true, names: true, lon: true, lat: true, area: true, wheelchair: true, isZone: true, platformCodes: true });
  const stopCount = c.strings(sp.ids, 'tt.stopPoints.ids').length;
  c.strings(sp.names, 'tt.stopPoints.names', stopCount);
  c.strings(sp.platformCodes, 'tt.stopPoints.platformCodes', stopCount);
  c.coordinates(sp.lon, sp.lat, 'tt.stopPoints.lon', 'tt.stopPoints.lat', stopCount);
  c.below(c.typed(sp.area, Uint32Array, 'tt.stopPoints.area', stopCount), 'tt.stopPoints.area', stopAreas.length, 'tt.stopAreas');
  c.typed(sp.wheelchair, Uint8Array, 'tt.stopPoints.wheelchair', stopCount);
  c.typed(sp.isZone, Uint8Array, 'tt.stopPoints.isZone', stopCount);

  const st = c.fields<Timetable['stopTimes']>(tt.stopTimes, 'tt.stopTimes', { arrivalSec: true, departureSec: true, pickDrop: true, sequence: true });
  const stopTimeCount = c.typed(st.arrivalSec, Int32Array, 'tt.stopTimes.arrivalSec').length;
  c.typed(st.departureSec, Int32Array, 'tt.stopTimes.departureSec', stopTimeCount);
  c.typed(st.pickDrop, Uint8Array, 'tt.stopTimes.pickDrop', stopTimeCount);
  c.typed(st.sequence, Uint32Array, 'tt.stopTimes.sequence', stopTimeCount);

  const fr = c.fields<Timetable['frequencies']>(tt.frequencies, 'tt.frequencies', { startSec: true, endSec: true, headwaySec: true, exactTimes: true });
  const frequencyCount = c.typed(fr.startSec, Int32Array, 'tt.frequencies.startSec').length;
  c.typed(fr.endSec, Int32Array, 'tt.frequencies.endSec', frequencyCount);
  c.typed(fr.headwaySec, Int32Array, 'tt.frequencies.headwaySec', frequencyCount);
  c.typed(fr.exactTimes, Uint8Array, 'tt.frequencies.exactTimes', frequencyCount);
  // the runs of a row are start + k × headway before end: a headway of 0 would never end (as read-frequencies.ts refuses)
  for (let f = 0; f < frequencyCount; f++) {
    if (!(fr.startSec[f]! >= 0 && fr.endSec[f]! >= fr.startSec[f]! && fr.headwaySec[f]! > 0)) {
      c.refuse(`tt.frequencies[${f}]`, `runs from ${fr.startSec[f]} s to ${fr.endSec[f]} s every ${fr.headwaySec[f]} s (a window from 0 s on, a headway above 0)`);
    }
  }

  const pt = c.fields<Timetable['patterns']>(tt.patterns, 'tt.patterns', { stopOffset: true, stops: true });
  const patternStops = c.typed(pt.stops, Uint32Array, 'tt.patterns.stops');
  c.below(patternStops, 'tt.patterns.stops', stopCount, 'tt.stopPoints');
  const stopOffset = c.typed(pt.stopOffset, Uint32Array, 'tt.patterns.stopOffset');
  if (stopOffset.length === 0) c.refuse('tt.patterns.stopOffset', 'is empty (it has one offset more than there are patterns)');
  const patternCount = stopOffset.length - 1;
  c.offsets(stopOffset, 'tt.patterns.stopOffset', patternCount, patternStops.length);

  const sv = c.fields<Timetable['services']>(tt.services, 'tt.services', { ids: true, firstDay: true, dayCount: true, words: true, bits: true });
  const serviceCount = c.strings(sv.ids, 'tt.services.ids').length;
  c.value(sv.firstDay, 'tt.services.firstDay', isWithin(FIRST_GTFS_DAY, LAST_GTFS_DAY));
  c.value(sv.dayCount, 'tt.services.dayCount', isWithin(1, LAST_GTFS_DAY - sv.firstDay + 1));
  if (sv.words !== Math.ceil(sv.dayCount / 32)) c.refuse('tt.services.words', `is ${describe(sv.words)}, not the ${Math.ceil(sv.dayCount / 32)} words of ${sv.dayCount} days`);
  // every service's words, and never fewer than the words of one day set: the calendar (and what is
  // computed per day of it) stays within the size of the file
  c.typed(sv.bits, Uint32Array, 'tt.services.bits');
  if (sv.bits.length < Math.max(1, serviceCount) * sv.words) c.refuse('tt.services.bits', `holds ${sv.bits.length} words, fewer than the ${sv.words} of each of ${serviceCount} services`);

  const tr = c.fields<Timetable['trips']>(tt.trips, 'tt.trips', TRIP_FIELDS);
  const tripCount = c.strings(tr.ids, 'tt.trips.ids').length;
  c.strings(tr.names, 'tt.trips.names', tripCount);
  c.strings(tr.headsigns, 'tt.trips.headsigns', tripCount);
  c.strings(tr.shortNames, 'tt.trips.shortNames', tripCount);
  c.strings(tr.blockIds, 'tt.trips.blockIds', tripCount);
  c.below(c.typed(tr.route, Uint32Array, 'tt.trips.route', tripCount), 'tt.trips.route', routes.length, 'tt.routes');
  c.below(c.typed(tr.line, Uint32Array, 'tt.trips.line', tripCount), 'tt.trips.line', lines.length, 'tt.lines');
  c.below(c.typed(tr.agency, Uint16Array, 'tt.trips.agency', tripCount), 'tt.trips.agency', agencies.length, 'tt.agencies');
  c.below(c.typed(tr.service, Uint32Array, 'tt.trips.service', tripCount), 'tt.trips.service', serviceCount, 'tt.services');
  c.below(c.typed(tr.pattern, Uint32Array, 'tt.trips.pattern', tripCount), 'tt.trips.pattern', patternCount, 'tt.patterns');
  c.below(c.typed(tr.feed, Uint16Array, 'tt.trips.feed', tripCount), 'tt.trips.feed', feeds.length, 'tt.feeds');
  c.below(c.typed(tr.odtLevel, Uint8Array, 'tt.trips.odtLevel', tripCount), 'tt.trips.odtLevel', ODT_LEVEL_NAMES.length, 'the ODT levels');
  c.typed(tr.wheelchair, Uint8Array, 'tt.trips.wheelchair', tripCount);
  c.typed(tr.bikes, Uint8Array, 'tt.trips.bikes', tripCount);
  c.offsets(c.typed(tr.stopTimeOffset, Uint32Array, 'tt.trips.stopTimeOffset'), 'tt.trips.stopTimeOffset', tripCount, stopTimeCount);
  c.offsets(c.typed(tr.frequencyOffset, Uint32Array, 'tt.trips.frequencyOffset'), 'tt.trips.frequencyOffset', tripCount, frequencyCount);
  // the k-th stop time of a trip is at the k-th stop of its pattern: both have the same count (one at least)
  for (let t = 0; t < tripCount; t++) {
    const stops = tr.stopTimeOffset[t + 1]! - tr.stopTimeOffset[t]!;
    const p = tr.pattern[t]!;
    if (stops === 0 || stops !== stopOffset[p + 1]! - stopOffset[p]!) {
      c.refuse(`tt.trips.stopTimeOffset[${t}]`, `gives trip ${t} ${stops} stop times, its pattern ${p} ${stopOffset[p + 1]! - stopOffset[p]!} stops`);
    }
  }

  const tf = c.fields<Timetable['transfers']>(tt.transfers, 'tt.transfers', { fromStop: true, toStop: true, type: true, minTimeSec: true });
  const transferCount = c.typed(tf.fromStop, Uint32Array, 'tt.transfers.fromStop').length;
  c.below(tf.fromStop, 'tt.transfers.fromStop', stopCount, 'tt.stopPoints');
  c.below(c.typed(tf.toStop, Uint32Array, 'tt.transfers.toStop', transferCount), 'tt.transfers.toStop', stopCount, 'tt.stopPoints');
  c.typed(tf.type, Uint8Array, 'tt.transfers.type', transferCount);
  c.typed(tf.minTimeSec, Int32Array, 'tt.transfers.minTimeSec', transferCount);

  c.tripIndex(tt.headsignTrips, 'tt.headsignTrips', tripCount);
  c.tripIndex(tt.tripCodes, 'tt.tripCodes', tripCount);
  return tt;
}

const TRIP_FIELDS: Record<keyof Timetable['trips'], true> = {
  ids: true,
  names: true,
  headsigns: true,
  shortNames: true,
  route: true,
  line: true,
  agency: true,
  service: true,
  pattern: true,
  feed: true,
  odtLevel: true,
  wheelchair: true,
  bikes: true,
  blockIds: true,
  stopTimeOffset: true,
  frequencyOffset: true,
};
