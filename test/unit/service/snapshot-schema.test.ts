/**
 * Crafted snapshots: files whose checksum is right (computed again after the change, as whoever
 * crafts one would) but whose meta, description or data is not what a coverage's snapshot holds.
 * Hundreds are made by structure-aware mutation of a real snapshot (a GTFS feed with two time
 * zones, frequencies and transfers, and an OpenStreetMap extract: the street graph, stop snaps and
 * transit search data are in it), drawn from a seeded generator so that a failure replays.
 *
 * Each must either be refused with a SnapshotError, the coverage then loading from its sources and
 * answering as the coverage loaded from its sources does; or be read, the coverage then answering
 * every request (the referential at depth, places, heat maps both ways, the street network) without
 * a server error. Never another error out of the load (a dead coverage whose sources are good),
 * never an uncaught error, never a key added to Object.prototype. The load from the sources after a
 * refusal is the same whatever the file held, and starts a worker thread: it is run for the named
 * cases and for one mutant in twenty (see loadCrafted).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/api/app.js';
import type { CoverageConfig } from '../../../src/service/coverage-config.js';
import { Coverage, CoverageRegistry } from '../../../src/service/coverage-registry.js';
import { compileCoverage, loadCoverage, loadGeneration, type LoadSummary } from '../../../src/service/load-coverage.js';
import { DEFAULT_LIMITS } from '../../../src/service/limits.js';
import { readCoverageSnapshot, snapshotPath, writeCoverageSnapshot } from '../../../src/service/coverage-snapshot.js';
import { SnapshotError } from '../../../src/model/snapshot-file.js';
import { writeFeed } from '../../helpers/gtfs-fixture.js';
import { mulberry32 } from '../../helpers/random.js';
import { coordOf, fixtureOsmXml, latOf, lonOf } from '../api/heat-maps/fixture.js';

const SEED = 20260530;
/** Mutants drawn at random (the named cases below come on top). */
const MUTANTS = 320;

/**
 * The streets and points of the heat-map fixture, with a richer feed: a second agency in another
 * time zone, headsigns and directions, a frequency-based trip and a transfer, so that every table of
 * the snapshot has rows to mutate.
 */
function feed(): string {
  const stop = (id: string, name: string, p: string, type: number, parent = '') => `${id},${name},${latOf(p)},${lonOf(p)},${type},${parent}`;
  return `
# agency.txt
agency_id,agency_name,agency_url,agency_timezone
N,Crafted north,http://example.org,UTC
P,Crafted paris,http://example.org,Europe/Paris
# stops.txt
stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
${stop('stopA', 'stopA', 'A', 1)}
${stop('stopB', 'stopB', 'B', 1)}
${stop('stopC', 'stopC', 'J', 1)}
${stop('stop_point:stopA', 'stopA', 'A', 0, 'stopA')}
${stop('stop_point:uselessA', 'uselessA', 'A', 0, 'stopA')}
${stop('stop_point:stopB', 'stopB', 'B', 0, 'stopB')}
${stop('stop_point:stopC', 'stopC', 'J', 0, 'stopC')}
${stop('stop_point:stopE', 'stopE', 'E', 0)}
# routes.txt
route_id,agency_id,route_short_name,route_long_name,route_type
A,N,A,Line A,3
M,N,M,Line M,3
C,N,C,Line C,3
D,P,D,Line D,1
# calendar.txt
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
all,1,1,1,1,1,1,1,20120614,20130613
week,1,1,1,1,1,0,0,20120601,20120630
# trips.txt
route_id,service_id,trip_id,trip_headsign,direction_id
A,all,vjA,towards A,0
M,all,vjM,towards A,1
C,all,vjC,towards B,0
D,week,vjD,,0
A,all,vjF,every ten minutes,1
# stop_times.txt
trip_id,arrival_time,departure_time,stop_id,stop_sequence
vjA,08:01:00,08:01:00,stop_point:stopB,1
vjA,08:01:02,08:01:02,stop_point:stopA,2
vjM,08:01:01,08:01:01,stop_point:stopB,1
vjM,08:01:03,08:01:03,stop_point:stopA,2
vjC,08:01:00,08:01:00,stop_point:stopA,1
vjC,08:01:02,08:01:02,stop_point:stopB,2
vjC,08:03:00,08:03:00,stop_point:stopE,3
vjD,08:01:00,08:01:00,stop_point:stopA,1
vjD,08:01:02,08:01:02,stop_point:stopC,2
vjF,07:00:00,07:00:00,stop_point:stopE,1
vjF,07:02:00,07:02:00,stop_point:stopB,2
# frequencies.txt
trip_id,start_time,end_time,headway_secs
vjF,07:00:00,09:00:00,600
# transfers.txt
from_stop_id,to_stop_id,transfer_type,min_transfer_time
stop_point:stopA,stop_point:uselessA,2,60
stop_point:stopB,stop_point:stopB,2,30
`;
}

