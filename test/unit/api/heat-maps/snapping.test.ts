/**
 * Points in the middle of a long street: a heat map's centre and stops attach to the closest point
 * of their segment, and the other points of that street are valued straight along it from there,
 * not through the street's far ends. Exact values on a street built for it:
 *
 *   A (0, 0) ------------------------------------------------------------ B (2000, 0)
 *                 s1 (900, 10)  s2 (934, 10)                                sB (2000, 10)
 *
 * One segment of 2000 m, walking at 1.12 m/s: through an end, any point of it is at least 893 s
 * from its middle. A train leaves s2 at 08:01 and reaches sB at 08:03. A footway from (900, 60) to
 * (960, 60), joined to nothing, holds the stop sX (934, 62): 52 m from s2 straight, but no street
 * leads from it to s2.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { METRES_PER_DEGREE } from '../../../../src/util/geodesy.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import type { HeatMatrix } from './fixture.js';
import { serveCoverages } from '../../../helpers/app.js';

const LON0 = 1;
const LAT0 = 0.1;
const COS = Math.cos((LAT0 * Math.PI) / 180);
const lonOf = (x: number) => LON0 + x / (METRES_PER_DEGREE * COS);
const latOf = (y: number) => LAT0 + y / METRES_PER_DEGREE;
const xOf = (lon: number) => (lon - LON0) * METRES_PER_DEGREE * COS;
const yOf = (lat: number) => (lat - LAT0) * METRES_PER_DEGREE;
const WALK = 1.12;

function osmXml(): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<osm version="0.6">',
    `<node id="1" lat="${latOf(0)}" lon="${lonOf(0)}"/>`,
    `<node id="2" lat="${latOf(0)}" lon="${lonOf(2000)}"/>`,
    `<node id="3" lat="${latOf(60)}" lon="${lonOf(900)}"/>`,
    `<node id="4" lat="${latOf(60)}" lon="${lonOf(960)}"/>`,
    '<way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>',
    '<way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="footway"/></way>',
    '</osm>',
  ].join('\n');
}

function gtfs(): string {
  const stop = (id: string, x: number) => `${id},${id},${latOf(10)},${lonOf(x)}`;
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Street,http://example.org,UTC
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
${stop('s1', 900)}
${stop('s2', 934)}
${stop('sB', 2000)}
sX,sX,${latOf(62)},${lonOf(934)}
# routes.txt
route_id,agency_id,route_short_name,route_type
T,N,T,2
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20240101,20241231
# trips.txt
route_id,service_id,trip_id
T,all,t
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
t,08:01:00,08:01:00,s2,1
t,08:03:00,08:03:00,sB,2
`;
}

let app: FastifyInstance;
before(async () => {
  const osm = path.join(mkdtempSync(path.join(tmpdir(), 'navette-osm-')), 'street.osm');
  writeFileSync(osm, osmXml());
  ({ app } = await serveCoverages([{ id: 'street', gtfs: [writeFeed(gtfs())], osm, timezone: 'UTC' }]));
});

async function heatMap(query: string, datetime = '20240102T080000'): Promise<HeatMatrix> {
  const res = await app.inject({ method: 'GET', url: `/v1/coverage/street/heat_maps?datetime=${datetime}&resolution=200&${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body).heat_maps[0].heat_matrix as HeatMatrix;
}

/** The cell holding (x, y): its value and its centre in metres. */
function cellHolding(m: HeatMatrix, x: number, y: number): { value: number | null; cx: number; cy: number } {
  const j = m.line_headers.findIndex((h) => yOf(h.cell_lat.min_lat) <= y && y <= yOf(h.cell_lat.max_lat));
  const i = m.lines.findIndex((l) => xOf(l.cell_lon.min_lon) <= x && x <= xOf(l.cell_lon.max_lon));
  assert.ok(i >= 0 && j >= 0, `a cell holds (${x}, ${y})`);
  return { value: m.lines[i]!.duration[j]!, cx: xOf(m.lines[i]!.cell_lon.center_lon), cy: yOf(m.line_headers[j]!.cell_lat.center_lat) };
}

/** Whole seconds of `tenths` (the API's truncation), with 1e-6 of float noise either way. */
function expectSeconds(actual: number | null, tenths: number, what: string): void {
  const candidates = new Set([Math.floor((tenths - 1e-6) / 10), Math.floor((tenths + 1e-6) / 10)]);
  assert.ok(actual !== null && candidates.has(actual), `${what}: ${actual} s, expected ${[...candidates].join(' or ')}`);
}

describe('points in the middle of a long street', () => {
  for (const direction of ['from', 'to']) {
    test(`a centre on the middle of the street (${direction}): cells along it are valued straight from the centre's point`, async () => {
      const m = await heatMap(`${direction}=${lonOf(1000)};${latOf(5)}&max_duration=900&direct_path=only`);
      for (const x of [1000, 1150, 800, 1400, 1980]) {
        const { value, cx, cy } = cellHolding(m, x, 0);
        // the centre attaches at (1000, 0); through an end each cell would be at 893 s or more
        expectSeconds(value, (Math.hypot(cx - 1000, cy) * 10) / WALK, `cell at ${x} m`);
      }
    });
  }

  test('two stops on one segment: the walk between them is straight along it, so the 08:01 train is caught', async () => {
    // 34 m from s1 to s2: 30 s, in time for the 08:01 train to sB (08:03), 180 s after the start
    const m = await heatMap('from=s1&max_duration=900');
    const { value, cx, cy } = cellHolding(m, 2000, 0);
    // sB attaches at (2000, 0): its cell is valued from there; walking the 1100 m takes 982 s
    expectSeconds(value, 1800 + (Math.hypot(cx - 2000, cy) * 10) / WALK, 'the cell of sB');
  });

  test('from a stop on a footway joined to nothing: the footpath to the platform 52 m away catches the train', async () => {
    // 52 m × 1.3 at 1.12 m/s: 61 s to s2, in time for the 08:01 train when leaving at 07:59
    const m = await heatMap('from=sX&max_duration=900', '20240102T075900');
    const { value, cx, cy } = cellHolding(m, 2000, 0);
    expectSeconds(value, 2400 + (Math.hypot(cx - 2000, cy) * 10) / WALK, 'the cell of sB');
  });

  test('the arrival map to sB by 08:03: a cell near s1 walks straight to s2 and boards the 08:01 train', async () => {
    const m = await heatMap('to=sB&max_duration=900', '20240102T080300');
    const { value, cx, cy } = cellHolding(m, 900, 0);
    // boarding at s2 at 08:01 is 120 s before 08:03; s2 attaches at (934, 0), on the cell's segment
    expectSeconds(value, 1200 + (Math.hypot(cx - 934, cy) * 10) / WALK, 'a cell near s1');
  });
});
