import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { FeedError, LoadReport } from '../../../src/gtfs/load-report.js';
import { INTERPOLATED_BIT, OdtLevel, serviceRunsOn, type Timetable } from '../../../src/model/timetable.js';
import { dayNumber } from '../../../src/util/calendar.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';

/*
 * A small town feed:
 *
 *   S1 ──── S2 ──── S3 ──── S4        line B1 (bus), trips T1 (timed), T2 (S2 and S3 untimed)
 *   (S3 and S4 are platforms of station ST)
 *
 *   S1 (0.000, 45.000)  S2 (0.010, 45.000)  S3 (0.030, 45.000)  S4 (0.040, 45.000): along a parallel,
 *   so distances are proportional to longitude differences: S1→S2 = 1 unit, S2→S3 = 2, S3→S4 = 1.
 */
const TOWN = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Town Buses,http://a.example,Europe/Paris
# feed_info.txt
feed_publisher_name,feed_publisher_url,feed_lang
Town Open Data,http://data.example,fr
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
ST,Station,45.0,0.035,1,,1
S1,One,45.0,0.000,0,,1
S2,Two,45.0,0.010,,,
S3,Three,45.0,0.030,0,ST,
S4,Four,45.0,0.040,0,ST,2
E1,Entrance,45.0,0.036,2,ST,
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
B1,A,1,Bus one,3
N1,A,N,Night,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WK,1,1,1,1,1,0,0,20240101,20240131
# calendar_dates.txt
service_id,date,exception_type
WK,20240101,2
WK,20240106,1
ONLY,20240214,1
# trips.txt
route_id,service_id,trip_id,trip_headsign,trip_short_name,direction_id
B1,WK,T1,Station,,0
B1,WK,T2,Station,1202,0
N1,ONLY,T3,Late,,1
B1,WK,T4,Nowhere,,0
B1,NOPE,T5,Bad service,,0
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type
T1,08:00:00,08:00:00,S1,1,,,
T1,08:05:00,08:06:00,S2,2,Via Two,,
T1,08:10:00,08:10:00,S3,3,,,
T1,08:20:00,08:20:00,S4,4,,,1
T2,09:00:00,09:00:00,S1,10,,,
T2,,,S2,20,,,
T2,,,S3,30,,,
T2,09:40:00,09:40:00,S4,40,,,
T3,25:50:00,25:50:00,S4,2,,2,2
T3,25:30:00,25:30:00,S1,1,,,
T4,10:00:00,10:00:00,S1,1,,,
T4,9:00:00,9:00:00,S2,2,,,
T5,10:00:00,10:00:00,S1,1,,,
T5,10:10:00,10:10:00,S2,2,,,
T1,08:30:00,08:30:00,S4,4,,,
T2,bad,09:50:00,S4,50,,,
T9,08:00:00,08:00:00,S1,1,,,
# frequencies.txt
trip_id,start_time,end_time,headway_secs,exact_times
T1,07:00:00,08:00:00,600,0
T1,10:00:00,09:00:00,600,0
`;

async function load(text: string): Promise<{ tt: Timetable; report: LoadReport }> {
  const report = new LoadReport();
  const tt = await loadTimetable([writeFeed(text)], { report });
  return { tt, report };
}

function tripIndex(tt: Timetable, id: string): number {
  const i = tt.trips.ids.indexOf(id);
  assert.ok(i >= 0, `trip ${id} loaded`);
  return i;
}

function timesOf(tt: Timetable, id: string): [number, number][] {
  const t = tripIndex(tt, id);
  const out: [number, number][] = [];
  for (let i = tt.trips.stopTimeOffset[t]!; i < tt.trips.stopTimeOffset[t + 1]!; i++) out.push([tt.stopTimes.arrivalSec[i]!, tt.stopTimes.departureSec[i]!]);
  return out;
}

test('stations become stop areas and stops without parent get their own', async () => {
  const { tt, report } = await load(TOWN);
  assert.deepEqual(tt.stopAreas.map((a) => a.id), ['ST', 'stop_area:S1', 'stop_area:S2']);
  assert.deepEqual(tt.stopPoints.ids, ['S1', 'S2', 'S3', 'S4']);
  const area = (s: string) => tt.stopAreas[tt.stopPoints.area[tt.stopPoints.ids.indexOf(s)]!]!.id;
  assert.equal(area('S3'), 'ST');
  assert.equal(area('S4'), 'ST');
  assert.equal(area('S1'), 'stop_area:S1');
  // S3 has no value of its own and inherits its station's; S4 keeps its own
  assert.deepEqual(Array.from(tt.stopPoints.wheelchair), [1, 0, 1, 2]);
  assert.ok(report.notes.some((n) => n.includes('1 entrances')), 'the entrance is noted as ignored');
});

test('malformed and dangling rows are reported with file, line and reason, then skipped', async () => {
  const { tt, report } = await load(TOWN);
  const where = (reason: string) => report.examples.filter((p) => p.reason.startsWith(reason)).map((p) => `${p.file}:${p.line}`);
  assert.deepEqual(where('unknown service_id'), ['gtfs/trips.txt:6']);
  // T5 was skipped (unknown service): its stop times name an unknown trip too.
  assert.deepEqual(where('unknown trip_id'), ['gtfs/stop_times.txt:14', 'gtfs/stop_times.txt:15', 'gtfs/stop_times.txt:18']);
  assert.deepEqual(where('malformed arrival_time'), ['gtfs/stop_times.txt:17']);
  assert.deepEqual(where('duplicate stop_sequence'), ['gtfs/stop_times.txt:16']);
  assert.deepEqual(where('times go backwards'), ['gtfs/stop_times.txt:12']);
  assert.deepEqual(where('malformed start_time'), ['gtfs/frequencies.txt:3']);
  // T4 goes backwards and T5 has an unknown service: neither is loaded.
  assert.deepEqual(tt.trips.ids, ['T1', 'T2', 'T3']);
});

test('stop times are put in stop_sequence order and keep times past midnight', async () => {
  const { tt } = await load(TOWN);
  assert.deepEqual(timesOf(tt, 'T3'), [
    [25 * 3600 + 30 * 60, 25 * 3600 + 30 * 60],
    [25 * 3600 + 50 * 60, 25 * 3600 + 50 * 60],
  ]);
  // The duplicate T1 row at sequence 4 was skipped: the first one (08:20) stays.
  assert.deepEqual(timesOf(tt, 'T1')[3], [8 * 3600 + 20 * 60, 8 * 3600 + 20 * 60]);
});

test('untimed stops are interpolated by distance between stops', async () => {
  const { tt } = await load(TOWN);
  // 09:00 at S1, 09:40 at S4; S1→S2→S3→S4 = 1 + 2 + 1 units of 4: S2 at 09:10, S3 at 09:30.
  assert.deepEqual(timesOf(tt, 'T2'), [
    [32400, 32400],
    [33000, 33000],
    [34200, 34200],
    [34800, 34800],
  ]);
  const t = tripIndex(tt, 'T2');
  const first = tt.trips.stopTimeOffset[t]!;
  const flags = Array.from(tt.stopTimes.pickDrop.subarray(first, first + 4), (b) => (b & INTERPOLATED_BIT) !== 0);
  assert.deepEqual(flags, [false, true, true, false]);
});

test('calendar days and calendar_dates exceptions make the service bitset', async () => {
  const { tt } = await load(TOWN);
  const wk = tt.services.ids.indexOf('WK');
  const only = tt.services.ids.indexOf('ONLY');
  const on = (s: number, y: number, m: number, d: number) => serviceRunsOn(tt, s, dayNumber(y, m, d));
  assert.equal(on(wk, 2024, 1, 1), false, 'removed by calendar_dates');
  assert.equal(on(wk, 2024, 1, 2), true, 'a Tuesday');
  assert.equal(on(wk, 2024, 1, 6), true, 'a Saturday added by calendar_dates');
  assert.equal(on(wk, 2024, 1, 7), false, 'a Sunday');
  assert.equal(on(wk, 2024, 2, 1), false, 'after end_date');
  assert.equal(on(only, 2024, 2, 14), true, 'a service defined only by calendar_dates');
  assert.equal(on(only, 2024, 2, 13), false);
});

test('frequencies, names, routes, patterns and ODT levels', async () => {
  const { tt } = await load(TOWN);
  const t1 = tripIndex(tt, 'T1');
  assert.equal(tt.trips.frequencyOffset[t1 + 1]! - tt.trips.frequencyOffset[t1]!, 1, 'one valid frequency row');
  const f = tt.trips.frequencyOffset[t1]!;
  assert.deepEqual([tt.frequencies.startSec[f], tt.frequencies.endSec[f], tt.frequencies.headwaySec[f], tt.frequencies.exactTimes[f]], [25200, 28800, 600, 0]);
  assert.deepEqual(tt.trips.names, ['Station', '1202', 'Late']);
  assert.deepEqual(tt.routes.map((r) => r.id), ['route:B1:0', 'route:N1:1']);
  assert.equal(tt.trips.pattern[0], tt.trips.pattern[1], 'T1 and T2 share their stop sequence');
  assert.deepEqual(Array.from(tt.trips.odtLevel), [OdtLevel.Scheduled, OdtLevel.Scheduled, OdtLevel.WithStops]);
  assert.deepEqual([...tt.headsignTrips.keys()].sort(), ['Late', 'Station', 'Via Two']);
  assert.deepEqual(Array.from(tt.tripCodes.get('1202') ?? []), [1]);
  assert.equal(tt.physicalModes[tt.lines[0]!.physicalMode]!.id, 'physical_mode:Bus');
  assert.equal(tt.feeds[0]!.publisherName, 'Town Open Data');
});

test('a zip feed loads like the same folder', async (t) => {
  const folder = writeFeed(TOWN);
  const zip = path.join(path.dirname(folder), 'town.zip');
  try {
    execFileSync('zip', ['-q', '-j', zip, ...['agency.txt', 'feed_info.txt', 'stops.txt', 'routes.txt', 'calendar.txt', 'calendar_dates.txt', 'trips.txt', 'stop_times.txt', 'frequencies.txt'].map((f) => path.join(folder, f))]);
  } catch {
    t.skip('the zip command is not available');
    return;
  }
  const fromZip = await loadTimetable([zip], { report: new LoadReport() });
  const fromFolder = await loadTimetable([folder], { report: new LoadReport() });
  assert.deepEqual(fromZip.trips.ids, fromFolder.trips.ids);
  assert.deepEqual(Array.from(fromZip.stopTimes.arrivalSec), Array.from(fromFolder.stopTimes.arrivalSec));
  assert.equal(fromZip.feeds[0]!.key, 'town');
});

test('two feeds in one coverage keep every id unique by prefixing collisions with the feed key', async () => {
  const other = TOWN.replace('Town Buses', 'Other Buses');
  const report = new LoadReport();
  const tt = await loadTimetable([writeFeed(TOWN, 'first'), writeFeed(other, 'second')], { report });
  assert.deepEqual(tt.trips.ids, ['T1', 'T2', 'T3', 'second:T1', 'second:T2', 'second:T3']);
  assert.deepEqual(tt.agencies.map((a) => a.id), ['A', 'second:A']);
  assert.ok(tt.stopPoints.ids.includes('second:S1'));
  assert.equal(new Set(tt.lines.map((l) => l.id)).size, tt.lines.length);
});

test('an unusable feed fails with a clear message', async () => {
  const noTrips = TOWN.replace(/# trips\.txt[\s\S]*?# stop_times\.txt/, '# trips.txt\nroute_id,service_id,trip_id\n# stop_times.txt');
  await assert.rejects(load(noTrips), (e: unknown) => e instanceof FeedError && /no usable trip/.test(e.message));
  const noStops = TOWN.replace(/# stops\.txt[\s\S]*?# routes\.txt/, '# routes.txt');
  await assert.rejects(load(noStops), (e: unknown) => e instanceof FeedError && /required file stops\.txt is missing/.test(e.message));
  const noCalendar = TOWN.replace(/# calendar\.txt[\s\S]*?# trips\.txt/, '# trips.txt');
  await assert.rejects(load(noCalendar), (e: unknown) => e instanceof FeedError && /neither calendar\.txt nor calendar_dates\.txt/.test(e.message));
  await assert.rejects(loadTimetable(['/nonexistent/feed.zip']), (e: unknown) => e instanceof Error && /not found/.test(e.message));
});

test('GTFS-Flex zones make trips zonal and booking rules make them on-demand with stops', async () => {
  const flex = `${TOWN}
