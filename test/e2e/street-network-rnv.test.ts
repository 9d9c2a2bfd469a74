/**
 * The explorer's background on rnv-mannheim (`/street_network`) against figures we did not produce:
 * the extract's box as the data README states it (8.1575,49.3265 – 8.8222,49.6395), and its shares of
 * stops within 200 m (100 %, rounded) and 50 m (96 %) of a highway node, checked here with the stops
 * read from the raw stops.txt (raw-gtfs.ts: csv-parse, no code of src/) and the lines of the answer
 * alone (a line passes at least as near as its nodes; one stop, MPI Astronomie on the Königstuhl, has
 * no way of the extract within 260 m).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { RawFeed } from './raw-gtfs.js';
import { sharedFeed } from './coverage-app.js';

let served: ServedApp;

before(async () => {
  served = await serveCoverages([{ id: 'rnv', gtfs: [sharedFeed('rnv-mannheim', 'gtfs.zip')], osm: sharedFeed('rnv-mannheim', 'osm.pbf') }]);
});

after(() => served.close());

type Lines = { features: { properties: { kind: string }; geometry: { coordinates: [number, number][][] } }[] };

test('rnv street network: inside the extract\'s box; the stops of stops.txt near its lines as the data README counts them', async () => {
  const res = await served.app.inject({ method: 'GET', url: '/v1/coverage/rnv/street_network' });
  assert.equal(res.statusCode, 200);
  const lines = (JSON.parse(res.body) as Lines).features.flatMap((f) => f.geometry.coordinates);
  assert.ok(lines.length > 10_000, `${lines.length} lines`);
  for (const line of lines) {
    assert.ok(line.length >= 2);
    // the README gives the box to 4 decimals: half a unit of the last on each side
    for (const [lon, lat] of line) assert.ok(lon >= 8.15745 && lon <= 8.82225 && lat >= 49.32645 && lat <= 49.63955, `${lon},${lat} inside the extract's box`);
  }

  // segments in 0.01° buckets (about 700 × 1100 m), metres on a local plane
  const M_LAT = 111_320;
  const M_LON = M_LAT * Math.cos((49.48 * Math.PI) / 180);
  const buckets = new Map<string, number[][]>();
  const key = (lon: number, lat: number) => `${Math.floor(lon * 100)},${Math.floor(lat * 100)}`;
  for (const line of lines) {
    for (let k = 1; k < line.length; k++) {
      const [a, b] = [line[k - 1]!, line[k]!];
      const seg = [a[0], a[1], b[0], b[1]];
      for (const k2 of new Set([key(a[0], a[1]), key(b[0], b[1])])) (buckets.get(k2) ?? buckets.set(k2, []).get(k2)!).push(seg);
    }
  }
  const distance = (lon: number, lat: number, [ax, ay, bx, by]: number[]) => {
    const [px, py, dx, dy] = [(lon - ax!) * M_LON, (lat - ay!) * M_LAT, (bx! - ax!) * M_LON, (by! - ay!) * M_LAT];
    const t = dx * dx + dy * dy > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy))) : 0;
    return Math.hypot(px - t * dx, py - t * dy);
  };
  const stops = await (await RawFeed.open(sharedFeed('rnv-mannheim', 'gtfs.zip'))).table('stops.txt');
  assert.equal(stops.rows.length, 2057);
  let within200 = 0;
  let within50 = 0;
  for (const row of stops.rows) {
    const lon = Number(stops.get(row, 'stop_lon'));
    const lat = Number(stops.get(row, 'stop_lat'));
    let best = Infinity;
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        for (const seg of buckets.get(`${Math.floor(lon * 100) + i},${Math.floor(lat * 100) + j}`) ?? []) best = Math.min(best, distance(lon, lat, seg));
      }
    }
    if (best <= 200) within200++;
    if (best <= 50) within50++;
  }
  // the README's percentages, rounded to whole ones
  assert.equal(Math.round((within200 / stops.rows.length) * 100), 100, `${within200} of ${stops.rows.length} within 200 m`);
  assert.ok(Math.round((within50 / stops.rows.length) * 100) >= 96, `${within50} of ${stops.rows.length} within 50 m`);
});
