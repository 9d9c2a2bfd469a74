/**
 * A GTFS-Realtime TripUpdates message written with pbf's writer, for benchmarks on feeds that come
 * without a capture. Field numbers from gtfs-realtime.proto.
 */
import { encode, message } from '../test/helpers/pbf-writer.js';

export interface StopDelay {
  stopSequence: number;
  /** seconds, arrival and departure */
  delaySec: number;
}

export interface TripDelay {
  tripId: string;
  /** YYYYMMDD */
  startDate: string;
  stops: StopDelay[];
}


export function writeTripUpdates(timestampSec: number, trips: TripDelay[]): Uint8Array {
  return encode((pbf) => {
    message(pbf, 1, (h) => {
      h.writeStringField(1, '2.0'); // gtfs_realtime_version
      h.writeVarintField(3, timestampSec); // timestamp
    });
    trips.forEach((trip, i) =>
      message(pbf, 2, (e) => {
        e.writeStringField(1, `update-${i}`); // FeedEntity.id
        message(e, 3, (tu) => {
          message(tu, 1, (td) => {
            td.writeStringField(1, trip.tripId);
            td.writeStringField(3, trip.startDate);
          });
          for (const stop of trip.stops) {
            message(tu, 2, (stu) => {
              stu.writeVarintField(1, stop.stopSequence);
              message(stu, 2, (ev) => ev.writeVarintField(1, stop.delaySec)); // arrival.delay (int32)
              message(stu, 3, (ev) => ev.writeVarintField(1, stop.delaySec)); // departure.delay
            });
          }
        });
      }),
    );
  });
}
