/**
 * The GTFS-Realtime decoder, `decodeFeedMessage`:
 *
 *   1. the real captures of ../shared/data/rt: the counts of the data README, a few entities field
 *      by field, and every value of the fields they carry against a raw walk of the same bytes. The
 *      expected values come from `walk` below, a protobuf reader of its own (not `pbf`) that knows
 *      nothing of GTFS-Realtime but the path of field numbers it is asked for;
 *   2. a message written here with PbfWriter: every field the decoder reads, each enum number, and
 *      the fields it must skip (unknown, extensions, fields of the reference it does not read);
 *   3. truncated, malformed and random bytes, which throw GtfsRealtimeError.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PbfWriter } from 'pbf';
import { encode, message, type Write } from '../../helpers/pbf-writer.js';
import { decodeFeedMessage, decodeFeedMessageInSlices, GtfsRealtimeError, type FeedEntity, type FeedMessage, type StopTimeEvent } from '../../../src/live/realtime/gtfs-rt.js';
import { SHARED_DATA, SHARED_DATA_MISSING } from '../../helpers/shared-data.js';
import { mulberry32 } from '../../helpers/random.js';
import { describeOrSkip } from '../../helpers/skip.js';

// ---------------------------------------------------------------------------------------------
// An independent protobuf walker

interface RawField {
  field: number;
  wire: number;
  /** wire type 0: the varint, as a signed 64-bit integer */
  varint: bigint;
  /** wire types 1, 2, 5: the bytes (of the value, without the length of type 2) */
  bytes: Uint8Array;
  /** byte offsets of the whole field (key included) in the buffer walked */
  start: number;
  end: number;
}

function rawFields(b: Uint8Array): RawField[] {
  const out: RawField[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (i >= b.length) throw new Error('walker: varint past the end');
      const byte = b[i++]!;
      v |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asIntN(64, v);
    }
  };
  while (i < b.length) {
    const start = i;
    const key = Number(varint());
    const wire = key & 7;
    let value = 0n;
    let bytes: Uint8Array = new Uint8Array(0);
    if (wire === 0) value = varint();
    else {
      const length = wire === 1 ? 8 : wire === 5 ? 4 : wire === 2 ? Number(varint()) : NaN;
      if (Number.isNaN(length) || i + length > b.length) throw new Error(`walker: bad field at ${start}`);
      bytes = b.subarray(i, i + length);
      i += length;
    }
    out.push({ field: key >>> 3, wire, varint: value, bytes, start, end: i });
  }
  return out;
}

/** The fields at a path of field numbers, in the order of the bytes: [2, 3, 2] = entity > trip_update > stop_time_update. */
function walk(b: Uint8Array, fieldPath: number[]): RawField[] {
  let level = [b];
  let found: RawField[] = [];
  for (const n of fieldPath) {
    found = level.flatMap((bytes) => rawFields(bytes).filter((f) => f.field === n));
    level = found.map((f) => f.bytes);
  }
  return found;
}

const decoder = new TextDecoder();
const strings = (b: Uint8Array, p: number[]) => walk(b, p).map((f) => decoder.decode(f.bytes));
const ints = (b: Uint8Array, p: number[]) => walk(b, p).map((f) => Number(f.varint));
const floats = (b: Uint8Array, p: number[]) => walk(b, p).map((f) => new DataView(f.bytes.buffer, f.bytes.byteOffset).getFloat32(0, true));

// ---------------------------------------------------------------------------------------------
// Enum numbers, from the GTFS-Realtime reference

const TRIP_RELATIONSHIP = ['SCHEDULED', 'ADDED', 'UNSCHEDULED', 'CANCELED', undefined, 'REPLACEMENT', 'DUPLICATED', 'DELETED', 'NEW'];
const STOP_RELATIONSHIP = ['SCHEDULED', 'SKIPPED', 'NO_DATA', 'UNSCHEDULED'];
const STOP_STATUS = ['INCOMING_AT', 'STOPPED_AT', 'IN_TRANSIT_TO'];
const CONGESTION = ['UNKNOWN_CONGESTION_LEVEL', 'RUNNING_SMOOTHLY', 'STOP_AND_GO', 'CONGESTION', 'SEVERE_CONGESTION'];
const OCCUPANCY = [
  'EMPTY',
  'MANY_SEATS_AVAILABLE',
  'FEW_SEATS_AVAILABLE',
  'STANDING_ROOM_ONLY',
  'CRUSHED_STANDING_ROOM_ONLY',
  'FULL',
  'NOT_ACCEPTING_PASSENGERS',
  'NO_DATA_AVAILABLE',
  'NOT_BOARDABLE',
];
const CAUSE = [
  undefined,
  'UNKNOWN_CAUSE',
  'OTHER_CAUSE',
  'TECHNICAL_PROBLEM',
  'STRIKE',
  'DEMONSTRATION',
  'ACCIDENT',
  'HOLIDAY',
  'WEATHER',
  'MAINTENANCE',
  'CONSTRUCTION',
  'POLICE_ACTIVITY',
  'MEDICAL_EMERGENCY',
];
const EFFECT = [
  undefined,
  'NO_SERVICE',
  'REDUCED_SERVICE',
  'SIGNIFICANT_DELAYS',
  'DETOUR',
  'ADDITIONAL_SERVICE',
  'MODIFIED_SERVICE',
  'OTHER_EFFECT',
  'UNKNOWN_EFFECT',
  'STOP_MOVED',
  'NO_EFFECT',
  'ACCESSIBILITY_ISSUE',
];
const INCREMENTALITY = ['FULL_DATASET', 'DIFFERENTIAL'];

