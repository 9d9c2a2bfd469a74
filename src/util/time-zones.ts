/**
 * UTC offsets of IANA time zones through `Intl`, local wall-clock times to instants, GTFS service days.
 *
 * Offsets come from `Intl.DateTimeFormat` and are cached per (zone, UTC day): each cached day stores its
 * offset at the start, the exact second of the offset change inside the day (if any) and the offset after
 * it, so lookups are one Map probe and one comparison, and transitions at any second (Lord Howe's 15:30Z,
 * LMT) are exact. Assumes at most one offset change per UTC day (and `zonedToEpoch` at most one within two
 * days): checked with zdump over all 418 ICU zones for 1970-2040, the closest changes are more than 2 days apart.
 */
import { dayNumber, formatUtc, SEC_PER_DAY, SEC_PER_HOUR } from './calendar.js';

/** Half a day: the GTFS service day starts at "noon minus 12 h". */
const HALF_DAY_SEC = 43200;

/**
 * The time zone of a coverage whose data and configuration give none: Navitia's default. Used when
 * compiling a feed without an agency time zone, and in the answers of a coverage still loading.
 */
export const DEFAULT_TIMEZONE = 'Europe/Paris';

/**
 * UTC offset in seconds of `timeZone` at the instant `epochSec` (e.g. 3600 for Europe/Paris in winter).
 * Cached per (zone, UTC day) with the exact change second; throws RangeError for an unknown zone.
 */
export function utcOffsetSec(timeZone: string, epochSec: number): number {
  const zone = zoneCache(timeZone);
  const day = Math.floor(epochSec / SEC_PER_DAY);
  let offsets = zone.lastDay === day ? zone.lastOffsets : zone.days.get(day);
  if (offsets === undefined) {
    offsets = scanDayOffsets(zone.format, day);
    keep(zone.days, day, offsets, TIME_ZONE_DAYS_KEPT);
  } else if (zone.lastDay !== day) {
    // used now: the last to go
    zone.days.delete(day);
    zone.days.set(day, offsets);
  }
  zone.lastDay = day;
  zone.lastOffsets = offsets;
  return epochSec < offsets.changeSec ? offsets.startOffsetSec : offsets.endOffsetSec;
}

/**
 * The epoch seconds of the local wall-clock time y-m-d h:mi:s in timeZone (m is 1..12), standard time for
 * ambiguous/non-existent times: an ambiguous time gives the later of its two instants, a non-existent
 * time is read with the offset in force before the gap (as pytz `localize(is_dst=False)`).
 */
export function zonedToEpoch(timeZone: string, y: number, m: number, d: number, h = 0, mi = 0, s = 0): number {
  const wallSec = dayNumber(y, m, d) * SEC_PER_DAY + h * SEC_PER_HOUR + mi * 60 + s;
  // Offsets are within ±15 h, so the instant lies strictly between these two probes; at most one
  // offset change happens between them.
  const offsetBefore = utcOffsetSec(timeZone, wallSec - SEC_PER_DAY);
  const offsetAfter = utcOffsetSec(timeZone, wallSec + SEC_PER_DAY);
  const withBefore = wallSec - offsetBefore;
  if (offsetBefore === offsetAfter) return withBefore;
  const withAfter = wallSec - offsetAfter;
  const beforeFits = utcOffsetSec(timeZone, withBefore) === offsetBefore;
  const afterFits = utcOffsetSec(timeZone, withAfter) === offsetAfter;
  if (beforeFits && afterFits) return Math.max(withBefore, withAfter); // ambiguous: the later instant
  if (afterFits) return withAfter;
  return withBefore; // fits, or non-existent: the offset in force before the gap
}

/**
 * The GTFS service-day origin: the instant of "noon minus 12 h" local time on local date y-m-d (differs
 * from midnight on DST-change days). GTFS stop times are seconds after this instant.
 */
export function serviceDayOrigin(timeZone: string, y: number, m: number, d: number): number {
  return zonedToEpoch(timeZone, y, m, d, 12, 0, 0) - HALF_DAY_SEC;
}

/** Whether an IANA time zone name is known to this runtime (legacy aliases such as "US/Pacific" included). */
export function isValidTimeZone(name: string): boolean {
  if (zones.has(name)) return true;
  if (invalidZones.has(name)) return false;
  try {
    zoneCache(name);
    return true;
  } catch {
    keep(invalidZones, name, true, TIME_ZONES_KEPT);
    return false;
  }
}

/** Offsets of one UTC day [day·86400, day·86400 + 86400). */
interface DayOffsets {
  /** Offset at the first second of the day. */
  readonly startOffsetSec: number;
  /** First second whose offset is `endOffsetSec`, or NO_CHANGE. */
  readonly changeSec: number;
  /** Offset from `changeSec` to the end of the day. */
  readonly endOffsetSec: number;
}

