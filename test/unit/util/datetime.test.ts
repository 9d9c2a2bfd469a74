/**
 * Unit tests for the datetime modules of src/util/: api-datetime.ts (the API grammar), time-zones.ts, calendar.ts, gtfs-times.ts.
 *
 * Expected instants are worked out by hand from day numbers; the anchors used below:
 *   1970-01-01 → day 0.
 *   2014-01-01 → 44 years (1970..2013) × 365 + 11 leap days (1972, 76, …, 2012) = 16071 → 1388534400 s.
 *   2024-01-01 → 54 × 365 + 13 leap days (1972..2020) = 19723 → 1704067200 s.
 *   2024 is a leap year: Mar 1 = 19723 + 31 + 29 = 19783; Oct 1 = 19723 + 274 = 19997; Nov 1 = 20028.
 *   2018-01-01 → 48 × 365 + 12 = 17532; 2019-01-01 → 17897.
 * DST rules used (tzdata): Europe/Paris CET +1 / CEST +2, changes at 01:00Z on the last Sunday of March and
 * October; America/New_York EST −5 / EDT −4, changes at 02:00 local; America/Sao_Paulo −3 with a last DST
 * period (−2) from 2018-11-04 00:00 local (03:00Z) to 2019-02-17 00:00 local (02:00Z); Asia/Kolkata +05:30
 * all year; Australia/Lord_Howe +10:30 / +11, DST starting 2024-10-06 02:00 local = 2024-10-05T15:30Z.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dateOfDayNumber, dayNumber, formatDayNumber, formatUtc } from '../../../src/util/calendar.js';
import { formatLocal, isValidTimeZone, serviceDayOrigin, utcOffsetSec, zonedToEpoch } from '../../../src/util/time-zones.js';
import { DatetimeParseError, parseDatetimeParam } from '../../../src/util/api-datetime.js';
import { INVALID_GTFS_DATE, INVALID_GTFS_TIME, parseGtfsDate, parseGtfsTime } from '../../../src/util/gtfs-times.js';

const PARIS = 'Europe/Paris';
const NEW_YORK = 'America/New_York';
const SAO_PAULO = 'America/Sao_Paulo';
const KOLKATA = 'Asia/Kolkata';
const LORD_HOWE = 'Australia/Lord_Howe';

const DAY = 86400;
const HOUR = 3600;
/** 2014-01-01T00:00:00Z: day 16071 × 86400. */
const JAN_1_2014 = 16071 * DAY; // 1388534400
/** 2014-01-05T00:00:00Z: day 16075. */
const JAN_5_2014 = 16075 * DAY; // 1388880000
/** 2024-01-10T00:00:00Z: day 19723 + 9 = 19732. */
const JAN_10_2024 = 19732 * DAY; // 1704844800
/** 2024-03-31T00:00:00Z: day 19783 + 30 = 19813. */
const MAR_31_2024 = 19813 * DAY; // 1711843200
/** 2024-10-27T00:00:00Z: day 19997 + 26 = 20023. */
const OCT_27_2024 = 20023 * DAY; // 1729987200

function assertRejected(value: string, reason: string, timeZone = PARIS): void {
  assert.throws(
    () => parseDatetimeParam(value, timeZone),
    (e: unknown) => {
      assert.ok(e instanceof DatetimeParseError, `expected DatetimeParseError for ${JSON.stringify(value)}`);
      assert.equal(e.reason, reason, `reason for ${JSON.stringify(value)}`);
      assert.equal(e.message, `Unable to parse datetime, ${reason}`);
      return true;
    },
  );
}

