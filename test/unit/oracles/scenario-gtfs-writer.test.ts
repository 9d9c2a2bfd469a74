/**
 * The GTFS oracle of scenarios (test/oracles/scenario-gtfs/) on a feed of five stops, each expected
 * stop time worked out by hand from docs/scenarios.md. The written feed is read back with csv-parse,
 * not with the oracle's own reader.
 *
 * Trip T1 (route R1, weekdays): S1 8:00:00 | S2 8:02:00–8:02:30 | S3 8:05:31–8:06:00 | S4 8:10:00 |
 * S5 8:10:00: hops 120, 181, 240, 0 s; dwells 0, 30, 29, 0, 0.
 * T2 (R1): S1 9:00:00, S2 untimed (shape distance 300 of 1000: 9:03:00), S3 9:10:00.
 * T3 (R1, weekends): S1 10:00:00, S2 10:02:00, S3 10:05:00. U1 (R2): S5 7:00:00, S4 7:03:00–7:03:20, S3 7:06:20.
 * WK runs Monday to Friday from 2024-01-01 (a Monday) to 2024-01-12, except Wednesday 01-03; WE runs
 * the weekends and Monday 01-15: the production period is 20240101–20240115.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { writeZip } from '../../helpers/zip-writer.js';
import { writeScenarioFeed, type WriteReport } from '../../oracles/scenario-gtfs/index.js';

const FEED = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Agency,http://a.example,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
S1,"First, stop",48.0,2.00
S2,Second,48.0,2.01
S3,Third,48.0,2.02
S4,Fourth,48.0,2.03
S5,Fifth,48.0,2.04
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
R1,A,1,,3
R2,A,2,,0
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WK,1,1,1,1,1,0,0,20240101,20240112
WE,0,0,0,0,0,1,1,20240101,20240114
# calendar_dates.txt
service_id,date,exception_type
WK,20240103,2
WE,20240115,1
# trips.txt
route_id,service_id,trip_id,block_id
R1,WK,T1,B1
R1,WK,T2,
R1,WE,T3,
R2,WK,U1,
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
T1,08:00:00,08:00:00,S1,1,
T1,08:02:00,08:02:30,S2,2,
T1,08:05:31,08:06:00,S3,3,
T1,08:10:00,08:10:00,S4,4,
T1,08:10:00,08:10:00,S5,5,
T2,09:00:00,09:00:00,S1,1,0
T2,,,S2,2,300
T2,09:10:00,09:10:00,S3,3,1000
T3,10:00:00,10:00:00,S1,1,
T3,10:02:00,10:02:00,S2,2,
T3,10:05:00,10:05:00,S3,3,
U1,07:00:00,07:00:00,S5,1,
U1,07:03:00,07:03:20,S4,2,
U1,07:06:20,07:06:20,S3,3,
# frequencies.txt
trip_id,start_time,end_time,headway_secs
U1,07:00:00,09:00:00,1200
# shapes.txt
shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
SH,48.0,2.0,1
`);

const T1_ORIGINAL = [
  ['S1', '08:00:00', '08:00:00'],
  ['S2', '08:02:00', '08:02:30'],
  ['S3', '08:05:31', '08:06:00'],
  ['S4', '08:10:00', '08:10:00'],
  ['S5', '08:10:00', '08:10:00'],
];

interface Written {
  dir: string;
  report: WriteReport;
}

async function write(modifications: unknown[], feedKey?: string, feed = FEED): Promise<Written> {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-oracle-out-'));
  const report = await writeScenarioFeed(feed, { modifications }, dir, { scenarioName: 'test', ...(feedKey ? { feedKey } : {}) });
  return { dir, report };
}

function table(dir: string, name: string): Record<string, string>[] {
  return parse(readFileSync(path.join(dir, name)), { columns: true, bom: true }) as Record<string, string>[];
}

/** The trip's [stop_id, arrival_time, departure_time] rows in stop_sequence order. */
function stopTimes(dir: string, tripId: string): string[][] {
  return table(dir, 'stop_times.txt')
    .filter((r) => r['trip_id'] === tripId)
    .sort((a, b) => Number(a['stop_sequence']) - Number(b['stop_sequence']))
    .map((r) => [r['stop_id']!, r['arrival_time']!, r['departure_time']!]);
}

