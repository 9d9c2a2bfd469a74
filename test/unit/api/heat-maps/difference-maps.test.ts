/**
 * Difference maps (`compare_data_freshness`, maps/difference-map.ts) on a hand-made line with a
 * GTFS-Realtime TripUpdate, where every value is known:
 *
 *   three streets 3 km apart that no walk joins, around stops A (x = 100 m), B (3,100 m) and C
 *   (6,100 m); trips X from A to B every 5 minutes from 08:05 (5 minutes' ride) and one trip Y from
 *   A to C at 08:07 (10 minutes). The realtime feed delays the arrival at B of every X by 120 s (the
 *   departure from A keeps its schedule: stops before the first update do) and cancels Y.
 *
 * From A at 08:00 (max_duration 1800), realtime minus base schedule is: 0 on A's street (walking
 * only), exactly +120 on B's (each minute's best journey is the same X, 120 s later; the next X comes
 * 3 minutes after the delayed one), the lost-access marker +1800 on C's where the base schedule
 * reaches it (only Y goes there), null elsewhere; never a gained cell. C lies outside the realtime
 * map's own box: the union grid is what shows the lost cells. With a window, the same on each
 * percentile's map. Then the formats (GeoTIFF bands, the diverging PNG) and the refusals.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fromArrayBuffer } from 'geotiff';
import { PNG } from 'pngjs';
import { getAnswer, getOk, serveCoverages, type ServedApp } from '../../../helpers/app.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { writeOsm } from '../../../helpers/osm-fixture.js';
import type { FeedMessage } from '../../../../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../../../../src/live/realtime/trip-updates.js';
import { withRealtime } from '../../../../src/service/generation.js';
import { DIFFERENCE_NULL } from '../../../../src/maps/difference-map.js';
import { divergingColour, GAINED_COLOUR, LOST_COLOUR } from '../../../../src/formats/colour-ramp.js';
import { WARNINGS_HEADER } from '../../../../src/api/heat-maps/map-flow.js';

const M = 111_319.9;
const T = 1800;
const DELAY = 120;
const DAY = '20240306';
const X_TRIPS = 8;
const MAP = `/v1/coverage/line/heat_maps?from=A&datetime=${DAY}T080000&max_duration=${T}&resolution=60`;
const DIFF = `${MAP}&data_freshness=realtime&compare_data_freshness=base_schedule`;

/** A street of 41 short ways end to end (41 edges: not a small island), 205 m east from x0. */
const street = (id: number, x0: number) => ({
  nodes: Array.from({ length: 42 }, (_, k) => ({ id: id + k, lon: (x0 + k * 5) / M, lat: 0 })),
  ways: Array.from({ length: 41 }, (_, k) => ({ id: id + k, refs: [id + k, id + k + 1], tags: { highway: 'residential' } })),
});

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

