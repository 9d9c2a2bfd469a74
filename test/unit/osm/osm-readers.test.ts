/**
 * The OpenStreetMap readers: `readOsmPbf`, `readOsmXml` and `readOsm`, which picks one of them.
 *
 *   1. the four real extracts of ../shared/data, each read once: counts, bbox, the structure of the
 *      result, and the first and last highway ways of each file (expected values from an
 *      independent decoding of the files, which also confirms the counts of the data README);
 *   2. a PBF written here (with the blocks of test/helpers/osm-fixture.ts): dense and plain nodes,
 *      a non-default granularity and offsets, raw and zlib blobs, ways before the nodes they use, a
 *      way cut by a missing node, negative ids;
 *   3. the same elements as OSM XML written by hand (entities, quotes, attribute order, comments),
 *      read whole and in tiny chunks, and malformed documents;
 *   4. PBF and XML of the same elements read to the same extract, those written by hand here and
 *      those of the fixture writer (test/helpers/osm-fixture.ts);
 *   5. `readOsm`'s choice of reader, by extension or by the first bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KEPT_WAY_TAGS, wayTagColumns, wayTagsOf, type OsmExtract, type OsmStats } from '../../../src/osm/osm-extract.js';
import { readOsmPbf } from '../../../src/osm/pbf-reader.js';
import { readOsm } from '../../../src/osm/read-osm.js';
import { readOsmXml } from '../../../src/osm/xml-reader.js';
import {
  DEFAULT_GRID,
  denseGroup,
  fileBlock,
  headerBlock,
  nodesGroup,
  primitiveBlock,
  relationsGroup,
  REQUIRED_FEATURES,
  waysGroup,
  writeOsm,
  type Grid,
  type OsmNode,
  type OsmWay,
  type Tags,
} from '../../helpers/osm-fixture.js';
import { SHARED_DATA, SHARED_DATA_MISSING } from '../../helpers/shared-data.js';
import { describeOrSkip } from '../../helpers/skip.js';

type Bbox = [number, number, number, number];

// ---------------------------------------------------------------------------------------------
// Checks shared by all parts

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, eps: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= eps, `${what}[${i}]: ${actual[i]} instead of ${expected[i]}`);
  }
}

/** Equal extracts, coordinates (and bbox) within `eps` degrees. */
function assertExtract(actual: OsmExtract, expected: OsmExtract, eps: number): void {
  const { lon, lat, stats, ...rest } = actual;
  const { lon: expectedLon, lat: expectedLat, stats: expectedStats, ...expectedRest } = expected;
  const { bbox, ...counts } = stats;
  const { bbox: expectedBbox, ...expectedCounts } = expectedStats;
  assert.deepEqual(rest, expectedRest);
  assert.deepEqual(counts, expectedCounts);
  assertClose(lon, expectedLon, eps, 'lon');
  assertClose(lat, expectedLat, eps, 'lat');
  assertClose(bbox ?? [], expectedBbox ?? [], eps, 'bbox');
}

/**
 * What holds for any extract: offsets that delimit every way, ways of two or more nodes without a
 * node repeated in a row, node indexes numbered in order of first use (the builder's numbering: each
 * node is used and below nodeCount), distinct node ids, only highway ways with kept tags, and the
 * bbox of the nodes.
 */
