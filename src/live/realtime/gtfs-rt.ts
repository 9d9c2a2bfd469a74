/**
 * GTFS-Realtime: our own decoder of a FeedMessage on `pbf` (protobuf fields), to plain objects.
 *
 *   FeedMessage = header (1, required), entity* (2)
 *   FeedEntity  = id (1, required), is_deleted (2), trip_update (3), vehicle (4), alert (5)
 *
 * Field numbers and types are those of the GTFS-Realtime reference (gtfs-realtime.proto, proto2).
 * Only the fields below are read; any other field (newer fields, extensions) is skipped.
 * An absent field stays undefined, whatever default the reference gives it (e.g. FULL_DATASET,
 * IN_TRANSIT_TO); an enum number the reference does not name is skipped like an unknown field, as
 * proto2 does. A field given twice keeps its last value.
 *
 * Anything truncated or malformed throws a GtfsRealtimeError that says where, as the path of
 * messages and field numbers down to the fault: "FeedMessage.2 > FeedEntity.3 > TripUpdate: …".
 * Fields the reference marks required (the header and its version, entity ids, a trip update's
 * trip, a position's coordinates, a translation's text) are required here too.
 */
import { PbfReader } from 'pbf';

// ---------------------------------------------------------------------------------------------
// Types

export type Incrementality = 'FULL_DATASET' | 'DIFFERENTIAL';
export type TripScheduleRelationship = 'SCHEDULED' | 'ADDED' | 'UNSCHEDULED' | 'CANCELED' | 'REPLACEMENT' | 'DUPLICATED' | 'DELETED' | 'NEW';
export type StopTimeScheduleRelationship = 'SCHEDULED' | 'SKIPPED' | 'NO_DATA' | 'UNSCHEDULED';
export type VehicleStopStatus = 'INCOMING_AT' | 'STOPPED_AT' | 'IN_TRANSIT_TO';
export type CongestionLevel = 'UNKNOWN_CONGESTION_LEVEL' | 'RUNNING_SMOOTHLY' | 'STOP_AND_GO' | 'CONGESTION' | 'SEVERE_CONGESTION';
export type OccupancyStatus =
  | 'EMPTY'
  | 'MANY_SEATS_AVAILABLE'
  | 'FEW_SEATS_AVAILABLE'
  | 'STANDING_ROOM_ONLY'
  | 'CRUSHED_STANDING_ROOM_ONLY'
  | 'FULL'
  | 'NOT_ACCEPTING_PASSENGERS'
  | 'NO_DATA_AVAILABLE'
  | 'NOT_BOARDABLE';
/** GTFS-Realtime's Alert causes, in the order of their numbers in the protocol (from 1). */
export const ALERT_CAUSES = [
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
] as const;
export type AlertCause = (typeof ALERT_CAUSES)[number];
/** GTFS-Realtime's Alert effects, in the order of their numbers in the protocol (from 1). */
export const ALERT_EFFECTS = [
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
] as const;
export type AlertEffect = (typeof ALERT_EFFECTS)[number];

export interface FeedMessage {
  header: FeedHeader;
  entities: FeedEntity[];
}

export interface FeedHeader {
  gtfsRealtimeVersion: string;
  incrementality?: Incrementality;
  /** POSIX seconds */
  timestamp?: number;
}

export interface FeedEntity {
  id: string;
  isDeleted?: boolean;
  tripUpdate?: TripUpdate;
  vehicle?: VehiclePosition;
  alert?: Alert;
}

export interface TripDescriptor {
  tripId?: string;
  routeId?: string;
  directionId?: number;
  /** HH:MM:SS */
  startTime?: string;
  /** YYYYMMDD */
  startDate?: string;
  scheduleRelationship?: TripScheduleRelationship;
}

export interface VehicleDescriptor {
  id?: string;
  label?: string;
  licensePlate?: string;
}

export interface TripUpdate {
  trip: TripDescriptor;
  vehicle?: VehicleDescriptor;
  stopTimeUpdates: StopTimeUpdate[];
  /** POSIX seconds */
  timestamp?: number;
  /** seconds, negative when early */
  delay?: number;
}

export interface StopTimeEvent {
  /** seconds, negative when early */
  delay?: number;
  /** POSIX seconds */
  time?: number;
  uncertainty?: number;
}

