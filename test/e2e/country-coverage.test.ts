/**
 * A generated country (bench/country, --scale 2: rnv, Milan, Porto Alegre and Terre Haute on a
 * 2 × 2 grid) as Navette reads it, through the configuration the generator writes:
 *
 * - journeys cross tiles: the travel-time matrix between the four intercity stations, at two
 *   departure times, is exactly what a connection scan over the intercity feed's own stop times
 *   finds (read here with csv-parse: test/e2e/raw-gtfs.ts), with the coverage's minute to board at
 *   the first station and at a change. Each station stands on a street node, so the walks to and
 *   from it are nil and the matrix's times are the trains' alone.
 * - the generated point set links every point to a street at no offset (each stands on a walking
 *   node), and reaches across tiles too.
 * - each tile's feeds, against their sources (read the same plain way): the same rows, ids with the
 *   tile's prefix, agencies in Europe/Berlin, and on the reference date exactly the trips of the
 *   source's busiest Tuesday.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { targetsOf } from '../../bench/country/catalogue.js';
import { generateCountry, type Country } from '../../bench/country/country.js';
import { COPIED_FILES } from '../../bench/country/gtfs-tables.js';
import { INTERCITY } from '../../bench/country/intercity.js';
import { POINT_SET, POINTS_FILE } from '../../bench/country/points.js';
import { REFERENCE_DAY } from '../../bench/country/service-week.js';
import { readConfigFile } from '../../src/cli/config.js';
import { DEFAULT_BOARD_SLACK_SEC } from '../../src/service/coverage-config.js';
import { crowFlyMetres } from '../../src/util/geodesy.js';
import { getJson, serveCoverages, type ServedApp } from '../helpers/app.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { gtfsTime, RawFeed, serviceDays } from './raw-gtfs.js';

let dir: string;
let country: Country;
let served: ServedApp;
/** the stations' point set: id (the tile, `t0`…) and position */
let stations: { id: string; lon: string; lat: string }[];

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'navette-country-'));
  country = await generateCountry(SHARED_DATA, targetsOf('2'), '2', dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'country.json'), 'utf8'));
  stations = manifest.tiles.map((t: { tile: number; station: { lon: string; lat: string } }) => ({ id: `t${t.tile}`, lon: t.station.lon, lat: t.station.lat }));
  writeFileSync(path.join(dir, 'stations.csv'), ['id,lon,lat', ...stations.map((s) => `${s.id},${s.lon},${s.lat}`)].join('\n') + '\n');
  const config = readConfigFile(country.config);
  assert.equal(config.coverages.length, 1);
  const coverage = config.coverages[0]!;
  served = await serveCoverages([{ ...coverage, pointSets: [...(coverage.pointSets ?? []), { name: 'stations', file: path.join(dir, 'stations.csv') }] }]);
});

