/**
 * Departure windows on heat maps and isochrones (routing/window-heat-map.ts, queries/
 * departure-window.ts), on the demo town (data/demo: trams, buses and a shuttle repeated every 10 minutes
 * by frequencies.txt, exact_times=0):
 *
 * - the engine's percentiles are R5's rule applied to the single-departure maps of the window's
 *   minutes, computed one by one on the same grid, cell by cell, departures and arrivals;
 * - through the API: no window is the answer as before, byte for byte; a one-minute window is the
 *   single map; a window gives one map per percentile in the order asked, p5 ≤ p50 ≤ p95, the same
 *   answer twice; a GeoTIFF band per percentile; isochrone bands per percentile;
 * - the refusals: a percentile outside 1–99, six of them, out of order, a window over its limit or
 *   past the production period, a `percentile` not asked.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fromArrayBuffer } from 'geotiff';
import { getAnswer, getOk, serveCoverages, type ServedApp } from '../../../helpers/app.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { writeOsm } from '../../../helpers/osm-fixture.js';
import { HeatMapEngine } from '../../../../src/routing/heat-map.js';
import { walkingQueryFrom } from '../../../helpers/heat-map-query.js';
import { assertPercentilesOfMinutes } from '../../../helpers/window-minutes-oracle.js';
import { WindowEngine, WINDOW_STEP_SEC } from '../../../../src/routing/window-heat-map.js';
import { MAX_DEPARTURE_WINDOW_SEC } from '../../../../src/service/limits.js';
import { departuresOf } from '../../../../src/queries/departure-window.js';
import { zonedToEpoch } from '../../../../src/util/time-zones.js';

const DEMO = path.resolve('data/demo');
const C = '/v1/coverage/demo';
const MAP = 'from=GARE-T&datetime=20261124T080000&max_duration=1800&resolution=40';

let served: ServedApp;
before(async () => {
  served = await serveCoverages([{ id: 'demo', gtfs: [path.join(DEMO, 'gtfs')], osm: path.join(DEMO, 'valmont.osm'), timezone: 'Europe/Paris' }]);
});
after(async () => served.app.close());

type Matrix = { lines: { duration: (number | null)[] }[]; line_headers: unknown[] };
const cellsOf = (m: Matrix) => m.lines.flatMap((l) => l.duration);

describe('the engine: percentiles of the minutes, as R5 takes them', () => {

  for (const direction of ['departure', 'arrival'] as const) {
    test(`${direction}s: each cell's percentile is the rank ceil(p × n / 100) of its minutes' single-map values, unreached last`, () => {
      const g = served.coverages.get('demo')!.generation!;
      const data = g.streets!.data;
      const engine = new HeatMapEngine(data, 86400, 200);
      const windowEngine = new WindowEngine(engine, MAX_DEPARTURE_WINDOW_SEC);
      const t0 = zonedToEpoch(g.tt.timezone, 2026, 11, 24, 8, 0, 0);
      const percentiles = [5, 50, 95];
      let checked = 0;
      let reached = 0;
      // from the station's tram platform, and from a stop of the shuttle (a frequency-based trip)
      for (const id of ['GARE-T', 'PIERRE-SEMARD']) {
        const stop = g.tt.stopPoints.ids.indexOf(id);
        assert.ok(stop >= 0, id);
        const q = walkingQueryFrom(data.stopLon, data.stopLat, stop, t0, { direction, maxDurationSec: 1800, resolution: 60 });
        const minutes = 25;
        const result = windowEngine.compute(q, { windowSec: minutes * WINDOW_STEP_SEC, percentiles, selected: 1 });
        const maps = result.percentiles!.map((m) => Int32Array.from(m.seconds));
        assert.deepEqual(result.percentiles!.map((m) => m.percentile), percentiles);
        assert.equal(result.seconds, result.percentiles![1]!.seconds, 'the selected percentile is the one-band formats’');
        const cells = assertPercentilesOfMinutes(engine, q, result.grid, maps, minutes, percentiles, id);
        checked += cells.checked;
        reached += cells.reached;
      }
      assert.ok(reached > 1000 && checked - reached > 100, `${reached} of ${checked} percentile cells reached`);
    });
  }
});

describe('one minute: the window engine and the single search agree, so the departures may send a one-minute window to the single search', () => {
  for (const direction of ['departure', 'arrival'] as const) {
    test(`${direction}s: every percentile of a one-minute window is the single map, cell for cell`, () => {
      const g = served.coverages.get('demo')!.generation!;
      const data = g.streets!.data;
      const engine = new HeatMapEngine(data, 86400, 200);
      const windowEngine = new WindowEngine(engine, MAX_DEPARTURE_WINDOW_SEC);
      const t0 = zonedToEpoch(g.tt.timezone, 2026, 11, 24, 8, 0, 0);
      let reached = 0;
      for (const id of ['GARE-T', 'PIERRE-SEMARD']) {
        const q = walkingQueryFrom(data.stopLon, data.stopLat, g.tt.stopPoints.ids.indexOf(id), t0, { direction, maxDurationSec: 1800, resolution: 60 });
        const window = departuresOf({ departure_window: 60, percentiles: [5, 95] })!;
        assert.equal(window.isSingle, true);
        const windowed = windowEngine.compute(q, window);
        const maps = windowed.percentiles!.map((m) => Int32Array.from(m.seconds));
        const single = engine.compute(q, windowed.grid).seconds;
        for (const map of maps) assert.deepEqual(map, single, id);
        reached += single.filter((s) => s >= 0).length;
      }
      assert.ok(reached > 500, `${reached} cells reached`);
    });
  }
});

/**
 * A frequency-based shuttle (exact_times=0) every 10 minutes from 08:00, 5 minutes from stop A to
 * stop B, 3 km apart on two separate streets (no walk joins them; each long enough not to be a
 * small island). Leaving A at 08:00 + m (m = 0…9),
 * with the minute of board slack the rider misses the 08:00 shuttle and takes the 08:10: at B at
 * 08:15, after 15 − m minutes. Over those ten minutes the p10, p50 and p90 of B's travel time are
 * the 1st, 5th and 9th smallest: 6, 10 and 14 minutes, and a cell beyond B adds its walk from B.
 */
