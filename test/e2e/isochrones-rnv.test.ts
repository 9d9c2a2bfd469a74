/**
 * Isochrones on rnv-mannheim: 20 of them (walking and bike, departures and arrivals, 4 bands up to
 * an hour) each valid by JSTS, and their bands agree with the heat map of the same request at a few
 * thousand random points.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { insideRing } from '../../src/formats/rings.js';
import type { Generation } from '../../src/service/generation.js';
import { getOk, serveCoverages } from '../helpers/app.js';
import { invalidity } from '../helpers/geometry-validity.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { mulberry32 } from '../helpers/random.js';

const DIR = path.join(SHARED_DATA, 'rnv-mannheim');
const BOUNDS = [0, 900, 1800, 2700, 3600];
let app: FastifyInstance;
let generation: Generation;

before(async () => {
  const served = await serveCoverages([{ id: 'rnv', gtfs: [path.join(DIR, 'gtfs.zip')], osm: path.join(DIR, 'osm.pbf') }]);
  app = served.app;
  generation = served.generations.get('rnv')!;
});
after(() => app?.close());

/** 20 requests: stop areas spread over the network, both directions, walking and bike. */
function requests(): string[] {
  const areas = generation.tt.stopAreas;
  return Array.from({ length: 20 }, (_, k) => {
    const area = areas[Math.floor(((k + 0.5) * areas.length) / 20)]!;
    const side = k % 2 === 0 ? 'from' : 'to';
    const mode = k % 4 < 2 ? 'walking' : 'bike';
    const modes = `first_section_mode[]=${mode}&last_section_mode[]=${mode}`;
    return `${side}=${encodeURIComponent(area.id)}&datetime=20161108T080000&${modes}&${BOUNDS.slice(1, -1).map((b) => `boundary_duration[]=${b}`).join('&')}&max_duration=3600`;
  });
}

test('20 isochrones on rnv-mannheim: every band a valid MultiPolygon, and the bands agree with the heat map of the same request', async (t) => {
  let agree = 0;
  let strict = 0;
  let total = 0;
  for (const [k, query] of requests().entries()) {
    const iso = await getOk(app, `/v1/coverage/rnv/isochrones?${query}`);
    assert.equal(iso.isochrones.length, 4, query);
    for (const band of iso.isochrones) assert.equal(invalidity(band.geojson), undefined, `${query}: band ${band.min_duration}–${band.max_duration}`);
    // the heat map of the same request, at the isochrones' resolution: the same grid
    const heat = await getOk(app, `/v1/coverage/rnv/heat_maps?${query}&resolution=400`);
    const matrix = heat.heat_maps[0].heat_matrix;
    const R = matrix.lines.length;
    const minLon = matrix.lines[0].cell_lon.min_lon;
    const maxLon = matrix.lines[R - 1].cell_lon.max_lon;
    const minLat = matrix.line_headers[0].cell_lat.min_lat;
    const maxLat = matrix.line_headers[R - 1].cell_lat.max_lat;
    const bandOf = (i: number, j: number) => {
      const v = i < 0 || j < 0 || i >= R || j >= R ? null : matrix.lines[i].duration[j];
      return v === null ? -1 : BOUNDS.findIndex((hi, b) => b > 0 && v < hi) - 1;
    };
    const random = mulberry32(k + 1);
    for (let n = 0; n < 200; n++) {
      const x = minLon + random() * (maxLon - minLon);
      const y = minLat + random() * (maxLat - minLat);
      const i = Math.min(R - 1, Math.floor(((x - minLon) / (maxLon - minLon)) * R));
      const j = Math.min(R - 1, Math.floor(((y - minLat) / (maxLat - minLat)) * R));
      const found = iso.isochrones.findIndex((band: any) =>
        band.geojson.coordinates.some((p: [number, number][][]) => insideRing(x, y, p[0]!) && !p.slice(1).some((h) => insideRing(x, y, h))),
      );
      total++;
      if (found === bandOf(i, j)) strict++;
      // a contour passes between cell centres: a point of a cell split by one may lie in a neighbour's band
      const around = [-1, 0, 1].flatMap((di) => [-1, 0, 1].map((dj) => bandOf(i + di, j + dj)));
      if (around.includes(found)) agree++;
    }
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(2)} %`;
  t.diagnostic(`${total} points: ${pct(agree)} agree, ${pct(strict)} with the cell itself`);
  assert.ok(agree / total >= 0.99, `${pct(agree)} agree (${pct(strict)} with the cell itself)`);
  assert.ok(strict / total >= 0.9, `${pct(strict)} agree with the cell itself`);
});
