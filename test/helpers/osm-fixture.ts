/**
 * Small OpenStreetMap extracts written for tests, as gtfs-fixture.ts writes GTFS feeds: nodes and
 * ways given as objects, written as OSM XML, or as PBF when the file name ends with `.pbf`:
 *
 *   writeOsm({ nodes: [{ id: 1, lon: 2, lat: 1 }, …], ways: [{ id: 7, refs: [1, 2], tags: { highway: 'footway' } }] }, 'streets.osm')
 *
 * puts the file in a fresh temporary folder and returns its path. The XML escapes what attribute
 * values need (`& < > " '`) and writes numbers as JavaScript prints them (the shortest text that
 * reads back to the same number); the PBF puts the nodes on a grid of nanodegrees.
 *
 * The blocks the PBF is made of (header, dense or plain nodes on a given grid, ways, relations, raw
 * or zlib blobs) are exported too, for the reader's tests that write unusual files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { PbfWriter } from 'pbf';
import { encode } from './pbf-writer.js';

export type Tags = Record<string, string>;

export interface OsmNode {
  id: number;
  lon: number;
  lat: number;
  tags?: Tags;
}

export interface OsmWay {
  id: number;
  /** ids of its nodes, in order */
  refs: number[];
  tags: Tags;
}

/** A relation with way members (as the basemap reads multipolygons), or an id alone. */
export interface OsmRelation {
  id: number;
  /** way members, in order */
  members: { ref: number; role: string }[];
  tags: Tags;
}

export interface OsmFixture {
  nodes: OsmNode[];
  ways: OsmWay[];
  /** relations, or ids of relations without members or tags (the street readers only count relations) */
  relations?: (number | OsmRelation)[];
}

const relationOf = (r: number | OsmRelation): OsmRelation => (typeof r === 'number' ? { id: r, members: [], tags: {} } : r);

/** `fixture` in a fresh temporary folder as `name`: PBF when the name ends with `.pbf` (any case), else OSM XML. */
export function writeOsm(fixture: OsmFixture, name = 'streets.osm'): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'navette-osm-')), name);
  writeFileSync(file, /\.pbf$/i.test(name) ? osmPbf(fixture) : osmXml(fixture));
  return file;
}

// ---------------------------------------------------------------------------------------------
// XML

/** An attribute value with the five characters XML reserves written as entities. */
function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function tagLines(tags: Tags | undefined, indent: string): string[] {
  return Object.entries(tags ?? {}).map(([k, v]) => `${indent}<tag k="${escapeAttribute(k)}" v="${escapeAttribute(v)}"/>`);
}

/** The fixture as an OSM XML document: its nodes, then its ways, then its relations. */
export function osmXml(fixture: OsmFixture): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="navette tests">'];
  for (const n of fixture.nodes) {
    const open = `  <node id="${n.id}" lat="${n.lat}" lon="${n.lon}"`;
    const tags = tagLines(n.tags, '    ');
    lines.push(...(tags.length === 0 ? [`${open}/>`] : [`${open}>`, ...tags, '  </node>']));
  }
  for (const w of fixture.ways) {
    lines.push(`  <way id="${w.id}">`, ...w.refs.map((ref) => `    <nd ref="${ref}"/>`), ...tagLines(w.tags, '    '), '  </way>');
  }
  for (const r of (fixture.relations ?? []).map(relationOf)) {
    const inner = [...r.members.map((m) => `    <member type="way" ref="${m.ref}" role="${escapeAttribute(m.role)}"/>`), ...tagLines(r.tags, '    ')];
    lines.push(...(inner.length === 0 ? [`  <relation id="${r.id}"/>`] : [`  <relation id="${r.id}">`, ...inner, '  </relation>']));
  }
  lines.push('</osm>');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// PBF