describe('a frequency-based shuttle: the listed phase, exact values', () => {
  let shuttle: ServedApp;
  const M = 111_319.9;
  before(async () => {
    // a street of 41 short ways end to end (41 edges: not a small island), 205 m from x0 east
    const street = (id: number, x0: number) => ({
      nodes: Array.from({ length: 42 }, (_, k) => ({ id: id + k, lon: (x0 + k * 5) / M, lat: 0 })),
      ways: Array.from({ length: 41 }, (_, k) => ({ id: id + k, refs: [id + k, id + k + 1], tags: { highway: 'residential' } })),
    });
    const a = street(100, 0);
    const b = street(200, 3000);
    const osm = writeOsm({ nodes: [...a.nodes, ...b.nodes], ways: [...a.ways, ...b.ways] });
    const gtfs = writeFeed(`
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
S,Shuttle,https://shuttle.example,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
A,A,0,${100 / M}
B,B,0,${3100 / M}
# routes.txt
route_id,agency_id,route_short_name,route_type
SH,S,SH,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
SH,all,SH-1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
SH-1,08:00:00,08:00:00,A,1
SH-1,08:05:00,08:05:00,B,2
# frequencies.txt
trip_id,start_time,end_time,headway_secs,exact_times
SH-1,08:00:00,10:00:00,600,0
`);
    shuttle = await serveCoverages([{ id: 'shuttle', gtfs: [gtfs], osm, timezone: 'UTC' }]);
  });
  after(async () => shuttle.app.close());

  test('p10, p50 and p90 over ten departures: 6, 10 and 14 minutes to B, the same answer twice', async () => {
    const url = '/v1/coverage/shuttle/heat_maps?from=A&datetime=20240306T080000&max_duration=1800&resolution=30&departure_window=600&percentiles[]=10&percentiles[]=50&percentiles[]=90';
    const answer = await getAnswer(shuttle.app, url);
    assert.equal(answer.status, 200, answer.body);
    // the same maps twice (the context's current time may have moved on)
    assert.deepEqual((await getAnswer(shuttle.app, url)).json.heat_maps, answer.json.heat_maps);
    type Located = { line_headers: { cell_lat: { min_lat: number; max_lat: number } }[]; lines: { cell_lon: { min_lon: number; max_lon: number }; duration: (number | null)[] }[] };
    const maps = answer.json.heat_maps as { percentile: number; heat_matrix: Located }[];
    // the cell holding B, and the column of the streets' latitude
    const matrix = maps[0]!.heat_matrix;
    const i = matrix.lines.findIndex((l) => l.cell_lon.min_lon <= 3100 / M && 3100 / M < l.cell_lon.max_lon);
    const j = matrix.line_headers.findIndex((h) => h.cell_lat.min_lat <= 0 && 0 < h.cell_lat.max_lat);
    assert.ok(i >= 0 && j >= 0, `B's cell ${i}, ${j}`);
    const [p10, p50, p90] = maps.map((m) => m.heat_matrix.lines[i]!.duration[j]!);
    assert.ok(p10 !== null && p50 !== null && p90 !== null, `B's cell: ${p10}, ${p50}, ${p90}`);
    const walk = p10! - 360;
    assert.ok(walk >= 0 && walk < 120, `the walk from B to its cell: ${walk} s`);
    assert.equal(p50, 600 + walk);
    assert.equal(p90, 840 + walk);
  });
});