const ID = 'crafted';
const DAY = '20120614';
/** What the coverage is asked after each load: the referential, its objects at depth, and the searches over the street data. */
const URLS = [
  `/v1/coverage/${ID}`,
  `/v1/coverage/${ID}/trips?count=50&_current_datetime=${DAY}T070000`,
  `/v1/coverage/${ID}/vehicle_journeys?depth=2&count=50`,
  `/v1/coverage/${ID}/lines?depth=2`,
  `/v1/coverage/${ID}/stop_areas?depth=2`,
  `/v1/coverage/${ID}/places?q=stop`,
  `/v1/coverage/${ID}/coords/${coordOf('A')}/places_nearby?distance=500`,
  `/v1/coverage/${ID}/heat_maps?from=${coordOf('S')}&datetime=${DAY}T080000&max_duration=600&resolution=20`,
  `/v1/coverage/${ID}/heat_maps?to=stopA&datetime=${DAY}T080200&max_duration=600&resolution=20&direct_path_mode[]=bike`,
  `/v1/coverage/${ID}/street_network`,
];

let config: CoverageConfig;
let snapshotDir: string;
let goodFile: Buffer;
let app: FastifyInstance;
let coverage: Coverage;
/** The answers of the coverage loaded from its sources, by URL. */
const reference = new Map<string, string>();
let referenceTrips = 0;

before(async () => {
  const osm = path.join(mkdtempSync(path.join(tmpdir(), 'navette-crafted-osm-')), 'streets.osm');
  writeFileSync(osm, fixtureOsmXml());
  // a point set, so that its opportunity counts are among what a snapshot's checks read
  const shops = path.join(path.dirname(osm), 'shops.csv');
  writeFileSync(shops, `id,lon,lat,shops\na,${lonOf('A')},${latOf('A')},3\nb,${lonOf('C')},${latOf('C')},5\n`);
  config = { id: ID, gtfs: [writeFeed(feed(), 'crafted')], osm, timezone: 'UTC', pointSets: [{ name: 'shops', file: shops }] };
  snapshotDir = mkdtempSync(path.join(tmpdir(), 'navette-crafted-'));
  const compiled = await compileCoverage(config);
  // every table has rows to mutate
  assert.deepEqual(compiled.tt.timezones, ['UTC', 'Europe/Paris']);
  assert.ok(compiled.tt.frequencies.startSec.length > 0 && compiled.tt.transfers.fromStop.length > 0 && compiled.tt.headsignTrips.size > 0);
  assert.ok(compiled.streets!.data.raptor.transferTo.length > 0, 'footpaths between the stops');
  await writeCoverageSnapshot(snapshotPath(snapshotDir, ID), config, compiled);
  goodFile = readFileSync(snapshotPath(snapshotDir, ID));

  const registry = new CoverageRegistry();
  coverage = new Coverage(config);
  registry.add(coverage);
  // an engine's memory follows the limits, and each load has new street data, so a new engine: small ones
  app = await buildApp({ registry, limits: { ...DEFAULT_LIMITS, maxResolution: 40, maxDurationSec: 1200 } });
  await app.ready();
  const summary = await loadCoverage(coverage);
  referenceTrips = summary.generation.tt.trips.ids.length;
  for (const url of URLS) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
    reference.set(url, withoutLoadTimes(res.body));
  }
});

after(async () => {
  await app?.close();
});