/** A PBF block's coordinate grid: degrees = 1e-9 * (offset + granularity * value). */
export interface Grid {
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** The format's default grid (the fields left out of the block): 100 nanodegrees. */
export const DEFAULT_GRID: Grid = { granularity: 100, latOffset: 0, lonOffset: 0 };
/** A grid of nanodegrees, on which any coordinate lies (rounded to 1e-9°). */
export const NANODEGREE_GRID: Grid = { granularity: 1, latOffset: 0, lonOffset: 0 };

/** The features every file here requires. */
export const REQUIRED_FEATURES = ['OsmSchema-V0.6', 'DenseNodes'];

/** A block's string table; entry 0 stays empty (it ends each dense node's tags). */
export class StringTable {
  readonly strings = [''];
  private readonly index = new Map<string, number>();

  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.index.set(s, i);
    }
    return i;
  }
}

/** A PrimitiveGroup, written with the strings of its block. */
export type Group = (pbf: PbfWriter, strings: StringTable) => void;

/** A coordinate on a grid; one that is not on it fails. */
function gridValue(degrees: number, offset: number, granularity: number): number {
  const v = (Math.round(degrees * 1e9) - offset) / granularity;
  assert.ok(Number.isInteger(v), `${degrees}° is not on the grid`);
  return v;
}

function deltas(values: number[]): number[] {
  return values.map((v, i) => v - (i > 0 ? values[i - 1]! : 0));
}

/** The nodes as one DenseNodes message. */
export function denseGroup(nodes: OsmNode[], grid: Grid): Group {
  return (pbf, strings) =>
    pbf.writeMessage(
      2,
      (list: OsmNode[], p) => {
        p.writePackedSVarint(1, deltas(list.map((n) => n.id)));
        p.writePackedSVarint(8, deltas(list.map((n) => gridValue(n.lat, grid.latOffset, grid.granularity))));
        p.writePackedSVarint(9, deltas(list.map((n) => gridValue(n.lon, grid.lonOffset, grid.granularity))));
        // keys_vals: key, value, key, value…, 0 after each node
        const keysVals = list.flatMap((n) => [...Object.entries(n.tags ?? {}).flatMap(([k, v]) => [strings.of(k), strings.of(v)]), 0]);
        p.writePackedVarint(10, keysVals);
      },
      nodes,
    );
}

/** The nodes as plain Node messages. */
export function nodesGroup(nodes: OsmNode[], grid: Grid): Group {
  return (pbf, strings) => {
    for (const node of nodes) {
      pbf.writeMessage(
        1,
        (n: OsmNode, p) => {
          p.writeSVarintField(1, n.id);
          p.writePackedVarint(2, Object.keys(n.tags ?? {}).map((k) => strings.of(k)));
          p.writePackedVarint(3, Object.values(n.tags ?? {}).map((v) => strings.of(v)));
          p.writeSVarintField(8, gridValue(n.lat, grid.latOffset, grid.granularity));
          p.writeSVarintField(9, gridValue(n.lon, grid.lonOffset, grid.granularity));
        },
        node,
      );
    }
  };
}

export function waysGroup(ways: OsmWay[]): Group {
  return (pbf, strings) => {
    for (const way of ways) {
      pbf.writeMessage(
        3,
        (w: OsmWay, p) => {
          p.writeVarintField(1, w.id); // int64: a negative id takes ten bytes
          p.writePackedVarint(2, Object.keys(w.tags).map((k) => strings.of(k)));
          p.writePackedVarint(3, Object.values(w.tags).map((v) => strings.of(v)));
          p.writePackedSVarint(8, deltas(w.refs));
        },
        way,
      );
    }
  };
}