function feed(): string {
  const xTrips = Array.from({ length: X_TRIPS }, (_, k) => `X,all,X-${k}`).join('\n');
  const xTimes = Array.from({ length: X_TRIPS }, (_, k) => {
    const leave = 8 * 60 + 5 + 5 * k;
    return `X-${k},${hhmm(leave)},${hhmm(leave)},A,1\nX-${k},${hhmm(leave + 5)},${hhmm(leave + 5)},B,2`;
  }).join('\n');
  return writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
L,Line,https://line.example,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,0,${100 / M}
B,B,0,${3100 / M}
C,C,0,${6100 / M}
# routes.txt
route_id,agency_id,route_short_name,route_type
X,L,X,3
Y,L,Y,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
${xTrips}
Y,all,Y-0
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
${xTimes}
Y-0,08:07:00,08:07:00,A,1
Y-0,08:17:00,08:17:00,C,2
`);
}

/** The TripUpdates: every X 120 s late at B, Y cancelled. */
const CAPTURE: FeedMessage = {
  header: { gtfsRealtimeVersion: '2.0', timestamp: Date.UTC(2024, 2, 6, 7, 55) / 1000 },
  entities: [
    ...Array.from({ length: X_TRIPS }, (_, k) => ({
      id: `x${k}`,
      tripUpdate: { trip: { tripId: `X-${k}`, startDate: DAY }, stopTimeUpdates: [{ stopSequence: 2, stopId: 'B', arrival: { delay: DELAY } }] },
    })),
    { id: 'y', tripUpdate: { trip: { tripId: 'Y-0', startDate: DAY, scheduleRelationship: 'CANCELED' as const }, stopTimeUpdates: [] } },
  ],
};

type Matrix = { line_headers: { cell_lat: { min_lat: number; max_lat: number } }[]; lines: { cell_lon: { min_lon: number; center_lon: number; max_lon: number }; duration: (number | null)[] }[] };
type HeatMap = { heat_matrix: Matrix; percentile?: number; difference?: Record<string, unknown> };

/** Which street's area a column lies in, by its centre (a cell links to a street up to 600 m away). */
const areaOf = (lonDeg: number): 'A' | 'B' | 'C' => {
  const x = lonDeg * M;
  return x < 1500 ? 'A' : x < 4500 ? 'B' : 'C';
};

let served: ServedApp;
before(async () => {
  const streets = [street(100, 0), street(200, 3000), street(300, 6000)];
  const osm = writeOsm({ nodes: streets.flatMap((s) => s.nodes), ways: streets.flatMap((s) => s.ways) });
  served = await serveCoverages([{ id: 'line', gtfs: [feed()], osm, timezone: 'UTC' }]);
  const g = served.generations.get('line')!;
  const realtime = readTripUpdates(g.ref, CAPTURE);
  assert.deepEqual(realtime.problems, []);
  served.coverages.get('line')!.swap(withRealtime(g, realtime));
});
after(async () => served.app.close());

/**
 * The expected difference of each cell from the base schedule's own map on the same grid: the
 * delay on B's street, 0 on A's, the marker on C's where the base reaches, null where it does not.
 */
function checkAgainstBase(diff: Matrix, base: Matrix, what: string): { b: number; c: number; a: number } {
  assert.deepEqual(diff.line_headers, base.line_headers, `${what}: the base schedule's grid`);
  assert.deepEqual(diff.lines.map((l) => l.cell_lon), base.lines.map((l) => l.cell_lon), `${what}: the base schedule's grid`);
  const seen = { a: 0, b: 0, c: 0 };
  diff.lines.forEach((line, i) => {
    const area = areaOf(line.cell_lon.center_lon);
    line.duration.forEach((d, j) => {
      const v = base.lines[i]!.duration[j]!;
      const where = `${what}, cell ${i},${j} (${area}'s street, base ${v})`;
      if (v === null) return assert.equal(d, null, where);
      if (area === 'A') seen.a++;
      if (area === 'B') seen.b++;
      if (area === 'C') seen.c++;
      assert.equal(d, area === 'A' ? 0 : area === 'B' ? DELAY : T, where);
    });
  });
  return seen;
}