/** An answer without what changes from one load (or one second) to the next: the load time, the generation number, the clock. */
function withoutLoadTimes(body: string): string {
  return body.replace(/"(last_load_at|generation|current_datetime)":("[^"]*"|\d+)/g, '"$1":-');
}

// ---------------------------------------------------------------------------------------------
// The file, taken apart and put back together with a checksum that matches

interface Parts {
  /** the meta as parsed, the layout lengths included */
  meta: Record<string, unknown>;
  description: unknown;
  block: Uint8Array;
}

const PREFIX_BYTES = 28;

function partsOf(file: Buffer): Parts {
  const metaLength = file.readUInt32LE(20);
  const meta = JSON.parse(file.subarray(PREFIX_BYTES, PREFIX_BYTES + metaLength).toString('utf8')) as Record<string, unknown>;
  const descriptionAt = PREFIX_BYTES + metaLength;
  const descriptionBytes = meta['descriptionBytes'] as number;
  const description: unknown = JSON.parse(file.subarray(descriptionAt, descriptionAt + descriptionBytes).toString('utf8'));
  const block = new Uint8Array(file.subarray(file.length - (meta['blockBytes'] as number)));
  return { meta, description, block };
}

/**
 * The file of `meta` (or its text `metaText`, written as it is), `descriptionText` and `block`, laid
 * out and checksummed as the writer does. `layout`: the meta's lengths are set to those of the
 * parts first (false when a mutation chose them).
 */
function fileOf(meta: Record<string, unknown>, descriptionText: string, block: Uint8Array, layout = true, metaText?: string): Buffer {
  const description = Buffer.from(descriptionText, 'utf8');
  const metaBytes = Buffer.from(metaText ?? JSON.stringify(layout ? { ...meta, descriptionBytes: description.length, blockBytes: block.length } : meta), 'utf8');
  const prefix = Buffer.from(goodFile.subarray(0, PREFIX_BYTES));
  prefix.writeUInt32LE(metaBytes.length, 20);
  const headBytes = PREFIX_BYTES + metaBytes.length + description.length;
  const padding = Buffer.alloc((8 - (headBytes % 8)) % 8);
  let checksum = crc32(prefix.subarray(16, 24));
  for (const part of [metaBytes, description, padding, block]) if (part.length > 0) checksum = crc32(part, checksum);
  prefix.writeUInt32LE(checksum, 24);
  return Buffer.concat([prefix, metaBytes, description, padding, block]);
}

// ---------------------------------------------------------------------------------------------
// Mutations

const KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array] as const;

interface Ref {
  $a: number;
  o: number;
  n: number;
}

/** A place in the description: the value at `key` of `parent`, and where it is (for the failure messages). */
interface Place {
  parent: Record<string | number, unknown>;
  key: string | number;
  path: string;
}

/** One mutant being made: its parts (a copy) and what was done to them. */
interface Mutant {
  meta: Record<string, unknown>;
  description: unknown;
  block: Uint8Array;
  /** the meta's layout lengths are left as a mutation set them */
  layoutChosen: boolean;
  /** the meta's text, when a mutation had to write it (a `__proto__` key) */
  metaText?: string;
  done: string[];
}

const isRef = (v: unknown): v is Ref => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, '$a');

