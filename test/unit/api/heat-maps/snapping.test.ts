/**
 * Points in the middle of a long street: a heat map's centre, its stops and its cells link to the
 * closest point of their segment, their offset walked, and the other points of that street are
 * valued straight along it from there, not through the street's far ends. Exact values on a street
 * built for it:
 *
 *   A (0, 0) ------------------------------------------------------------ B (2000, 0)
 *                 s1 (900, 10)  s2 (934, 10)                                sB (2000, 10)
 *
 * One segment of 2000 m, walking at 1.12 m/s: through an end, any point of it is at least 893 s
 * from its middle. A train leaves s2 at 08:01 and reaches sB at 08:03; the board slack is the
 * default, 60 s. A footway from (900, 60) to (960, 60), joined to nothing (a small island), lies
 * beside the stop sX (934, 62): sX links to the street 62 m away instead.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { METRES_PER_DEGREE } from '../../../../src/util/geodesy.js';
import { writeFeed } from '../../../helpers/gtfs-fixture.js';
import { writeOsm, type OsmFixture } from '../../../helpers/osm-fixture.js';
import type { HeatMatrix } from './fixture.js';
import { getOk, serveCoverages } from '../../../helpers/app.js';

const LON0 = 1;
const LAT0 = 0.1;
const COS = Math.cos((LAT0 * Math.PI) / 180);
const lonOf = (x: number) => LON0 + x / (METRES_PER_DEGREE * COS);
const latOf = (y: number) => LAT0 + y / METRES_PER_DEGREE;
const xOf = (lon: number) => (lon - LON0) * METRES_PER_DEGREE * COS;
const yOf = (lat: number) => (lat - LAT0) * METRES_PER_DEGREE;
const WALK = 1.12;

/** The long street A–B and the footway island beside sX. */
const STREETS: OsmFixture = {
  nodes: [
    { id: 1, lon: lonOf(0), lat: latOf(0) },
    { id: 2, lon: lonOf(2000), lat: latOf(0) },
    { id: 3, lon: lonOf(900), lat: latOf(60) },
    { id: 4, lon: lonOf(960), lat: latOf(60) },
  ],
  ways: [
    { id: 10, refs: [1, 2], tags: { highway: 'residential' } },
    { id: 11, refs: [3, 4], tags: { highway: 'footway' } },
  ],
};

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
  const osm = writeOsm(STREETS, 'street.osm');
  const feed = writeFeed(gtfs());
  // the same street with no board slack, to show the coverage's setting reaches its maps
  ({ app } = await serveCoverages([
    { id: 'street', gtfs: [feed], osm, timezone: 'UTC' },
    { id: 'no_slack', gtfs: [feed], osm, timezone: 'UTC', boardSlackSec: 0 },
  ]));
});

async function heatMap(query: string, datetime = '20240102T080000', coverage = 'street'): Promise<HeatMatrix> {
  return (await getOk(app, `/v1/coverage/${coverage}/heat_maps?datetime=${datetime}&resolution=200&${query}`)).heat_maps[0].heat_matrix as HeatMatrix;
}

/** The cell holding (x, y): its value and its centre in metres. */
function cellHolding(m: HeatMatrix, x: number, y: number): { value: number | null; cx: number; cy: number } {
  const j = m.line_headers.findIndex((h) => yOf(h.cell_lat.min_lat) <= y && y <= yOf(h.cell_lat.max_lat));
  const i = m.lines.findIndex((l) => xOf(l.cell_lon.min_lon) <= x && x <= xOf(l.cell_lon.max_lon));
  assert.ok(i >= 0 && j >= 0, `a cell holds (${x}, ${y})`);
  return { value: m.lines[i]!.duration[j]!, cx: xOf(m.lines[i]!.cell_lon.center_lon), cy: yOf(m.line_headers[j]!.cell_lat.center_lat) };
}

/** Tenths of a second to walk `metres` at walking speed. */
const walkDs = (metres: number) => (metres * 10) / WALK;
/** A seed's tenths for an off-street offset (the engine truncates them). */
const offsetDs = (metres: number) => Math.trunc(walkDs(metres));

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
        // the centre links at (1000, 0), 5 m off; the cell's centre at (cx, 0), |cy| off; through an end each cell would be at 893 s or more
        expectSeconds(value, offsetDs(5) + walkDs(Math.abs(cx - 1000)) + walkDs(Math.abs(cy)), `cell at ${x} m`);
      }
    });
  }

  test('two stops on one segment: the walk between them is straight along it and the offsets, so the 08:01 train is caught', async () => {
    // from s1 at 07:59: 10 + 34 + 10 m to s2 (48 s), a minute to board the 08:01 train, sB at 08:03: 240 s
    const m = await heatMap('from=s1&max_duration=900', '20240102T075900');
    const { value, cx, cy } = cellHolding(m, 2000, 0);
    // sB links at (2000, 0), 10 m off: its cell is valued from there; walking the 1100 m takes 982 s
    expectSeconds(value, 2400 + offsetDs(10) + walkDs(Math.hypot(Math.max(0, cx - 2000), cy) + Math.max(0, 2000 - cx)), 'the cell of sB');
    // leaving at 08:00, the slack makes the train leave without us: the cell is walked, 982 s and more
    const late = cellHolding(await heatMap('from=s1&max_duration=1200'), 2000, 0).value;
    assert.ok(late !== null && late > 980, `${late}`);
    // on a coverage with no board slack (boardSlackSec: 0) the 48 s walk still catches it: sB at 08:03, 180 s
    const free = cellHolding(await heatMap('from=s1&max_duration=900', '20240102T080000', 'no_slack'), 2000, 0);
    expectSeconds(free.value, 1800 + offsetDs(10) + walkDs(Math.hypot(Math.max(0, free.cx - 2000), free.cy) + Math.max(0, 2000 - free.cx)), 'the cell of sB without slack');
  });

  test('from a stop beside a footway joined to nothing: it links to the street, and walks its 62 m to catch the train', async () => {
    // 62 + 10 m to s2 (65 s), a minute to board: in time for the 08:01 train when leaving at 07:58 (not at 07:59)
    const m = await heatMap('from=sX&max_duration=900', '20240102T075800');
    const { value, cx, cy } = cellHolding(m, 2000, 0);
    expectSeconds(value, 3000 + offsetDs(10) + walkDs(Math.hypot(Math.max(0, cx - 2000), cy) + Math.max(0, 2000 - cx)), 'the cell of sB');
    const late = cellHolding(await heatMap('from=sX&max_duration=1200', '20240102T075900'), 2000, 0).value;
    assert.ok(late !== null && late > 960, `${late}`);
  });

  test('the arrival map to sB by 08:03: a cell near s1 walks straight to s2 and boards the 08:01 train', async () => {
    const m = await heatMap('to=sB&max_duration=900', '20240102T080300');
    const { value, cx, cy } = cellHolding(m, 900, 0);
    // at s2 by 08:00 (the 08:01 train, a minute of slack): 180 s before 08:03; s2 links at (934, 0), 10 m off
    expectSeconds(value, 1800 + offsetDs(10) + walkDs(Math.abs(934 - cx)) + walkDs(Math.abs(cy)), 'a cell near s1');
  });
});