export interface StopTimeUpdate {
  stopSequence?: number;
  stopId?: string;
  arrival?: StopTimeEvent;
  departure?: StopTimeEvent;
  scheduleRelationship?: StopTimeScheduleRelationship;
}

export interface VehiclePosition {
  trip?: TripDescriptor;
  vehicle?: VehicleDescriptor;
  position?: Position;
  currentStopSequence?: number;
  stopId?: string;
  currentStatus?: VehicleStopStatus;
  /** POSIX seconds */
  timestamp?: number;
  congestionLevel?: CongestionLevel;
  occupancyStatus?: OccupancyStatus;
}

/** Latitude, longitude, bearing and speed are floats (single precision), the odometer a double. */
export interface Position {
  latitude: number;
  longitude: number;
  /** degrees clockwise from north */
  bearing?: number;
  /** meters */
  odometer?: number;
  /** meters per second */
  speed?: number;
}

export interface Alert {
  activePeriods: TimeRange[];
  informedEntities: EntitySelector[];
  cause?: AlertCause;
  effect?: AlertEffect;
  url?: TranslatedString;
  headerText?: TranslatedString;
  descriptionText?: TranslatedString;
}

/** POSIX seconds; a missing bound is open. */
export interface TimeRange {
  start?: number;
  end?: number;
}

export interface EntitySelector {
  agencyId?: string;
  routeId?: string;
  routeType?: number;
  directionId?: number;
  trip?: TripDescriptor;
  stopId?: string;
}

export interface TranslatedString {
  translations: Translation[];
}

export interface Translation {
  text: string;
  /** BCP-47 */
  language?: string;
}

/** The bytes are not a GTFS-Realtime FeedMessage: truncated, malformed, or without a required field. */
export class GtfsRealtimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GtfsRealtimeError';
  }
}

// ---------------------------------------------------------------------------------------------
// Enums, indexed by their number in the reference (null: a number it does not use)

