/**
 * OpenStreetMap PBF: our own decoder on `pbf` (protobuf fields) and node's zlib.
 *
 *   file  = ( 4-byte big-endian length, BlobHeader, Blob )*
 *   Blob  = raw bytes or zlib_data  ->  OSMHeader (first) or PrimitiveBlock
 *   PrimitiveBlock = string table, granularity/offsets, groups of dense nodes, nodes, ways, relations
 *
 * Ways keep their tags as strings of the block's string table; node coordinates are
 * `1e-9 * (offset + granularity * value)` degrees.
 */
import { open } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import { OsmExtractBuilder, type OsmExtract, type OsmReadOptions, type RelationMember } from './osm-extract.js';

const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']);
const decoder = new TextDecoder();

export async function readOsmPbf(file: string, options: OsmReadOptions = {}): Promise<OsmExtract> {
  const out = new OsmExtractBuilder(options);
  if (out.readsNodesAfterWays) {
    await readPass(file, out, WAYS);
    out.startNodePass();
    await readPass(file, out, NODES);
  } else await readPass(file, out, NODES | WAYS);
  return out.finish();
}

/** What a pass over the file hands to the builder: its nodes, its ways (and relations), or both. */
const NODES = 1;
const WAYS = 2;

/** One reading of the file, a blob at a time (a country's file is a gigabyte: it is not read whole). */
async function readPass(file: string, out: OsmExtractBuilder, elements: number): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const readAt = async (position: number, length: number) => {
      const bytes = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(bytes, 0, length, position);
      return bytes.subarray(0, bytesRead);
    };
    let offset = 0;
    let blobs = 0;
    while (offset < size) {
      const at = offset;
      const fail = (why: string) => new Error(`${file}: ${why} (blob ${blobs + 1} at byte ${at})`);
      if (offset + 4 > size) throw fail('truncated blob header length');
      const headerLength = (await readAt(offset, 4)).readUInt32BE(0);
      offset += 4;
      if (headerLength > 64 * 1024 || offset + headerLength > size) throw fail('truncated or invalid blob header');
      const header = { type: '', dataSize: -1 };
      try {
        new PbfReader(await readAt(offset, headerLength)).readFields(
          (tag, h, pbf) => {
            if (tag === 1) h.type = pbf.readString();
            else if (tag === 3) h.dataSize = pbf.readVarint();
          },
          header,
        );
      } catch (e) {
        throw fail(`invalid blob header: ${(e as Error).message}`);
      }
      offset += headerLength;
      if (header.dataSize < 0 || offset + header.dataSize > size) throw fail('truncated blob');
      const blobBytes = await readAt(offset, header.dataSize);
      offset += header.dataSize;
      let data: Uint8Array;
      try {
        data = blobData(blobBytes);
      } catch (e) {
        throw fail((e as Error).message);
      }
      try {
        if (header.type === 'OSMHeader') checkHeader(data);
        else if (header.type === 'OSMData') readPrimitiveBlock(data, out, elements);
      } catch (e) {
        throw fail((e as Error).message);
      }
      blobs++;
    }
    if (blobs === 0) throw new Error(`${file}: not an OpenStreetMap PBF file (no blob)`);
  } finally {
    await handle.close();
  }
}

function blobData(blob: Uint8Array): Uint8Array {
  const b: { raw?: Uint8Array; zlib?: Uint8Array; other?: string } = {};
  new PbfReader(blob).readFields(
    (tag, r, pbf) => {
      if (tag === 1) r.raw = pbf.readBytes();
      else if (tag === 3) r.zlib = pbf.readBytes();
      else if (tag === 4) r.other = 'lzma';
      else if (tag === 6) r.other = 'lz4';
      else if (tag === 7) r.other = 'zstd';
    },
    b,
  );
  if (b.raw) return b.raw;
  if (b.zlib) return inflateSync(b.zlib);
  throw new Error(b.other ? `unsupported blob compression ${b.other}` : 'empty blob');
}