# location_groups.txt
location_group_id,location_group_name
G1,Town area
# location_group_stops.txt
location_group_id,stop_id
G1,S1
G1,S2
# booking_rules.txt
booking_rule_id,booking_type
BR,1
`
    .replace('N1,ONLY,T3,Late,,1', 'N1,ONLY,T3,Late,,1\nN1,ONLY,Z1,Zone,,0\nN1,ONLY,B1T,Booked,,0')
    .replace('# frequencies.txt', '# frequencies-unused.txt');
  const withZone = flex.replace(
    '# stop_times.txt\ntrip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type',
    '# stop_times.txt\ntrip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,pickup_booking_rule_id\nZ1,08:00:00,08:00:00,G1,1,,2,2,\nZ1,09:00:00,09:00:00,S4,2,,,,\nB1T,08:00:00,08:00:00,S1,1,,,,BR\nB1T,08:30:00,08:30:00,S4,2,,,,',
  );
  const { tt } = await load(withZone);
  assert.equal(tt.trips.odtLevel[tripIndex(tt, 'Z1')], OdtLevel.Zonal);
  assert.equal(tt.trips.odtLevel[tripIndex(tt, 'B1T')], OdtLevel.WithStops);
  const zone = tt.stopPoints.ids.indexOf('G1');
  assert.equal(tt.stopPoints.isZone[zone], 1);
  // The zone sits at the mean of its member stops S1 (0.000) and S2 (0.010).
  assert.ok(Math.abs(tt.stopPoints.lon[zone]! - 0.005) < 1e-9);
});