after(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Connection {
  trip: string;
  from: string;
  to: string;
  departure: number;
  arrival: number;
}

/** The intercity feed's connections (one per pair of consecutive stop times), by departure. */
async function intercityConnections(): Promise<Connection[]> {
  const feed = await RawFeed.open(path.join(dir, 'gtfs', 'intercity.zip'));
  try {
    const st = await feed.table('stop_times.txt');
    const byTrip = new Map<string, string[][]>();
    for (const r of st.rows) {
      const trip = st.get(r, 'trip_id');
      if (!byTrip.has(trip)) byTrip.set(trip, []);
      byTrip.get(trip)!.push(r);
    }
    const out: Connection[] = [];
    for (const [trip, rows] of byTrip) {
      rows.sort((a, b) => Number(st.get(a, 'stop_sequence')) - Number(st.get(b, 'stop_sequence')));
      for (let i = 1; i < rows.length; i++) {
        out.push({
          trip,
          from: st.get(rows[i - 1]!, 'stop_id'),
          to: st.get(rows[i]!, 'stop_id'),
          departure: gtfsTime(st.get(rows[i - 1]!, 'departure_time'))!,
          arrival: gtfsTime(st.get(rows[i]!, 'arrival_time'))!,
        });
      }
    }
    return out.sort((a, b) => a.departure - b.departure);
  } finally {
    feed.close();
  }
}

/** Earliest arrival at every station from `origin` at `time` (a connection scan): a train is boarded a minute after reaching its station, or stayed on. */
function earliestArrivals(connections: Connection[], origin: string, time: number): Map<string, number> {
  const arrival = new Map<string, number>([[origin, time]]);
  const onBoard = new Set<string>();
  for (const c of connections) {
    if (!onBoard.has(c.trip) && !((arrival.get(c.from) ?? Infinity) + DEFAULT_BOARD_SLACK_SEC <= c.departure)) continue;
    onBoard.add(c.trip);
    if (c.arrival < (arrival.get(c.to) ?? Infinity)) arrival.set(c.to, c.arrival);
  }
  return arrival;
}

test('journeys cross tiles by intercity: the matrix between the stations is the connection scan’s, at 07:50 and 07:55', async () => {
  const connections = await intercityConnections();
  for (const [clock, time] of [
    ['075000', 7 * 3600 + 50 * 60],
    ['075500', 7 * 3600 + 55 * 60],
  ] as const) {
    const { status, json, body } = await getJson(served.app, `/v1/coverage/country/travel_time_matrix?origins=stations&datetime=20260310T${clock}&max_duration=10800`);
    assert.equal(status, 200, body);
    const expected = stations.map((o) =>
      stations.map((d) => {
        const at = earliestArrivals(connections, `ic:${o.id}`, time).get(`ic:${d.id}`);
        return at === undefined ? null : at - time;
      }),
    );
    assert.deepEqual(json.travel_time_matrix.durations, [expected], `departing at ${clock}`);
  }
});

test('the figures are plausible: a neighbour half an hour away by the 08:00 train, no journey faster than 120 km/h', async () => {
  const { json } = await getJson(served.app, '/v1/coverage/country/travel_time_matrix?origins=stations&datetime=20260310T075500&max_duration=10800');
  const durations: number[][] = json.travel_time_matrix.durations[0];
  // t0 → t1 (rnv's station to Milan's, 47.6 km): 5 minutes' wait and a ride of 25 minutes
  assert.equal(durations[0]![1], 5 * 60 + 25 * 60);
  for (const [o, from] of stations.entries()) {
    for (const [d, to] of stations.entries()) {
      const km = crowFlyMetres(Number(from.lon), Number(from.lat), Number(to.lon), Number(to.lat)) / 1000;
      assert.ok(durations[o]![d]! >= (km / INTERCITY.speedKmH) * 3600 && durations[o]![d]! < 2 * 3600, `${from.id} → ${to.id}: ${durations[o]![d]} s for ${km.toFixed(1)} km`);
    }
  }
});

test('the generated point set: every point linked to the streets, and the stations reach other tiles’ points', async () => {
  const { json } = await getJson(served.app, '/v1/coverage/country/point_sets');
  const points = json.point_sets.find((p: { name: string }) => p.name === POINT_SET);
  assert.deepEqual([points.file, points.points, points.unlinked_points], [POINTS_FILE, 24, 0]);
  const { status, json: matrix, body } = await getJson(served.app, `/v1/coverage/country/travel_time_matrix?origins=${POINT_SET}&origin_ids[]=t0:station&datetime=20260310T075500&max_duration=10800`);
  assert.equal(status, 200, body);
  const ids: string[] = matrix.travel_time_matrix.destinations;
  const reached = ids.filter((_, d) => matrix.travel_time_matrix.durations[0][0][d] !== null);
  // its own tile's and, by intercity, the other three tiles' points
  assert.deepEqual([...new Set(reached.map((id) => id.split(':')[0]))], ['t0', 't1', 't2', 't3']);
  // the station itself: no offset to walk off and back on
  assert.equal(matrix.travel_time_matrix.durations[0][0][ids.indexOf('t0:station')], 0);
});

test('each tile’s feeds are their sources: the same rows, ids prefixed, Europe/Berlin, the busiest Tuesday on the reference date', async () => {
  const summary: string[] = [];
  for (const tile of country.layout.tiles) {
    for (const feed of tile.feeds) {
      const source = await RawFeed.open(feed.survey.file);
      const copy = await RawFeed.open(path.join(dir, 'gtfs', `${feed.name}.zip`));
      try {
        const prefix = `${feed.name}:`;
        assert.deepEqual(copy.fileNames, COPIED_FILES.filter((f) => source.hasFile(f)));
        for (const name of copy.fileNames) {
          if (name === 'stop_times.txt' || name === 'shapes.txt') continue; // large: their rows are counted by the generator
          assert.equal((await copy.table(name)).rows.length, (await source.table(name)).rows.length, `${feed.name} ${name}`);
        }
        const trips = await copy.table('trips.txt');
        assert.ok(trips.rows.every((r) => trips.get(r, 'trip_id').startsWith(prefix) && trips.get(r, 'service_id').startsWith(prefix)));
        const agency = await copy.table('agency.txt');
        assert.deepEqual([...new Set(agency.rows.map((r) => agency.get(r, 'agency_timezone')))], ['Europe/Berlin']);
        // trips running each day, in the source and in the copy
        const running = async (f: RawFeed, t: typeof trips) => {
          const days = await serviceDays(f);
          const perDay = new Map<number, number>();
          for (const r of t.rows) for (const d of days.get(t.get(r, 'service_id')) ?? []) perDay.set(d, (perDay.get(d) ?? 0) + 1);
          return perDay;
        };
        const sourceDays = await running(source, await source.table('trips.txt'));
        // raw-gtfs's days are UTC day numbers, 1970-01-01 a Thursday: Tuesdays are 5 mod 7
        const busiestTuesday = Math.max(...[...sourceDays].filter(([d]) => (((d - 5) % 7) + 7) % 7 === 0).map(([, n]) => n));
        const onReference = (await running(copy, trips)).get(REFERENCE_DAY);
        assert.equal(onReference, busiestTuesday, `${feed.name}: trips on the reference date`);
        summary.push(`${feed.name} ${feed.survey.feed.name} ${onReference}`);
      } finally {
        source.close();
        copy.close();
      }
    }
  }
  assert.deepEqual(summary, ['t0 rnv 7201', 't1 atm-milano 3359', 't2 eptc 2374', 't2b trensurb 529', 't3 terre-haute 144']);
});
