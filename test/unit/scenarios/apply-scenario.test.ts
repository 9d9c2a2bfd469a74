/**
 * The seven modifications on the town feed (test/helpers/town-app.ts), each trip's new times worked
 * out by hand from docs/scenarios.md; and the faults a scenario is refused for, each named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import type { Timetable } from '../../../src/model/timetable.js';
import { applyScenario, applyScenarioSteps, type AppliedScenario } from '../../../src/scenarios/apply-scenario.js';
import { readScenarioFile } from '../../../src/scenarios/scenario-file.js';
import { weekdayOf } from '../../../src/scenarios/scenario-calendars.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { TOWN } from '../../helpers/town-app.js';
import { dayNumber } from '../../../src/util/calendar.js';

const tt: Timetable = await loadTimetable([writeFeed(TOWN, 'town')]);
/** the town's production period: 2 January to 10 February 2024 */
const PERIOD = { firstDay: dayNumber(2024, 1, 2), lastDay: dayNumber(2024, 2, 10) };
const hms = (h: number, m: number, s = 0) => h * 3600 + m * 60 + s;

function apply(modifications: unknown[]): AppliedScenario {
  const read = readScenarioFile(JSON.stringify({ name: 'plan', modifications }));
  assert.deepEqual(read.errors, []);
  return applyScenario(tt, PERIOD, read.scenario, 'plan');
}

function tripOf(applied: AppliedScenario, id: string) {
  const trip = applied.trips.find((t) => t.id === id);
  assert.ok(trip, `${id} among ${applied.trips.map((t) => t.id).join(', ')}`);
  return trip;
}

const stopIds = (stops: number[]) => stops.map((p) => tt.stopPoints.ids[p] ?? `new${p - tt.stopPoints.ids.length}`);
const tripIndex = (id: string) => tt.trips.ids.indexOf(id);

test('remove-trips masks every trip of the route, and runs nothing instead', () => {
  const applied = assertNoErrors(apply([{ type: 'remove-trips', routes: ['B1'] }]));
  assert.deepEqual(masked(applied), ['B1-0800', 'B1-0900', 'B1-1700']);
  assert.deepEqual(applied.trips, []);
  assert.deepEqual(applied.summary, [{ index: 0, type: 'remove-trips', tripsRemoved: 3, tripsChanged: 0, tripsAdded: 0, stopsAdded: 0 }]);
});

test('adjust-speed divides each hop by the scale, rounded, and keeps the first arrival and the dwells', () => {
  const applied = assertNoErrors(apply([{ type: 'adjust-speed', trips: ['B1-0800'], scale: 2 }]));
  const trip = tripOf(applied, 'B1-0800');
  // hops 300, 300, 600 s become 150, 150, 300 s
  assert.deepEqual(trip.arrival, [hms(8, 0), hms(8, 2, 30), hms(8, 5), hms(8, 10)]);
  assert.deepEqual(trip.departure, trip.arrival);
  assert.equal(trip.source, tripIndex('B1-0800'));
  assert.deepEqual(masked(applied), ['B1-0800']);
  // scale 0.7: 300 / 0.7 = 428.57 → 429, 600 / 0.7 = 857.14 → 857
  const slower = tripOf(assertNoErrors(apply([{ type: 'adjust-speed', trips: ['B1-0800'], scale: 0.7 }])), 'B1-0800');
  assert.deepEqual(slower.arrival, [hms(8, 0), hms(8, 0) + 429, hms(8, 0) + 858, hms(8, 0) + 858 + 857]);
});

test('adjust-speed with hops changes those hops only, and a trip without them goes back to the timetable', () => {
  const applied = assertNoErrors(apply([{ type: 'adjust-speed', routes: ['B1'], scale: 3, hops: [['MARCHE', 'PARC']] }]));
  assert.deepEqual(masked(applied), ['B1-0800', 'B1-0900']);
  assert.deepEqual(tripOf(applied, 'B1-0900').arrival, [hms(9, 0), hms(9, 5), hms(9, 6, 40), hms(9, 16, 40)]);
});