/** The values of `pick` over `items`, those defined only (as the walker sees present fields only). */
function present<T, V>(items: T[], pick: (item: T) => V | undefined): V[] {
  return items.map(pick).filter((v): v is V => v !== undefined);
}

// ---------------------------------------------------------------------------------------------
// 1. Real captures

const RT = path.join(SHARED_DATA, 'rt');
const read = (file: string) => readFileSync(path.join(RT, file));

/** Every value of the TripUpdate fields decoded equals the raw walk's, in order. */
function assertTripUpdatesAsWalked(bytes: Uint8Array, feed: FeedMessage): void {
  const updates = present(feed.entities, (e) => e.tripUpdate);
  const stus = updates.flatMap((u) => u.stopTimeUpdates);
  const event = (which: 'arrival' | 'departure', field: keyof StopTimeEvent) => present(stus, (s) => s[which]?.[field]);
  const checks: Array<[string, unknown[], unknown[]]> = [
    ['entity.id', feed.entities.map((e) => e.id), strings(bytes, [2, 1])],
    ['trip_id', present(updates, (u) => u.trip.tripId), strings(bytes, [2, 3, 1, 1])],
    ['start_time', present(updates, (u) => u.trip.startTime), strings(bytes, [2, 3, 1, 2])],
    ['start_date', present(updates, (u) => u.trip.startDate), strings(bytes, [2, 3, 1, 3])],
    ['trip schedule_relationship', present(updates, (u) => u.trip.scheduleRelationship), ints(bytes, [2, 3, 1, 4]).map((n) => TRIP_RELATIONSHIP[n])],
    ['route_id', present(updates, (u) => u.trip.routeId), strings(bytes, [2, 3, 1, 5])],
    ['direction_id', present(updates, (u) => u.trip.directionId), ints(bytes, [2, 3, 1, 6])],
    ['vehicle.id', present(updates, (u) => u.vehicle?.id), strings(bytes, [2, 3, 3, 1])],
    ['vehicle.label', present(updates, (u) => u.vehicle?.label), strings(bytes, [2, 3, 3, 2])],
    ['vehicle.license_plate', present(updates, (u) => u.vehicle?.licensePlate), strings(bytes, [2, 3, 3, 3])],
    ['trip_update.timestamp', present(updates, (u) => u.timestamp), ints(bytes, [2, 3, 4])],
    ['trip_update.delay', present(updates, (u) => u.delay), ints(bytes, [2, 3, 5])],
    ['stop_sequence', present(stus, (s) => s.stopSequence), ints(bytes, [2, 3, 2, 1])],
    ['stop_id', present(stus, (s) => s.stopId), strings(bytes, [2, 3, 2, 4])],
    ['stop schedule_relationship', present(stus, (s) => s.scheduleRelationship), ints(bytes, [2, 3, 2, 5]).map((n) => STOP_RELATIONSHIP[n])],
    ['arrival.delay', event('arrival', 'delay'), ints(bytes, [2, 3, 2, 2, 1])],
    ['arrival.time', event('arrival', 'time'), ints(bytes, [2, 3, 2, 2, 2])],
    ['arrival.uncertainty', event('arrival', 'uncertainty'), ints(bytes, [2, 3, 2, 2, 3])],
    ['departure.delay', event('departure', 'delay'), ints(bytes, [2, 3, 2, 3, 1])],
    ['departure.time', event('departure', 'time'), ints(bytes, [2, 3, 2, 3, 2])],
    ['departure.uncertainty', event('departure', 'uncertainty'), ints(bytes, [2, 3, 2, 3, 3])],
  ];
  for (const [what, decoded, walked] of checks) assert.deepEqual(decoded, walked, what);
}

/** Every value of the VehiclePosition fields decoded equals the raw walk's, in order. */
function assertVehiclePositionsAsWalked(bytes: Uint8Array, feed: FeedMessage): void {
  const vps = present(feed.entities, (e) => e.vehicle);
  const checks: Array<[string, unknown[], unknown[]]> = [
    ['entity.id', feed.entities.map((e) => e.id), strings(bytes, [2, 1])],
    ['trip_id', present(vps, (v) => v.trip?.tripId), strings(bytes, [2, 4, 1, 1])],
    ['start_date', present(vps, (v) => v.trip?.startDate), strings(bytes, [2, 4, 1, 3])],
    ['route_id', present(vps, (v) => v.trip?.routeId), strings(bytes, [2, 4, 1, 5])],
    ['direction_id', present(vps, (v) => v.trip?.directionId), ints(bytes, [2, 4, 1, 6])],
    ['latitude', present(vps, (v) => v.position?.latitude), floats(bytes, [2, 4, 2, 1])],
    ['longitude', present(vps, (v) => v.position?.longitude), floats(bytes, [2, 4, 2, 2])],
    ['bearing', present(vps, (v) => v.position?.bearing), floats(bytes, [2, 4, 2, 3])],
    ['speed', present(vps, (v) => v.position?.speed), floats(bytes, [2, 4, 2, 5])],
    ['current_stop_sequence', present(vps, (v) => v.currentStopSequence), ints(bytes, [2, 4, 3])],
    ['current_status', present(vps, (v) => v.currentStatus), ints(bytes, [2, 4, 4]).map((n) => STOP_STATUS[n])],
    ['timestamp', present(vps, (v) => v.timestamp), ints(bytes, [2, 4, 5])],
    ['congestion_level', present(vps, (v) => v.congestionLevel), ints(bytes, [2, 4, 6]).map((n) => CONGESTION[n])],
    ['stop_id', present(vps, (v) => v.stopId), strings(bytes, [2, 4, 7])],
    ['vehicle.id', present(vps, (v) => v.vehicle?.id), strings(bytes, [2, 4, 8, 1])],
    ['vehicle.label', present(vps, (v) => v.vehicle?.label), strings(bytes, [2, 4, 8, 2])],
    ['occupancy_status', present(vps, (v) => v.occupancyStatus), ints(bytes, [2, 4, 9]).map((n) => OCCUPANCY[n])],
  ];
  for (const [what, decoded, walked] of checks) assert.deepEqual(decoded, walked, what);
}

