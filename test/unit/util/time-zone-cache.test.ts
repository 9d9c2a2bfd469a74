/** The time-zone offsets' cache (util/time-zones.ts) is bounded: days per zone and zones, counted, the one used longest ago dropped. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidTimeZone, TIME_ZONE_DAYS_KEPT, TIME_ZONES_KEPT, timeZoneCacheSize, utcOffsetSec } from '../../../src/util/time-zones.js';

const DAY = 86_400;

test('a zone keeps at most TIME_ZONE_DAYS_KEPT days, and a day used again stays while older ones go', () => {
  const first = 20_080 * DAY; // 2024-12-23, winter time
  utcOffsetSec('Europe/Paris', first);
  for (let d = 1; d <= TIME_ZONE_DAYS_KEPT + 500; d++) {
    utcOffsetSec('Europe/Paris', first + d * DAY);
    // the first day is used at every step: it is never the one used longest ago
    if (d % 2 === 0) utcOffsetSec('Europe/Paris', first);
  }
  assert.deepEqual(timeZoneCacheSize(), { zones: 1, days: TIME_ZONE_DAYS_KEPT });
  assert.equal(utcOffsetSec('Europe/Paris', first + 12 * 3600), 3600);
});

test('at most TIME_ZONES_KEPT known zones and as many unknown names', () => {
  const zones = Intl.supportedValuesOf('timeZone').slice(0, TIME_ZONES_KEPT + 10);
  for (const zone of zones) utcOffsetSec(zone, 0);
  for (let k = 0; k < TIME_ZONES_KEPT + 10; k++) assert.equal(isValidTimeZone(`Nowhere/Zone${k}`), false);
  assert.equal(timeZoneCacheSize().zones, 2 * TIME_ZONES_KEPT);
});