test('adjust-dwell-time sets the dwell at the stops named and shifts what follows', () => {
  const applied = assertNoErrors(apply([{ type: 'adjust-dwell-time', trips: ['B1-0800'], stops: ['MARCHE'], dwellSecs: 30 }]));
  const trip = tripOf(applied, 'B1-0800');
  assert.deepEqual(trip.arrival, [hms(8, 0), hms(8, 5), hms(8, 10, 30), hms(8, 20, 30)]);
  assert.deepEqual(trip.departure, [hms(8, 0), hms(8, 5, 30), hms(8, 10, 30), hms(8, 20, 30)]);
});

test('remove-stops takes the stop out, less the seconds saved, and a trip of one stop left is removed', () => {
  const applied = assertNoErrors(apply([{ type: 'remove-stops', routes: ['B1'], stops: ['MARCHE'], secondsSavedAtEachStop: 20 }]));
  const trip = tripOf(applied, 'B1-0800');
  assert.deepEqual(stopIds(trip.stops), ['GARE_1', 'PARC', 'MUSEE']);
  // GARE_1 → PARC was 600 s through MARCHE (no dwell there), less 20 s
  assert.deepEqual(trip.arrival, [hms(8, 0), hms(8, 9, 40), hms(8, 19, 40)]);
  const back = tripOf(applied, 'B1-1700');
  assert.deepEqual(stopIds(back.stops), ['MUSEE', 'PARC', 'GARE_1']);
  assert.deepEqual(back.arrival, [hms(17, 0), hms(17, 10), hms(17, 19, 40)]);
  const short = assertNoErrors(apply([{ type: 'remove-stops', routes: ['B2'], stops: ['ECOLE'] }]));
  assert.deepEqual(masked(short), ['B2-1000', 'B2-1100']);
  assert.deepEqual(short.trips, []);
  assert.equal(short.summary[0]!.tripsRemoved, 2);
});

test('reroute splices new stops between fromStop and toStop, times from the hops and dwells given', () => {
  const applied = assertNoErrors(
    apply([{ type: 'reroute', routes: ['B1'], fromStop: 'MARCHE', toStop: 'MUSEE', stops: [{ lat: 45.012, lon: 5.004 }], dwellTimes: [10, 20, 30], hopTimes: [120, 240] }]),
  );
  // B1-1700 runs MUSEE → … → MARCHE: no toStop after fromStop, left alone
  assert.deepEqual(masked(applied), ['B1-0800', 'B1-0900']);
  const trip = tripOf(applied, 'B1-0800');
  assert.deepEqual(stopIds(trip.stops), ['GARE_1', 'MARCHE', 'new0', 'MUSEE']);
  assert.deepEqual(trip.arrival, [hms(8, 0), hms(8, 5), hms(8, 7, 10), hms(8, 11, 30)]);
  assert.deepEqual(trip.departure, [hms(8, 0), hms(8, 5, 10), hms(8, 7, 30), hms(8, 12)]);
  assert.deepEqual(applied.newStops, [{ id: 'scenario:plan:0:0', name: 'scenario:plan:0:0', lon: 5.004, lat: 45.012 }]);
  // without fromStop the arrival at toStop is kept and the new start timed backwards from it
  const start = tripOf(assertNoErrors(apply([{ type: 'reroute', trips: undefined, routes: ['B1'], toStop: 'PARC', stops: [{ id: 'ECOLE' }], dwellTimes: [0, 0], hopTimes: [400] }])), 'B1-0800');
  assert.deepEqual(stopIds(start.stops), ['ECOLE', 'PARC', 'MUSEE']);
  assert.deepEqual(start.arrival, [hms(8, 10) - 400, hms(8, 10), hms(8, 20)]);
});