function assertHeader(feed: FeedMessage, bytes: Uint8Array): void {
  assert.deepEqual(feed.header, {
    gtfsRealtimeVersion: strings(bytes, [1, 1])[0],
    incrementality: INCREMENTALITY[ints(bytes, [1, 2])[0]!],
    timestamp: ints(bytes, [1, 3])[0],
  });
}

describeOrSkip('BART trip updates 2019-08-07', SHARED_DATA_MISSING, () => {
  const bytes = read('bart/trip-updates-2019-08-07.pb');
  const feed = decodeFeedMessage(bytes);
  const updates = present(feed.entities, (e) => e.tripUpdate);

  test('counts of the data README: 91 TripUpdates, 1,060 StopTimeUpdates, 8 ADDED trips', () => {
    assert.equal(feed.entities.length, 91);
    assert.equal(updates.length, 91);
    assert.equal(updates.reduce((n, u) => n + u.stopTimeUpdates.length, 0), 1060);
    assert.equal(walk(bytes, [2, 3, 2]).length, 1060);
    const added = updates.filter((u) => u.trip.scheduleRelationship === 'ADDED').map((u) => u.trip.tripId);
    assert.deepEqual(added, ['1051042WKDY', '4511032WKDY', '5051026WKDY', '5131042WKDY', '5191044WKDY', '7731033WKDY', '9611018WKDY', '9121022WKDY']);
    assert.equal(updates.filter((u) => u.trip.scheduleRelationship === 'SCHEDULED').length, 83);
  });

  test('header', () => {
    assert.deepEqual(feed.header, { gtfsRealtimeVersion: '1.0', incrementality: 'FULL_DATASET', timestamp: 1565199921 });
  });

  test('first entity and the last (ADDED), field by field', () => {
    const first = feed.entities[0]!;
    assert.equal(first.id, '1011112WKDY');
    assert.deepEqual(first.tripUpdate!.trip, { tripId: '1011112WKDY', scheduleRelationship: 'SCHEDULED' });
    assert.equal(first.tripUpdate!.stopTimeUpdates.length, 19);
    assert.deepEqual(first.tripUpdate!.stopTimeUpdates[0], {
      stopSequence: 1,
      stopId: 'DALY',
      arrival: { delay: 29, time: 1565201526, uncertainty: 30 },
      departure: { delay: 29, time: 1565201626, uncertainty: 30 },
    });
    assert.deepEqual(first.tripUpdate!.stopTimeUpdates[18], {
      stopSequence: 19,
      stopId: 'FRMT',
      arrival: { delay: 0, time: 1565205480, uncertainty: 30 },
      departure: { delay: 0, time: 1565205504, uncertainty: 30 },
    });
    const expectedLast: FeedEntity = {
      id: '9121022WKDY',
      tripUpdate: {
        trip: { tripId: '9121022WKDY', scheduleRelationship: 'ADDED' },
        stopTimeUpdates: [
          {
            stopSequence: 7,
            stopId: 'CAST',
            arrival: { delay: 61, time: 1565200146, uncertainty: 30 },
            departure: { delay: 61, time: 1565200156, uncertainty: 30 },
          },
          {
            stopSequence: 8,
            stopId: 'WDUB',
            arrival: { delay: 62, time: 1565200733, uncertainty: 30 },
            departure: { delay: 62, time: 1565200743, uncertainty: 30 },
          },
        ],
      },
    };
    assert.deepEqual(feed.entities[90], expectedLast);
  });

  test('every field value as the raw walk reads it', () => {
    assertHeader(feed, bytes);
    assertTripUpdatesAsWalked(bytes, feed);
  });
});

describeOrSkip('BART alerts 2019-08-07', SHARED_DATA_MISSING, () => {
  const bytes = read('bart/alerts-2019-08-07.pb');
  const feed = decodeFeedMessage(bytes);

  test('one alert: agency BART, medical emergency, significant delays, a URL and a header text in en-US', () => {
    assert.deepEqual(feed.header, { gtfsRealtimeVersion: '1.0', incrementality: 'FULL_DATASET', timestamp: 1565199942 });
    const expected: FeedEntity[] = [
      {
        id: 'BSA_187874',
        alert: {
          activePeriods: [],
          informedEntities: [{ agencyId: 'BART' }],
          cause: 'MEDICAL_EMERGENCY',
          effect: 'SIGNIFICANT_DELAYS',
          url: { translations: [{ text: 'http://www.bart.gov/schedules/advisories', language: 'en-US' }] },
          headerText: {
            translations: [
              {
                text:
                  'There is a major delay at Montgomery St. on the San Francisco Line in the SFO, Millbrae, Daly City and East Bay ' +
                  'directions due to a major medical emergency. Montgomery station is currently closed.  Trains are not stopping at ' +
                  'Montgomery station. ',
                language: 'en-US',
              },
            ],
          },
        },
      },
    ];
    assert.deepEqual(feed.entities, expected);
  });

  test('as the raw walk reads it', () => {
    assertHeader(feed, bytes);
    assert.equal(walk(bytes, [2]).length, 1);
    const alert = feed.entities[0]!.alert!;
    assert.deepEqual([alert.cause, alert.effect], [CAUSE[ints(bytes, [2, 5, 6])[0]!], EFFECT[ints(bytes, [2, 5, 7])[0]!]]);
    assert.deepEqual(strings(bytes, [2, 5, 10, 1, 1]), [alert.headerText!.translations[0]!.text]);
    assert.deepEqual(strings(bytes, [2, 5, 8, 1, 1]), [alert.url!.translations[0]!.text]);
    assert.deepEqual(strings(bytes, [2, 5, 5, 1]), ['BART']);
    assert.deepEqual(walk(bytes, [2, 5, 11]), [], 'no description_text');
    assert.deepEqual(walk(bytes, [2, 5, 1]), [], 'no active_period');
  });
});