function tripIds(dir: string): string[] {
  return table(dir, 'trips.txt').map((r) => r['trip_id']!);
}

describe('adjust-speed', () => {
  test('scale 2 halves every hop, half seconds rounded up; dwells and the first arrival kept', async () => {
    const { dir, report } = await write([{ type: 'adjust-speed', trips: ['T1'], scale: 2 }]);
    // hops 120, 181, 240, 0 → 60, 91 (90.5 rounds up), 120, 0
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:01:00', '8:01:30'],
      ['S3', '8:03:01', '8:03:30'],
      ['S4', '8:05:30', '8:05:30'],
      ['S5', '8:05:30', '8:05:30'],
    ]);
    assert.equal(report.tripsChanged, 1);
    assert.deepEqual(stopTimes(dir, 'T3'), [
      ['S1', '10:00:00', '10:00:00'],
      ['S2', '10:02:00', '10:02:00'],
      ['S3', '10:05:00', '10:05:00'],
    ]);
  });

  test('with hops, only the hops named change', async () => {
    const { dir } = await write([{ type: 'adjust-speed', trips: ['T1'], scale: 2, hops: [['S2', 'S3']] }]);
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:02:00', '8:02:30'],
      ['S3', '8:04:01', '8:04:30'],
      ['S4', '8:08:30', '8:08:30'],
      ['S5', '8:08:30', '8:08:30'],
    ]);
  });

  test('scaleDwells divides the dwells too; an untimed stop is interpolated by shape distance first', async () => {
    const { dir } = await write([{ type: 'adjust-speed', routes: ['R1'], scale: 2, scaleDwells: true }]);
    // dwells 30 → 15 and 29 → 14.5 → 15
    assert.deepEqual(stopTimes(dir, 'T1').slice(0, 3), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:01:00', '8:01:15'],
      ['S3', '8:02:46', '8:03:01'],
    ]);
    // T2: S2 at 9:03:00 (300 of 1000 m of a 600 s run); hops 180 and 420 → 90 and 210
    assert.deepEqual(stopTimes(dir, 'T2'), [
      ['S1', '9:00:00', '9:00:00'],
      ['S2', '9:01:30', '9:01:30'],
      ['S3', '9:05:00', '9:05:00'],
    ]);
  });
});

describe('adjust-dwell-time', () => {
  test('dwellSecs at the stops named; hops kept, the times after follow', async () => {
    const { dir } = await write([{ type: 'adjust-dwell-time', routes: ['R1'], stops: ['S2'], dwellSecs: 60 }]);
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:02:00', '8:03:00'],
      ['S3', '8:06:01', '8:06:30'],
      ['S4', '8:10:30', '8:10:30'],
      ['S5', '8:10:30', '8:10:30'],
    ]);
    assert.deepEqual(stopTimes(dir, 'T2'), [
      ['S1', '9:00:00', '9:00:00'],
      ['S2', '9:03:00', '9:04:00'],
      ['S3', '9:11:00', '9:11:00'],
    ]);
    assert.equal(stopTimes(dir, 'U1')[0]![1], '07:00:00', 'another route is left as the feed has it');
  });

  test('scale multiplies every dwell when no stop is named', async () => {
    const { dir } = await write([{ type: 'adjust-dwell-time', trips: ['T1'], scale: 1.5 }]);
    // dwells 30 → 45, 29 → 43.5 → 44
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:02:00', '8:02:45'],
      ['S3', '8:05:46', '8:06:30'],
      ['S4', '8:10:30', '8:10:30'],
      ['S5', '8:10:30', '8:10:30'],
    ]);
  });
});