/** Every place of the description, and the array references among them. */
function placesOf(description: unknown): { all: Place[]; refs: Place[]; objects: Place[]; arrays: Place[]; scalars: Place[] } {
  const all: Place[] = [];
  const refs: Place[] = [];
  const objects: Place[] = [];
  const arrays: Place[] = [];
  const scalars: Place[] = [];
  const holder = { root: description };
  const walk = (parent: Record<string | number, unknown>, key: string | number, at: string) => {
    const place = { parent, key, path: at };
    const v = parent[key];
    all.push(place);
    if (isRef(v)) refs.push(place);
    else if (Array.isArray(v)) {
      arrays.push(place);
      v.forEach((_, i) => walk(v as unknown as Record<number, unknown>, i, `${at}[${i}]`));
    } else if (v !== null && typeof v === 'object') {
      objects.push(place);
      for (const k of Object.keys(v)) walk(v as Record<string, unknown>, k, `${at}.${k}`);
    } else scalars.push(place);
  };
  walk(holder, 'root', '');
  return { all, refs, objects, arrays, scalars };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Values a field may be set to: other kinds, edges of ranges, fractions, markers of the encoding. */
function oddValue(random: Random, was: unknown): unknown {
  const n = typeof was === 'number' ? was : 1;
  return pick<unknown>(random, [
    0, -1, 1, 1.5, -0.5, n + 1, n - 1, n * 2, Math.floor(n / 2), 2 ** 31, 2 ** 32, 2 ** 40, 2 ** 53, 1e308, -1e308,
    { $num: 'NaN' }, { $num: 'Infinity' }, { $num: 'soon' }, { $undef: 1 },
    '7', '', 'Europe/Nowhere', 'UTC', null, true, false, {}, [], [1, 2, 3], { $a: 5, o: 0, n: 1 },
    // an object that cannot be made a string (a message quoting it would throw)
    { toString: 1, valueOf: 1 }, { $m: [[{ toString: 1, valueOf: 1 }, 1]] },
  ]);
}

/** The references of the description that stand for an array of the block (an earlier mutation may have broken some). */
function refsInBlock(m: Mutant, minLength: number): Place[] {
  return placesOf(m.description).refs.filter((p) => {
    const { $a, o, n } = p.parent[p.key] as Ref;
    const Kind = KINDS[$a];
    return Kind && Number.isSafeInteger(o) && o >= 0 && o % 8 === 0 && Number.isSafeInteger(n) && n >= minLength && o + n * Kind.BYTES_PER_ELEMENT <= m.block.length;
  });
}

/** The array `ref` stands for, on the mutant's block. */
function viewOf(m: Mutant, ref: Ref) {
  return new KINDS[ref.$a]!(m.block.buffer as ArrayBuffer, m.block.byteOffset + ref.o, ref.n);
}

/** A `__proto__` key on an object, as JSON.parse makes it (an own property, written by JSON.stringify). */
function addPrototypeKey(o: object): void {
  Object.defineProperty(o, '__proto__', { value: { polluted: true, length: 0, counts: 7 }, enumerable: true, configurable: true, writable: true });
}

type Mutation = (m: Mutant, random: Random) => void;

const MUTATIONS: Mutation[] = [
  // the whole description
  (m, r) => {
    m.description = pick(r, [{}, null, [], 0, '', true, { tt: null, report: null, streets: null }]);
    m.done.push(`description ${JSON.stringify(m.description)}`);
  },
  // a key removed, an unknown one added, a __proto__ key
  (m, r) => {
    const { objects } = placesOf(m.description);
    if (objects.length === 0) return;
    const place = pick(r, objects);
    const o = place.parent[place.key] as Record<string, unknown>;
    const keys = Object.keys(o);
    const what = r();
    if (what < 0.4 && keys.length > 0) {
      const k = pick(r, keys);
      delete o[k];
      m.done.push(`${place.path}.${k} removed`);
    } else if (what < 0.6) {
      o['unexpected'] = oddValue(r, 0);
      m.done.push(`${place.path}.unexpected added`);
    } else {
      addPrototypeKey(o);
      m.done.push(`${place.path}.__proto__ added`);
    }
  },
  // two fields of an object swapped; two fields anywhere swapped
  (m, r) => {
    const { all, objects } = placesOf(m.description);
    let a: Place;
    let b: Place;
    if (r() < 0.5 && objects.length > 0) {
      const place = pick(r, objects);
      const o = place.parent[place.key] as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length < 2) return;
      const [ka, kb] = [pick(r, keys), pick(r, keys)];
      a = { parent: o, key: ka, path: `${place.path}.${ka}` };
      b = { parent: o, key: kb, path: `${place.path}.${kb}` };
    } else {
      [a, b] = [pick(r, all), pick(r, all)];
      // (not a place with the other inside it: the tree would hold itself)
      if (a.path.startsWith(b.path) || b.path.startsWith(a.path)) return;
    }
    const va = a.parent[a.key];
    a.parent[a.key] = b.parent[b.key];
    b.parent[b.key] = va;
    m.done.push(`${a.path} and ${b.path} swapped`);
  },
  // a value of the description set to an odd one
  (m, r) => {
    const { all, scalars } = placesOf(m.description);
    const place = r() < 0.7 && scalars.length > 0 ? pick(r, scalars) : pick(r, all.slice(1));
    if (!place) return;
    place.parent[place.key] = oddValue(r, place.parent[place.key]);
    m.done.push(`${place.path} = ${JSON.stringify(place.parent[place.key])}`);
  },
  // a list emptied, halved, lengthened, reversed
  (m, r) => {
    const { arrays } = placesOf(m.description);
    if (arrays.length === 0) return;
    const place = pick(r, arrays);
    const list = place.parent[place.key] as unknown[];
    const what = pick(r, ['empty', 'halve', 'push', 'reverse', 'hole', 'duplicate'] as const);
    if (what === 'empty') list.length = 0;
    else if (what === 'halve') list.length = Math.floor(list.length / 2);
    else if (what === 'push') list.push(oddValue(r, 0));
    else if (what === 'reverse') list.reverse();
    else if (what === 'hole' && list.length > 0) list[Math.floor(r() * list.length)] = { $undef: 1 };
    else if (list.length > 0) list.push(structuredClone(list[0]));
    m.done.push(`${place.path}: ${what}`);
  },
  // an array reference: its length, offset or kind changed, or it stands for another array
  (m, r) => {
    const { refs } = placesOf(m.description);
    if (refs.length === 0) return;
    const place = pick(r, refs);
    const other = pick(r, refs);
    const ref = place.parent[place.key] as Record<string, unknown>;
    const field = pick(r, ['n', 'n', 'o', '$a', 'other', 'list', 'drop'] as const);
    if (field === 'n') ref['n'] = pick(r, [0, Math.floor((ref['n'] as number) / 2), (ref['n'] as number) + 1, (ref['n'] as number) - 1, (ref['n'] as number) * 2, 1.5, -1, '3', 2 ** 40, null]);
    else if (field === 'o') ref['o'] = pick(r, [(ref['o'] as number) + 8, (ref['o'] as number) - 8, 3, -8, 1.5, 2 ** 40, m.block.length]);
    else if (field === '$a') ref['$a'] = pick(r, [0, 1, 2, 3, 4, 5, 6, 7, 8, -1, 1.5, '5']);
    else if (field === 'other') place.parent[place.key] = structuredClone(other.parent[other.key]);
    else if (field === 'list') place.parent[place.key] = [1, 2, 3];
    else delete ref[pick(r, ['$a', 'o', 'n'])];
    m.done.push(`${place.path}.${field} → ${JSON.stringify(place.parent[place.key])}`);
  },
  // every array's length set to 0, or halved
  (m, r) => {
    const halve = r() < 0.5;
    for (const place of placesOf(m.description).refs) {
      const ref = place.parent[place.key] as Ref;
      ref.n = halve ? Math.floor(ref.n / 2) : 0;
    }
    m.done.push(halve ? 'every array halved' : 'every array length 0');
  },
  // an element of an array in the data set to an index beyond its table, an edge value, NaN…
  (m, r) => {
    const place = pick(r, refsInBlock(m, 1));
    if (!place) return;
    const ref = place.parent[place.key] as Ref;
    const i = Math.floor(r() * ref.n);
    const view = viewOf(m, ref);
    const was = view[i]!;
    const value = pick(r, [0, 1, -1, was + 1, was - 1, ref.n, ref.n + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 65535, 255, NaN, Infinity, -Infinity, 1e30, Math.floor(r() * 2 ** 32)]);
    view[i] = value;
    m.done.push(`${place.path}[${i}] = ${value} (was ${was})`);
  },
  // a whole array in the data filled with one value, or reversed (offsets then decrease)
  (m, r) => {
    const place = pick(r, refsInBlock(m, 2));
    if (!place) return;
    const ref = place.parent[place.key] as Ref;
    const view = viewOf(m, ref);
    if (r() < 0.5) {
      view.reverse();
      m.done.push(`${place.path} reversed`);
    } else {
      const value = pick(r, [0, 1, 2 ** 32 - 1, -1]);
      view.fill(value);
      m.done.push(`${place.path} filled with ${value}`);
    }
  },
  // the meta: a field removed or changed, a __proto__ key, the layout lengths
  (m, r) => {
    const what = pick(r, ['remove', 'change', 'source', 'proto', 'layout', 'whole'] as const);
    if (what === 'remove') {
      const k = pick(r, Object.keys(m.meta));
      delete m.meta[k];
      m.done.push(`meta.${k} removed`);
    } else if (what === 'change') {
      const k = pick(r, ['coverage', 'navette', 'builtAt', 'timezone', 'sources']);
      m.meta[k] = oddValue(r, m.meta[k]);
      m.done.push(`meta.${k} = ${JSON.stringify(m.meta[k])}`);
    } else if (what === 'source') {
      const sources = m.meta['sources'];
      const s = Array.isArray(sources) ? (pick(r, sources) as Record<string, unknown>) : null;
      // (an earlier mutation may have made them something else)
      if (s === null || typeof s !== 'object') return;
      const k = pick(r, ['path', 'size', 'mtimeMs', 'sha256']);
      s[k] = oddValue(r, s[k]);
      m.done.push(`meta.sources[].${k} = ${JSON.stringify(s[k])}`);
    } else if (what === 'proto') {
      m.metaText = JSON.stringify({ ...m.meta, descriptionBytes: 0, blockBytes: 0 }).replace(/^\{/, '{"__proto__":{"polluted":true,"sources":[]},');
      m.done.push('meta.__proto__ added');
    } else if (what === 'layout') {
      m.layoutChosen = true;
      m.meta[pick(r, ['descriptionBytes', 'blockBytes'])] = oddValue(r, 8);
      m.done.push(`meta layout lengths ${JSON.stringify([m.meta['descriptionBytes'], m.meta['blockBytes']])}`);
    } else {
      m.layoutChosen = true;
      m.meta = pick(r, [{}, { descriptionBytes: 0, blockBytes: 0 }]) as Record<string, unknown>;
      m.done.push(`meta ${JSON.stringify(m.meta)}`);
    }
  },
];

/** The file of mutant `m`, its meta's text written last (the layout lengths known then). */
function mutantFile(m: Mutant): Buffer {
  const descriptionText = JSON.stringify(m.description) ?? 'null';
  if (m.metaText !== undefined) {
    // the __proto__ mutation wrote placeholders for the lengths
    const metaText = m.metaText.replace('"descriptionBytes":0', `"descriptionBytes":${Buffer.byteLength(descriptionText)}`).replace('"blockBytes":0', `"blockBytes":${m.block.length}`);
    return fileOf(m.meta, descriptionText, m.block, false, metaText);
  }
  return fileOf(m.meta, descriptionText, m.block, !m.layoutChosen);
}

function newMutant(parts: Parts): Mutant {
  return { meta: structuredClone(parts.meta), description: structuredClone(parts.description), block: new Uint8Array(parts.block), layoutChosen: false, done: [] };
}

// ---------------------------------------------------------------------------------------------
// Loading one

const REFUSAL = new RegExp(`${ID}\\.snapshot (is damaged: |was built from other data: )`);

/** What became of a crafted snapshot. */
type Outcome = 'refused' | 'read';

/**
 * Load the coverage with `bytes` as its snapshot and check what follows. The snapshot is read
 * (`readCoverageSnapshot`: the decoding and the checks, where a file's content can go wrong): it is
 * refused with a SnapshotError, or its data makes a generation that answers every request without
 * a server error, loaded as the server loads a coverage (`loadGeneration` with the snapshot folder
 * and the generation installed, as `loadCoverage` does, without writing the snapshot again).
 * `fallback`: after a refusal, load it so too and check that it comes from the sources and answers
 * as the coverage loaded from its sources (that load is the same whatever the file held, and takes
 * a worker thread: the mutants check it one in twenty).
 */
async function loadCrafted(bytes: Buffer, what: string, fallback: boolean): Promise<{ outcome: Outcome; refusal?: string }> {
  const file = snapshotPath(snapshotDir, ID);
  writeFileSync(file, bytes);
  let refusal: string | undefined;
  try {
    await readCoverageSnapshot(file, config);
  } catch (e) {
    assert.ok(e instanceof SnapshotError, `${what}: refused with another error than a SnapshotError: ${(e as Error).stack}`);
    assert.match(e.message, REFUSAL, what);
    refusal = e.message;
  }
  if (refusal !== undefined && !fallback) return { outcome: 'refused', refusal };
  let summary: LoadSummary;
  try {
    summary = await loadGeneration(config, { snapshotDir });
    coverage.install(summary.generation);
  } catch (e) {
    assert.fail(`${what}: the load failed (the coverage would be dead): ${(e as Error).stack}`);
  }
  assert.equal(coverage.status, 'running', what);
  if (refusal !== undefined) {
    assert.equal(summary.from, 'sources', what);
    assert.equal(summary.snapshotRefused, refusal, what);
    assert.equal(summary.generation.tt.trips.ids.length, referenceTrips, `${what}: the sources' trips`);
    for (const url of [URLS[1]!, URLS[7]!]) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 200, `${what}: ${url} after the refusal: ${res.body.slice(0, 300)}`);
      assert.equal(withoutLoadTimes(res.body), reference.get(url), `${what}: ${url} answers as from the sources`);
    }
    return { outcome: 'refused', refusal };
  }
  assert.equal(summary.from, 'snapshot', what);
  for (const url of URLS) {
    const res = await app.inject(url);
    assert.ok(res.statusCode < 500, `${what}: read from the snapshot, ${url} answers ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
  return { outcome: 'read' };
}

// ---------------------------------------------------------------------------------------------
// The tests

test('the snapshot put together again as the writer does is read: the test crafts files the way a writer would', async () => {
  const parts = partsOf(goodFile);
  const again = fileOf(parts.meta, JSON.stringify(parts.description), parts.block);
  assert.ok(again.equals(goodFile));
  assert.equal((await loadCrafted(again, 'unchanged', true)).outcome, 'read');
  for (const url of URLS) {
    const res = await app.inject(url);
    assert.equal(withoutLoadTimes(res.body), reference.get(url), `${url}: the snapshot answers as the sources`);
  }
});

test('the crafted files of the issue are refused, each naming the field at fault, and the coverage loads from its sources', async () => {
  const parts = partsOf(goodFile);
  const zeroLengths = newMutant(parts);
  for (const place of placesOf(zeroLengths.description).refs) (place.parent[place.key] as Ref).n = 0;
  const halved = newMutant(parts);
  for (const place of placesOf(halved.description).refs) (place.parent[place.key] as Ref).n = Math.floor((place.parent[place.key] as Ref).n / 2);
  const withDescription = (description: unknown) => fileOf(parts.meta, JSON.stringify(description), parts.block);
  const tree = parts.description as { tt: Record<string, unknown>; streets: { data: { graph: Record<string, unknown> } } };
  const edited = (edit: (t: typeof tree) => void) => {
    const t = structuredClone(tree);
    edit(t);
    return withDescription(t);
  };
  /** The file with element `i` of the array at `path` set to `value`. */
  const inData = (path: string, i: number, value: number) => {
    const m = newMutant(parts);
    const ref = path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], m.description) as Ref;
    viewOf(m, ref)[i] = value;
    return mutantFile(m);
  };
  const protoInDescription = structuredClone(tree);
  addPrototypeKey(protoInDescription.tt);
  const cases: [string, Buffer, RegExp][] = [
    ['description {}', withDescription({}), /is damaged: tt is missing/],
    ['description null', withDescription(null), /is damaged: its tree is not an object/],
    ['description []', withDescription([]), /is damaged: its tree is not an object/],
    ['every array length 0', mutantFile(zeroLengths), /is damaged: tt\.\S+ (holds|is)/],
    ['every array halved', mutantFile(halved), /is damaged: tt\.\S+ (holds|is)/],
    ['tt.trips removed', edited((t) => delete t.tt['trips']), /is damaged: tt\.trips is missing/],
    ['tt.stopTimes.arrivalSec a Uint32Array', edited((t) => ((t.tt['stopTimes'] as Record<string, Ref>)['arrivalSec']!.$a = 5)), /tt\.stopTimes\.arrivalSec is a Uint32Array, not an Int32Array/],
    ['a length of 1.5', edited((t) => ((t.tt['stopTimes'] as Record<string, Ref>)['sequence']!.n = 1.5)), /tt\.stopTimes\.sequence is not an array reference/],
    ['a vertex count unlike the arrays', edited((t) => (t.streets.data.graph['vertexCount'] = 2)), /streets\.data\.graph\.vertex\w+ holds \d+ values, not 2/],
    ['no street data for a coverage with an extract', edited((t) => ((t as Record<string, unknown>)['streets'] = null)), /is damaged: streets is not an object/],
    ['the pattern of a trip beyond the patterns', inData('tt.trips.pattern', 0, 99), /tt\.trips\.pattern\[0\] is 99, not an index of tt\.patterns/],
    ['a stop time offset out of range', inData('tt.trips.stopTimeOffset', 1, 1e6), /tt\.trips\.stopTimeOffset\[\d\] is \d+/],
    ['an edge to no vertex', inData('streets.data.graph.edgeTo', 3, 1e5), /streets\.data\.graph\.edgeTo\[3\] is 100000, not an index of the vertices/],
    ['a lattice point naming a segment past its tile\'s', inData('streets.data.graph.linkLattices.0.place', 0, 255), /streets\.data\.graph\.linkLattices\[0\]\.place names entry 15 of tile \d+'s \d+/],
    ['a tile\'s places starting where the tile before\'s do not end', inData('streets.data.graph.linkLattices.0.placeStart', 1, 12345), /streets\.data\.graph\.linkLattices\[0\]\.placeStart\[1\] is 12345, not \d+ after the tiles before/],
    ['an opportunity count past the reader\'s bound', inData('streets.data.pointSets.0.columns.0.values', 1, 2e9), /streets\.data\.pointSets\[0\]\.columns\[0\]\.values holds a count over 1000000000/],
    ['__proto__ in the description', withDescription(protoInDescription), /is damaged: tt\.__proto__: a key the description may not hold/],
    [
      '__proto__ in the meta',
      fileOf(parts.meta, JSON.stringify(parts.description), parts.block, false, JSON.stringify(parts.meta).replace(/^\{/, '{"__proto__":{"polluted":true},')),
      /is damaged: its header holds the key meta\.__proto__/,
    ],
    ['meta without sources', fileOf({ ...parts.meta, sources: 'all of them' }, JSON.stringify(parts.description), parts.block), /is damaged: meta\.sources is not a list/],
  ];
  for (const [what, bytes, why] of cases) {
    const { outcome, refusal } = await loadCrafted(bytes, what, true);
    assert.equal(outcome, 'refused', what);
    assert.match(refusal!, why, what);
  }
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype untouched');
});

test(`${MUTANTS} mutants of the snapshot (seed ${SEED}): refused and loaded from the sources, or read and answering; never a failed load`, async () => {
  const parts = partsOf(goodFile);
  const random = mulberry32(SEED);
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  const outcomes = { refused: 0, read: 0 };
  const started = performance.now();
  for (let k = 0; k < MUTANTS; k++) {
    const m = newMutant(parts);
    const count = 1 + Math.floor(random() * 3);
    for (let j = 0; j < count; j++) pick(random, MUTATIONS)(m, random);
    const what = `mutant ${k} (${m.done.join('; ') || 'unchanged'})`;
    outcomes[(await loadCrafted(mutantFile(m), what, k % 20 === 0)).outcome]++;
  }
  const seconds = (performance.now() - started) / 1000;
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeKeys, 'no key added to Object.prototype');
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  // most mutants break the data; a few change values the schema leaves free (a time, a name)
  assert.ok(outcomes.refused > MUTANTS * 0.7, `${outcomes.refused} of ${MUTANTS} refused`);
  console.log(`# ${MUTANTS} mutants: ${outcomes.refused} refused, ${outcomes.read} read, in ${seconds.toFixed(1)} s`);
});