test('adjust-frequency replaces the route by its entries, and keeps trips on days no entry covers', () => {
  const entry = { sourceTrip: 'B1-0800', startTime: hms(7, 0), endTime: hms(8, 30), headwaySecs: 1200, monday: true, tuesday: true, wednesday: true, thursday: true, friday: true };
  const applied = assertNoErrors(apply([{ type: 'adjust-frequency', route: 'B1', entries: [entry] }]));
  assert.deepEqual(masked(applied), ['B1-0800', 'B1-0900', 'B1-1700']);
  const starts = applied.trips.map((t) => t.departure[0]);
  assert.deepEqual(starts, [hms(7, 0), hms(7, 20), hms(7, 40), hms(8, 0), hms(8, 20)]);
  assert.deepEqual(applied.trips[1]!.arrival, [hms(7, 20), hms(7, 25), hms(7, 30), hms(7, 40)]);
  assert.deepEqual(applied.trips.map((t) => t.id), [0, 1, 2, 3, 4].map((j) => `scenario:plan:0:0:${j}`));
  // every trip of the entries runs Monday to Friday in the production period, and only then
  const days = runningDays(applied, applied.trips[0]!.service);
  assert.equal(days.length, 29);
  assert.ok(days.every((d) => weekdayOf(d) < 5));
  // retained: B1-0800 starts in the entry (Saturday the 6th left), B1-0900 and B1-1700 do not (kept whole)
  const retained = assertNoErrors(apply([{ type: 'adjust-frequency', route: 'B1', entries: [entry], retainTripsOutsideFrequencyEntries: true }]));
  assert.deepEqual(masked(retained), ['B1-0800']);
  assert.deepEqual(runningDays(retained, tripOf(retained, 'B1-0800').service), [dayNumber(2024, 1, 6)]);
});

test('add-trips runs each start in both directions, reversed, on the weekdays of the production period', () => {
  const applied = assertNoErrors(
    apply([
      {
        type: 'add-trips',
        name: 'Ligne nouvelle',
        stops: [{ id: 'GARE_1' }, { lat: 45.006, lon: 5.001, name: 'Nouvelle' }, { id: 'PARC' }],
        frequencies: [{ startTime: hms(6, 0), endTime: hms(6, 30), headwaySecs: 600, hopTimes: [100, 200], dwellTimes: [0, 30, 0], saturday: true }],
        mode: 0,
      },
    ]),
  );
  assert.equal(applied.trips.length, 6);
  const forward = tripOf(applied, 'scenario:plan:0:0:0:1');
  assert.deepEqual(stopIds(forward.stops), ['GARE_1', 'new0', 'PARC']);
  assert.deepEqual(forward.arrival, [hms(6, 10), hms(6, 10) + 100, hms(6, 10) + 330]);
  const back = tripOf(applied, 'scenario:plan:0:1:0:0');
  assert.deepEqual(stopIds(back.stops), ['PARC', 'new0', 'GARE_1']);
  assert.deepEqual(back.arrival, [hms(6, 0), hms(6, 0) + 200, hms(6, 0) + 330]);
  assert.deepEqual(back.departure, [hms(6, 0), hms(6, 0) + 230, hms(6, 0) + 330]);
  assert.deepEqual(applied.newLines, [{ id: 'scenario:plan:0', name: 'Ligne nouvelle', mode: 0, modification: 0 }]);
  assert.equal(forward.line, tt.lines.length);
  // the Saturdays from 2 January to 10 February
  assert.deepEqual(runningDays(applied, forward.service), [6, 13, 20, 27, 34, 41].map((d) => dayNumber(2024, 1, 1) + d - 1));
  assert.deepEqual(applied.newStops[0], { id: 'scenario:plan:0:1', name: 'Nouvelle', lon: 5.001, lat: 45.006 });
});