describe('remove-stops', () => {
  test('the hop over a removed stop loses its dwell and secondsSavedAtEachStop; other hops kept, 0 s ones too', async () => {
    const { dir } = await write([{ type: 'remove-stops', routes: ['R1'], stops: ['S2'], secondsSavedAtEachStop: 20 }]);
    // S1 → S3: 331 s − dwell 30 − 20 = 281
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S3', '8:04:41', '8:05:10'],
      ['S4', '8:09:10', '8:09:10'],
      ['S5', '8:09:10', '8:09:10'],
    ]);
  });

  test('a hop is at least 1 s', async () => {
    const { dir } = await write([{ type: 'remove-stops', routes: ['R1'], stops: ['S2'], secondsSavedAtEachStop: 400 }]);
    assert.deepEqual(stopTimes(dir, 'T1').slice(0, 2), [
      ['S1', '8:00:00', '8:00:00'],
      ['S3', '8:00:01', '8:00:30'],
    ]);
  });

  test('the first kept stop keeps its times; a trip left with one stop is removed, with its frequencies', async () => {
    const { dir, report } = await write([
      { type: 'remove-stops', routes: ['R1'], stops: ['S1'] },
      { type: 'remove-stops', routes: ['R2'], stops: ['S3', 'S4'] },
    ]);
    assert.deepEqual(stopTimes(dir, 'T1').slice(0, 2), [
      ['S2', '8:02:00', '8:02:30'],
      ['S3', '8:05:31', '8:06:00'],
    ]);
    assert.ok(!tripIds(dir).includes('U1'));
    assert.deepEqual(stopTimes(dir, 'U1'), []);
    assert.deepEqual(table(dir, 'frequencies.txt'), []);
    assert.deepEqual(
      report.modifications.map((m) => [m.tripsChanged, m.tripsRemoved]),
      [
        [3, 0],
        [0, 1],
      ],
    );
  });
});

describe('reroute', () => {
  test('between fromStop and toStop: new stops, the given dwells and hops, then the trip’s own', async () => {
    const { dir, report } = await write([
      { type: 'reroute', routes: ['R1'], fromStop: 'S2', toStop: 'S4', stops: [{ lat: 48.001, lon: 2.025, name: 'Mid' }], dwellTimes: [40, 15, 10], hopTimes: [100, 200] },
    ]);
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:02:00', '8:02:40'],
      ['scenario:test:0:0', '8:04:20', '8:04:35'],
      ['S4', '8:07:55', '8:08:05'],
      ['S5', '8:08:05', '8:08:05'],
    ]);
    // T2 and T3 do not visit S4: left as the feed has them (T2's S2 still untimed)
    assert.deepEqual(stopTimes(dir, 'T2')[1], ['S2', '', '']);
    assert.deepEqual(report.newStopIds, ['scenario:test:0:0']);
    const mid = table(dir, 'stops.txt').find((s) => s['stop_id'] === 'scenario:test:0:0');
    assert.deepEqual(mid, { stop_id: 'scenario:test:0:0', stop_name: 'Mid', stop_lat: '48.001', stop_lon: '2.025', location_type: '0' });
  });

  test('without fromStop, the start up to toStop is replaced, timed backwards from its arrival', async () => {
    const { dir } = await write([{ type: 'reroute', patterns: ['T1'], toStop: 'S3', stops: [{ id: 'S5' }], dwellTimes: [10, 20], hopTimes: [100] }]);
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S5', '8:03:41', '8:03:51'],
      ['S3', '8:05:31', '8:05:51'],
      ['S4', '8:09:51', '8:09:51'],
      ['S5', '8:09:51', '8:09:51'],
    ]);
  });

  test('without toStop, the end after fromStop is replaced', async () => {
    const { dir } = await write([{ type: 'reroute', routes: ['R1'], fromStop: 'S3', stops: [{ id: 'S5' }], dwellTimes: [5, 0], hopTimes: [300] }]);
    assert.deepEqual(stopTimes(dir, 'T1'), [
      ['S1', '8:00:00', '8:00:00'],
      ['S2', '8:02:00', '8:02:30'],
      ['S3', '8:05:31', '8:05:36'],
      ['S5', '8:10:36', '8:10:36'],
    ]);
    assert.deepEqual(stopTimes(dir, 'T3'), [
      ['S1', '10:00:00', '10:00:00'],
      ['S2', '10:02:00', '10:02:00'],
      ['S3', '10:05:00', '10:05:05'],
      ['S5', '10:10:05', '10:10:05'],
    ]);
  });

  test('a pattern named that does not visit the anchors is refused', async () => {
    await assert.rejects(write([{ type: 'reroute', patterns: ['T2'], fromStop: 'S3', toStop: 'S4', stops: [], dwellTimes: [0, 0], hopTimes: [60] }]), /does not visit/);
  });
});