/** `changeSec` of a day without offset change: every instant compares below it. */
const NO_CHANGE = Number.POSITIVE_INFINITY;

interface ZoneCache {
  readonly format: Intl.DateTimeFormat;
  /** Day number → offsets of that UTC day. */
  readonly days: Map<number, DayOffsets>;
  /** One-entry memo in front of `days` (consecutive lookups mostly hit the same day). */
  lastDay: number;
  lastOffsets: DayOffsets | undefined;
}

/**
 * The cache's bounds: the days kept per zone and the zones kept, each the one used longest ago
 * dropped first (a request may name any day, and a feed any zone name), and what they weigh in
 * bytes, estimated (a Map entry with its object of three numbers; a zone's formatter and map).
 * At most 64 zones × (1,024 days × 96 bytes + 4 KiB), 6.5 MB; a coverage uses one zone and the days
 * of its production period.
 */
export const TIME_ZONE_DAYS_KEPT = 1024;
export const TIME_ZONES_KEPT = 64;
const DAY_BYTES = 96;
const ZONE_BYTES = 4096;
/** The most the cache holds, bytes (as many unknown names as zones). */
export const TIME_ZONE_CACHE_BOUND_BYTES = TIME_ZONES_KEPT * (TIME_ZONE_DAYS_KEPT * DAY_BYTES + ZONE_BYTES) + TIME_ZONES_KEPT * ZONE_BYTES;

/** What the cache holds now: the zones (unknown names included) and the days over all zones. */
export function timeZoneCacheSize(): { zones: number; days: number } {
  let days = 0;
  for (const zone of zones.values()) days += zone.days.size;
  return { zones: zones.size + invalidZones.size, days };
}

/** The bytes the cache holds now (estimated, as above). */
export function timeZoneCacheBytes(): number {
  const { zones, days } = timeZoneCacheSize();
  return days * DAY_BYTES + zones * ZONE_BYTES;
}

/** `map.set(key, value)`, the entries set longest ago dropped past `max` (a Map iterates in the order of setting). */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.set(key, value);
  for (const old of map.keys()) {
    if (map.size <= max) return;
    map.delete(old);
  }
}

const zones = new Map<string, ZoneCache>();
const invalidZones = new Map<string, true>();
let lastZoneName: string | undefined;
let lastZone: ZoneCache | undefined;

function zoneCache(timeZone: string): ZoneCache {
  if (timeZone === lastZoneName) return lastZone!;
  let zone = zones.get(timeZone);
  if (zone === undefined) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    zone = { format, days: new Map(), lastDay: Number.NaN, lastOffsets: undefined };
    keep(zones, timeZone, zone, TIME_ZONES_KEPT);
  } else {
    zones.delete(timeZone);
    zones.set(timeZone, zone);
  }
  lastZoneName = timeZone;
  lastZone = zone;
  return zone;
}

/** Offsets at both ends of a UTC day and, when they differ, the change second found by bisection. */
function scanDayOffsets(format: Intl.DateTimeFormat, day: number): DayOffsets {
  const first = day * SEC_PER_DAY;
  const last = first + SEC_PER_DAY - 1;
  const startOffsetSec = intlOffsetSec(format, first);
  const endOffsetSec = intlOffsetSec(format, last);
  if (startOffsetSec === endOffsetSec) return { startOffsetSec, changeSec: NO_CHANGE, endOffsetSec };
  let lo = first; // offset(lo) === startOffsetSec
  let hi = last; // offset(hi) !== startOffsetSec
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (intlOffsetSec(format, mid) === startOffsetSec) lo = mid;
    else hi = mid;
  }
  return { startOffsetSec, changeSec: hi, endOffsetSec };
}

/** Offset at one instant, straight from ICU: local wall clock read back as if UTC, minus the instant. */
function intlOffsetSec(format: Intl.DateTimeFormat, epochSec: number): number {
  let y = 0, m = 0, d = 0, h = 0, mi = 0, s = 0;
  for (const part of format.formatToParts(epochSec * 1000)) {
    switch (part.type) {
      case 'year': y = Number(part.value); break;
      case 'month': m = Number(part.value); break;
      case 'day': d = Number(part.value); break;
      case 'hour': h = Number(part.value); break;
      case 'minute': mi = Number(part.value); break;
      case 'second': s = Number(part.value); break;
      default: break;
    }
  }
  return dayNumber(y, m, d) * SEC_PER_DAY + h * SEC_PER_HOUR + mi * 60 + s - epochSec;
}

/** Format an instant as local `YYYYMMDDTHHMMSS` in timeZone. */
export function formatLocal(epochSec: number, timeZone: string): string {
  return formatUtc(epochSec + utcOffsetSec(timeZone, epochSec));
}