function assertWellFormed(x: OsmExtract): void {
  assert.equal(x.nodeIds.length, x.nodeCount);
  assert.equal(x.lon.length, x.nodeCount);
  assert.equal(x.lat.length, x.nodeCount);
  assert.equal(x.wayIds.length, x.wayCount);
  assert.equal(x.wayTagSet.length, x.wayCount);
  assert.equal(x.wayName.length, x.wayCount);
  // each set and name used, and only those (numbered in order of first use)
  assert.deepEqual(new Set(x.wayTagSet).size, x.tagSets.length);
  assert.deepEqual(new Set([...x.wayName].filter((k) => k >= 0)).size, x.names.length);
  assert.equal(x.wayNodeOffset.length, x.wayCount + 1);
  assert.equal(x.wayNodeOffset[0], 0);
  assert.equal(x.wayNodeOffset[x.wayCount], x.wayNodes.length);
  assert.equal(x.stats.waysKept, x.wayCount);
  for (let w = 0; w < x.wayCount; w++) {
    const start = x.wayNodeOffset[w]!;
    const end = x.wayNodeOffset[w + 1]!;
    assert.ok(end - start >= 2, `way ${x.wayIds[w]} has ${end - start} nodes`);
    for (let k = start + 1; k < end; k++) assert.notEqual(x.wayNodes[k], x.wayNodes[k - 1], `way ${x.wayIds[w]} repeats a node`);
  }
  let next = 0;
  for (const n of x.wayNodes) {
    if (n === next) next++;
    else assert.ok(n < next, `node index ${n} used before index ${next}`);
  }
  assert.equal(next, x.nodeCount, 'every node is used');
  assert.equal(new Set(x.nodeIds).size, x.nodeCount, 'distinct node ids');
  const kept = new Set<string>(KEPT_WAY_TAGS);
  for (let w = 0; w < x.wayCount; w++) {
    const tags = wayTagsOf(x, w);
    assert.ok(tags['highway'] !== undefined, 'a kept way without highway');
    for (const k in tags) assert.ok(kept.has(k), `tag ${k} kept`);
  }
  const [minLon, maxLon] = extent(x.lon);
  const [minLat, maxLat] = extent(x.lat);
  assert.deepEqual(x.stats.bbox, [minLon, minLat, maxLon, maxLat]);
}

/** Smallest and largest value (a loop: 200,000 arguments spread into Math.min overflow the stack). */
function extent(values: Float64Array): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return [min, max];
}

/** Indexes (in the extract) of the runs of way `id`. */
function waysWithId(x: OsmExtract, id: number): number[] {
  const found: number[] = [];
  for (let w = 0; w < x.wayCount; w++) if (x.wayIds[w] === id) found.push(w);
  return found;
}

function wayNodeIds(x: OsmExtract, w: number): number[] {
  return Array.from(x.wayNodes.subarray(x.wayNodeOffset[w], x.wayNodeOffset[w + 1]), (n) => x.nodeIds[n]!);
}

// ---------------------------------------------------------------------------------------------
// 1. Real extracts

interface RealWay {
  id: number;
  tags: Tags;
  nodes: number[];
  /** lon, lat of the first and of the last node */
  first: [number, number];
  last: [number, number];
}

interface RealExtract {
  dir: string;
  counts: Omit<OsmStats, 'bbox'>;
  nodeCount: number;
  /** bbox of the nodes of kept ways */
  bbox: Bbox;
  /** bbox of the data README (all nodes, 4 decimals) */
  readmeBbox?: Bbox;
  /** the file's first and last highway ways */
  ways: [RealWay, RealWay];
}