/** Relations: an id alone, or with tags and way members (ids delta-coded, roles in the string table). */
export function relationsGroup(relations: (number | OsmRelation)[]): Group {
  return (pbf, strings) => {
    for (const relation of relations.map(relationOf)) {
      pbf.writeMessage(
        4,
        (r: OsmRelation, p) => {
          p.writeVarintField(1, r.id);
          if (r.members.length === 0 && Object.keys(r.tags).length === 0) return;
          p.writePackedVarint(2, Object.keys(r.tags).map((k) => strings.of(k)));
          p.writePackedVarint(3, Object.values(r.tags).map((v) => strings.of(v)));
          p.writePackedVarint(8, r.members.map((m) => strings.of(m.role)));
          p.writePackedSVarint(9, deltas(r.members.map((m) => m.ref)));
          p.writePackedVarint(10, r.members.map(() => 1));
        },
        relation,
      );
    }
  };
}

/** A PrimitiveBlock; without a grid, its fields are left out (the format's defaults apply). */
export function primitiveBlock(groups: Group[], grid?: Grid): Uint8Array {
  const strings = new StringTable();
  // groups first, to fill the string table, which the block then writes before them
  const encoded = groups.map((group) => encode((pbf) => group(pbf, strings)));
  return encode((pbf) => {
    pbf.writeMessage(1, (table: string[], p) => table.forEach((s) => p.writeStringField(1, s)), strings.strings);
    for (const group of encoded) pbf.writeBytesField(2, group);
    if (grid) {
      pbf.writeVarintField(17, grid.granularity);
      pbf.writeVarintField(19, grid.latOffset);
      pbf.writeVarintField(20, grid.lonOffset);
    }
  });
}

/** What a header may say besides its required features. */
export interface HeaderExtras {
  /** the data's box, in nanodegrees (HeaderBBox: left, right, top, bottom) */
  bboxNanodegrees?: { left: number; right: number; top: number; bottom: number };
  /** features a reader may use but need not understand (`Sort.Type_then_ID`) */
  optionalFeatures?: string[];
  writingProgram?: string;
}

export function headerBlock(requiredFeatures: string[], extras: HeaderExtras = {}): Uint8Array {
  return encode((pbf) => {
    const box = extras.bboxNanodegrees;
    if (box) {
      pbf.writeMessage(
        1,
        (b: typeof box, p) => {
          p.writeSVarintField(1, b.left);
          p.writeSVarintField(2, b.right);
          p.writeSVarintField(3, b.top);
          p.writeSVarintField(4, b.bottom);
        },
        box,
      );
    }
    for (const feature of requiredFeatures) pbf.writeStringField(4, feature);
    for (const feature of extras.optionalFeatures ?? []) pbf.writeStringField(5, feature);
    pbf.writeStringField(16, extras.writingProgram ?? 'navette tests');
  });
}

/** A file block: BlobHeader length (big-endian int32), BlobHeader, Blob. 'lzma' is not compressed, only labelled. */
export function fileBlock(type: 'OSMHeader' | 'OSMData', data: Uint8Array, compression: 'raw' | 'zlib' | 'lzma'): Buffer {
  const blob = encode((pbf) => {
    if (compression === 'raw') pbf.writeBytesField(1, data);
    else {
      pbf.writeVarintField(2, data.length);
      pbf.writeBytesField(compression === 'zlib' ? 3 : 4, compression === 'zlib' ? deflateSync(data) : data);
    }
  });
  const header = encode((pbf) => {
    pbf.writeStringField(1, type);
    pbf.writeVarintField(3, blob.length);
  });
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

/** The fixture as a PBF file: a header, its nodes (dense, on the nanodegree grid), then its ways and relations, zlib blobs. */
export function osmPbf(fixture: OsmFixture): Buffer {
  return Buffer.concat([
    fileBlock('OSMHeader', headerBlock(REQUIRED_FEATURES), 'raw'),
    fileBlock('OSMData', primitiveBlock([denseGroup(fixture.nodes, NANODEGREE_GRID)], NANODEGREE_GRID), 'zlib'),
    fileBlock('OSMData', primitiveBlock([waysGroup(fixture.ways), relationsGroup(fixture.relations ?? [])]), 'zlib'),
  ]);
}
