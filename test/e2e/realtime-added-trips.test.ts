/**
 * Trips added by GTFS-Realtime (ADDED TripUpdates) in `/trips` and `/trips/{id}`, at the realtime
 * level only, over the BART capture of 2019-08-07 (../shared/data/rt/bart): 8 trips flagged ADDED,
 * one of them with a single stop (reported, skipped), none naming its route. Then the same capture
 * with a route_id given to one of them (the one route whose static trips pass its stops in its
 * order), one with a route_id the feed does not have and one with the id of a static trip.
 *
 * Expected values come from the decoded capture and the raw GTFS, not from the server's code.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeFeedMessage, type FeedEntity, type FeedMessage } from '../../src/live/realtime/gtfs-rt.js';
import { readTripUpdates } from '../../src/live/realtime/trip-updates.js';
import { withRealtime } from '../../src/service/generation.js';
import { SHARED_DATA } from '../helpers/shared-data.js';
import { getJson } from '../helpers/app.js';
import { COVERAGE, serve, tripIds, type Served } from './coverage-app.js';
import { gtfsDay, RawFeed, serviceDayOrigin } from './raw-gtfs.js';
import { navitiaError } from '../helpers/http.js';

const DIR = path.join(SHARED_DATA, 'rt', 'bart');
const ZIP = path.join(DIR, 'gtfs.zip');
const CAPTURE: FeedMessage = decodeFeedMessage(readFileSync(path.join(DIR, 'trip-updates-2019-08-07.pb')));
const ORIGIN = serviceDayOrigin('America/Los_Angeles', gtfsDay('20190807'));
const LEVELS = ['base_schedule', 'adapted_schedule', 'realtime'] as const;

/** `YYYYMMDDThhmmssZ` of an epoch second. */
const utc = (sec: number) => new Date(sec * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
/** `HHMMSS` of seconds after the service day's origin. */
const hhmmss = (sec: number) => [Math.floor(sec / 3600), Math.floor(sec / 60) % 60, sec % 60].map((x) => String(x).padStart(2, '0')).join('');

/** An added trip as the capture tells it: its served stops and their times (epoch seconds). */
interface Added {
  id: string;
  stops: string[];
  firstDeparture: number;
  lastArrival: number;
}

function addedTrips(message: FeedMessage): { kept: Added[]; oneStop: FeedEntity[] } {
  const flagged = message.entities.filter((e) => e.tripUpdate?.trip.scheduleRelationship === 'ADDED');
  const kept: Added[] = [];
  const oneStop: FeedEntity[] = [];
  for (const e of flagged) {
    const served = e.tripUpdate!.stopTimeUpdates.filter((s) => s.scheduleRelationship !== 'SKIPPED');
    if (served.length < 2) {
      oneStop.push(e);
      continue;
    }
    const last = served[served.length - 1]!;
    kept.push({
      id: e.tripUpdate!.trip.tripId!,
      stops: served.map((s) => s.stopId!),
      firstDeparture: served[0]!.departure?.time ?? served[0]!.arrival!.time!,
      lastArrival: last.arrival?.time ?? last.departure!.time!,
    });
  }
  return { kept, oneStop };
}

/** The raw feed: trip ids, and for each route the stop sequences and directions of its trips. */
async function readRaw() {
  const raw = await RawFeed.open(ZIP);
  const trips = await raw.table('trips.txt');
  const st = await raw.table('stop_times.txt');
  const routes = await raw.table('routes.txt');
  const stopsOf = new Map<string, Array<[number, string]>>();
  for (const r of st.rows) {
    const list = stopsOf.get(st.get(r, 'trip_id')) ?? [];
    list.push([Number(st.get(r, 'stop_sequence')), st.get(r, 'stop_id')]);
    stopsOf.set(st.get(r, 'trip_id'), list);
  }
  const tripIdSet = new Set(trips.rows.map((r) => trips.get(r, 'trip_id')));
  const staticTrips = trips.rows.map((r) => ({
    id: trips.get(r, 'trip_id'),
    routeId: trips.get(r, 'route_id'),
    direction: trips.get(r, 'direction_id'),
    stops: (stopsOf.get(trips.get(r, 'trip_id')) ?? []).sort((a, b) => a[0] - b[0]).map(([, s]) => s),
  }));
  const shortName = new Map(routes.rows.map((r) => [routes.get(r, 'route_id'), routes.get(r, 'route_short_name')]));
  raw.close();
  return { tripIdSet, staticTrips, shortName };
}

/** Whether `inner` is a subsequence of `outer`. */
function passesInOrder(outer: string[], inner: string[]): boolean {
  let k = 0;
  for (const s of outer) if (k < inner.length && s === inner[k]) k++;
  return k === inner.length;
}

async function servedWith(message: FeedMessage): Promise<Served> {
  const served = await serve([ZIP]);
  const g = served.generation;
  served.coverage.swap(withRealtime(g, readTripUpdates(g.ref, message)));
  return served;
}

const tripUrl = (id: string, query: Record<string, string | number>) =>
  `/v1/coverage/${COVERAGE}/trips/${encodeURIComponent(id)}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** The ids of a listing that are not static trips. */
const addedPart = (ids: string[], statics: Set<string>) => ids.filter((id) => !statics.has(id));

describe('BART added trips, as captured (no route_id)', () => {
  let served: Served;
  let raw: Awaited<ReturnType<typeof readRaw>>;
  const { kept, oneStop } = addedTrips(CAPTURE);

  before(async () => {
    served = await servedWith(CAPTURE);
    raw = await readRaw();
  });
  after(() => served.close());

  test('seven added trips, none with a static id; the one-stop addition is reported', () => {
    assert.equal(kept.length, 7);
    assert.equal(oneStop.length, 1);
    for (const a of kept) assert.ok(!raw.tripIdSet.has(a.id), `${a.id} is not a static trip`);
    const problems = served.coverage.generation!.realtime!.problems.filter((p) => !/^unknown trip /.test(p.reason));
    assert.deepEqual(problems, [{ entity: oneStop[0]!.id, reason: `added trip ${oneStop[0]!.tripUpdate!.trip.tripId}: fewer than two stops` }]);
  });

  test('each is found by its id at realtime only, named by its id', async () => {
    for (const a of kept) {
      for (const query of [{}, { data_freshness: 'base_schedule' }, { data_freshness: 'adapted_schedule' }] as Array<Record<string, string>>) {
        const { status, json } = await getJson(served.app, tripUrl(a.id, query));
        assert.equal(status, 404, `${a.id} ${JSON.stringify(query)}`);
        assert.deepEqual(navitiaError(json.error), { id: 'unknown_object', message: 'ptref : Filters: Unable to find object' });
      }
      const { status, json } = await getJson(served.app, tripUrl(a.id, { data_freshness: 'realtime' }));
      assert.equal(status, 200);
      assert.deepEqual(json.trips, [{ id: a.id, name: a.id }]);
    }
    const skipped = oneStop[0]!.tripUpdate!.trip.tripId!;
    assert.equal((await getJson(served.app, tripUrl(skipped, { data_freshness: 'realtime' }))).status, 404);
  });

  test('at depth 2: their first and last stops and times, and no line', async () => {
    for (const a of kept) {
      const { json } = await getJson(served.app, tripUrl(a.id, { data_freshness: 'realtime', depth: 2 }));
      const trip = json.trips[0];
      assert.deepEqual(
        { first: trip.first_stop_time, last: trip.last_stop_time, line: trip.line, route: trip.route, odt: trip.odt_level },
        {
          first: { stop_point: { id: a.stops[0], name: trip.first_stop_time.stop_point.name }, departure_time: hhmmss(a.firstDeparture - ORIGIN) },
          last: { stop_point: { id: a.stops[a.stops.length - 1], name: trip.last_stop_time.stop_point.name }, arrival_time: hhmmss(a.lastArrival - ORIGIN) },
          line: undefined,
          route: undefined,
          odt: 'scheduled',
        },
      );
      const geo = (await getJson(served.app, tripUrl(a.id, { data_freshness: 'realtime', depth: 3 }))).json.trips[0].geojson;
      assert.equal(geo.coordinates.length, a.stops.length);
    }
  });

  test('listed after the static trips, in feed order, at realtime only; pagination counts them', async () => {
    const base = await tripIds(served.app, []);
    assert.equal(base.length, raw.tripIdSet.size);
    assert.deepEqual(await tripIds(served.app, [], { data_freshness: 'adapted_schedule' }), base);
    const realtime = await tripIds(served.app, [], { data_freshness: 'realtime' });
    assert.deepEqual(realtime, [...base, ...kept.map((a) => a.id)]);
    // a page across the boundary
    const page = Math.floor(base.length / 10);
    const { json } = await getJson(served.app, `/v1/coverage/${COVERAGE}/trips?data_freshness=realtime&count=10&start_page=${page}`);
    assert.equal(json.pagination.total_result, base.length + 7);
    assert.deepEqual(
      json.trips.map((t: { id: string }) => t.id),
      realtime.slice(page * 10, page * 10 + 10),
    );
  });

  test('since/until on their first departure', async () => {
    const windows: Array<[number, number]> = [];
    for (const a of kept) windows.push([a.firstDeparture, a.firstDeparture], [a.firstDeparture + 1, a.firstDeparture + 600], [a.firstDeparture - 600, a.firstDeparture - 1]);
    windows.push([Math.min(...kept.map((a) => a.firstDeparture)), Math.max(...kept.map((a) => a.firstDeparture))]);
    for (const [since, until] of windows) {
      const expected = kept.filter((a) => a.firstDeparture >= since && a.firstDeparture <= until).map((a) => a.id);
      for (const level of LEVELS) {
        const ids = await tripIds(served.app, [], { since: utc(since), until: utc(until), data_freshness: level });
        assert.deepEqual(addedPart(ids, raw.tripIdSet), level === 'realtime' ? expected : [], `${level} [${utc(since)}, ${utc(until)}]`);
      }
      // the same through the filter language, at realtime
      const filter = `vehicle_journey.between("${utc(since)}", "${utc(until)}", realtime)`;
      const { json } = await getJson(served.app, `/v1/coverage/${COVERAGE}/trips?data_freshness=realtime&count=1000&filter=${encodeURIComponent(filter)}`);
      assert.deepEqual(addedPart((json.trips ?? []).map((t: { id: string }) => t.id), raw.tripIdSet), expected, filter);
    }
  });

  test('listed under the stop points and stop areas they serve, by external code, and removed by forbidden_uris', async () => {
    for (const stop of new Set(kept.flatMap((a) => a.stops))) {
      const expected = kept.filter((a) => a.stops.includes(stop)).map((a) => a.id);
      for (const segments of [
        ['stop_points', stop],
        ['stop_areas', `stop_area:${stop}`],
      ]) {
        assert.deepEqual(addedPart(await tripIds(served.app, segments, { data_freshness: 'realtime' }), raw.tripIdSet), expected, segments.join('/'));
        assert.deepEqual(addedPart(await tripIds(served.app, segments), raw.tripIdSet), [], `${segments.join('/')} at base_schedule`);
      }
    }
    const a = kept[0];
    assert.deepEqual(await tripIds(served.app, [], { external_code: a!.id, data_freshness: 'realtime' }), [a!.id]);
    const all = await tripIds(served.app, [], { data_freshness: 'realtime', 'forbidden_uris[]': a!.id });
    assert.deepEqual(addedPart(all, raw.tripIdSet), kept.slice(1).map((x) => x.id));
    // under no line, no network
    const networks = await tripIds(served.app, ['networks', 'BART'], { data_freshness: 'realtime' });
    assert.deepEqual(addedPart(networks, raw.tripIdSet), []);
    assert.deepEqual(addedPart(await tripIds(served.app, [], { data_freshness: 'realtime', filter: 'line.code=Yellow or line.code=Red' }), raw.tripIdSet), []);
  });
});

describe('BART added trips with a route_id, an unknown route_id, a static id', () => {
  let served: Served;
  let raw: Awaited<ReturnType<typeof readRaw>>;
  let chosen: Added;
  let routeId: string;
  let direction: string;
  const message = structuredClone(CAPTURE);
  const { kept } = addedTrips(CAPTURE);

  before(async () => {
    raw = await readRaw();
    // the first added trip whose stops, in its order, are passed by the static trips of one route only
    for (const a of kept) {
      const passing = raw.staticTrips.filter((t) => passesInOrder(t.stops, a.stops));
      const routes = new Set(passing.map((t) => t.routeId));
      const directions = new Set(passing.map((t) => t.direction));
      if (routes.size === 1 && directions.size === 1) {
        [chosen, routeId, direction] = [a, [...routes][0]!, [...directions][0]!];
        break;
      }
    }
    assert.ok(chosen!, 'an added trip whose route can be told');
    const entity = message.entities.find((e) => e.tripUpdate?.trip.tripId === chosen.id)!;
    entity.tripUpdate!.trip.routeId = routeId;
    entity.tripUpdate!.trip.directionId = Number(direction);
    // two more: a route the feed does not have, a static trip's id
    const another = kept.find((a) => a !== chosen)!;
    const template = message.entities.find((e) => e.tripUpdate?.trip.tripId === another.id)!;
    const unknownRoute = structuredClone(template);
    unknownRoute.id = 'unknown-route';
    unknownRoute.tripUpdate!.trip = { ...unknownRoute.tripUpdate!.trip, tripId: 'NEW-1', routeId: 'NO-SUCH-ROUTE' };
    const staticId = structuredClone(template);
    staticId.id = 'static-id';
    staticId.tripUpdate!.trip = { ...staticId.tripUpdate!.trip, tripId: raw.staticTrips[0]!.id };
    message.entities.push(unknownRoute, staticId);
    served = await servedWith(message);
  });
  after(() => served.close());

  test('an unknown route_id and a static trip id are reported and skipped', async () => {
    const problems = served.coverage.generation!.realtime!.problems.filter((p) => p.entity === 'unknown-route' || p.entity === 'static-id');
    assert.deepEqual(problems, [
      { entity: 'unknown-route', reason: 'added trip NEW-1: unknown route_id NO-SUCH-ROUTE' },
      { entity: 'static-id', reason: `added trip ${raw.staticTrips[0]!.id}: a static trip has this id, ignored` },
    ]);
    assert.equal((await getJson(served.app, tripUrl('NEW-1', { data_freshness: 'realtime' }))).status, 404);
    const realtime = await tripIds(served.app, [], { data_freshness: 'realtime' });
    assert.deepEqual(addedPart(realtime, raw.tripIdSet), kept.map((a) => a.id));
    assert.equal(realtime.filter((id) => id === raw.staticTrips[0]!.id).length, 1, 'the static trip is listed once');
  });

  test('the trip with a route_id is listed under its line, route and network, at realtime only', async () => {
    const route = `route:${routeId}:${direction}`;
    for (const segments of [
      ['lines', routeId],
      ['routes', route],
      ['networks', 'BART'],
      ['physical_modes', 'physical_mode:Metro'],
    ]) {
      const base = await tripIds(served.app, segments);
      assert.ok(base.length > 0, segments.join('/'));
      assert.deepEqual(await tripIds(served.app, segments, { data_freshness: 'realtime' }), [...base, chosen.id], segments.join('/'));
    }
    // not under the other lines
    for (const other of raw.shortName.keys()) {
      if (other === routeId) continue;
      assert.ok(!(await tripIds(served.app, ['lines', other], { data_freshness: 'realtime' })).includes(chosen.id), `not under line ${other}`);
    }
    // named after its route, with its line at depth 2
    const { json } = await getJson(served.app, tripUrl(chosen.id, { data_freshness: 'realtime', depth: 2 }));
    const trip = json.trips[0];
    assert.deepEqual(
      { id: trip.id, name: trip.name, line: trip.line.id, code: trip.line.code, route: trip.route.id, network: trip.network.id },
      { id: chosen.id, name: raw.shortName.get(routeId), line: routeId, code: raw.shortName.get(routeId), route, network: 'BART' },
    );
    assert.deepEqual((await getJson(served.app, tripUrl(chosen.id, { data_freshness: 'realtime' }))).json.trips, [{ id: chosen.id, name: raw.shortName.get(routeId) }]);
    // line filters in the filter language
    const byCode = await tripIds(served.app, [], { data_freshness: 'realtime', filter: `line.code=${raw.shortName.get(routeId)}` });
    assert.deepEqual(addedPart(byCode, raw.tripIdSet), [chosen.id]);
    const without = await tripIds(served.app, [], { data_freshness: 'realtime', filter: `all - line.uri=${routeId}` });
    assert.deepEqual(addedPart(without, raw.tripIdSet), kept.filter((a) => a !== chosen).map((a) => a.id));
  });
});