describe('parseDatetimeParam', () => {
  test('_current_datetime read as UTC prints one hour later in Paris in winter (Navitia ptref test)', () => {
    // 2014-01-15 = day 16071 + 14 = 16085; 16085 × 86400 + 86399 = 1389830399.
    const now = parseDatetimeParam('20140115T235959', 'UTC');
    assert.equal(now, 1389830399);
    // CET is UTC+1: 23:59:59Z is 00:59:59 on the 16th.
    assert.equal(formatLocal(now, PARIS), '20140116T005959');
    assert.equal(formatUtc(now), '20140115T235959');
  });

  test('a naive value is wall-clock time in the coverage zone', () => {
    // 07:00 CET = 06:00Z on day 16075: 1388880000 + 21600.
    assert.equal(parseDatetimeParam('20140105T070000', PARIS), JAN_5_2014 + 6 * HOUR);
    assert.equal(parseDatetimeParam('20140105T070000', PARIS), 1388901600);
    // The same wall time read in UTC is one hour later as an instant.
    assert.equal(parseDatetimeParam('20140105T070000', 'UTC'), JAN_5_2014 + 7 * HOUR);
  });

  test('an explicit offset is honoured whatever the coverage zone (Navitia test_vj_period_filter_with_tz)', () => {
    // All of these are 2014-01-05T10:15:00Z = 1388880000 + 36900 = 1388916900.
    const tenFifteen = JAN_5_2014 + 10 * HOUR + 15 * 60;
    assert.equal(tenFifteen, 1388916900);
    assert.equal(parseDatetimeParam('20140105T111500+0100', PARIS), tenFifteen); // 11:15 − 1 h
    assert.equal(parseDatetimeParam('20140105T111500+0100', NEW_YORK), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T101500+0000', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T101500-0000', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T101500Z', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T101500z', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T034500-0630', PARIS), tenFifteen); // 03:45 + 6:30
    assert.equal(parseDatetimeParam('20140105T111500+01:00', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('20140105T111500+01', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('2014-01-05T11:15:00+01:00', PARIS), tenFifteen);
    assert.equal(parseDatetimeParam('2014-01-05 11:15 +0100', PARIS), tenFifteen);
    // 19:25 − 8:15 = 11:10Z = 1388880000 + 40200.
    assert.equal(parseDatetimeParam('20140105T192500+0815', PARIS), 1388920200);
  });

  test('every accepted form of 2014-01-01 12:00 Paris gives 11:00Z', () => {
    // 12:00 CET = 11:00Z: 1388534400 + 39600 = 1388574000.
    const noon = JAN_1_2014 + 11 * HOUR;
    assert.equal(noon, 1388574000);
    for (const form of [
      '20140101T120000', '20140101T1200', '20140101T12', '20140101t120000', '201401011200', '20140101120000',
      '2014-01-01T12:00:00', '2014-01-01T12:00', '2014-01-01 12:00', '2014-01-01 12:00:00', '2014-01-01T12',
      '2014-1-1T12:00', '20140101T12:00:00', '2014-01-01T120000',
      '20140101T120000.999', '20140101T120000,5', '2014-01-01T12:00:00.123456789', ' 20140101T120000 ',
    ]) {
      assert.equal(parseDatetimeParam(form, PARIS), noon, form);
    }
  });

  test('a date alone is midnight local time', () => {
    // 00:00 CET on 2014-01-01 = 2013-12-31T23:00Z = 1388534400 − 3600.
    assert.equal(parseDatetimeParam('20140101', PARIS), JAN_1_2014 - HOUR);
    assert.equal(parseDatetimeParam('2014-01-01', PARIS), JAN_1_2014 - HOUR);
    assert.equal(parseDatetimeParam('20140101Z', PARIS), JAN_1_2014);
  });

  test('fractional seconds are truncated, never rounded', () => {
    // 12:00:59.999Z → 12:00:59Z = 1388534400 + 43259.
    assert.equal(parseDatetimeParam('2014-01-01T12:00:59.999Z', PARIS), JAN_1_2014 + 12 * HOUR + 59);
  });

  test('years up to 1970 are too early, 1971 is accepted', () => {
    assertRejected('19700101T000000', 'date is too early!');
    assertRejected('1970-12-31T23:59:59Z', 'date is too early!');
    assertRejected('19600615', 'date is too early!');
    // 1971-01-01 00:00 CET = 1970-12-31T23:00Z = 365 × 86400 − 3600 = 31532400.
    assert.equal(parseDatetimeParam('19710101T000000', PARIS), 31532400);
  });

  test('a value without a date has its digits read as a year, as Navitia (python-dateutil) does', () => {
    // T0800 → year 800 → too early (Navitia journey_common_tests).
    assertRejected('T0800', 'date is too early!');
    assertRejected('1950', 'date is too early!');
    // 7 digits are not YYYYMMDD: read as a year (Navitia heat_maps_tests "2005061", journeys "2012614T081025").
    assertRejected('2005061', 'year 2005061 is out of range');
    assertRejected('2012614T081025', 'year 2012614 is out of range');
    assertRejected('T250000', 'year 250000 is out of range');
    // 6 and 10 digits are not date forms either (no two-digit years): read as years too.
    assertRejected('201401', 'year 201401 is out of range');
    assertRejected('1401011200', 'year 1401011200 is out of range');
    // A plausible year alone: we do not fill the month and day from today.
    assertRejected('2015', 'unknown string format');
    assertRejected('1999', 'unknown string format');
    assertRejected('T2015', 'unknown string format');
    assertRejected('12:00', 'unknown string format');
  });

  test('out-of-range fields use the Python datetime wording, checked in field order', () => {
    assertRejected('20140101T250000', 'hour must be in 0..23');
    assertRejected('20140101T240000', 'hour must be in 0..23');
    assertRejected('20140101T126000', 'minute must be in 0..59');
    assertRejected('20140101T120060', 'second must be in 0..59');
    assertRejected('20141301T120000', 'month must be in 1..12');
    assertRejected('20140001', 'month must be in 1..12');
    assertRejected('20140230', 'day is out of range for month');
    assertRejected('20140100', 'day is out of range for month');
    assertRejected('20130229', 'day is out of range for month'); // 2013 is not a leap year
    assertRejected('00000101', 'year 0 is out of range');
    // month is checked before the hour, and ranges before the year 1970 rule
    assertRejected('20141301T250000', 'month must be in 1..12');
    assertRejected('19701301', 'month must be in 1..12');
    // 2012-02-29 exists (leap year): 00:00 CET = 2012-02-28T23:00Z; day 15340 + 59 = 15399 (2012-01-01 = 42 × 365 + 10).
    assert.equal(parseDatetimeParam('20120229', PARIS), 15399 * DAY - HOUR);
  });

  test('anything else is an unknown string format', () => {
    for (const bad of [
      'foo', '', '   ', 'toto', '20140101T', '20140101T1', '20140101T123', '20140101T12345', '20140101T1234567',
      '2014-01-01T12:0', '2014-01-01T123:00', '2014-01-01T12:00:0', '2014-001-01', '2014-01', '2014-01-01-',
      '20140101T1200.5', '20140101T120000+1', '20140101T120000+01000', '20140101T120000+2400',
      '20140101T120000+0160', '20140101T120000 0100', '20140101T120000ZZ', '20140101T120000 foo',
      '2014/01/01', '20140101T120000.', '20140101T12:00:00:00', '2014-01-01T12:00+01:0',
    ]) {
      assertRejected(bad, 'unknown string format');
    }
  });

  test('a non-existent local time (clocks forward) is read as standard time', () => {
    // Paris 2024-03-31 02:30 does not exist; read with CET (+1): 01:30Z = 1711843200 + 5400 = 1711848600,
    // which is 03:30 CEST.
    const t = parseDatetimeParam('20240331T023000', PARIS);
    assert.equal(t, MAR_31_2024 + 5400);
    assert.equal(formatLocal(t, PARIS), '20240331T033000');
    // New York 2024-03-10 02:30 does not exist; read with EST (−5): 07:30Z on day 19792 (Mar 1 = 19783, + 9).
    assert.equal(parseDatetimeParam('20240310T023000', NEW_YORK), 19792 * DAY + 7 * HOUR + 1800);
  });

  test('an ambiguous local time (clocks back) is read as standard time, the later instant', () => {
    // Paris 2024-10-27 02:30 happens at 00:30Z (CEST) and at 01:30Z (CET); standard → 01:30Z.
    assert.equal(parseDatetimeParam('20241027T023000', PARIS), OCT_27_2024 + 5400);
    assert.equal(parseDatetimeParam('20241027T023000', PARIS), 1729992600);
    // New York 2024-11-03 01:30 happens at 05:30Z (EDT) and 06:30Z (EST); standard → 06:30Z on day 20030.
    assert.equal(parseDatetimeParam('20241103T013000', NEW_YORK), 20030 * DAY + 6 * HOUR + 1800);
  });
});

describe('utcOffsetSec', () => {
  test('Paris is +1 h in winter and +2 h in summer, changing at the exact second', () => {
    assert.equal(utcOffsetSec(PARIS, JAN_10_2024), 3600);
    assert.equal(utcOffsetSec(PARIS, MAR_31_2024 + 30 * DAY), 7200);
    // DST starts 2024-03-31T01:00:00Z = 1711843200 + 3600 = 1711846800.
    assert.equal(utcOffsetSec(PARIS, 1711846799), 3600);
    assert.equal(utcOffsetSec(PARIS, 1711846800), 7200);
    // DST ends 2024-10-27T01:00:00Z = 1729987200 + 3600 = 1729990800.
    assert.equal(utcOffsetSec(PARIS, 1729990799), 7200);
    assert.equal(utcOffsetSec(PARIS, 1729990800), 3600);
    // cached answers are identical
    assert.equal(utcOffsetSec(PARIS, 1729990799), 7200);
    assert.equal(utcOffsetSec(PARIS, 1729990800), 3600);
  });

  test('other zones: New York, Sao Paulo, Kolkata, UTC, legacy alias', () => {
    // New York DST starts 2024-03-10 07:00Z = 19792 × 86400 + 25200 = 1710054000.
    assert.equal(utcOffsetSec(NEW_YORK, 1710053999), -18000);
    assert.equal(utcOffsetSec(NEW_YORK, 1710054000), -14400);
    // Sao Paulo: −3 today (no DST since 2019), −2 during the 2018/19 summer.
    assert.equal(utcOffsetSec(SAO_PAULO, JAN_10_2024), -10800);
    assert.equal(utcOffsetSec(SAO_PAULO, 17897 * DAY + 14 * DAY), -7200); // 2019-01-15
    assert.equal(utcOffsetSec(KOLKATA, JAN_10_2024), 19800); // 5 h 30
    assert.equal(utcOffsetSec(KOLKATA, MAR_31_2024 + 100 * DAY), 19800);
    assert.equal(utcOffsetSec('UTC', MAR_31_2024), 0);
    assert.equal(utcOffsetSec('US/Pacific', JAN_10_2024), -8 * HOUR);
  });

  test('a change at a half hour UTC (Lord Howe, +10:30 → +11 at 15:30Z) is exact', () => {
    // 2024-10-05 = day 19997 + 4 = 20001; 15:30Z → 20001 × 86400 + 55800 = 1728142200.
    assert.equal(utcOffsetSec(LORD_HOWE, 1728142199), 37800);
    assert.equal(utcOffsetSec(LORD_HOWE, 1728142200), 39600);
    assert.equal(utcOffsetSec(LORD_HOWE, 20001 * DAY + 15 * HOUR), 37800); // hour-aligned 15:00Z is still +10:30
  });

  test('agrees with ICU longOffset names at pseudo-random instants 1971..2040 (oracle)', () => {
    const zonesToCheck = [PARIS, NEW_YORK, SAO_PAULO, KOLKATA, LORD_HOWE, 'Europe/London', 'Asia/Tehran', 'America/St_Johns', 'Pacific/Chatham'];
    let seed = 12345;
    const nextRandom = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648; // small LCG: reproducible
      return seed / 2147483648;
    };
    const from = dayNumber(1971, 1, 1) * DAY;
    const to = dayNumber(2040, 1, 1) * DAY;
    for (const zone of zonesToCheck) {
      const names = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
      for (let k = 0; k < 400; k++) {
        const t = from + Math.floor(nextRandom() * (to - from));
        const name = names.formatToParts(t * 1000).find((p) => p.type === 'timeZoneName')!.value; // "GMT+05:30" or "GMT"
        const match = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name);
        assert.ok(match, name);
        const expected = match[1] === undefined ? 0 : (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 3600 + Number(match[3]) * 60);
        assert.equal(utcOffsetSec(zone, t), expected, `${zone} at ${t}`);
      }
    }
  });

  test('an unknown zone throws RangeError', () => {
    assert.throws(() => utcOffsetSec('Mars/Olympus', 0), RangeError);
  });
});

describe('zonedToEpoch and serviceDayOrigin', () => {
  test('the service day origin is noon minus 12 h, which is not midnight on DST days (Paris)', () => {
    // Normal winter day 2024-01-10: noon CET = 11:00Z, − 12 h = 2024-01-09T23:00Z = 1704844800 − 3600.
    assert.equal(serviceDayOrigin(PARIS, 2024, 1, 10), 1704841200);
    assert.equal(zonedToEpoch(PARIS, 2024, 1, 10), 1704841200); // midnight is the same that day
    // Spring forward 2024-03-31: noon CEST = 10:00Z, − 12 h = 2024-03-30T22:00Z = 1711843200 − 7200,
    // while local midnight (CET) is 23:00Z.
    assert.equal(serviceDayOrigin(PARIS, 2024, 3, 31), 1711836000);
    assert.equal(zonedToEpoch(PARIS, 2024, 3, 31), 1711839600);
    // Fall back 2024-10-27: noon CET = 11:00Z, − 12 h = 2024-10-26T23:00Z = 1729987200 − 3600,
    // while local midnight (CEST) is 22:00Z.
    assert.equal(serviceDayOrigin(PARIS, 2024, 10, 27), 1729983600);
    assert.equal(zonedToEpoch(PARIS, 2024, 10, 27), 1729980000);
  });

  test('service day origins in New York, Sao Paulo and Kolkata', () => {
    // NY 2024-03-10: noon EDT = 16:00Z, − 12 h = 04:00Z = 19792 × 86400 + 14400 = 1710043200.
    assert.equal(serviceDayOrigin(NEW_YORK, 2024, 3, 10), 1710043200);
    // NY 2024-11-03: noon EST = 17:00Z, − 12 h = 05:00Z = 20030 × 86400 + 18000 = 1730610000.
    assert.equal(serviceDayOrigin(NEW_YORK, 2024, 11, 3), 1730610000);
    // Sao Paulo 2018-11-04 (day 17532 + 304 + 3 = 17839): noon −02 = 14:00Z, − 12 h = 02:00Z = 1541296800,
    // which is 23:00 on Nov 3 local; the local midnight does not exist and reads as 00:00 −03 = 03:00Z.
    assert.equal(serviceDayOrigin(SAO_PAULO, 2018, 11, 4), 17839 * DAY + 2 * HOUR);
    assert.equal(zonedToEpoch(SAO_PAULO, 2018, 11, 4), 17839 * DAY + 3 * HOUR);
    // Sao Paulo 2024-01-10, no DST: noon −03 = 15:00Z, − 12 h = 03:00Z.
    assert.equal(serviceDayOrigin(SAO_PAULO, 2024, 1, 10), JAN_10_2024 + 3 * HOUR);
    // Kolkata 2024-01-10: noon +05:30 = 06:30Z, − 12 h = 2024-01-09T18:30Z = 1704844800 − 19800.
    assert.equal(serviceDayOrigin(KOLKATA, 2024, 1, 10), 1704825000);
  });

  test('Sao Paulo 2019 fall-back: 23:30 on Feb 16 is ambiguous and reads as −03', () => {
    // 2019-02-17 = day 17897 + 31 + 16 = 17944. 23:30 −03 on the 16th = 02:30Z on the 17th.
    assert.equal(zonedToEpoch(SAO_PAULO, 2019, 2, 16, 23, 30, 0), 17944 * DAY + 2 * HOUR + 1800);
    // 2018-11-04 00:30 does not exist; −03 → 03:30Z.
    assert.equal(parseDatetimeParam('20181104T003000', SAO_PAULO), 17839 * DAY + 3 * HOUR + 1800);
  });

  test('Kolkata naive value: 08:30 +05:30 = 03:00Z', () => {
    assert.equal(parseDatetimeParam('20240110T083000', KOLKATA), JAN_10_2024 + 3 * HOUR);
    assert.equal(formatLocal(JAN_10_2024, KOLKATA), '20240110T053000');
  });

  test('round trip: the wall time of an instant maps back to it, or to the later instant when ambiguous', () => {
    for (const zone of [PARIS, NEW_YORK, SAO_PAULO, LORD_HOWE]) {
      // every 20 minutes plus 7 s over the two Paris change days of 2024 and around Lord Howe's, plus one year hourly
      const instants: number[] = [];
      for (const base of [MAR_31_2024 - DAY, OCT_27_2024 - DAY, 20001 * DAY - DAY, 19792 * DAY - DAY, 20030 * DAY - DAY]) {
        for (let t = base; t < base + 3 * DAY; t += 1207) instants.push(t);
      }
      for (let t = 17532 * DAY; t < 17897 * DAY; t += HOUR + 13) instants.push(t);
      for (const t of instants) {
        const local = formatLocal(t, zone);
        const back = zonedToEpoch(zone, Number(local.slice(0, 4)), Number(local.slice(4, 6)), Number(local.slice(6, 8)),
          Number(local.slice(9, 11)), Number(local.slice(11, 13)), Number(local.slice(13, 15)));
        if (back !== t) {
          assert.ok(back > t, `${zone} ${t}: ${local} came back earlier (${back})`);
          assert.equal(formatLocal(back, zone), local, `${zone} ${t}: ${back} is not the same wall time`);
        }
      }
    }
  });
});

describe('formatting', () => {
  test('formatUtc prints YYYYMMDDTHHMMSS', () => {
    assert.equal(formatUtc(0), '19700101T000000');
    assert.equal(formatUtc(1389830399), '20140115T235959');
    assert.equal(formatUtc(-1), '19691231T235959');
    // 2024-02-29 = day 19723 + 59 = 19782; + 12:34:56 = 45296 s.
    assert.equal(formatUtc(19782 * DAY + 45296), '20240229T123456');
  });

  test('formatLocal applies the offset of the instant', () => {
    assert.equal(formatLocal(1711846799, PARIS), '20240331T015959'); // last CET second
    assert.equal(formatLocal(1711846800, PARIS), '20240331T030000'); // first CEST second
    assert.equal(formatLocal(1388880000, 'UTC'), '20140105T000000');
    assert.equal(formatLocal(1728142200, LORD_HOWE), '20241006T023000'); // 15:30Z + 11 h
  });
});

describe('day numbers and GTFS fields', () => {
  test('day numbers of known dates', () => {
    assert.equal(dayNumber(1970, 1, 1), 0);
    assert.equal(dayNumber(1969, 12, 31), -1);
    // 2000-01-01 = 30 × 365 + 7 (1972..1996) = 10957; 2000 is a leap year: Mar 1 = 10957 + 31 + 29 = 11017.
    assert.equal(dayNumber(2000, 1, 1), 10957);
    assert.equal(dayNumber(2000, 2, 29), 11016);
    assert.equal(dayNumber(2000, 3, 1), 11017);
    // 1900-01-01 = −(70 × 365 + 17 leap days 1904..1968) = −25567.
    assert.equal(dayNumber(1900, 1, 1), -25567);
    // 1900 and 2100 are not leap years: Feb 28 is followed by Mar 1.
    assert.equal(dayNumber(1900, 3, 1) - dayNumber(1900, 2, 28), 1);
    assert.equal(dayNumber(2100, 3, 1) - dayNumber(2100, 2, 28), 1);
    assert.equal(dayNumber(2024, 3, 1) - dayNumber(2024, 2, 28), 2);
    assert.equal(dayNumber(2024, 3, 31), 19813);
    // months and days outside their range carry over
    assert.equal(dayNumber(2023, 13, 1), 19723);
    assert.equal(dayNumber(2024, 0, 31), dayNumber(2023, 12, 31));
    assert.equal(dayNumber(2024, 3, 0), dayNumber(2024, 2, 29));
  });

  test('dateOfDayNumber inverts dayNumber and agrees with Date.UTC over 1900..2100', () => {
    assert.deepEqual(dateOfDayNumber(0), { y: 1970, m: 1, d: 1 });
    assert.deepEqual(dateOfDayNumber(11016), { y: 2000, m: 2, d: 29 });
    assert.deepEqual(dateOfDayNumber(-1), { y: 1969, m: 12, d: 31 });
    for (let day = -25567; day <= dayNumber(2100, 12, 31); day += 1) {
      const date = new Date(day * DAY * 1000);
      const expected = { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
      const got = dateOfDayNumber(day);
      if (got.y !== expected.y || got.m !== expected.m || got.d !== expected.d) assert.deepEqual(got, expected, `day ${day}`);
      if (dayNumber(got.y, got.m, got.d) !== day) assert.fail(`dayNumber(${got.y}, ${got.m}, ${got.d}) !== ${day}`);
    }
  });

  test('parseGtfsDate and formatDayNumber', () => {
    assert.equal(parseGtfsDate('19700101'), 0);
    assert.equal(parseGtfsDate('20240229'), 19782); // 19723 + 59
    assert.equal(parseGtfsDate(' 20240229 '), 19782);
    assert.equal(parseGtfsDate('20000301'), 11017);
    assert.equal(formatDayNumber(19782), '20240229');
    assert.equal(formatDayNumber(0), '19700101');
    assert.equal(formatDayNumber(-25567), '19000101');
    for (const bad of ['', '2024022', '202402290', '2024-02-29', '20230229', '21000229', '20241301', '20240001',
      '20240100', '20240431', '2024022x', '00000101', '+2024022']) {
      assert.equal(parseGtfsDate(bad), INVALID_GTFS_DATE, bad);
    }
  });

  test('parseGtfsTime reads H:MM:SS and HH:MM:SS with hours past 24', () => {
    assert.equal(parseGtfsTime('32:41:00'), 117660); // 32 × 3600 + 41 × 60 = 115200 + 2460
    assert.equal(parseGtfsTime(' 7:05:09'), 25509); // 25200 + 300 + 9
    assert.equal(parseGtfsTime('07:05:09'), 25509);
    assert.equal(parseGtfsTime('07:05:09 '), 25509);
    assert.equal(parseGtfsTime('\t07:05:09\t'), 25509);
    assert.equal(parseGtfsTime('00:00:00'), 0);
    assert.equal(parseGtfsTime('23:59:59'), 86399);
    assert.equal(parseGtfsTime('100:00:00'), 360000);
    for (const bad of ['', '   ', '7:5:09', '07:5:09', '07:05:9', '07:60:00', '07:00:60', '07:00', '07:00:00:00',
      'a7:00:00', '07-00-00', '-1:00:00', '07:00:0x', '07 :00:00', '1000:00:00', ':00:00', '07:00:00.5']) {
      assert.equal(parseGtfsTime(bad), INVALID_GTFS_TIME, JSON.stringify(bad));
    }
  });
});

describe('isValidTimeZone', () => {
  test('accepts IANA names and legacy aliases, refuses the rest', () => {
    for (const name of [PARIS, NEW_YORK, 'US/Pacific', 'UTC', 'Etc/GMT+1', KOLKATA]) assert.equal(isValidTimeZone(name), true, name);
    for (const name of ['Mars/Olympus', '', 'foo', '+01:00']) assert.equal(isValidTimeZone(name), false, name);
    // asked twice, same answers (cached)
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
    assert.equal(isValidTimeZone('US/Pacific'), true);
  });
});