describe('a delayed and a cancelled trip, exact', () => {
  test('single departure: +120 s where X is the best journey, 0 on foot, lost access at C outside the realtime box', async () => {
    const answer = await getOk(served.app, DIFF);
    const base = (await getOk(served.app, `${MAP}&data_freshness=base_schedule`)).heat_maps[0].heat_matrix as Matrix;
    const own = (await getOk(served.app, `${MAP}&data_freshness=realtime`)).heat_maps[0].heat_matrix as Matrix;
    assert.equal(answer.heat_maps.length, 1);
    const map = answer.heat_maps[0] as HeatMap;
    const seen = checkAgainstBase(map.heat_matrix, base, 'single');
    assert.ok(seen.a > 5 && seen.b > 5 && seen.c > 5, JSON.stringify(seen));
    // the realtime map's own box stops short of C: the lost cells show because the grid is the union
    const ownEast = own.lines[own.lines.length - 1]!.cell_lon.max_lon * M;
    assert.ok(ownEast < 6000, `the realtime map's box ends at ${ownEast} m`);
    assert.deepEqual(map.difference, {
      data_freshness: 'realtime',
      compare_data_freshness: 'base_schedule',
      lost_cells: seen.c,
      gained_cells: 0,
      slower_cells: seen.b,
      faster_cells: 0,
    });
    assert.equal('percentile' in map, false);
    assert.ok(map.heat_matrix && answer.feed_publishers && Array.isArray(answer.warnings), "Navitia's shape");
  });

  test('the other way round (base minus realtime): −120 s at B and gained access (−max_duration) at C', async () => {
    const forward = (await getOk(served.app, DIFF)).heat_maps[0] as HeatMap;
    const back = (await getOk(served.app, `${MAP}&data_freshness=base_schedule&compare_data_freshness=realtime`)).heat_maps[0] as HeatMap;
    forward.heat_matrix.lines.forEach((line, i) =>
      line.duration.forEach((d, j) => assert.equal(back.heat_matrix.lines[i]!.duration[j], d === null ? null : d === T ? -T : d === 0 ? 0 : -d, `cell ${i},${j}`)),
    );
    assert.equal(back.difference!['gained_cells'], forward.difference!['lost_cells']);
    assert.equal(back.difference!['faster_cells'], forward.difference!['slower_cells']);
    assert.equal(back.difference!['lost_cells'], 0);
  });

  test('a window: the same on each percentile map (p10, p50, p90 over 10 departures)', async () => {
    const window = '&departure_window=600&percentiles[]=10&percentiles[]=50&percentiles[]=90';
    const answer = await getOk(served.app, `${DIFF}${window}`);
    const base = (await getOk(served.app, `${MAP}${window}`)).heat_maps as HeatMap[];
    const maps = answer.heat_maps as HeatMap[];
    assert.deepEqual(maps.map((m) => m.percentile), [10, 50, 90]);
    const seen = maps.map((m, k) => checkAgainstBase(m.heat_matrix, base[k]!.heat_matrix, `p${m.percentile}`));
    // Y leaves at 08:07: the first minutes reach C, the last ones do not (p90 unreached there)
    assert.ok(seen[0]!.c > 5 && seen[1]!.c > 5, JSON.stringify(seen));
    assert.equal(seen[2]!.c, 0, JSON.stringify(seen));
    assert.ok(seen.every((s) => s.b > 5 && s.a > 5), JSON.stringify(seen));
    maps.forEach((m, k) => assert.deepEqual(m.difference, { data_freshness: 'realtime', compare_data_freshness: 'base_schedule', lost_cells: seen[k]!.c, gained_cells: 0, slower_cells: seen[k]!.b, faster_cells: 0 }));
  });
});