const INCREMENTALITY: readonly Incrementality[] = ['FULL_DATASET', 'DIFFERENTIAL'];
const TRIP_RELATIONSHIP: readonly (TripScheduleRelationship | null)[] = [
  'SCHEDULED',
  'ADDED',
  'UNSCHEDULED',
  'CANCELED',
  null,
  'REPLACEMENT',
  'DUPLICATED',
  'DELETED',
  'NEW',
];
const STOP_RELATIONSHIP: readonly StopTimeScheduleRelationship[] = ['SCHEDULED', 'SKIPPED', 'NO_DATA', 'UNSCHEDULED'];
const STOP_STATUS: readonly VehicleStopStatus[] = ['INCOMING_AT', 'STOPPED_AT', 'IN_TRANSIT_TO'];
const CONGESTION: readonly CongestionLevel[] = ['UNKNOWN_CONGESTION_LEVEL', 'RUNNING_SMOOTHLY', 'STOP_AND_GO', 'CONGESTION', 'SEVERE_CONGESTION'];
const OCCUPANCY: readonly OccupancyStatus[] = [
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
const CAUSE: readonly (AlertCause | null)[] = [null, ...ALERT_CAUSES];
const EFFECT: readonly (AlertEffect | null)[] = [null, ...ALERT_EFFECTS];

// ---------------------------------------------------------------------------------------------
// Decoding

/** The FeedMessage in `bytes` (a whole protobuf message, as served by a GTFS-Realtime feed). */
export function decodeFeedMessage(bytes: Uint8Array): FeedMessage {
  const p = new PbfReader(bytes);
  const feed: { header?: FeedHeader; entities: FeedEntity[] } = { entities: [] };
  try {
    fields(p, 'FeedMessage', bytes.length, feed, (tag, m, q) => {
      if (tag === 1) m.header = readHeader(q);
      else if (tag === 2) m.entities.push(readEntity(q));
    });
  } catch (e) {
    throw new GtfsRealtimeError(`GTFS-Realtime: ${(e as Error).message}`);
  }
  if (!feed.header) throw new GtfsRealtimeError(`GTFS-Realtime: FeedMessage without a header (${bytes.length} bytes)`);
  return { header: feed.header, entities: feed.entities };
}

/**
 * `decodeFeedMessage`, a slice at a time: the message's top-level fields are decoded about
 * `sliceBytes` at a time, each slice in one turn of the event loop, so that a feed of a hundred
 * megabytes never holds the loop for more than a few milliseconds. The same message and the same
 * errors as `decodeFeedMessage`.
 */
export async function decodeFeedMessageInSlices(bytes: Uint8Array, sliceBytes = 1 << 15): Promise<FeedMessage> {
  const p = new PbfReader(bytes);
  const feed: { header?: FeedHeader; entities: FeedEntity[] } = { entities: [] };
  const read: FieldReader<typeof feed> = (tag, m, q) => {
    if (tag === 1) m.header = readHeader(q);
    else if (tag === 2) m.entities.push(readEntity(q));
  };
  let start = 0;
  while (start < bytes.length) {
    let end = start;
    while (end < bytes.length && end - start < sliceBytes) end = topLevelFieldEnd(bytes, end);
    p.pos = start;
    try {
      fields(p, 'FeedMessage', end, feed, read);
    } catch (e) {
      throw new GtfsRealtimeError(`GTFS-Realtime: ${(e as Error).message}`);
    }
    start = end;
    if (start < bytes.length) await new Promise((resolve) => setImmediate(resolve));
  }
  if (!feed.header) throw new GtfsRealtimeError(`GTFS-Realtime: FeedMessage without a header (${bytes.length} bytes)`);
  return { header: feed.header, entities: feed.entities };
}

/** Where the field starting at `at` ends, for slicing only: the end of the bytes when it cannot tell (the decoding then says what is wrong). */
function topLevelFieldEnd(bytes: Uint8Array, at: number): number {
  let pos = at;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; shift < 49; shift += 7) {
      if (pos >= bytes.length) return -1;
      const b = bytes[pos++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    return -1;
  };
  const key = varint();
  if (key < 0) return bytes.length;
  let end: number;
  switch (key % 8) {
    case 0:
      end = varint() < 0 ? bytes.length : pos;
      break;
    case 1:
      end = pos + 8;
      break;
    case 2: {
      const length = varint();
      end = length < 0 ? bytes.length : pos + length;
      break;
    }
    case 5:
      end = pos + 4;
      break;
    default:
      return bytes.length;
  }
  return Math.min(end, bytes.length);
}

function readHeader(p: PbfReader): FeedHeader {
  const h = message(p, 'FeedHeader', {} as Partial<FeedHeader>, (tag, h, q) => {
    if (tag === 1) h.gtfsRealtimeVersion = str(q);
    else if (tag === 2) setEnum(h, 'incrementality', q, INCREMENTALITY);
    else if (tag === 3) h.timestamp = uint(q);
  });
  required(h.gtfsRealtimeVersion, 'FeedHeader', 'gtfs_realtime_version');
  return h as FeedHeader;
}

function readEntity(p: PbfReader): FeedEntity {
  const e = message(p, 'FeedEntity', {} as Partial<FeedEntity>, (tag, e, q) => {
    if (tag === 1) e.id = str(q);
    else if (tag === 2) e.isDeleted = bool(q);
    else if (tag === 3) e.tripUpdate = readTripUpdate(q);
    else if (tag === 4) e.vehicle = readVehiclePosition(q);
    else if (tag === 5) e.alert = readAlert(q);
  });
  required(e.id, 'FeedEntity', 'id');
  return e as FeedEntity;
}

function readTripUpdate(p: PbfReader): TripUpdate {
  const u = message(p, 'TripUpdate', { stopTimeUpdates: [] } as Partial<TripUpdate> & Pick<TripUpdate, 'stopTimeUpdates'>, (tag, u, q) => {
    if (tag === 1) u.trip = readTripDescriptor(q);
    else if (tag === 2) u.stopTimeUpdates.push(readStopTimeUpdate(q));
    else if (tag === 3) u.vehicle = readVehicleDescriptor(q);
    else if (tag === 4) u.timestamp = uint(q);
    else if (tag === 5) u.delay = int(q);
  });
  required(u.trip, 'TripUpdate', 'trip');
  return u as TripUpdate;
}

function readStopTimeUpdate(p: PbfReader): StopTimeUpdate {
  return message(p, 'StopTimeUpdate', {} as StopTimeUpdate, (tag, s, q) => {
    if (tag === 1) s.stopSequence = uint(q);
    else if (tag === 2) s.arrival = readStopTimeEvent(q);
    else if (tag === 3) s.departure = readStopTimeEvent(q);
    else if (tag === 4) s.stopId = str(q);
    else if (tag === 5) setEnum(s, 'scheduleRelationship', q, STOP_RELATIONSHIP);
  });
}

function readStopTimeEvent(p: PbfReader): StopTimeEvent {
  return message(p, 'StopTimeEvent', {} as StopTimeEvent, (tag, t, q) => {
    if (tag === 1) t.delay = int(q);
    else if (tag === 2) t.time = int(q);
    else if (tag === 3) t.uncertainty = int(q);
  });
}

function readTripDescriptor(p: PbfReader): TripDescriptor {
  return message(p, 'TripDescriptor', {} as TripDescriptor, (tag, t, q) => {
    if (tag === 1) t.tripId = str(q);
    else if (tag === 2) t.startTime = str(q);
    else if (tag === 3) t.startDate = str(q);
    else if (tag === 4) setEnum(t, 'scheduleRelationship', q, TRIP_RELATIONSHIP);
    else if (tag === 5) t.routeId = str(q);
    else if (tag === 6) t.directionId = uint(q);
  });
}

function readVehicleDescriptor(p: PbfReader): VehicleDescriptor {
  return message(p, 'VehicleDescriptor', {} as VehicleDescriptor, (tag, v, q) => {
    if (tag === 1) v.id = str(q);
    else if (tag === 2) v.label = str(q);
    else if (tag === 3) v.licensePlate = str(q);
  });
}

function readVehiclePosition(p: PbfReader): VehiclePosition {
  return message(p, 'VehiclePosition', {} as VehiclePosition, (tag, v, q) => {
    if (tag === 1) v.trip = readTripDescriptor(q);
    else if (tag === 2) v.position = readPosition(q);
    else if (tag === 3) v.currentStopSequence = uint(q);
    else if (tag === 4) setEnum(v, 'currentStatus', q, STOP_STATUS);
    else if (tag === 5) v.timestamp = uint(q);
    else if (tag === 6) setEnum(v, 'congestionLevel', q, CONGESTION);
    else if (tag === 7) v.stopId = str(q);
    else if (tag === 8) v.vehicle = readVehicleDescriptor(q);
    else if (tag === 9) setEnum(v, 'occupancyStatus', q, OCCUPANCY);
  });
}

function readPosition(p: PbfReader): Position {
  const x = message(p, 'Position', {} as Partial<Position>, (tag, x, q) => {
    if (tag === 1) x.latitude = float(q);
    else if (tag === 2) x.longitude = float(q);
    else if (tag === 3) x.bearing = float(q);
    else if (tag === 4) x.odometer = double(q);
    else if (tag === 5) x.speed = float(q);
  });
  required(x.latitude, 'Position', 'latitude');
  required(x.longitude, 'Position', 'longitude');
  return x as Position;
}

function readAlert(p: PbfReader): Alert {
  return message(p, 'Alert', { activePeriods: [], informedEntities: [] } as Alert, (tag, a, q) => {
    if (tag === 1) a.activePeriods.push(readTimeRange(q));
    else if (tag === 5) a.informedEntities.push(readEntitySelector(q));
    else if (tag === 6) setEnum(a, 'cause', q, CAUSE);
    else if (tag === 7) setEnum(a, 'effect', q, EFFECT);
    else if (tag === 8) a.url = readTranslatedString(q);
    else if (tag === 10) a.headerText = readTranslatedString(q);
    else if (tag === 11) a.descriptionText = readTranslatedString(q);
  });
}

function readTimeRange(p: PbfReader): TimeRange {
  return message(p, 'TimeRange', {} as TimeRange, (tag, r, q) => {
    if (tag === 1) r.start = uint(q);
    else if (tag === 2) r.end = uint(q);
  });
}

function readEntitySelector(p: PbfReader): EntitySelector {
  return message(p, 'EntitySelector', {} as EntitySelector, (tag, s, q) => {
    if (tag === 1) s.agencyId = str(q);
    else if (tag === 2) s.routeId = str(q);
    else if (tag === 3) s.routeType = int(q);
    else if (tag === 4) s.trip = readTripDescriptor(q);
    else if (tag === 5) s.stopId = str(q);
    else if (tag === 6) s.directionId = uint(q);
  });
}

function readTranslatedString(p: PbfReader): TranslatedString {
  return message(p, 'TranslatedString', { translations: [] } as TranslatedString, (tag, s, q) => {
    if (tag === 1) s.translations.push(readTranslation(q));
  });
}

function readTranslation(p: PbfReader): Translation {
  const t = message(p, 'Translation', {} as Partial<Translation>, (tag, t, q) => {
    if (tag === 1) t.text = str(q);
    else if (tag === 2) t.language = str(q);
  });
  required(t.text, 'Translation', 'text');
  return t as Translation;
}

// ---------------------------------------------------------------------------------------------
// Protobuf plumbing: bounds and wire types, which `pbf` leaves to its caller

type FieldReader<T> = (tag: number, result: T, p: PbfReader) => void;

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

/** An error placed in its message; each enclosing message adds its name and field number in front. */
class Located extends GtfsRealtimeError {}

/** The embedded message of the current field (length-delimited), read whole. */
function message<T>(p: PbfReader, name: string, result: T, read: FieldReader<T>): T {
  wire(p, BYTES, name);
  const at = p.pos;
  const length = p.readVarint();
  const end = p.pos + length;
  if (end > p.length) throw new Located(`${name} at byte ${at}: truncated, ${length} bytes long but ${p.length - p.pos} left`);
  return fields(p, name, end, result, read);
}

/**
 * The fields of the message `name`, from `p.pos` to `end`. `pbf` stops silently at `end` even when
 * a field ran past it, and at a field number 0: both are checked here.
 */
function fields<T>(p: PbfReader, name: string, end: number, result: T, read: FieldReader<T>): T {
  let field = 0;
  try {
    p.readFields(
      (tag, r, q) => {
        field = tag;
        read(tag, r, q);
      },
      result,
      end,
    );
  } catch (e) {
    const why = (e as Error).message;
    if (e instanceof Located) throw new Located(`${name}.${field} > ${why}`);
    if (e instanceof GtfsRealtimeError) throw new Located(`${name}.${field}: ${why}`);
    // pbf's own errors: a read past the end, a varint over 10 bytes, a wire type it cannot skip
    if (p.pos > p.length || e instanceof RangeError) throw new Located(`${name}.${field}: truncated, a value runs past the end (${p.length} bytes)`);
    throw new Located(`${name}.${field}: ${why} (byte ${p.pos})`);
  }
  if (p.pos > p.length) throw new Located(`${name}: truncated, field ${field} ends at byte ${p.pos}, past the end (${p.length} bytes)`);
  if (p.pos > end) throw new Located(`${name}: field ${field} ends at byte ${p.pos}, past the end of the message (byte ${end})`);
  if (p.pos < end) throw new Located(`${name}: invalid field number 0 before byte ${p.pos}`);
  return result;
}

function wire(p: PbfReader, type: number, what: string): void {
  if (p.type !== type) throw new GtfsRealtimeError(`${what} with wire type ${p.type} instead of ${type} (byte ${p.pos})`);
}

function required(value: unknown, name: string, field: string): void {
  if (value === undefined) throw new GtfsRealtimeError(`${name} without ${field} (required)`);
}

function str(p: PbfReader): string {
  wire(p, BYTES, 'a string');
  return p.readString();
}

function bool(p: PbfReader): boolean {
  wire(p, VARINT, 'a bool');
  return p.readBoolean();
}

/** uint32, uint64 (exact up to 2^53) */
function uint(p: PbfReader): number {
  wire(p, VARINT, 'an unsigned integer');
  return p.readVarint();
}

/** int32, int64: a negative value is a 10-byte varint (two's complement on 64 bits), read signed */
function int(p: PbfReader): number {
  wire(p, VARINT, 'an integer');
  return p.readVarint(true);
}

function float(p: PbfReader): number {
  wire(p, FIXED32, 'a float');
  return p.readFloat();
}

function double(p: PbfReader): number {
  wire(p, FIXED64, 'a double');
  return p.readDouble();
}

/**
 * Sets `object[key]` to the name of the enum number read. A number `names` does not have leaves it as
 * it was: proto2 keeps such a value as an unknown field.
 */
function setEnum<T, K extends keyof T>(object: T, key: K, p: PbfReader, names: readonly (T[K] | null)[]): void {
  const name = names[int(p)];
  if (name !== undefined && name !== null) object[key] = name;
}
