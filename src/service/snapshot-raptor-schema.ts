/**
 * The transit search data's part of a snapshot's schema (snapshot-schema.ts gives the rules): the
 * RAPTOR routes compiled from the timetable, with its counts and its calendar, their stop times cut
 * as trips × stops, the stops' routes and the connections both ways.
 */
import type { Timetable } from '../model/timetable.js';
import type { RaptorData } from '../routing/raptor-data.js';
import { Checker, isWithin } from './snapshot-checker.js';

const RAPTOR_FIELDS: Record<keyof RaptorData, true> = {
  stopCount: true,
  routeCount: true,
  routeTripCount: true,
  tripCount: true,
  timezoneCount: true,
  minTimeSec: true,
  maxTimeSec: true,
  routeStopOffset: true,
  routeStops: true,
  routeTripOffset: true,
  routeStopTimeOffset: true,
  routeTimezone: true,
  routeMinSec: true,
  routeMaxSec: true,
  routeDayBits: true,
  routeTripTrip: true,
  routeTripService: true,
  arrivalSec: true,
  departureSec: true,
  boardAlight: true,
  stopRouteOffset: true,
  stopRoutes: true,
  stopRoutePos: true,
  transferOffset: true,
  transferTo: true,
  transferFixedSec: true,
  transferLengthM: true,
  transferInOffset: true,
  transferInEdge: true,
  transferInFrom: true,
  stopStaySec: true,
  stopWheelchair: true,
  tripWheelchair: true,
  serviceFirstDay: true,
  serviceDayCount: true,
  serviceWords: true,
  serviceBits: true,
};