test('a phased entry passes its stop the given seconds after the other entry passes its own', () => {
  const stops = [{ id: 'GARE_1' }, { id: 'MARCHE' }, { id: 'PARC' }];
  const a = { entryId: 'a', startTime: hms(7, 0), endTime: hms(8, 0), headwaySecs: 900, hopTimes: [300, 300], dwellTimes: [0, 0, 0], monday: true };
  const b = { ...a, entryId: 'b', startTime: hms(7, 0), phaseFromTimetable: 'a', phaseFromStop: 'PARC', phaseAtStop: 'MARCHE', phaseSeconds: 120 };
  const applied = assertNoErrors(
    apply([
      { type: 'add-trips', stops, frequencies: [a], bidirectional: false },
      { type: 'add-trips', stops, frequencies: [b], bidirectional: false },
    ]),
  );
  // a passes PARC at 07:10 + k·15 min; b must pass MARCHE at 07:12 + k·15 min: it starts at 07:07
  const bStarts = applied.trips.filter((t) => t.id.startsWith('scenario:plan:1:')).map((t) => t.departure[0]);
  assert.deepEqual(bStarts, [hms(7, 7), hms(7, 22), hms(7, 37), hms(7, 52)]);
});

test('a frequency trip of the timetable keeps its runs when changed', () => {
  const applied = assertNoErrors(apply([{ type: 'adjust-speed', routes: ['T1'], scale: 2 }]));
  const trip = tripOf(applied, 'T1-FREQ');
  assert.deepEqual(trip.arrival, [hms(6, 5), hms(6, 15)]);
  assert.deepEqual(trip.shifts, [0, 600, 1200, 1800, 2400, 3000]);
});

test('every fault is named by modification, field and value, and the scenario is refused', () => {
  const read = readScenarioFile(
    JSON.stringify({
      modifications: [
        { type: 'add-trips', stops: [{ id: 'GARE_1' }, { id: 'PARC' }], frequencies: [{ startTime: 100, endTime: 50, headwaySecs: -5, hopTimes: [1, 2], dwellTimes: [0, 0], monday: true }] },
        { type: 'teleport' },
        { type: 'adjust-speed', routes: ['B1'], scale: 0 },
        { type: 'remove-trips', routes: ['B1'], trips: ['B1-0800'] },
        { type: 'reroute', routes: ['B1'], stops: [], dwellTimes: [], hopTimes: [] },
        { type: 'remove-trips', routes: ['B1'], colour: 'red' },
      ],
    }),
  );
  assert.deepEqual(
    read.errors.map((e) => [e.modification, e.field, e.reason]),
    [
      [0, 'frequencies[0].headwaySecs', 'a headway is whole seconds above 0'],
      [0, 'frequencies[0].endTime', 'endTime must be after startTime (100)'],
      [0, 'frequencies[0].hopTimes', '1 values are required, 2 given'],
      [1, 'type', 'unknown type; one of adjust-speed, adjust-dwell-time, remove-stops, reroute, adjust-frequency, remove-trips, add-trips'],
      [2, 'scale', 'a number above 0 is required'],
      [3, 'routes', 'give exactly one of routes, patterns and trips'],
      [4, 'fromStop', 'at least one of fromStop and toStop is required'],
      [5, 'colour', 'unknown field'],
    ],
  );
  assert.match(readScenarioFile('{"modifications": [').errors[0]!.reason, /^not JSON: /);
  const unknown = applyScenario(tt, PERIOD, readScenarioFile(JSON.stringify({ modifications: [{ type: 'remove-trips', routes: ['B9'] }, { type: 'adjust-speed', trips: ['B1-0800'], scale: 2, hops: [['GARE_1', 'PARC']] }] })).scenario, 'plan');
  assert.deepEqual(
    unknown.errors.map((e) => [e.modification, e.field, e.value, e.reason]),
    [
      [1, 'hops', ['GARE_1', 'PARC'], 'no chosen trip runs this hop'],
      [0, 'routes', 'B9', 'no route of the coverage has this id'],
    ],
  );
});

test('a scenario past its budget is refused with the limit named', () => {
  const read = readScenarioFile(JSON.stringify({ modifications: [{ type: 'add-trips', stops: [{ id: 'GARE_1' }, { id: 'PARC' }], frequencies: [{ startTime: 0, endTime: 86400, headwaySecs: 60, hopTimes: [60], dwellTimes: [0, 0], monday: true }] }] }));
  const applied = applyScenario(tt, PERIOD, read.scenario, 'plan', { maxFileBytes: 1e6, maxModifications: 10, maxTrips: 1000, maxStopTimes: 1e6, maxNewStops: 10 });
  assert.deepEqual(applied.errors.map((e) => e.reason), ['the scenario asks too much: more than 1000 trips added or changed']);
});