describe('adjust-frequency', () => {
  test('every trip of the route is removed; each start runs the source trip, the first dwell dropped', async () => {
    const { dir, report } = await write([
      { type: 'adjust-frequency', route: 'R1', entries: [{ sourceTrip: 'T1', startTime: 21600, endTime: 23400, headwaySecs: 900, monday: true, tuesday: true, wednesday: true, thursday: true, friday: true }] },
    ]);
    assert.deepEqual(tripIds(dir), ['U1', 'scenario:test:0:0:0', 'scenario:test:0:0:1']);
    assert.deepEqual(stopTimes(dir, 'scenario:test:0:0:1'), [
      ['S1', '6:15:00', '6:15:00'],
      ['S2', '6:17:00', '6:17:30'],
      ['S3', '6:20:31', '6:21:00'],
      ['S4', '6:25:00', '6:25:00'],
      ['S5', '6:25:00', '6:25:00'],
    ]);
    const added = table(dir, 'trips.txt').find((t) => t['trip_id'] === 'scenario:test:0:0:0')!;
    assert.deepEqual(added, { route_id: 'R1', service_id: 'scenario-oracle-weekdays-1111100', trip_id: 'scenario:test:0:0:0', block_id: '' });
    assert.deepEqual(table(dir, 'calendar.txt').at(-1), {
      service_id: 'scenario-oracle-weekdays-1111100',
      monday: '1',
      tuesday: '1',
      wednesday: '1',
      thursday: '1',
      friday: '1',
      saturday: '0',
      sunday: '0',
      start_date: '20240101',
      end_date: '20240115',
    });
    assert.deepEqual([report.tripsAdded, report.tripsRemoved, report.productionPeriod], [2, 3, { start: '20240101', end: '20240115' }]);
  });

  test('retainTripsOutsideFrequencyEntries keeps a trip on the weekdays its departure is not covered', async () => {
    const { dir, report } = await write([
      {
        type: 'adjust-frequency',
        route: 'R1',
        retainTripsOutsideFrequencyEntries: true,
        entries: [
          { sourceTrip: 'T1', startTime: 28800, endTime: 30600, headwaySecs: 900, monday: true, tuesday: true },
          // firstDepartures entries never cover a trip
          { sourceTrip: 'T2', firstDepartures: [28800], wednesday: true },
        ],
      },
    ]);
    const trips = new Map(table(dir, 'trips.txt').map((t) => [t['trip_id'], t['service_id']]));
    // T1 leaves at 8:00, inside [8:00, 8:30) on Mondays and Tuesdays; T2 (9:00) and T3 (10:00) are not covered
    assert.equal(trips.get('T1'), 'scenario-oracle-retain-WK-without-1100000');
    assert.equal(trips.get('T2'), 'WK');
    assert.equal(trips.get('T3'), 'WE');
    assert.deepEqual(
      table(dir, 'calendar_dates.txt')
        .filter((r) => r['service_id'] === 'scenario-oracle-retain-WK-without-1100000')
        .map((r) => [r['date'], r['exception_type']]),
      [
        ['20240104', '1'],
        ['20240105', '1'],
        ['20240110', '1'],
        ['20240111', '1'],
        ['20240112', '1'],
      ],
    );
    assert.deepEqual([report.tripsAdded, report.tripsRemoved, report.tripsChanged], [3, 0, 1]);
    assert.deepEqual(stopTimes(dir, 'scenario:test:0:1:0')[0], ['S1', '8:00:00', '8:00:00']);
  });

  test('the modifications before it in R5’s order apply first, whatever the file’s order', async () => {
    const { dir } = await write([
      { type: 'adjust-frequency', route: 'R1', entries: [{ sourceTrip: 'T1', firstDepartures: [21600], monday: true }] },
      { type: 'adjust-speed', routes: ['R1'], scale: 2 },
    ]);
    assert.deepEqual(stopTimes(dir, 'scenario:test:0:0:0').slice(0, 3), [
      ['S1', '6:00:00', '6:00:00'],
      ['S2', '6:01:00', '6:01:30'],
      ['S3', '6:03:01', '6:03:30'],
    ]);
  });
});