function checkHeader(data: Uint8Array): void {
  const required: string[] = [];
  new PbfReader(data).readFields((tag, r, pbf) => {
    if (tag === 4) r.push(pbf.readString());
  }, required);
  const unsupported = required.filter((f) => !SUPPORTED_FEATURES.has(f));
  if (unsupported.length > 0) throw new Error(`unsupported required features: ${unsupported.join(', ')}`);
}

interface Block {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
  groups: Array<[number, number]>;
}

function readPrimitiveBlock(data: Uint8Array, out: OsmExtractBuilder, elements: number): void {
  const pbf = new PbfReader(data);
  const block: Block = { strings: [], granularity: 100, latOffset: 0, lonOffset: 0, groups: [] };
  pbf.readFields((tag, b, p) => {
    if (tag === 1) {
      const end = p.readVarint() + p.pos;
      while (p.pos < end) {
        const key = p.readVarint();
        if (key >> 3 === 1) b.strings.push(decoder.decode(p.readBytes()));
        else p.skip(key & 7);
      }
    } else if (tag === 2) {
      const length = p.readVarint();
      b.groups.push([p.pos, p.pos + length]);
      p.pos += length;
    } else if (tag === 17) b.granularity = p.readVarint();
    else if (tag === 19) b.latOffset = p.readVarint(true);
    else if (tag === 20) b.lonOffset = p.readVarint(true);
  }, block);
  const scale = 1e-9;
  const lonOf = (v: number) => scale * (block.lonOffset + block.granularity * v);
  const latOf = (v: number) => scale * (block.latOffset + block.granularity * v);
  for (const [start, end] of block.groups) {
    pbf.pos = start;
    pbf.readFields(
      (tag, _r, p) => {
        // a field left unread is skipped by readFields
        if (tag === 2 && elements & NODES) readDense(p, out, lonOf, latOf, block.strings);
        else if (tag === 1 && elements & NODES) readNode(p, out, lonOf, latOf, block.strings);
        else if (tag === 3 && elements & WAYS) readWay(p, out, block.strings);
        else if (tag === 4 && elements & WAYS) {
          if (out.wantsRelations) readRelation(p, out, block.strings);
          else {
            out.relationsRead++;
            const length = p.readVarint(); // read first: `p.pos += p.readVarint()` would add to the old position
            p.pos += length;
          }
        }
      },
      null,
      end,
    );
  }
}

function readDense(p: PbfReader, out: OsmExtractBuilder, lonOf: (v: number) => number, latOf: (v: number) => number, strings: string[]): void {
  const withTags = out.wantsNodeTags;
  const d = { ids: [] as number[], lats: [] as number[], lons: [] as number[], keysVals: [] as number[] };
  p.readMessage((tag, r, q) => {
    if (tag === 1) q.readPackedSVarint(r.ids);
    else if (tag === 8) q.readPackedSVarint(r.lats);
    else if (tag === 9) q.readPackedSVarint(r.lons);
    else if (tag === 10 && withTags) q.readPackedVarint(r.keysVals);
  }, d);
  if (d.lats.length !== d.ids.length || d.lons.length !== d.ids.length) throw new Error('dense nodes with unequal id, lat and lon counts');
  let id = 0;
  let lat = 0;
  let lon = 0;
  // keys_vals: each node's key and value string indexes in turn, then a 0 (absent when no node has tags)
  let kv = 0;
  const keysVals = d.keysVals;
  for (let i = 0; i < d.ids.length; i++) {
    id += d.ids[i]!;
    lat += d.lats[i]!;
    lon += d.lons[i]!;
    out.node(id, lonOf(lon), latOf(lat));
    if (kv >= keysVals.length || keysVals[kv] === 0) {
      kv++;
      continue;
    }
    const tags: Record<string, string> = {};
    while (kv + 1 < keysVals.length && keysVals[kv] !== 0) {
      tags[stringAt(strings, keysVals[kv]!, id)] = stringAt(strings, keysVals[kv + 1]!, id);
      kv += 2;
    }
    kv++;
    out.taggedNode(lonOf(lon), latOf(lat), tags);
  }
}