function assertNoErrors(applied: AppliedScenario): AppliedScenario {
  assert.deepEqual(applied.errors, []);
  return applied;
}

function masked(applied: AppliedScenario): string[] {
  return [...applied.masked].flatMap((m, t) => (m ? [tt.trips.ids[t]!] : []));
}

/** Day numbers on which calendar s of the scenario (the timetable's or a new one) runs. */
function runningDays(applied: AppliedScenario, s: number): number[] {
  const { words, firstDay, dayCount, ids, bits } = tt.services;
  const row = s < ids.length ? bits.subarray(s * words, (s + 1) * words) : applied.newServiceBits.subarray((s - ids.length) * words, (s - ids.length + 1) * words);
  const days: number[] = [];
  for (let d = 0; d < dayCount; d++) if ((row[d >>> 5]! >>> (d & 31)) & 1) days.push(firstDay + d);
  return days;
}

test('ids in R5\'s feed-scoped form (the feed\'s key, then its id) name the same objects', () => {
  const scoped = assertNoErrors(apply([{ type: 'adjust-speed', routes: ['town:B1'], scale: 2, hops: [['town:MARCHE', 'town:PARC']] }]));
  const plain = assertNoErrors(apply([{ type: 'adjust-speed', routes: ['B1'], scale: 2, hops: [['MARCHE', 'PARC']] }]));
  assert.deepEqual(scoped.trips, plain.trips);
  const unknown = applyScenario(tt, PERIOD, readScenarioFile(JSON.stringify({ modifications: [{ type: 'remove-trips', routes: ['other:B1'] }] })).scenario, 'plan');
  assert.deepEqual(unknown.errors.map((e) => [e.field, e.value]), [['routes', 'other:B1']]);
});

test('a reroute whose stops no chosen pattern visits in that order is refused, naming the stop', () => {
  const read = readScenarioFile(JSON.stringify({ modifications: [{ type: 'reroute', routes: ['B2'], fromStop: 'MARCHE', toStop: 'PARC', stops: [], dwellTimes: [0, 0], hopTimes: [60] }] }));
  const applied = applyScenario(tt, PERIOD, read.scenario, 'plan');
  assert.deepEqual(
    applied.errors.map((e) => [e.modification, e.field, e.value, e.reason]),
    [[0, 'fromStop', 'MARCHE', 'a chosen pattern does not visit this stop (and toStop after fromStop)']],
  );
  // chosen by pattern, one that does not visit them refuses it too
  const byPattern = applyScenario(tt, PERIOD, readScenarioFile(JSON.stringify({ modifications: [{ type: 'reroute', patterns: ['B1-1700'], fromStop: 'MARCHE', toStop: 'MUSEE', stops: [], dwellTimes: [0, 0], hopTimes: [60] }] })).scenario, 'plan');
  assert.equal(byPattern.errors[0]!.reason, 'a chosen pattern does not visit this stop (and toStop after fromStop)');
});

test('applying gives the event loop a turn every 256 trips it looks at, not only between modifications', () => {
  // one modification making 2 × 1,440 trips (every minute of a day, both ways): one step alone would hold the loop
  const read = readScenarioFile(JSON.stringify({ modifications: [{ type: 'add-trips', stops: [{ id: 'GARE_1' }, { id: 'PARC' }], frequencies: [{ startTime: 0, endTime: 86400, headwaySecs: 60, hopTimes: [60], dwellTimes: [0, 0], monday: true }] }] }));
  const steps = applyScenarioSteps(tt, PERIOD, read.scenario, 'plan');
  let yields = 0;
  for (let step = steps.next(); !step.done; step = steps.next()) yields++;
  assert.equal(yields, Math.floor(2880 / 256) + 1);
});
