/**
 * The object types' descriptors (object-types.ts) and the referential built from them, on the
 * `town` fixture (drawing in test/helpers/town-app.ts): ids, names, counts, the direct links of the
 * hierarchy against the conversions through trips, objects by name, and the classifier of
 * forbidden/allowed ids.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTimetable } from '../../../src/gtfs/gtfs-loader.js';
import { LoadReport } from '../../../src/gtfs/load-report.js';
import {
  CAPTIONS,
  COLLECTION_CAPTIONS,
  collectionOf,
  isTripLike,
  OBJECT_TYPES,
  PTREF_ID_TYPES,
  TRANSIT_MASK_ID_TYPES,
  type Caption,
} from '../../../src/ptref/object-types.js';
import { Referential } from '../../../src/ptref/referential.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { TOWN } from '../../helpers/town-app.js';

let town: Referential;

before(async () => {
  town = new Referential(await loadTimetable([writeFeed(TOWN, 'town')], { report: new LoadReport() }));
});

const ids = (type: Caption, set: Uint32Array) => Array.from(set, (i) => town.id(type, i));
const of = (type: Caption, ...names: string[]) => Uint32Array.from(names, (id) => town.indexOf(type, id));

test('every caption has one descriptor and one collection name, and the collection names lead back to it', () => {
  assert.deepEqual(Object.keys(OBJECT_TYPES).sort(), [...CAPTIONS].sort());
  const collections = CAPTIONS.map(collectionOf);
  assert.equal(new Set(collections).size, CAPTIONS.length);
  for (const type of CAPTIONS) assert.equal(COLLECTION_CAPTIONS[collectionOf(type)], type);
  assert.equal(collectionOf('company'), 'companies');
  assert.equal(COLLECTION_CAPTIONS['vehicle_journeys'], 'vehicle_journey');
});

test('only trips and vehicle journeys are the trips themselves', () => {
  assert.deepEqual(
    CAPTIONS.filter((type) => isTripLike(type)),
    ['vehicle_journey', 'trip'],
  );
});

test('the orders of forbidden/allowed ids name each type once', () => {
  for (const order of [PTREF_ID_TYPES, TRANSIT_MASK_ID_TYPES]) assert.equal(new Set(order).size, order.length);
  // the routing's types are PT-referential types too, in another order
  for (const type of TRANSIT_MASK_ID_TYPES) assert.ok(PTREF_ID_TYPES.includes(type), type);
});

test('counts, ids and names of each type', () => {
  assert.equal(town.count('trip'), 9);
  assert.equal(town.count('vehicle_journey'), 9);
  assert.equal(town.count('network'), 2);
  assert.equal(town.count('company'), 2);
  assert.equal(town.count('poi'), 0);
  assert.equal(town.id('trip', 0), 'B1-0800');
  assert.equal(town.id('vehicle_journey', 0), 'vehicle_journey:B1-0800');
  assert.equal(town.name('vehicle_journey', 0), town.name('trip', 0));
  assert.equal(town.id('journey_pattern', 1), 'journey_pattern:1');
  assert.equal(town.name('journey_pattern', 1), 'journey_pattern:1');
  assert.equal(town.name('network', town.indexOf('network', 'BLUE')), 'Blue Trams');
  assert.equal(town.name('company', town.indexOf('company', 'BLUE')), 'Blue Trams');
  assert.equal(town.name('dataset', 0), 'Town Open Data');
  assert.equal(town.name('stop_area', town.indexOf('stop_area', 'GARE')), 'Gare');
  assert.equal(town.name('validity_pattern', 0), town.id('validity_pattern', 0));
  assert.equal(town.indexOf('vehicle_journey', 'B1-0800'), -1);
  assert.equal(town.indexOf('vehicle_journey', 'vehicle_journey:B1-0900'), 1);
  assert.equal(town.indexOf('poi', ''), -1);
});

test('objects by name: a type without names is named by its ids', () => {
  assert.deepEqual(ids('stop_point', town.named('stop_point', 'Gare quai 2')), ['GARE_2']);
  assert.deepEqual(ids('vehicle_journey', town.named('vehicle_journey', town.name('trip', 2))), ['vehicle_journey:B1-1700']);
  assert.deepEqual(ids('journey_pattern', town.named('journey_pattern', 'journey_pattern:1')), ['journey_pattern:1']);
  assert.equal(town.named('line', 'nothing').length, 0);
  assert.equal(town.named('poi', '').length, 0);
});

test('conversions along the hierarchy, both ways', () => {
  assert.deepEqual(ids('stop_point', town.convert('stop_area', 'stop_point', of('stop_area', 'GARE'))), ['GARE_1', 'GARE_2']);
  assert.deepEqual(ids('stop_area', town.convert('stop_point', 'stop_area', of('stop_point', 'GARE_2', 'ECOLE'))), ['GARE', 'stop_area:ECOLE']);
  assert.deepEqual(ids('line', town.convert('network', 'line', of('network', 'RED'))), ['B1', 'B2', 'N1']);
  assert.deepEqual(ids('line', town.convert('company', 'line', of('company', 'BLUE'))), ['T1', 'D1']);
  assert.deepEqual(ids('company', town.convert('line', 'company', of('line', 'T1', 'B2'))), ['RED', 'BLUE']);
  assert.deepEqual(ids('route', town.convert('line', 'route', of('line', 'B1'))), ['route:B1:0', 'route:B1:1']);
  assert.deepEqual(ids('line', town.convert('route', 'line', of('route', 'route:B2:0', 'route:T1:0'))), ['B2', 'T1']);
});

test('conversions through trips', () => {
  assert.deepEqual(ids('line', town.convert('stop_area', 'line', of('stop_area', 'GARE'))), ['B1', 'B2', 'T1', 'D1']);
  assert.deepEqual(ids('stop_area', town.convert('line', 'stop_area', of('line', 'T1'))), ['GARE', 'stop_area:MUSEE']);
  assert.deepEqual(ids('trip', town.toTrips('stop_point', of('stop_point', 'ECOLE'))), ['B2-1000', 'B2-1100']);
  assert.deepEqual(ids('physical_mode', town.convert('network', 'physical_mode', of('network', 'BLUE'))), ['physical_mode:Bus', 'physical_mode:Tramway']);
  assert.deepEqual(ids('vehicle_journey', town.convert('line', 'vehicle_journey', of('line', 'N1'))), ['vehicle_journey:N1-2530']);
  assert.deepEqual(ids('trip', town.convert('vehicle_journey', 'trip', of('vehicle_journey', 'vehicle_journey:T1-FREQ'))), ['T1-FREQ']);
  assert.deepEqual(ids('network', town.convert('company', 'network', of('company', 'RED'))), ['RED']);
  assert.equal(town.toTrips('poi', Uint32Array.of(0)).length, 0);
  assert.equal(town.fromTrips('poi', town.all('trip')).length, 0);
});

test('the direct links agree with the conversions through trips', () => {
  const pairs: [Caption, Caption][] = [
    ['stop_area', 'stop_point'],
    ['line', 'route'],
    ['network', 'line'],
    ['company', 'line'],
  ];
  for (const [parent, child] of pairs) {
    // (a stop area's trips pass other stop points than its own: no such check there)
    for (let i = 0; parent !== 'stop_area' && i < town.count(parent); i++) {
      const one = Uint32Array.of(i);
      // the hierarchy may hold objects without trips: the trips' side is a subset
      const direct = new Set(town.convert(parent, child, one));
      for (const c of town.fromTrips(child, town.toTrips(parent, one))) assert.ok(direct.has(c), `${parent} ${i} → ${child} ${c}`);
    }
    for (let c = 0; c < town.count(child); c++) {
      const up = town.convert(child, parent, Uint32Array.of(c));
      assert.ok(Array.from(up).every((p) => town.convert(parent, child, Uint32Array.of(p)).includes(c)), `${child} ${c} ↑ ${parent}`);
    }
  }
});

test('identify: the first type of the order with an object of this id', () => {
  assert.deepEqual(town.identify('RED', PTREF_ID_TYPES), { type: 'network', index: 0 });
  assert.deepEqual(town.identify('vehicle_journey:B1-0900', PTREF_ID_TYPES), { type: 'vehicle_journey', index: 1 });
  assert.deepEqual(town.identify('B1-0900', TRANSIT_MASK_ID_TYPES), { type: 'trip', index: 1 });
  assert.equal(town.identify('nothing', PTREF_ID_TYPES), undefined);
  // a dataset is a referential object, which the routing does not mask
  const dataset = town.id('dataset', 0);
  assert.equal(town.identify(dataset, PTREF_ID_TYPES)?.type, 'contributor');
  assert.equal(town.identify(dataset, TRANSIT_MASK_ID_TYPES), undefined);
});

test('identify: an id of two types names the first of the order, which differs for the routing', async () => {
  // stop X and line X
  const feed = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,Agency,http://a.example,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon
X,Stop X,45.0,5.0
Y,Stop Y,45.01,5.0
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
X,A,X,Line X,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
S,1,1,1,1,1,1,1,20240101,20240131
# trips.txt
route_id,service_id,trip_id
X,S,T
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
T,08:00:00,08:00:00,X,1
T,08:10:00,08:10:00,Y,2
`;
  const ref = new Referential(await loadTimetable([writeFeed(feed, 'twice')], { report: new LoadReport() }));
  assert.deepEqual(ref.identify('X', PTREF_ID_TYPES), { type: 'line', index: 0 });
  assert.deepEqual(ref.identify('X', TRANSIT_MASK_ID_TYPES), { type: 'stop_point', index: 0 });
});