describe('formats', () => {
  test('GeoTIFF: one Int32 band per percentile described "difference p…", the JSON values, nodata for null', async () => {
    const window = '&departure_window=600&percentiles[]=10&percentiles[]=50';
    const json = (await getOk(served.app, `${DIFF}${window}`)).heat_maps as HeatMap[];
    const tiff = await getAnswer(served.app, `${DIFF}${window}&format=tiff`);
    assert.equal(tiff.status, 200);
    const bytes = tiff.raw;
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)).getImage();
    assert.equal(image.getSamplesPerPixel(), 2);
    assert.deepEqual(await image.getGDALMetadata(0), { DESCRIPTION: 'difference p10' });
    assert.deepEqual(await image.getGDALMetadata(1), { DESCRIPTION: 'difference p50' });
    assert.equal(image.getGDALNoData(), DIFFERENCE_NULL);
    const bands = (await image.readRasters()) as unknown as Int32Array[];
    assert.ok(bands[0] instanceof Int32Array);
    const R = image.getWidth();
    json.forEach((m, k) =>
      m.heat_matrix.lines.forEach((line, i) => line.duration.forEach((v, j) => assert.equal(bands[k]![(R - 1 - j) * R + i], v ?? DIFFERENCE_NULL, `band ${k}, cell ${i},${j}`))),
    );
    // a single departure: one band, described "difference"
    const single = await getAnswer(served.app, `${DIFF}&format=tiff`);
    const one = await (await fromArrayBuffer(single.raw.buffer.slice(single.raw.byteOffset, single.raw.byteOffset + single.raw.byteLength) as ArrayBuffer)).getImage();
    assert.equal(one.getSamplesPerPixel(), 1);
    assert.deepEqual(await one.getGDALMetadata(0), { DESCRIPTION: 'difference' });
  });

  test('PNG: the diverging ramp (neutral at 0, red for the delay, the lost marker dark red), null transparent', async () => {
    const json = ((await getOk(served.app, DIFF)).heat_maps[0] as HeatMap).heat_matrix;
    const answer = await getAnswer(served.app, `${DIFF}&format=png`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'image/png');
    const png = PNG.sync.read(answer.raw);
    const R = json.lines.length;
    assert.equal(png.width, R);
    const colours = new Map<string, string>();
    json.lines.forEach((line, i) =>
      line.duration.forEach((d, j) => {
        const at = ((R - 1 - j) * R + i) * 4;
        const rgba = [...png.data.subarray(at, at + 4)];
        let expected: number[];
        if (d === null) expected = [rgba[0]!, rgba[1]!, rgba[2]!, 0];
        else if (d === T) expected = [...LOST_COLOUR, 255];
        else if (d === -T) expected = [...GAINED_COLOUR, 255];
        else expected = [...divergingColour(Math.round((d / T) * 126) / 126), 255];
        assert.deepEqual(rgba, expected, `cell ${i},${j}: ${d}`);
        if (d !== null) colours.set(String(d), rgba.join(','));
      }),
    );
    assert.equal(colours.get('0'), '247,247,247,255', 'no change is the neutral colour');
    assert.deepEqual([...colours.keys()].sort(), ['0', String(DELAY), String(T)].sort());
  });

  test("warnings: the map's own, in the body and the header", async () => {
    const answer = await getAnswer(served.app, `${DIFF}&resoluton=3`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.warnings.map((w: { id: string }) => w.id), ['unknown_parameter']);
    const png = await getAnswer(served.app, `${DIFF}&resoluton=3&format=png`);
    assert.equal(png.headers[WARNINGS_HEADER], 'unknown_parameter');
  });
});

describe('refusals', () => {
  const refused = async (url: string, message: RegExp) => {
    const answer = await getAnswer(served.app, url);
    assert.equal(answer.status, 400, `${url}: ${answer.body}`);
    assert.match(answer.json.message, message, url);
  };

  test('the same level as the map (data_freshness given, or its default), a level that does not exist', async () => {
    await refused(`${MAP}&data_freshness=realtime&compare_data_freshness=realtime`, /^parameter "compare_data_freshness" invalid: it is realtime, the map's own data_freshness/);
    // without data_freshness the map is the base schedule's
    await refused(`${MAP}&compare_data_freshness=base_schedule`, /^parameter "compare_data_freshness" invalid: it is base_schedule/);
    await refused(`${MAP}&data_freshness=realtime&compare_data_freshness=yesterday`, /^parameter "compare_data_freshness" invalid/);
  });

  test('isochrones and GeoJSON bands: a difference has no bands', async () => {
    await refused(`/v1/coverage/line/isochrones?from=A&datetime=${DAY}T080000&max_duration=${T}&data_freshness=realtime&compare_data_freshness=base_schedule`, /not available on isochrones/);
    await refused(`${DIFF}&format=geojson`, /not available with format=geojson/);
  });
});