function stringAt(strings: string[], index: number, nodeId: number): string {
  const s = strings[index];
  if (s === undefined) throw new Error(`node ${nodeId} has a tag outside the string table`);
  return s;
}

function readNode(p: PbfReader, out: OsmExtractBuilder, lonOf: (v: number) => number, latOf: (v: number) => number, strings: string[]): void {
  const n = { id: 0, lat: 0, lon: 0, keys: [] as number[], vals: [] as number[] };
  const withTags = out.wantsNodeTags;
  p.readMessage((tag, r, q) => {
    if (tag === 1) r.id = q.readSVarint();
    else if (tag === 8) r.lat = q.readSVarint();
    else if (tag === 9) r.lon = q.readSVarint();
    else if (tag === 2 && withTags) q.readPackedVarint(r.keys);
    else if (tag === 3 && withTags) q.readPackedVarint(r.vals);
  }, n);
  out.node(n.id, lonOf(n.lon), latOf(n.lat));
  if (n.keys.length === 0) return;
  const tags: Record<string, string> = {};
  for (let i = 0; i < n.keys.length; i++) tags[stringAt(strings, n.keys[i]!, n.id)] = stringAt(strings, n.vals[i] ?? -1, n.id);
  out.taggedNode(lonOf(n.lon), latOf(n.lat), tags);
}

function readWay(p: PbfReader, out: OsmExtractBuilder, strings: string[]): void {
  const w = { id: 0, keys: [] as number[], vals: [] as number[], refs: [] as number[] };
  p.readMessage((tag, r, q) => {
    if (tag === 1) r.id = q.readVarint(true); // int64: a negative id (new data) is a 10-byte two's complement
    else if (tag === 2) q.readPackedVarint(r.keys);
    else if (tag === 3) q.readPackedVarint(r.vals);
    else if (tag === 8) q.readPackedSVarint(r.refs);
  }, w);
  const tags: Record<string, string> = {};
  for (let i = 0; i < w.keys.length; i++) {
    const k = strings[w.keys[i]!];
    const v = strings[w.vals[i]!];
    if (k === undefined || v === undefined) throw new Error(`way ${w.id} has a tag outside the string table`);
    tags[k] = v;
  }
  let ref = 0;
  for (let i = 0; i < w.refs.length; i++) w.refs[i] = ref += w.refs[i]!;
  out.way(w.id, w.refs, tags);
}

/** A relation: its tags and its way members (ids delta-coded, roles from the string table). */
function readRelation(p: PbfReader, out: OsmExtractBuilder, strings: string[]): void {
  const r = { id: 0, keys: [] as number[], vals: [] as number[], roles: [] as number[], memids: [] as number[], types: [] as number[] };
  p.readMessage((tag, x, q) => {
    if (tag === 1) x.id = q.readVarint(true);
    else if (tag === 2) q.readPackedVarint(x.keys);
    else if (tag === 3) q.readPackedVarint(x.vals);
    else if (tag === 8) q.readPackedVarint(x.roles);
    else if (tag === 9) q.readPackedSVarint(x.memids);
    else if (tag === 10) q.readPackedVarint(x.types);
  }, r);
  const text = (index: number | undefined) => {
    const s = index === undefined ? undefined : strings[index];
    if (s === undefined) throw new Error(`relation ${r.id} has a tag or role outside the string table`);
    return s;
  };
  const tags: Record<string, string> = {};
  for (let i = 0; i < r.keys.length; i++) tags[text(r.keys[i])] = text(r.vals[i]);
  const members: RelationMember[] = [];
  let ref = 0;
  for (let i = 0; i < r.memids.length; i++) {
    ref += r.memids[i]!;
    // member types: 0 node, 1 way, 2 relation
    if (r.types[i] === 1) members.push({ ref, role: text(r.roles[i]) });
  }
  out.relation(members, tags);
}