describe('through the API', () => {
  const get = (query: string, what = 'heat_maps') => getOk(served.app, `${C}/${what}?${query}`);

  test('no window: the answer as before, byte for byte (departure_window=0 changes nothing)', async () => {
    // now fixed, so that the bodies' contexts agree
    const now = '_current_datetime=20261124T070000';
    const plain = await getAnswer(served.app, `${C}/heat_maps?${MAP}&${now}`);
    const zero = await getAnswer(served.app, `${C}/heat_maps?${MAP}&${now}&departure_window=0`);
    assert.equal(zero.body, plain.body);
    assert.equal(plain.json.heat_maps.length, 1);
    assert.equal('percentile' in plain.json.heat_maps[0], false);
  });

  test('a one-minute window is the single map, as the median', async () => {
    const plain = await get(MAP);
    const one = await get(`${MAP}&departure_window=60`);
    assert.equal(one.heat_maps.length, 1);
    assert.equal(one.heat_maps[0].percentile, 50);
    assert.deepEqual(one.heat_maps[0].heat_matrix, plain.heat_maps[0].heat_matrix);
  });

  test('a window: one map per percentile in the order asked, on one grid, p5 ≤ p50 ≤ p95, the same answer twice', async () => {
    const url = `${MAP}&departure_window=3600&percentiles[]=5&percentiles[]=50&percentiles[]=95`;
    const answer = await getAnswer(served.app, `${C}/heat_maps?${url}`);
    const again = await getAnswer(served.app, `${C}/heat_maps?${url}`);
    // the same maps twice (the context's current time may have moved on)
    assert.deepEqual(again.json.heat_maps, answer.json.heat_maps);
    const maps = answer.json.heat_maps as { percentile: number; heat_matrix: Matrix; from: unknown }[];
    assert.deepEqual(maps.map((m) => m.percentile), [5, 50, 95]);
    for (const m of maps) {
      assert.deepEqual(m.heat_matrix.line_headers, maps[0]!.heat_matrix.line_headers);
      assert.ok(m.from, "Navitia's keys beside the percentile");
    }
    const [p5, p50, p95] = maps.map((m) => cellsOf(m.heat_matrix).map((v) => (v === null ? Infinity : v)));
    let spread = 0;
    p5!.forEach((v, c) => {
      assert.ok(v <= p50![c]! && p50![c]! <= p95![c]!, `cell ${c}: ${v}, ${p50![c]}, ${p95![c]}`);
      if (p95![c]! !== Infinity && p95![c]! - v >= 300) spread++;
    });
    assert.ok(spread > 50, `${spread} cells where p95 is 5 minutes or more above p5: the minute matters`);
  });

  test('GeoTIFF: one band per percentile, described p5…, holding the JSON maps', async () => {
    const url = `${MAP}&departure_window=1800&percentiles[]=5&percentiles[]=95`;
    const json = await get(url);
    const tiff = await getAnswer(served.app, `${C}/heat_maps?${url}&format=tiff`);
    const bytes = tiff.raw;
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)).getImage();
    assert.equal(image.getSamplesPerPixel(), 2);
    assert.deepEqual(await image.getGDALMetadata(0), { DESCRIPTION: 'p5' });
    assert.deepEqual(await image.getGDALMetadata(1), { DESCRIPTION: 'p95' });
    const bands = (await image.readRasters()) as unknown as Int32Array[];
    const R = image.getWidth();
    json.heat_maps.forEach((m: { heat_matrix: Matrix }, k: number) => {
      m.heat_matrix.lines.forEach((line, i) =>
        line.duration.forEach((v, j) => assert.equal(bands[k]![(R - 1 - j) * R + i], v ?? -1, `band ${k}, cell ${i},${j}`)),
      );
    });
  });

  test('isochrones: a set of bands per percentile, each band with its percentile', async () => {
    const answer = await get('from=GARE-T&datetime=20261124T080000&max_duration=1200&boundary_duration[]=600&departure_window=1800&percentiles[]=10&percentiles[]=90', 'isochrones');
    const bands = answer.isochrones as { percentile: number; min_duration: number; max_duration: number }[];
    assert.deepEqual(
      bands.map((b) => [b.percentile, b.min_duration, b.max_duration]),
      [
        [10, 0, 600],
        [10, 600, 1200],
        [90, 0, 600],
        [90, 600, 1200],
      ],
    );
  });

  test('GeoJSON bands are those of the percentile asked (the first by default), which they carry', async () => {
    const base = `${MAP}&departure_window=1800&percentiles[]=10&percentiles[]=90&format=geojson`;
    const first = await get(base);
    const last = await get(`${base}&percentile=90`);
    assert.ok(first.features.length > 0);
    assert.ok(first.features.every((f: { properties: { percentile: number } }) => f.properties.percentile === 10));
    assert.ok(last.features.every((f: { properties: { percentile: number } }) => f.properties.percentile === 90));
  });

  const refused = async (query: string, status: number, message: RegExp) => {
    const answer = await getAnswer(served.app, `${C}/heat_maps?${MAP}&${query}`);
    assert.equal(answer.status, status, `${query}: ${answer.body}`);
    assert.match(answer.json.message ?? answer.json.error?.message, message, query);
  };

  test('refused: a percentile of 0 or 100, six percentiles, out of order or twice, a percentile not asked', async () => {
    await refused('departure_window=600&percentiles[]=0', 400, /percentiles.*>= 1/);
    await refused('departure_window=600&percentiles[]=100', 400, /percentiles.*<= 99/);
    await refused('departure_window=600&percentiles[]=5&percentiles[]=25&percentiles[]=50&percentiles[]=75&percentiles[]=90&percentiles[]=95', 400, /more than 5 'percentiles\[\]'/);
    await refused('departure_window=600&percentiles[]=50&percentiles[]=5', 400, /ascending/);
    await refused('departure_window=600&percentiles[]=50&percentiles[]=50', 400, /ascending/);
    await refused('departure_window=600&percentiles[]=50&percentile=95', 400, /'percentile' 95 is not one of/);
  });

  test(`refused: a window over ${MAX_DEPARTURE_WINDOW_SEC} s, a window whose last departure leaves the production period`, async () => {
    await refused(`departure_window=${MAX_DEPARTURE_WINDOW_SEC + 1}`, 400, /departure_window.*<= 10800/);
    const last = await getAnswer(served.app, `${C}/heat_maps?from=GARE-T&datetime=20281231T230000&max_duration=600&resolution=10&departure_window=7200`);
    assert.equal(last.status, 404);
    assert.equal(last.json.error.id, 'date_out_of_bounds');
    assert.equal(last.json.error.message, 'the departure window is not in data production period');
    // the same start with a window that ends in the period
    assert.equal((await getAnswer(served.app, `${C}/heat_maps?from=GARE-T&datetime=20281231T230000&max_duration=600&resolution=10&departure_window=1800`)).status, 200);
  });
});