// The counts of nodes, ways and relations read and of missing references are the README's. Its
// "37,278 highway=*" for rnv-mannheim is not what the file holds: all 37,344 ways have a highway tag.
const REAL: RealExtract[] = [
  {
    dir: 'rnv-mannheim',
    counts: { nodesRead: 164_598, waysRead: 37_344, relationsRead: 0, waysKept: 37_344, missingNodeRefs: 0, waysDroppedTooShort: 0, duplicateWays: 0 },
    nodeCount: 164_598,
    bbox: [8.1574752, 49.3264915, 8.8221519, 49.6394846],
    readmeBbox: [8.1575, 49.3265, 8.8222, 49.6395],
    ways: [
      {
        id: 2496473,
        tags: { access: 'yes', highway: 'residential', maxspeed: '30', motorcar: 'no', name: 'Nördliche Hauptstraße', oneway: 'no' },
        nodes: [10801477, 364787685, 10854219, 10854220, 4333463344, 769190726, 10854218, 10854222],
        first: [8.6753488, 49.5542448],
        last: [8.6751113, 49.5564172],
      },
      {
        id: 459790248,
        tags: { highway: 'primary' },
        nodes: [4555324721, 3610383570],
        first: [8.2001677, 49.4663749],
        last: [8.199225, 49.4670137],
      },
    ],
  },
  {
    dir: 'milan',
    // the missing references are all in ways without a highway tag; the one highway way dropped
    // (215336562) has a single node
    counts: { nodesRead: 262_352, waysRead: 69_043, relationsRead: 2_350, waysKept: 58_480, missingNodeRefs: 42_142, waysDroppedTooShort: 1, duplicateWays: 0 },
    nodeCount: 217_361,
    bbox: [9.0532001, 45.3381459, 9.4560855, 45.5608886],
    readmeBbox: [9.0371, 45.3381, 9.4692, 45.6788],
    ways: [
      {
        id: 4011790,
        tags: { highway: 'unclassified', name: 'Via Antonio Canova', oneway: 'yes' },
        nodes: [21226567, 21226446],
        first: [9.1683549, 45.475994],
        last: [9.1680861, 45.4758103],
      },
      {
        id: 306704169,
        tags: { highway: 'residential' },
        nodes: [3073507661, 3073507662, 3073507663, 2247883726],
        first: [9.1731037, 45.4222789],
        last: [9.1731931, 45.4224901],
      },
    ],
  },
  {
    dir: 'porto-alegre',
    counts: { nodesRead: 43_264, waysRead: 16_032, relationsRead: 23, waysKept: 15_886, missingNodeRefs: 0, waysDroppedTooShort: 0, duplicateWays: 0 },
    nodeCount: 41_109,
    bbox: [-51.2663537, -30.1133278, -51.1321566, -29.9904749],
    readmeBbox: [-51.2664, -30.1133, -51.1322, -29.9876],
    ways: [
      {
        id: 26786712,
        tags: { highway: 'primary', maxspeed: '60', name: 'Avenida Bento Gonçalves', oneway: 'yes', sidewalk: 'right' },
        nodes: [293823205, 3618665294, 293823526],
        first: [-51.1516418, -30.065571],
        last: [-51.1508528, -30.0662437],
      },
      {
        id: 835202042,
        tags: { highway: 'service', service: 'parking_aisle' },
        nodes: [
          7795997846, 7795997841, 7795997842, 7795997845, 7795997843, 3340713766, 7795997838, 7795997844, 7795997839, 7795997840,
          7795997846,
        ],
        first: [-51.1752035, -30.0545312],
        last: [-51.1752035, -30.0545312],
      },
    ],
  },
  {
    dir: 'terre-haute',
    // not sorted by id (12,143 nodes come after a larger id); way 17565143 is in the file twice,
    // and both copies are kept
    counts: { nodesRead: 40_140, waysRead: 5_096, relationsRead: 0, waysKept: 4_250, missingNodeRefs: 0, waysDroppedTooShort: 0, duplicateWays: 1 },
    nodeCount: 25_435,
    bbox: [-87.610154, 39.2590249, -87.0647709, 39.709474],
    ways: [
      {
        id: 17562142,
        tags: { highway: 'residential' },
        nodes: [
          181860440, 181860442, 181860444, 181860447, 181860450, 181860453, 181860456, 181860457, 181860459, 181860461, 181860463,
          181860465, 181860467, 181860469, 181860471, 181860473, 181860474, 181860475, 181860477, 181860479, 181860482, 181860485,
          181860487, 181860489,
        ],
        first: [-87.49919, 39.622918],
        last: [-87.500598, 39.625899],
      },
      {
        id: 380420444,
        tags: { highway: 'residential', name: 'East Beagle Drive' },
        nodes: [
          3837558975, 181889704, 181889707, 181889710, 181889713, 181889716, 181889718, 181889720, 181889723, 181889724, 181889725,
          181889726, 181889728, 181889731, 181889734, 181889737, 181889739,
        ],
        first: [-87.3240244, 39.3572433],
        last: [-87.3073216, 39.3540204],
      },
    ],
  },
];

