/**
 * What the country generator writes (bench/country): the streaming PBF (pbf-out.ts) read back by
 * Navette's reader, an extract read into tile arrays (street-source.ts) with its walking nodes
 * (walk-nodes.ts), a feed copied into a tile (feed-copy.ts, feed-placement.ts, csv-out.ts), and a
 * tile's points (points.ts).
 *
 * The extract drawn here, ids out of order as Terre Haute's are:
 *
 *   20 (2.00, 48.01) ───motorway─── 30 (2.01, 48.01)
 *                                    │ residential "Main"
 *   40 (2.00, 48.00) ──residential── 10 (2.01, 48.00)         way 5: 40, 10, 30; way 7: 30, 20
 *
 * Numbered by id: node 10 → 0, 20 → 1, 30 → 2, 40 → 3; way 5 → 0, 7 → 1. Node 20 is on the motorway
 * alone, which walkers may not use: the walking nodes are 0, 2 and 3.
 *
 * The feed (from "elsewhere": its stops' box, lon −74 to −73.98, lat 40 to 40.02, is stretched onto
 * the extract's) has S1 at the box's south-west corner, on node 40; S2 at its north-west corner,
 * where node 20 stands, so on the nearest walking node, 30 (744 m off, against 1,112 m to 40); S3 at
 * its south-east corner, on node 10; a station without a position; a shape point in the middle.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PbfReader } from 'pbf';
import { copyFeed } from '../../../bench/country/feed-copy.js';
import { FeedPlacement } from '../../../bench/country/feed-placement.js';
import { tileTransform } from '../../../bench/country/grid.js';
import { MAX_BLOCK_ENTITIES, PbfOut } from '../../../bench/country/pbf-out.js';
import { pointsCsv, tilePoints } from '../../../bench/country/points.js';
import { StreetSource } from '../../../bench/country/street-source.js';
import { WalkNodes } from '../../../bench/country/walk-nodes.js';
import { openFeedSource } from '../../../src/gtfs/feed-source.js';
import { readOsmPbf } from '../../../src/osm/pbf-reader.js';
import { wayTagsOf } from '../../../src/osm/osm-extract.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { writeOsm } from '../../helpers/osm-fixture.js';
import { ZipWriter } from '../../helpers/zip-writer.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'navette-country-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The file's blocks: each BlobHeader's type, in order. */
function blockTypes(file: string): string[] {
  const bytes = readFileSync(file);
  const types: string[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const header = new PbfReader(bytes.subarray(at + 4, at + 4 + length)).readFields(
      (tag, h, p) => {
        if (tag === 1) h.type = p.readString();
        else if (tag === 3) h.size = p.readVarint();
      },
      { type: '', size: 0 },
    );
    types.push(header.type);
    at += 4 + length + header.size;
  }
  return types;
}

test('the PBF: a header, blocks of at most 8,000 nodes, then the ways, read back by Navette as written', async () => {
  const file = path.join(tempDir(), 'streets.osm.pbf');
  const pbf = new PbfOut(file, { west: 20_000_000, south: 480_000_000, east: 20_010_000, north: 480_010_000 }, 'test');
  const count = MAX_BLOCK_ENTITIES + 1;
  for (let k = 1; k <= count; k++) pbf.node(k, 20_000_000 + k, 480_000_000 + 2 * k);
  pbf.way(1, ['highway', 'name'], ['residential', 'Rue "A", 1'], 0, 2, [1, 2, 3]);
  pbf.way(2, ['highway'], ['footway'], 0, 1, [count - 1, count]);
  pbf.close();
  assert.deepEqual([pbf.nodes, pbf.ways], [count, 2]);
  assert.deepEqual(blockTypes(file), ['OSMHeader', 'OSMData', 'OSMData', 'OSMData']);
  const x = await readOsmPbf(file);
  assert.deepEqual([x.stats.nodesRead, x.stats.waysRead, x.wayCount], [count, 2, 2]);
  assert.deepEqual([...x.wayIds], [1, 2]);
  assert.deepEqual([0, 1].map((w) => wayTagsOf(x, w)), [{ highway: 'residential', name: 'Rue "A", 1' }, { highway: 'footway' }]);
  // the used nodes in order of first use: 1, 2, 3, 8000, 8001
  assert.deepEqual([...x.nodeIds], [1, 2, 3, count - 1, count]);
  assert.deepEqual(
    [...x.lon].map((v) => Math.round(v * 1e7)),
    [1, 2, 3, count - 1, count].map((k) => 20_000_000 + k),
  );
  assert.deepEqual(
    [...x.lat].map((v) => Math.round(v * 1e7)),
    [1, 2, 3, count - 1, count].map((k) => 480_000_000 + 2 * k),
  );
});