describeOrSkip('BART trip updates 2019-05-28', SHARED_DATA_MISSING, () => {
  const bytes = read('bart/trip-updates-2019-05-28.pb');
  const feed = decodeFeedMessage(bytes);
  const updates = present(feed.entities, (e) => e.tripUpdate);
  const stus = updates.flatMap((u) => u.stopTimeUpdates);

  test('counts of the data README: 26 TripUpdates, 298 StopTimeUpdates, each with delay and absolute time', () => {
    assert.equal(feed.entities.length, 26);
    assert.equal(updates.length, 26);
    assert.equal(stus.length, 298);
    for (const s of stus) {
      for (const event of [s.arrival, s.departure]) assert.ok(event?.delay !== undefined && event.time !== undefined, JSON.stringify(s));
    }
  });

  test('no schedule_relationship on the trips: undefined, not SCHEDULED', () => {
    assert.deepEqual(feed.entities[0]!.tripUpdate!.trip, { tripId: '2211905WKDY' });
    assert.ok(updates.every((u) => !('scheduleRelationship' in u.trip)));
    assert.deepEqual(feed.entities[0]!.tripUpdate!.stopTimeUpdates[0], {
      stopSequence: 9,
      stopId: '12TH',
      arrival: { delay: 6, time: 1559008883, uncertainty: 30 },
      departure: { delay: 6, time: 1559009114, uncertainty: 30 },
    });
  });

  test('every field value as the raw walk reads it', () => {
    assertHeader(feed, bytes);
    assertTripUpdatesAsWalked(bytes, feed);
  });
});

describeOrSkip('Caltrain 2023-11-08', SHARED_DATA_MISSING, () => {
  const tripUpdates = read('caltrain/trip-updates-2023-11-08.pb');
  const positions = read('caltrain/vehicle-positions-2023-11-08.pb');
  const alerts = read('caltrain/service-alerts-empty-2023-11-08.pb');

  test('trip updates, counts of the data README: 19 TripUpdates, 220 StopTimeUpdates, absolute times only, start_date 20231107', () => {
    const feed = decodeFeedMessage(tripUpdates);
    const updates = present(feed.entities, (e) => e.tripUpdate);
    const stus = updates.flatMap((u) => u.stopTimeUpdates);
    assert.equal(updates.length, 19);
    assert.equal(stus.length, 220);
    assert.ok(stus.every((s) => s.arrival?.delay === undefined && s.departure?.delay === undefined));
    assert.ok(stus.every((s) => s.arrival?.time !== undefined || s.departure?.time !== undefined));
    assert.deepEqual(new Set(updates.map((u) => u.trip.startDate)), new Set(['20231107']));
    // 01:05 UTC on the 8th is still the 7th in California
    assert.equal(new Date(feed.header.timestamp! * 1000).toISOString(), '2023-11-08T01:05:34.000Z');
  });

  test('trip updates, first entity: full trip descriptor, empty vehicle label and plate kept as ""', () => {
    const feed = decodeFeedMessage(tripUpdates);
    const first = feed.entities[0]!;
    assert.deepEqual({ ...first, tripUpdate: { ...first.tripUpdate!, stopTimeUpdates: first.tripUpdate!.stopTimeUpdates.slice(0, 2) } }, {
      id: '124',
      tripUpdate: {
        trip: { tripId: '124', startTime: '15:37:00', startDate: '20231107', scheduleRelationship: 'SCHEDULED', routeId: 'L1', directionId: 1 },
        vehicle: { id: '124', label: '', licensePlate: '' },
        timestamp: 1699405520,
        stopTimeUpdates: [
          // the first stop: a departure only
          { stopSequence: 20, stopId: '70232', departure: { time: 1699405504 }, scheduleRelationship: 'SCHEDULED' },
          { stopSequence: 21, stopId: '70242', arrival: { time: 1699405801 }, departure: { time: 1699405801 }, scheduleRelationship: 'SCHEDULED' },
        ],
      },
    });
    assert.equal(first.tripUpdate!.stopTimeUpdates.length, 4);
  });

  test('trip updates, every field value as the raw walk reads it', () => {
    const feed = decodeFeedMessage(tripUpdates);
    assertHeader(feed, tripUpdates);
    assertTripUpdatesAsWalked(tripUpdates, feed);
  });

  test('vehicle positions: 14, the first field by field, every field value as the raw walk reads it', () => {
    const feed = decodeFeedMessage(positions);
    assert.equal(feed.entities.length, 14);
    assert.equal(present(feed.entities, (e) => e.vehicle).length, 14);
    assert.deepEqual(feed.entities[0], {
      id: '124',
      vehicle: {
        trip: { tripId: '124', routeId: 'L1', directionId: 1 },
        position: { latitude: 37.370460510253906, longitude: -121.99604034423828 },
        timestamp: 1699405549,
        vehicle: { id: '124', label: '', licensePlate: '' },
      },
    });
    assertHeader(feed, positions);
    assertVehiclePositionsAsWalked(positions, feed);
  });

  test('service alerts: a valid feed with 0 entities', () => {
    const feed = decodeFeedMessage(alerts);
    assert.deepEqual(feed, { header: { gtfsRealtimeVersion: '1.0', incrementality: 'FULL_DATASET', timestamp: 1699405546 }, entities: [] });
  });
});