describe('add-trips', () => {
  const express = {
    type: 'add-trips',
    name: 'Express',
    mode: 0,
    stops: [{ id: 'S1' }, { lat: 48.002, lon: 2.01 }, { id: 'S3' }],
    frequencies: [{ startTime: 25200, endTime: 26400, headwaySecs: 600, hopTimes: [120, 180], dwellTimes: [0, 30, 10], monday: true, friday: true }],
  };

  test('a new line, a new stop and timed trips both ways (bidirectional by default)', async () => {
    const { dir, report } = await write([express]);
    assert.deepEqual(stopTimes(dir, 'scenario:test:0:0:0:1'), [
      ['S1', '7:10:00', '7:10:00'],
      ['scenario:test:0:1', '7:12:00', '7:12:30'],
      ['S3', '7:15:30', '7:15:40'],
    ]);
    // the reverse: stops, hops and dwells reversed, the same starts
    assert.deepEqual(stopTimes(dir, 'scenario:test:0:1:0:0'), [
      ['S3', '7:00:00', '7:00:10'],
      ['scenario:test:0:1', '7:03:10', '7:03:40'],
      ['S1', '7:05:40', '7:05:40'],
    ]);
    assert.deepEqual(
      table(dir, 'trips.txt')
        .filter((t) => t['route_id'] === 'scenario:test:0')
        .map((t) => [t['trip_id'], t['direction_id'], t['service_id']]),
      [
        ['scenario:test:0:0:0:0', '0', 'scenario-oracle-weekdays-1000100'],
        ['scenario:test:0:0:0:1', '0', 'scenario-oracle-weekdays-1000100'],
        ['scenario:test:0:1:0:0', '1', 'scenario-oracle-weekdays-1000100'],
        ['scenario:test:0:1:0:1', '1', 'scenario-oracle-weekdays-1000100'],
      ],
    );
    assert.deepEqual(table(dir, 'routes.txt').at(-1), { route_id: 'scenario:test:0', agency_id: 'A', route_short_name: 'Express', route_long_name: '', route_type: '0' });
    assert.deepEqual(table(dir, 'stops.txt').at(-1), { stop_id: 'scenario:test:0:1', stop_name: 'scenario:test:0:1', stop_lat: '48.002', stop_lon: '2.01', location_type: '0' });
    assert.deepEqual([report.tripsAdded, report.newStopIds, report.newRouteIds], [4, ['scenario:test:0:1'], ['scenario:test:0']]);
  });

  test('directionId 1 and bidirectional false: one direction, named 1', async () => {
    const { dir } = await write([{ ...express, bidirectional: false, directionId: 1 }]);
    assert.deepEqual(
      table(dir, 'trips.txt')
        .filter((t) => t['route_id'] === 'scenario:test:0')
        .map((t) => [t['trip_id'], t['direction_id']]),
      [
        ['scenario:test:0:1:0:0', '1'],
        ['scenario:test:0:1:0:1', '1'],
      ],
    );
  });

  test('a phased entry passes its stop phaseSeconds after the other entry’s trips pass theirs', async () => {
    const base = { type: 'add-trips', bidirectional: false };
    const a = { entryId: 'a', startTime: 21600, endTime: 25200, headwaySecs: 600, hopTimes: [300, 300], dwellTimes: [0, 60, 0], monday: true };
    const phased = (startTime: number) => ({
      ...base,
      stops: [{ id: 'S5' }, { id: 'S4' }, { id: 'S2' }],
      frequencies: [{ startTime, endTime: 24000, headwaySecs: 600, hopTimes: [100, 200], dwellTimes: [0, 0, 0], monday: true, phaseFromTimetable: 'a', phaseFromStop: 'S2', phaseAtStop: 'S2', phaseSeconds: 120 }],
    });
    const starts = async (startTime: number) => {
      const { dir } = await write([{ ...base, stops: [{ id: 'S1' }, { id: 'S2' }, { id: 'S3' }], frequencies: [a] }, phased(startTime)]);
      return table(dir, 'trips.txt')
        .filter((t) => t['route_id'] === 'scenario:test:1')
        .map((t) => stopTimes(dir, t['trip_id']!)[0]![1]);
    };
    // a reaches S2 300 s after its start: 6:05:00, 6:15:00…; the phased trips pass S2 at 6:07:00,
    // 6:17:00… and reach it 300 s after their start: A = 21600 + 300 + 120 − 300 = 21720 (6:02:00)
    assert.deepEqual(await starts(21000), ['5:52:00', '6:02:00', '6:12:00', '6:22:00', '6:32:00']);
    // (21720 − 22000) mod 600 is taken non-negative: 320
    assert.deepEqual(await starts(22000), ['6:12:00', '6:22:00', '6:32:00']);
  });
});