test('the PBF refuses elements out of order: the file is sorted, as it says', () => {
  const pbf = new PbfOut(path.join(tempDir(), 'x.osm.pbf'), { west: 0, south: 0, east: 0, north: 0 }, 'test');
  pbf.node(5, 0, 0);
  assert.throws(() => pbf.node(5, 0, 0), /ascending id order/);
  pbf.way(3, [], [], 0, 0, [5, 5]);
  assert.throws(() => pbf.way(2, [], [], 0, 0, [5, 5]), /ascending id order/);
  pbf.close();
});

async function streets(): Promise<{ source: StreetSource; walkNodes: WalkNodes }> {
  const file = writeOsm(
    {
      nodes: [
        { id: 40, lon: 2.0, lat: 48.0 },
        { id: 10, lon: 2.01, lat: 48.0 },
        { id: 30, lon: 2.01, lat: 48.01 },
        { id: 20, lon: 2.0, lat: 48.01 },
      ],
      ways: [
        { id: 7, refs: [30, 20], tags: { highway: 'motorway' } },
        { id: 5, refs: [40, 10, 30], tags: { name: 'Main', highway: 'residential' } },
      ],
    },
    'streets.osm.pbf',
  );
  dirs.push(path.dirname(file));
  const source = await StreetSource.load(file);
  return { source, walkNodes: new WalkNodes(source) };
}

test('an extract in tile arrays: nodes and ways numbered by id, tags by key, the largest walking part', async () => {
  const { source, walkNodes } = await streets();
  const a = source.a;
  assert.deepEqual([a.nodeCount, a.wayCount], [4, 2]);
  assert.deepEqual([...a.lon].map((v) => Math.round(v * 1e7)), [20_100_000, 20_000_000, 20_100_000, 20_000_000]);
  assert.deepEqual([...a.lat].map((v) => Math.round(v * 1e7)), [480_000_000, 480_100_000, 480_100_000, 480_000_000]);
  assert.deepEqual([...a.wayNodeOffset], [0, 3, 5]);
  assert.deepEqual([...a.wayNodes], [3, 0, 2, 2, 1]);
  assert.deepEqual([a.tagKeys, a.tagValues], [
    ['highway', 'name', 'highway'],
    ['residential', 'Main', 'motorway'],
  ]);
  assert.deepEqual(source.bbox.map((v) => Math.round(v * 1e7)), [20_000_000, 480_000_000, 20_100_000, 480_100_000]);
  assert.equal(walkNodes.size, 3);
  assert.equal(walkNodes.nearest(2.0, 48.01), 2);
  assert.equal(walkNodes.nearest(2.001, 48.0), 3);
});

const FEED = `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
A,"Agency, Inc.",http://a.example,America/New_York
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,stop_timezone
S1,One,40.0,-74.0,0,ST,America/New_York
S2,Two,40.02,-74.0,0,,
S3,Three,40.0,-73.98,0,,
ST,Station,,,1,,
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
R,A,1,,3
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
WK,1,1,1,1,1,0,0,20240101,20240131
# calendar_dates.txt
service_id,date,exception_type
WK,20240102,2
# trips.txt
route_id,service_id,trip_id,block_id,shape_id
R,WK,T1,B1,SH
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
T1,08:00:00,08:00:00,S1,1,"Downtown, via ""Main"""
T1,25:10:00,25:10:00,S2,2,
T1,25:20:00,25:20:00,S3,3,
# shapes.txt
shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
SH,40.01,-73.99,1
# attributions.txt
attribution_id,organization_name
X,Someone
`;

/** Each file of a zip as text, in the archive's order. */
async function zipTexts(file: string): Promise<Record<string, string>> {
  const source = await openFeedSource(file);
  const texts: Record<string, string> = {};
  try {
    for (const name of source.files) {
      const chunks: Buffer[] = [];
      await source.read(name, (c) => chunks.push(c));
      texts[name] = Buffer.concat(chunks).toString('utf8');
    }
  } finally {
    source.close();
  }
  return texts;
}