export function checkRaptor(c: Checker, value: unknown, tt: Timetable): void {
  const at = 'streets.data.raptor';
  const d = c.fields<RaptorData>(value, at, RAPTOR_FIELDS);
  const stopCount = tt.stopPoints.ids.length;
  const tripCount = tt.trips.ids.length;
  const { services } = tt;
  // the transit search data is compiled from the timetable: it has its counts and its calendar
  c.same(d.stopCount, `${at}.stopCount`, stopCount, 'the stop points of tt.stopPoints');
  c.same(d.tripCount, `${at}.tripCount`, tripCount, 'the trips of tt.trips');
  c.same(d.timezoneCount, `${at}.timezoneCount`, tt.timezones.length, 'the time zones of tt.timezones');
  c.same(d.serviceFirstDay, `${at}.serviceFirstDay`, services.firstDay, 'tt.services.firstDay');
  c.same(d.serviceDayCount, `${at}.serviceDayCount`, services.dayCount, 'tt.services.dayCount');
  c.same(d.serviceWords, `${at}.serviceWords`, services.words, 'tt.services.words');
  c.typed(d.serviceBits, Uint32Array, `${at}.serviceBits`, services.bits.length);
  // stop times are Int32: so are their bounds (the search steps back over the days a run may span from them)
  c.value(d.minTimeSec, `${at}.minTimeSec`, isWithin(-(2 ** 31), 2 ** 31 - 1));
  c.value(d.maxTimeSec, `${at}.maxTimeSec`, isWithin(-(2 ** 31), 2 ** 31 - 1));
  const routeCount = c.count(d.routeCount, `${at}.routeCount`);
  const routeTripCount = c.count(d.routeTripCount, `${at}.routeTripCount`);
  const serviceCount = services.ids.length;

  const routeStops = c.typed(d.routeStops, Uint32Array, `${at}.routeStops`);
  c.below(routeStops, `${at}.routeStops`, stopCount, 'tt.stopPoints');
  const routeStopOffset = c.offsets(c.typed(d.routeStopOffset, Uint32Array, `${at}.routeStopOffset`), `${at}.routeStopOffset`, routeCount, routeStops.length);
  const routeTripOffset = c.offsets(c.typed(d.routeTripOffset, Uint32Array, `${at}.routeTripOffset`), `${at}.routeTripOffset`, routeCount, routeTripCount);
  c.below(c.typed(d.routeTripTrip, Uint32Array, `${at}.routeTripTrip`, routeTripCount), `${at}.routeTripTrip`, tripCount, 'tt.trips');
  c.below(c.typed(d.routeTripService, Uint32Array, `${at}.routeTripService`, routeTripCount), `${at}.routeTripService`, serviceCount, 'tt.services');
  const stopTimeCount = c.typed(d.arrivalSec, Int32Array, `${at}.arrivalSec`).length;
  c.typed(d.departureSec, Int32Array, `${at}.departureSec`, stopTimeCount);
  c.typed(d.boardAlight, Uint8Array, `${at}.boardAlight`, stopTimeCount);
  const routeStopTimeOffset = c.offsets(c.typed(d.routeStopTimeOffset, Uint32Array, `${at}.routeStopTimeOffset`), `${at}.routeStopTimeOffset`, routeCount, stopTimeCount);
  // a route's stop times are a block of its trips × its stops, read at offset + trip × stops + position
  for (let r = 0; r < routeCount; r++) {
    const stops = routeStopOffset[r + 1]! - routeStopOffset[r]!;
    const trips = routeTripOffset[r + 1]! - routeTripOffset[r]!;
    if (routeStopTimeOffset[r + 1]! - routeStopTimeOffset[r]! !== stops * trips) {
      c.refuse(`${at}.routeStopTimeOffset[${r}]`, `gives route ${r} ${routeStopTimeOffset[r + 1]! - routeStopTimeOffset[r]!} stop times, not its ${trips} trips × ${stops} stops`);
    }
  }
  c.below(c.typed(d.routeTimezone, Uint16Array, `${at}.routeTimezone`, routeCount), `${at}.routeTimezone`, tt.timezones.length, 'tt.timezones');
  c.typed(d.routeMinSec, Int32Array, `${at}.routeMinSec`, routeCount);
  c.typed(d.routeMaxSec, Int32Array, `${at}.routeMaxSec`, routeCount);
  c.typed(d.routeDayBits, Uint32Array, `${at}.routeDayBits`, routeCount * services.words);

  const stopRoutes = c.typed(d.stopRoutes, Uint32Array, `${at}.stopRoutes`);
  c.below(stopRoutes, `${at}.stopRoutes`, routeCount, 'the routes');
  c.offsets(c.typed(d.stopRouteOffset, Uint32Array, `${at}.stopRouteOffset`), `${at}.stopRouteOffset`, stopCount, stopRoutes.length);
  const stopRoutePos = c.typed(d.stopRoutePos, Uint32Array, `${at}.stopRoutePos`, stopRoutes.length);
  for (let k = 0; k < stopRoutePos.length; k++) {
    const r = stopRoutes[k]!;
    if (stopRoutePos[k]! >= routeStopOffset[r + 1]! - routeStopOffset[r]!) c.refuse(`${at}.stopRoutePos[${k}]`, `is position ${stopRoutePos[k]} on route ${r} of ${routeStopOffset[r + 1]! - routeStopOffset[r]!} stops`);
  }

  const transferTo = c.typed(d.transferTo, Uint32Array, `${at}.transferTo`);
  const transferCount = transferTo.length;
  c.below(transferTo, `${at}.transferTo`, stopCount, 'tt.stopPoints');
  c.offsets(c.typed(d.transferOffset, Uint32Array, `${at}.transferOffset`), `${at}.transferOffset`, stopCount, transferCount);
  c.typed(d.transferFixedSec, Int32Array, `${at}.transferFixedSec`, transferCount);
  // (NaN is a connection without a walking length)
  c.typed(d.transferLengthM, Float64Array, `${at}.transferLengthM`, transferCount);
  const transferInEdge = c.typed(d.transferInEdge, Uint32Array, `${at}.transferInEdge`);
  c.below(transferInEdge, `${at}.transferInEdge`, transferCount, 'the connections');
  c.offsets(c.typed(d.transferInOffset, Uint32Array, `${at}.transferInOffset`), `${at}.transferInOffset`, stopCount, transferInEdge.length);
  c.below(c.typed(d.transferInFrom, Uint32Array, `${at}.transferInFrom`, transferInEdge.length), `${at}.transferInFrom`, stopCount, 'tt.stopPoints');
  c.typed(d.stopStaySec, Int32Array, `${at}.stopStaySec`, stopCount);
  c.typed(d.stopWheelchair, Uint8Array, `${at}.stopWheelchair`, stopCount);
  c.typed(d.tripWheelchair, Uint8Array, `${at}.tripWheelchair`, tripCount);
}