describeOrSkip('King County Metro vehicle positions 2021-09-02', SHARED_DATA_MISSING, () => {
  for (const [file, count] of [
    ['vehicle-positions-2021-09-02T1531Z.pb', 627],
    ['vehicle-positions-2021-09-02T1608Z.pb', 570],
  ] as const) {
    test(`${file}: ${count} VehiclePositions, GTFS-RT version 2.0, every field value as the raw walk reads it`, () => {
      const bytes = read(`king-county-metro/${file}`);
      const feed = decodeFeedMessage(bytes);
      assert.equal(feed.entities.length, count);
      assert.equal(present(feed.entities, (e) => e.vehicle).length, count);
      assert.equal(feed.header.gtfsRealtimeVersion, '2.0');
      assertHeader(feed, bytes);
      assertVehiclePositionsAsWalked(bytes, feed);
    });
  }

  test('T1531Z: a vehicle stopped at its stop (bearing, speed), and one incoming (status 0, present)', () => {
    const feed = decodeFeedMessage(read('king-county-metro/vehicle-positions-2021-09-02T1531Z.pb'));
    assert.deepEqual(feed.entities[457], {
      id: '1630596716_407',
      vehicle: {
        trip: { tripId: '40802588', startDate: '20210902', routeId: '100340', directionId: 1 },
        position: { latitude: 47.623775482177734, longitude: -122.3385009765625, bearing: 181, speed: 8 },
        currentStopSequence: 25,
        currentStatus: 'STOPPED_AT',
        timestamp: 1630596700,
        stopId: '26641',
        vehicle: { id: '407', label: '407' },
      },
    });
    assert.equal(feed.entities[582]!.id, '1630596716_401');
    assert.equal(feed.entities[582]!.vehicle!.currentStatus, 'INCOMING_AT');
    assert.equal(feed.entities[0]!.vehicle!.currentStatus, undefined);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. A message written here


/** year 9999: a timestamp of 38 bits */
const FAR = 253402300799;
/** StopTimeEvent {delay: -90, uncertainty: 30} written by hand: -90 is the 10-byte varint of its 64-bit two's complement */
const EARLY_EVENT = Uint8Array.of(0x08, 0xa6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x18, 0x1e);

/** Fields the decoder must skip: an extension varint, a length-delimited field, a fixed32 and a fixed64. */
function unknownFields(pbf: PbfWriter): void {
  pbf.writeVarintField(1000, 7);
  pbf.writeStringField(9000, 'experimental');
  pbf.writeFixed32Field(1001, 0xdeadbeef);
  pbf.writeDoubleField(9999, 1.5);
}

const SYNTHETIC = encode((pbf) => {
  message(pbf, 1, (h) => {
    h.writeStringField(1, '2.0');
    h.writeVarintField(2, 1);
    h.writeVarintField(3, FAR);
    h.writeStringField(4, 'feed-version-7'); // feed_version: a field of the reference the decoder does not read
    unknownFields(h);
  });
  unknownFields(pbf);
  message(pbf, 2, (e) => {
    e.writeStringField(1, 'tu-1');
    message(e, 3, (u) => {
      message(u, 1, (t) => {
        t.writeStringField(1, 't1');
        t.writeStringField(2, '25:10:00');
        t.writeStringField(3, '20240229');
        t.writeVarintField(4, 5);
        t.writeStringField(5, 'r1');
        t.writeVarintField(6, 1);
        unknownFields(t);
      });
      message(u, 2, (s) => {
        s.writeVarintField(1, 1);
        s.writeBytesField(2, EARLY_EVENT);
        message(s, 3, (d) => {
          d.writeVarintField(1, -2147483648);
          d.writeVarintField(2, FAR);
          d.writeVarintField(3, 0);
        });
        s.writeStringField(4, 'S1');
        s.writeVarintField(5, 0);
        message(s, 6, (props) => props.writeStringField(1, 'S1-bis')); // stop_time_properties: not read
        unknownFields(s);
      });
      message(u, 2, (s) => {
        s.writeVarintField(1, 2);
        s.writeVarintField(5, 1);
      });
      message(u, 2, (s) => {
        s.writeStringField(4, 'S3');
        s.writeVarintField(5, 2);
      });
      message(u, 2, (s) => {
        s.writeVarintField(1, 4);
        message(s, 3, (d) => d.writeVarintField(2, 1709253600));
        s.writeVarintField(5, 3);
      });
      message(u, 3, (v) => {
        v.writeStringField(1, 'v1');
        v.writeStringField(2, 'Bus 12');
        v.writeStringField(3, 'AB-123-CD');
        v.writeVarintField(4, 2); // wheelchair_accessible: not read
      });
      u.writeVarintField(4, 1709250000);
      u.writeVarintField(5, -300);
      message(u, 6, (props) => props.writeStringField(1, 't1-bis')); // trip_properties: not read
      unknownFields(u);
    });
    unknownFields(e);
  });
  message(pbf, 2, (e) => {
    e.writeStringField(1, 'vp-1');
    e.writeBooleanField(2, false);
    message(e, 4, (v) => {
      message(v, 1, (t) => {
        t.writeStringField(1, 't2');
        t.writeVarintField(4, 6);
      });
      message(v, 2, (x) => {
        x.writeFloatField(1, 48.8566);
        x.writeFloatField(2, 2.3522);
        x.writeFloatField(3, 90.5);
        x.writeDoubleField(4, 12345.678);
        x.writeFloatField(5, 12.25);
        unknownFields(x);
      });
      v.writeVarintField(3, 7);
      v.writeVarintField(4, 1);
      v.writeVarintField(5, 1709250100);
      v.writeVarintField(6, 2);
      v.writeStringField(7, 'S7');
      message(v, 8, (d) => d.writeStringField(1, 'v2'));
      v.writeVarintField(9, 2);
      v.writeVarintField(10, 55); // occupancy_percentage: not read
      unknownFields(v);
    });
  });
  message(pbf, 2, (e) => {
    e.writeStringField(1, 'al-1');
    message(e, 5, (a) => {
      message(a, 1, (r) => {
        r.writeVarintField(1, 1709250000);
        r.writeVarintField(2, FAR);
      });
      message(a, 1, (r) => r.writeVarintField(2, 1709300000));
      message(a, 5, (s) => s.writeStringField(1, 'A'));
      message(a, 5, (s) => {
        s.writeStringField(2, 'r1');
        s.writeVarintField(3, 3);
        s.writeVarintField(6, 0);
      });
      message(a, 5, (s) => message(s, 4, (t) => t.writeStringField(1, 't1')));
      message(a, 5, (s) => {
        s.writeStringField(5, 'S1');
        unknownFields(s);
      });
      a.writeVarintField(6, 4);
      a.writeVarintField(7, 2);
      message(a, 8, (u) => message(u, 1, (t) => t.writeStringField(1, 'https://example.org/greve')));
      message(a, 10, (h) => {
        message(h, 1, (t) => {
          t.writeStringField(1, 'Grève');
          t.writeStringField(2, 'fr');
        });
        message(h, 1, (t) => {
          t.writeStringField(1, 'Strike');
          t.writeStringField(2, 'en');
          unknownFields(t);
        });
      });
      message(a, 11, (d) => {
        message(d, 1, (t) => {
          t.writeStringField(1, 'Aucun métro aujourd’hui.');
          t.writeStringField(2, 'fr');
        });
        message(d, 1, (t) => {
          t.writeStringField(1, 'No metro today.');
          t.writeStringField(2, 'en');
        });
      });
      a.writeVarintField(14, 3); // severity_level: not read
      unknownFields(a);
    });
  });
  message(pbf, 2, (e) => {
    e.writeStringField(1, 'gone');
    e.writeBooleanField(2, true);
  });
  message(pbf, 2, (e) => {
    e.writeStringField(1, 'tu-2');
    message(e, 3, (u) => message(u, 1, () => {}));
  });
});

const EXPECTED: FeedMessage = {
  header: { gtfsRealtimeVersion: '2.0', incrementality: 'DIFFERENTIAL', timestamp: FAR },
  entities: [
    {
      id: 'tu-1',
      tripUpdate: {
        trip: { tripId: 't1', startTime: '25:10:00', startDate: '20240229', scheduleRelationship: 'REPLACEMENT', routeId: 'r1', directionId: 1 },
        stopTimeUpdates: [
          {
            stopSequence: 1,
            arrival: { delay: -90, uncertainty: 30 },
            departure: { delay: -2147483648, time: FAR, uncertainty: 0 },
            stopId: 'S1',
            scheduleRelationship: 'SCHEDULED',
          },
          { stopSequence: 2, scheduleRelationship: 'SKIPPED' },
          { stopId: 'S3', scheduleRelationship: 'NO_DATA' },
          { stopSequence: 4, departure: { time: 1709253600 }, scheduleRelationship: 'UNSCHEDULED' },
        ],
        vehicle: { id: 'v1', label: 'Bus 12', licensePlate: 'AB-123-CD' },
        timestamp: 1709250000,
        delay: -300,
      },
    },
    {
      id: 'vp-1',
      isDeleted: false,
      vehicle: {
        trip: { tripId: 't2', scheduleRelationship: 'DUPLICATED' },
        // floats are single precision: the double of the nearest float
        position: { latitude: Math.fround(48.8566), longitude: Math.fround(2.3522), bearing: 90.5, odometer: 12345.678, speed: 12.25 },
        currentStopSequence: 7,
        currentStatus: 'STOPPED_AT',
        timestamp: 1709250100,
        congestionLevel: 'STOP_AND_GO',
        stopId: 'S7',
        vehicle: { id: 'v2' },
        occupancyStatus: 'FEW_SEATS_AVAILABLE',
      },
    },
    {
      id: 'al-1',
      alert: {
        activePeriods: [{ start: 1709250000, end: FAR }, { end: 1709300000 }],
        informedEntities: [{ agencyId: 'A' }, { routeId: 'r1', routeType: 3, directionId: 0 }, { trip: { tripId: 't1' } }, { stopId: 'S1' }],
        cause: 'STRIKE',
        effect: 'REDUCED_SERVICE',
        url: { translations: [{ text: 'https://example.org/greve' }] },
        headerText: {
          translations: [
            { text: 'Grève', language: 'fr' },
            { text: 'Strike', language: 'en' },
          ],
        },
        descriptionText: {
          translations: [
            { text: 'Aucun métro aujourd’hui.', language: 'fr' },
            { text: 'No metro today.', language: 'en' },
          ],
        },
      },
    },
    { id: 'gone', isDeleted: true },
    { id: 'tu-2', tripUpdate: { trip: {}, stopTimeUpdates: [] } },
  ],
};

describe('a message written with PbfWriter', () => {
  test('every field read, negative int32 and 64-bit values, two languages, unknown fields skipped, a deleted entity', () => {
    assert.deepEqual(decodeFeedMessage(SYNTHETIC), EXPECTED);
  });

  test('the hand-written -90 is what PbfWriter writes, and would read 2^64 - 90 unsigned', () => {
    assert.deepEqual(
      EARLY_EVENT.subarray(0, 11),
      encode((pbf) => pbf.writeVarintField(1, -90)),
    );
    assert.equal(rawFields(EARLY_EVENT)[0]!.varint, -90n);
  });

  test('the same bytes in a larger buffer (a Buffer slice with an offset) decode the same', () => {
    const big = Buffer.alloc(SYNTHETIC.length + 20, 0xff);
    big.set(SYNTHETIC, 7);
    assert.deepEqual(decodeFeedMessage(big.subarray(7, 7 + SYNTHETIC.length)), EXPECTED);
  });

  /** A feed of one entity whose TripUpdate, VehiclePosition and Alert carry the enum number `n` in every enum field. */
  const enumFeed = (n: number) =>
    decodeFeedMessage(
      encode((pbf) => {
        message(pbf, 1, (h) => {
          h.writeStringField(1, '2.0');
          h.writeVarintField(2, n);
        });
        message(pbf, 2, (e) => {
          e.writeStringField(1, 'e');
          message(e, 3, (u) => {
            message(u, 1, (t) => t.writeVarintField(4, n));
            message(u, 2, (s) => s.writeVarintField(5, n));
          });
          message(e, 4, (v) => {
            v.writeVarintField(4, n);
            v.writeVarintField(6, n);
            v.writeVarintField(9, n);
          });
          message(e, 5, (a) => {
            a.writeVarintField(6, n);
            a.writeVarintField(7, n);
          });
        });
      }),
    );

  test('each enum number to its name in the reference; a number it does not name, left out', () => {
    for (let n = -1; n <= 13; n++) {
      const feed = enumFeed(n);
      const { tripUpdate, vehicle, alert } = feed.entities[0]!;
      const slots: Array<[object, string, string | undefined]> = [
        [feed.header, 'incrementality', INCREMENTALITY[n]],
        [tripUpdate!.trip, 'scheduleRelationship', TRIP_RELATIONSHIP[n]],
        [tripUpdate!.stopTimeUpdates[0]!, 'scheduleRelationship', STOP_RELATIONSHIP[n]],
        [vehicle!, 'currentStatus', STOP_STATUS[n]],
        [vehicle!, 'congestionLevel', CONGESTION[n]],
        [vehicle!, 'occupancyStatus', OCCUPANCY[n]],
        [alert!, 'cause', CAUSE[n]],
        [alert!, 'effect', EFFECT[n]],
      ];
      for (const [object, key, name] of slots) {
        if (name === undefined) assert.ok(!(key in object), `${key} ${n}: left out`);
        else assert.equal((object as Record<string, unknown>)[key], name, `${key} ${n}`);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Broken bytes

/** `bytes` throw a GtfsRealtimeError, with `message` if given. */
const fails = (bytes: Uint8Array, message?: string | RegExp, what = '') =>
  assert.throws(
    () => decodeFeedMessage(bytes),
    (e: unknown) => {
      assert.ok(e instanceof GtfsRealtimeError, `${what}: a GtfsRealtimeError, not ${String(e)}`);
      assert.equal(e.name, 'GtfsRealtimeError');
      if (typeof message === 'string') assert.equal(e.message, message, what);
      else if (message) assert.match(e.message, message, what);
      return true;
    },
  );

describe('broken bytes throw GtfsRealtimeError', () => {
  test('an empty buffer: no header', () => {
    fails(new Uint8Array(0), 'GTFS-Realtime: FeedMessage without a header (0 bytes)');
  });

  test('entities without a header', () => {
    fails(
      encode((pbf) => message(pbf, 2, (e) => e.writeStringField(1, 'x'))),
      'GTFS-Realtime: FeedMessage without a header (5 bytes)',
    );
  });

  test('every cut of the BART alert, except at the end of the header, a valid feed of 0 entities', { skip: SHARED_DATA_MISSING }, () => {
    const bytes = read('bart/alerts-2019-08-07.pb');
    const [header, entity] = rawFields(bytes);
    assert.ok(header && entity && header.field === 1 && entity.field === 2 && entity.end === bytes.length);
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.subarray(0, n);
      if (n === header.end) assert.deepEqual(decodeFeedMessage(cut), { header: decodeFeedMessage(bytes).header, entities: [] });
      else fails(cut, n < header.end ? /truncated|without a header/ : /truncated/);
    }
  });

  test('cuts of the BART trip updates name the message cut and where it starts', { skip: SHARED_DATA_MISSING }, () => {
    const bytes = read('bart/trip-updates-2019-08-07.pb');
    const last = rawFields(bytes).at(-1)!;
    const length = last.bytes.length;
    const at = last.end - length - 1 - (length >= 128 ? 1 : 0); // the entity's length: a varint of 1 or 2 bytes
    fails(
      bytes.subarray(0, bytes.length - 1),
      `GTFS-Realtime: FeedMessage.2 > FeedEntity at byte ${at}: truncated, ${length} bytes long but ${length - 1} left`,
    );
    for (const n of [1, 2, 10, 1000, 20000, bytes.length - 5]) fails(bytes.subarray(0, n), /truncated/);
  });

  test('malformed messages, with what failed and where', () => {
    /** A valid header (7 bytes), then `write`. */
    const afterHeader = (write: Write) => (pbf: PbfWriter) => {
      message(pbf, 1, (h) => h.writeStringField(1, '2.0'));
      write(pbf);
    };
    /** An entity with an id, then `write` inside. */
    const inEntity = (write: Write) =>
      afterHeader((pbf) =>
        message(pbf, 2, (e) => {
          e.writeStringField(1, 'x');
          write(e);
        }),
      );
    const cases: Array<[string, Write, string]> = [
      [
        'header version as a varint',
        (pbf) => message(pbf, 1, (h) => h.writeVarintField(1, 2)),
        'FeedMessage.1 > FeedHeader.1: a string with wire type 0 instead of 2 (byte 3)',
      ],
      ['header as a varint', (pbf) => pbf.writeVarintField(1, 5), 'FeedMessage.1: FeedHeader with wire type 0 instead of 2 (byte 1)'],
      [
        'header without its version',
        (pbf) => message(pbf, 1, (h) => h.writeVarintField(3, 1)),
        'FeedMessage.1: FeedHeader without gtfs_realtime_version (required)',
      ],
      [
        'entity without id',
        afterHeader((pbf) => message(pbf, 2, (e) => e.writeBooleanField(2, true))),
        'FeedMessage.2: FeedEntity without id (required)',
      ],
      [
        'trip update without trip',
        inEntity((e) => message(e, 3, (u) => u.writeVarintField(5, 60))),
        'FeedMessage.2 > FeedEntity.3: TripUpdate without trip (required)',
      ],
      [
        'position without longitude',
        inEntity((e) => message(e, 4, (v) => message(v, 2, (x) => x.writeFloatField(1, 1)))),
        'FeedMessage.2 > FeedEntity.4 > VehiclePosition.2: Position without longitude (required)',
      ],
      [
        'latitude as a double',
        inEntity((e) => message(e, 4, (v) => message(v, 2, (x) => x.writeDoubleField(1, 1)))),
        'FeedMessage.2 > FeedEntity.4 > VehiclePosition.2 > Position.1: a float with wire type 1 instead of 5 (byte 17)',
      ],
      ['field number 0', afterHeader((pbf) => pbf.writeVarintField(0, 1)), 'FeedMessage: invalid field number 0 before byte 8'],
      ['wire type 3 (a group)', afterHeader((pbf) => pbf.writeTag(20, 3)), 'FeedMessage.20: Unimplemented type: 3 (byte 9)'],
    ];
    for (const [what, write, expected] of cases) fails(encode(write), `GTFS-Realtime: ${expected}`, what);
  });

  test('a message longer than the one around it', () => {
    // a FeedHeader of 4 bytes whose string says 5
    fails(
      Uint8Array.of(0x0a, 0x04, 0x0a, 0x05, 0x32, 0x2e, 0x30, 0x30, 0x30),
      'GTFS-Realtime: FeedMessage.1 > FeedHeader: field 1 ends at byte 9, past the end of the message (byte 6)',
    );
  });

  test('random bytes (seeded), text and JSON', () => {
    const random = mulberry32(20231108);
    for (let k = 0; k < 500; k++) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256));
      fails(bytes);
    }
    fails(new TextEncoder().encode('Service Unavailable'));
    fails(new TextEncoder().encode(JSON.stringify({ header: { gtfs_realtime_version: '2.0' }, entity: [] })));
  });
});

describeOrSkip('decoding a slice at a time', SHARED_DATA_MISSING, () => {
  const captures = ['bart/trip-updates-2019-08-07.pb', 'bart/alerts-2019-08-07.pb', 'caltrain/vehicle-positions-2023-11-08.pb', 'king-county-metro/vehicle-positions-2021-09-02T1531Z.pb'];

  test('the same message as a decoding in one go, whatever the slice size', async () => {
    for (const name of captures) {
      const bytes = read(name);
      const whole = decodeFeedMessage(bytes);
      for (const slice of [1, 100, 4096, 1 << 18]) assert.deepEqual(await decodeFeedMessageInSlices(bytes, slice), whole, `${name}, slices of ${slice}`);
    }
  });

  test('the same errors, at the same bytes, on every cut and on garbage', async () => {
    const bytes = read('bart/alerts-2019-08-07.pb');
    const messageOf = async (run: () => unknown) => {
      try {
        await run();
        return 'decoded';
      } catch (e) {
        return e instanceof GtfsRealtimeError ? e.message : `not a GtfsRealtimeError: ${String(e)}`;
      }
    };
    const random = mulberry32(3);
    const inputs = [...Array.from({ length: bytes.length }, (_, n) => bytes.subarray(0, n)), ...Array.from({ length: 50 }, () => Uint8Array.from({ length: 64 }, () => Math.floor(random() * 256)))];
    for (const input of inputs) {
      assert.equal(await messageOf(() => decodeFeedMessageInSlices(input, 16)), await messageOf(() => decodeFeedMessage(input)));
    }
  });

  test('a large message gives the event loop a turn between slices', async () => {
    const bytes = read('king-county-metro/vehicle-positions-2021-09-02T1531Z.pb');
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    await decodeFeedMessageInSlices(bytes, 4096);
    running = false;
    const slices = Math.ceil(bytes.length / 4096);
    assert.ok(turns >= slices / 2, `${turns} turns of the loop for ${slices} slices`);
  });
});