for (const real of REAL) {
  describeOrSkip(`real extract ${real.dir}/osm.pbf`, SHARED_DATA_MISSING, () => {
    let x: OsmExtract;
    before(async () => {
      x = await readOsmPbf(path.join(SHARED_DATA, real.dir, 'osm.pbf'));
    });

    test('counts', () => {
      assert.deepEqual(x.stats, { ...real.counts, bbox: x.stats.bbox });
      assert.equal(x.nodeCount, real.nodeCount);
      assert.equal(x.wayCount, real.counts.waysKept);
    });

    test('bbox', () => {
      assertClose(x.stats.bbox!, real.bbox, 1e-9, 'bbox');
      if (!real.readmeBbox) return;
      // inside the README's bbox of all nodes, give or take its rounding to 4 decimals
      const [minLon, minLat, maxLon, maxLat] = x.stats.bbox!;
      const [readmeMinLon, readmeMinLat, readmeMaxLon, readmeMaxLat] = real.readmeBbox;
      const slack = 5e-5;
      assert.ok(minLon >= readmeMinLon - slack && minLat >= readmeMinLat - slack, `${x.stats.bbox} within ${real.readmeBbox}`);
      assert.ok(maxLon <= readmeMaxLon + slack && maxLat <= readmeMaxLat + slack, `${x.stats.bbox} within ${real.readmeBbox}`);
    });

    test('well formed', () => assertWellFormed(x));

    test('first and last highway ways: tags, nodes in order, coordinates', () => {
      for (const way of real.ways) {
        const [w, ...others] = waysWithId(x, way.id);
        assert.ok(w !== undefined && others.length === 0, `way ${way.id} kept once`);
        assert.deepEqual(wayTagsOf(x, w), way.tags);
        assert.deepEqual(wayNodeIds(x, w), way.nodes);
        const first = x.wayNodes[x.wayNodeOffset[w]!]!;
        const last = x.wayNodes[x.wayNodeOffset[w + 1]! - 1]!;
        assertClose([x.lon[first]!, x.lat[first]!, x.lon[last]!, x.lat[last]!], [...way.first, ...way.last], 1e-9, `way ${way.id}`);
      }
      assert.deepEqual([x.wayIds[0], x.wayIds[x.wayCount - 1]], real.ways.map((way) => way.id));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The synthetic extract, written as PBF (2) and as XML (3)

/** Offsets with a part below the granularity (7 and -3 nanodegrees), so that one lost shows. */
const DENSE_GRID: Grid = { granularity: 1000, latOffset: 51_000_000_007, lonOffset: -1_000_000_003 };

/** Dense nodes, on DENSE_GRID; ids not in order. */
const DENSE_NODES: OsmNode[] = [
  { id: 100, lon: -0.001234003, lat: 51.477123007 },
  { id: 101, lon: 0.000456997, lat: 51.477456007 },
  { id: 105, lon: 0.002345997, lat: 51.476001007, tags: { crossing: 'zebra' } },
  { id: 103, lon: -0.000999003, lat: 51.478000007 },
  // used by no kept way: neither in the extract nor in its bbox
  { id: 104, lon: 0.009000997, lat: 51.490000007 },
];

/** Plain nodes, on the default grid. */
const PLAIN_NODES: OsmNode[] = [
  { id: 7, lon: -0.0021234, lat: 51.4801234, tags: { highway: 'bus_stop', name: 'A & B' } },
  { id: 8, lon: 0.0012345, lat: 51.4756789 },
  { id: 9, lon: 0.0031111, lat: 51.4812222 },
  { id: -1, lon: 0.0005, lat: 51.479 },
];

const WAY_NAME = `Rue d'Écosse & "Nord" <1> – sud`;
const FOOTWAY_TAGS: Tags = { highway: 'footway', footway: 'sidewalk', name: 'Straße am Café (> 2)' };
/** Every kept tag, on one way. */
const ALL_KEPT: Tags = Object.fromEntries(KEPT_WAY_TAGS.map((k) => [k, k === 'highway' ? 'tertiary' : `${k} value`]));

/** Ids 995 to 999 are missing nodes. */
const WAYS: OsmWay[] = [
  {
    id: 10,
    refs: [100, 101, 7],
    tags: { highway: 'residential', name: WAY_NAME, oneway: 'yes', surface: 'asphalt', lanes: '2', 'name:en': 'Scotland Street' },
  },
  // cut by a missing node: two runs, both kept under the way's id
  { id: 11, refs: [101, 105, 999, 103, 8], tags: { ...FOOTWAY_TAGS, lit: 'yes' } },
  { id: 12, refs: [104, 9, 998], tags: { building: 'yes' } },
  // nodes repeated in a row count once; a missing last node ends the way
  { id: 13, refs: [8, 8, 9, 9, 997], tags: { ...ALL_KEPT, surface: 'paved', 'tiger:cfcc': 'A41' } },
  // a single known node, no known node: both dropped
  { id: 14, refs: [996, 7], tags: { highway: 'service' } },
  { id: 15, refs: [995], tags: { highway: 'service' } },
  // negative ids (new data, as JOSM saves them)
  { id: -20, refs: [-1, 9], tags: { highway: 'path', bicycle: 'no' } },
];

function expectedExtract(): OsmExtract {
  const nodeIds = [100, 101, 7, 105, 103, 8, 9, -1]; // in order of first use
  const byId = new Map([...DENSE_NODES, ...PLAIN_NODES].map((n) => [n.id, n]));
  const nodes = nodeIds.map((id) => byId.get(id)!);
  return {
    nodeCount: 8,
    nodeIds: Float64Array.from(nodeIds),
    lon: Float64Array.from(nodes, (n) => n.lon),
    lat: Float64Array.from(nodes, (n) => n.lat),
    wayCount: 5,
    wayIds: Float64Array.of(10, 11, 11, 13, -20),
    wayNodeOffset: Uint32Array.of(0, 3, 5, 7, 9, 11),
    wayNodes: Uint32Array.of(0, 1, 2, 1, 3, 4, 5, 5, 6, 7, 6),
    ...wayTagColumns([{ highway: 'residential', name: WAY_NAME, oneway: 'yes' }, FOOTWAY_TAGS, FOOTWAY_TAGS, ALL_KEPT, { highway: 'path', bicycle: 'no' }]),
    stats: {
      nodesRead: 9,
      waysRead: 7,
      relationsRead: 2,
      waysKept: 5,
      missingNodeRefs: 5,
      waysDroppedTooShort: 2,
      duplicateWays: 0,
      bbox: [-0.0021234, 51.4756789, 0.0031111, 51.4812222],
    },
  };
}

const DIR = mkdtempSync(path.join(tmpdir(), 'navette-osm-readers-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

function writeTemp(name: string, content: string | Uint8Array): string {
  const file = path.join(DIR, name);
  writeFileSync(file, content);
  return file;
}

// ---------------------------------------------------------------------------------------------
// 2. PBF

/** The fixture's file blocks: header (raw), ways (zlib), dense nodes (raw), plain nodes (zlib). */
function fixtureBlocks(requiredFeatures = REQUIRED_FEATURES): Buffer[] {
  return [
    fileBlock('OSMHeader', headerBlock(requiredFeatures), 'raw'),
    // the ways come before the nodes they use
    fileBlock('OSMData', primitiveBlock([waysGroup(WAYS), relationsGroup([50])]), 'zlib'),
    fileBlock('OSMData', primitiveBlock([denseGroup(DENSE_NODES, DENSE_GRID)], DENSE_GRID), 'raw'),
    fileBlock('OSMData', primitiveBlock([nodesGroup(PLAIN_NODES, DEFAULT_GRID), relationsGroup([51])]), 'zlib'),
  ];
}

const PBF_FILE = writeTemp('fixture.osm.pbf', Buffer.concat(fixtureBlocks()));

describe('PBF reader on a written file', () => {
  test('nodes, ways, tags and counts, coordinates to 1e-9', async () => {
    const x = await readOsmPbf(PBF_FILE);
    assertExtract(x, expectedExtract(), 1e-9);
    assertWellFormed(x);
  });

  test('ways read first, then only the nodes they name: the first node of a repeated id kept, every node counted', async () => {
    // node 1 comes again in a later block with other coordinates; node 3 is named by no way
    const nodes: OsmNode[] = [
      { id: 1, lon: 8.1, lat: 49.1 },
      { id: 2, lon: 8.2, lat: 49.2 },
      { id: 3, lon: 8.3, lat: 49.3 },
    ];
    const again: OsmNode[] = [{ id: 1, lon: 9.9, lat: 50.9 }];
    const ways: OsmWay[] = [{ id: 5, refs: [2, 1, 4], tags: { highway: 'residential' } }];
    const file = writeTemp(
      'repeated-node.osm.pbf',
      Buffer.concat([
        fileBlock('OSMHeader', headerBlock(REQUIRED_FEATURES), 'raw'),
        fileBlock('OSMData', primitiveBlock([denseGroup(nodes, DEFAULT_GRID)]), 'zlib'),
        fileBlock('OSMData', primitiveBlock([nodesGroup(again, DEFAULT_GRID), waysGroup(ways)]), 'zlib'),
      ]),
    );
    const x = await readOsmPbf(file);
    assert.equal(x.nodeCount, 2);
    assert.deepEqual([...x.nodeIds], [2, 1]);
    assertClose(x.lon, [8.2, 8.1], 1e-9, 'lon');
    assertClose(x.lat, [49.2, 49.1], 1e-9, 'lat');
    assert.equal(x.stats.nodesRead, 4);
    assert.equal(x.stats.missingNodeRefs, 1);
    // the XML reader keeps every node in one pass: the same extract
    const xml = writeOsm({ nodes: [...nodes, ...again], ways });
    assertExtract(await readOsmXml(xml), x, 1e-9);
  });

  test('a required feature it does not know is refused', async () => {
    const file = writeTemp('locations-on-ways.osm.pbf', Buffer.concat(fixtureBlocks([...REQUIRED_FEATURES, 'LocationsOnWays'])));
    await assert.rejects(readOsmPbf(file), { message: `${file}: unsupported required features: LocationsOnWays (blob 1 at byte 0)` });
  });

  test('a truncated file names the blob and its offset', async () => {
    const blocks = fixtureBlocks();
    const whole = Buffer.concat(blocks);
    const file = writeTemp('truncated.osm.pbf', whole.subarray(0, whole.length - 10));
    const lastAt = whole.length - blocks[3]!.length;
    await assert.rejects(readOsmPbf(file), { message: `${file}: truncated blob (blob 4 at byte ${lastAt})` });
  });

  test('an unsupported compression is named', async () => {
    const header = fileBlock('OSMHeader', headerBlock(REQUIRED_FEATURES), 'raw');
    const data = fileBlock('OSMData', primitiveBlock([waysGroup(WAYS)]), 'lzma');
    const file = writeTemp('lzma.osm.pbf', Buffer.concat([header, data]));
    await assert.rejects(readOsmPbf(file), { message: `${file}: unsupported blob compression lzma (blob 2 at byte ${header.length})` });
  });
});

// ---------------------------------------------------------------------------------------------
// 3. XML

function tagLines(tags: Tags): string {
  return Object.entries(tags)
    .map(([k, v]) => `  <tag k="${k}" v="${v}"/>`)
    .join('\n');
}

/** The PBF fixture's elements, in the same order, written the many ways XML allows. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- ways first, like the PBF: <way> before <node> & the rest -->
<osm version="0.6" generator="navette tests">
 <bounds minlat="51.47" minlon="-0.01" maxlat="51.5" maxlon="0.01"/>
 <way id="10" version="2">
  <nd ref="100"/>
  <nd ref='101'/>
  <nd ref="7" />
  <tag k="highway" v="residential"/>
  <tag v="Rue d&apos;&#201;cosse &amp; &quot;Nord&quot; &lt;1&gt; &#x2013; sud" k="name"/>
  <tag k='oneway' v='yes'/>
  <tag k="surface" v="asphalt"/>
  <tag k="lanes" v="2"/>
  <tag k="name:en" v="Scotland Street"/>
 </way>
 <way id="11">
  <nd ref="101"/><nd ref="105"/><nd ref="999"/><nd ref="103"/><nd ref="8"/>
  <tag k="highway" v="footway"/>
  <tag k="footway" v="sidewalk"/>
  <tag k="name" v="Straße am Caf&#233; (> 2)"/>
  <tag k="lit" v="yes"/>
 </way>
 <way id="12">
  <nd ref="104"/><nd ref="9"/><nd ref="998"/>
  <tag k="building" v="yes"/>
 </way>
 <relation id="50">
  <member type="way" ref="10" role=""/>
  <tag k="type" v="route"/>
 </relation>
 <way id="13">
  <nd ref="8"/><nd ref="8"/><nd ref="9"/><nd ref="9"/><nd ref="997"/>
${tagLines(ALL_KEPT)}
  <tag k="surface" v="paved"/>
  <tag k="tiger:cfcc" v="A41"/>
 </way>
 <way id="14"><nd ref="996"/><nd ref="7"/><tag k="highway" v="service"/></way>
 <way id="15"><nd ref="995"/><tag k="highway" v="service"/></way>
 <way id="-20">
  <nd ref="-1"/><nd ref="9"/>
  <tag k="highway" v="path"/><tag k="bicycle" v="no"/>
 </way>
 <node id="100" lat="51.477123007" lon="-0.001234003"/>
 <node lon="0.000456997" id="101" lat="51.477456007"/>
 <node id='105' lat='51.476001007' lon='0.002345997'>
  <tag k="crossing" v="zebra"/>
 </node>
 <node id="103" lat="51.478000007" lon="-0.000999003"></node>
 <node id="104" lat="51.490000007" lon="0.009000997"/>
 <node id = "7" lat = "51.4801234" lon = "-0.0021234">
  <tag k="highway" v="bus_stop"/>
  <tag k="name" v="A &amp; B"/>
 </node>
 <node
   id="8"
   lat="51.4756789"
   lon="0.0012345"/>
 <node id="9" lat="51.4812222" lon="0.0031111"/>
 <node id="-1" lat="51.479" lon="0.0005"/>
 <relation id="51" version="1"/>
</osm>
`;

const XML_FILE = writeTemp('fixture.osm', XML);

describe('XML reader on a written file', () => {
  test('entities, quotes, attribute order, comments, elements self-closed or not', async () => {
    const x = await readOsmXml(XML_FILE);
    assertExtract(x, expectedExtract(), 0);
    assertWellFormed(x);
  });

  test('read in chunks of 7 and 13 bytes: the same extract', async () => {
    const whole = await readOsmXml(XML_FILE);
    for (const highWaterMark of [7, 13]) assert.deepEqual(await readOsmXml(XML_FILE, { highWaterMark }), whole);
  });

  // each document, and the line its error names (where the faulty element or tag opens)
  const MALFORMED: Array<{ name: string; lines: string[]; error: (file: string) => string }> = [
    {
      name: 'a tag cut by the end of the file',
      lines: ['<?xml version="1.0"?>', '<osm>', ' <node id="1" lat="1" lon="2"/>', ' <way id="3">', '  <nd ref="1"/>', '  <nd ref="1'],
      error: (file) => `${file}:6: unexpected end of file inside a tag`,
    },
    {
      name: 'a tag left open before the next one',
      lines: ['<osm>', ' <node id="1" lat="1" lon="2"', ' <node id="2" lat="1" lon="2"/>', '</osm>'],
      error: (file) => `${file}:2: malformed XML: '<' inside a tag`,
    },
    {
      name: 'a coordinate that is not a number',
      lines: ['<osm>', ' <node id="1" lat="1" lon="2"/>', ' <node id="2"', '   lat="49.5x" lon="8.4"/>', '</osm>'],
      error: (file) => `${file}:3: node 2 without lon/lat`,
    },
    {
      name: 'an empty coordinate',
      lines: ['<osm>', ' <node id="1" lat="" lon="2"/>', '</osm>'],
      error: (file) => `${file}:2: node 1 without lon/lat`,
    },
    {
      name: 'an unquoted attribute',
      lines: ['<osm>', '<!-- a comment', 'on two lines -->', ' <way id=3>', ' </way>', '</osm>'],
      error: (file) => `${file}:4: <way> without a numeric id`,
    },
    {
      name: 'a node reference that is not a number',
      lines: ['<osm>', ' <way id="3">', '  <nd ref="1"/>', '  <nd ref="x"/>', ' </way>', '</osm>'],
      error: (file) => `${file}:4: <nd> without a numeric ref`,
    },
    {
      name: 'a node inside a way',
      lines: ['<osm>', ' <way id="3">', '  <nd ref="1"/>', '  <node id="1" lat="1" lon="2"/>', ' </way>', '</osm>'],
      error: (file) => `${file}:4: <node> inside <way>`,
    },
    {
      name: 'a way never closed',
      lines: ['<osm>', ' <way id="3">', '  <nd ref="1"/>', '</osm>'],
      error: (file) => `${file}:4: unexpected end of file inside <way>`,
    },
  ];
  MALFORMED.forEach(({ name, lines, error }, i) => {
    test(`malformed: ${name}`, async () => {
      const file = writeTemp(`malformed-${i}.osm`, lines.join('\n'));
      for (const highWaterMark of [undefined, 7]) await assert.rejects(readOsmXml(file, { highWaterMark }), { message: error(file) });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 4. and 5.

test('the same elements as PBF and as XML read to the same extract', async () => {
  // coordinates: 1e-9 * (offset + granularity * value) against the decimal text, a rounding apart
  assertExtract(await readOsmPbf(PBF_FILE), await readOsmXml(XML_FILE), 1e-12);
});

test('the fixture writer: the same elements as XML and as PBF read to the expected extract', async () => {
  const elements = { nodes: [...DENSE_NODES, ...PLAIN_NODES], ways: WAYS, relations: [50, 51] };
  assertExtract(await readOsmXml(writeOsm(elements, 'written.osm')), expectedExtract(), 0);
  assertExtract(await readOsmPbf(writeOsm(elements, 'written.osm.pbf')), expectedExtract(), 1e-9);
});

test('a way repeated with the same id is kept once, and counted, in XML and in PBF', async () => {
  const footway = { id: 7, refs: [1, 2], tags: { highway: 'footway' } };
  const elements = {
    nodes: [
      { id: 1, lon: 2, lat: 1 },
      { id: 2, lon: 2, lat: 1.001 },
    ],
    ways: [footway, { id: 8, refs: [2, 1], tags: { highway: 'path' } }, footway],
  };
  for (const name of ['repeated-way.osm', 'repeated-way.osm.pbf']) {
    const extract = await readOsm(writeOsm(elements, name));
    assert.deepEqual([...extract.wayIds], [7, 8], name);
    assert.equal(extract.stats.waysRead, 3, name);
    assert.equal(extract.stats.waysKept, 2, name);
    assert.equal(extract.stats.duplicateWays, 1, name);
  }
});

describe('readOsm picks the reader', () => {
  const EMPTY: OsmExtract = {
    nodeCount: 0,
    nodeIds: new Float64Array(0),
    lon: new Float64Array(0),
    lat: new Float64Array(0),
    wayCount: 0,
    wayIds: new Float64Array(0),
    wayNodeOffset: Uint32Array.of(0),
    wayNodes: new Uint32Array(0),
    ...wayTagColumns([]),
    stats: { nodesRead: 0, waysRead: 0, relationsRead: 0, waysKept: 0, missingNodeRefs: 0, waysDroppedTooShort: 0, duplicateWays: 0, bbox: null },
  };

  test('by extension', async () => {
    assertExtract(await readOsm(XML_FILE), expectedExtract(), 0);
    assertExtract(await readOsm(PBF_FILE), expectedExtract(), 1e-9);
  });

  // contents the other reader would take: the XML reader reads an empty file as an empty extract,
  // the PBF reader refuses it (no blob) and refuses XML (its first bytes are no blob header length)
  test('by extension, in any case, whatever the content', async () => {
    for (const name of ['empty.osm', 'empty.OSM', 'empty.xml', 'empty.Xml']) assert.deepEqual(await readOsm(writeTemp(name, '')), EMPTY);
    for (const name of ['xml-named.pbf', 'xml-named.OSM.PBF']) {
      const file = writeTemp(name, XML);
      await assert.rejects(readOsm(file), { message: `${file}: truncated or invalid blob header (blob 1 at byte 0)` });
    }
  });

  test('otherwise by the first bytes: XML starts with <, after any byte-order mark and white space', async () => {
    assertExtract(await readOsm(writeTemp('xml-content.data', `\n \t\r\n${XML}`)), expectedExtract(), 0);
    assertExtract(await readOsm(writeTemp('xml-with-bom.data', `\uFEFF${XML}`)), expectedExtract(), 0);
    assertExtract(await readOsm(writeTemp('pbf-content', Buffer.concat(fixtureBlocks()))), expectedExtract(), 1e-9);
  });

  test('an empty file without extension goes to the PBF reader, which refuses it', async () => {
    const file = writeTemp('empty', '');
    await assert.rejects(readOsm(file), { message: `${file}: not an OpenStreetMap PBF file (no blob)` });
  });
});