test('a feed laid on a tile: ids prefixed, stops on walking nodes, shapes stretched, dates a week on, the country’s time zone', async () => {
  const { source, walkNodes } = await streets();
  // the tile's own place: no move, so that the expected positions are the nodes'
  const placement = new FeedPlacement(source, walkNodes, tileTransform(source.centre, source.centre), [-74.0, 40.0, -73.98, 40.02]);
  const file = path.join(tempDir(), 't7.zip');
  const zip = new ZipWriter(file, 6);
  const rows = await copyFeed(writeFeed(FEED), zip, { prefix: 't7:', shiftDays: 7, placement });
  await zip.close();
  assert.deepEqual(rows, { 'agency.txt': 1, 'stops.txt': 4, 'routes.txt': 1, 'calendar.txt': 1, 'calendar_dates.txt': 1, 'trips.txt': 1, 'stop_times.txt': 3, 'shapes.txt': 1 });
  assert.deepEqual(await zipTexts(file), {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nt7:A,"Agency, Inc.",http://a.example,Europe/Berlin\n',
    'stops.txt': [
      'stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,stop_timezone',
      't7:S1,One,48.0000000,2.0000000,0,t7:ST,Europe/Berlin',
      't7:S2,Two,48.0100000,2.0100000,0,,',
      't7:S3,Three,48.0000000,2.0100000,0,,',
      't7:ST,Station,,,1,,',
      '',
    ].join('\n'),
    'routes.txt': 'route_id,agency_id,route_short_name,route_long_name,route_type\nt7:R,t7:A,1,,3\n',
    'calendar.txt': 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nt7:WK,1,1,1,1,1,0,0,20240108,20240207\n',
    'calendar_dates.txt': 'service_id,date,exception_type\nt7:WK,20240109,2\n',
    'trips.txt': 'route_id,service_id,trip_id,block_id,shape_id\nt7:R,t7:WK,t7:T1,t7:B1,t7:SH\n',
    'stop_times.txt': [
      'trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign',
      't7:T1,08:00:00,08:00:00,t7:S1,1,"Downtown, via ""Main"""',
      't7:T1,25:10:00,25:10:00,t7:S2,2,',
      't7:T1,25:20:00,25:20:00,t7:S3,3,',
      '',
    ].join('\n'),
    'shapes.txt': 'shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nt7:SH,48.0050000,2.0050000,1\n',
  });
  // the intercity station of a tile whose main station is S2: the walking node S2 stands on
  assert.deepEqual(placement.station({ lon: -74.0, lat: 40.02 }), [20_100_000, 480_100_000]);
});

test("a city's own feed keeps its places, moved with the tile, not put on nodes", async () => {
  const { source, walkNodes } = await streets();
  const to = { lon: 7.0, lat: 48.5 };
  const placement = new FeedPlacement(source, walkNodes, tileTransform(source.centre, to));
  const stretch = Math.cos((48.005 * Math.PI) / 180) / Math.cos((48.5 * Math.PI) / 180);
  assert.deepEqual(placement.stop(2.002, 48.003), [Math.round((7.0 + (2.002 - 2.005) * stretch) * 1e7), Math.round((48.5 - 0.002) * 1e7)]);
  assert.deepEqual(placement.shape(2.002, 48.003), placement.stop(2.002, 48.003));
});

test("a tile's points: its station, then the lattice positions with a walking node near, on that node, each place once", async () => {
  const { source, walkNodes } = await streets();
  // a 2 km square around the extract's centre (2.005, 48.005) in 2 × 2: positions 500 m east or
  // west and north or south of it. South-west: node 40 is 140 m off, kept; south-east: node 10,
  // 140 m, kept; north-west: node 20 is the motorway's, the nearest walking node (30) 872 m off,
  // left out; north-east: node 30, 140 m, but the station stands there already
  const tile = { index: 7, streets: { source, walkNodes }, transform: tileTransform(source.centre, source.centre), station: [20_100_000, 480_100_000] as [number, number] };
  const points = tilePoints(tile, { cellM: 2_000, perSide: 2, keepWithinM: 300 });
  assert.deepEqual(points, [
    { id: 't7:station', lonE7: 20_100_000, latE7: 480_100_000 },
    { id: 't7:r0c0', lonE7: 20_000_000, latE7: 480_000_000 },
    { id: 't7:r0c1', lonE7: 20_100_000, latE7: 480_000_000 },
  ]);
  // within 900 m, the north-west position keeps node 30, and the north-east one, on the same node,
  // is the same place (a station elsewhere); within 100 m no position is kept
  const elsewhere = { ...tile, station: [20_050_000, 480_050_000] as [number, number] };
  assert.deepEqual(tilePoints(elsewhere, { cellM: 2_000, perSide: 2, keepWithinM: 900 }).slice(1), [
    { id: 't7:r0c0', lonE7: 20_000_000, latE7: 480_000_000 },
    { id: 't7:r0c1', lonE7: 20_100_000, latE7: 480_000_000 },
    { id: 't7:r1c0', lonE7: 20_100_000, latE7: 480_100_000 },
  ]);
  assert.deepEqual(tilePoints(tile, { cellM: 2_000, perSide: 2, keepWithinM: 100 }).map((p) => p.id), ['t7:station']);
  assert.equal(pointsCsv(points), 'id,lon,lat\nt7:station,2.0100000,48.0100000\nt7:r0c0,2.0000000,48.0000000\nt7:r0c1,2.0100000,48.0000000\n');
});