describe('remove-trips and the files', () => {
  test('feedKey:id is read as the id; the frequencies of removed trips go; other files are copied as they are', async () => {
    const { dir, report } = await write([{ type: 'remove-trips', routes: ['town:R2'] }], 'town');
    assert.deepEqual(tripIds(dir), ['T1', 'T2', 'T3']);
    assert.deepEqual(table(dir, 'frequencies.txt'), []);
    assert.equal(readFileSync(path.join(dir, 'shapes.txt'), 'utf8'), readFileSync(path.join(FEED, 'shapes.txt'), 'utf8'));
    assert.equal(table(dir, 'stops.txt')[0]!['stop_name'], 'First, stop');
    assert.match(readFileSync(path.join(dir, 'stops.txt'), 'utf8'), /^S1,"First, stop",48\.0,2\.00$/m);
    assert.deepEqual([report.tripsBefore, report.tripsAfter, report.tripsRemoved], [4, 3, 1]);
    // untouched trips keep their rows exactly as the feed wrote them
    assert.deepEqual(stopTimes(dir, 'T1'), T1_ORIGINAL);
  });

  test('patterns choose every trip with the same stops on the same route', async () => {
    const { dir } = await write([{ type: 'remove-trips', patterns: ['T3'] }]);
    // T2 runs S1 S2 S3 as T3 does
    assert.deepEqual(tripIds(dir), ['T1', 'U1']);
  });

  test('an unknown id or type refuses the scenario', async () => {
    await assert.rejects(write([{ type: 'remove-trips', routes: ['R9'] }]), /modification 0 \(remove-trips\).*unknown route id R9/);
    await assert.rejects(write([{ type: 'adjust-speed', routes: ['R1'], scale: 2 }, { type: 'teleport' }]), /modification 1: unknown type "teleport"/);
  });

  test('a zip is read as its folder is', async () => {
    const zip = path.join(mkdtempSync(path.join(tmpdir(), 'navette-oracle-zip-')), 'feed.zip');
    await writeZip(
      zip,
      readdirSync(FEED).map((name) => ({ name: `gtfs/${name}`, chunks: [readFileSync(path.join(FEED, name))] })),
    );
    const fromZip = await write([{ type: 'adjust-speed', trips: ['T1'], scale: 2 }], undefined, zip);
    const fromFolder = await write([{ type: 'adjust-speed', trips: ['T1'], scale: 2 }]);
    for (const name of readdirSync(fromFolder.dir)) {
      assert.equal(readFileSync(path.join(fromZip.dir, name), 'utf8'), readFileSync(path.join(fromFolder.dir, name), 'utf8'), name);
    }
  });
});
