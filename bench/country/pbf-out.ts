/**
 * An OpenStreetMap PBF written as a stream of blocks, so that a country of a hundred million nodes
 * never sits in memory: an OSMHeader, then OSMData blocks of at most MAX_BLOCK_ENTITIES, nodes
 * (DenseNodes) then ways, each block zlib-compressed and written to the file as soon as it is full.
 * The caller hands nodes and then ways in ascending id order; the header says so
 * (`Sort.Type_then_ID`), which is what readers of sorted files expect.
 *
 *   file   = BlobHeader + Blob(OSMHeader), then BlobHeader + Blob(PrimitiveBlock) …
 *   nodes  = PrimitiveBlock { stringtable [""], PrimitiveGroup { DenseNodes { id, lat, lon: delta-coded } } }
 *   ways   = PrimitiveBlock { stringtable, PrimitiveGroup { Way { id, keys, vals, refs: delta-coded } … } }
 *
 * Coordinates are 1e-7° integers: the format's default granularity of 100 nanodegrees, no offsets.
 * The messages are written with `pbf`; the block and blob framing is the test fixtures' (test/helpers/
 * osm-fixture.ts), which the project's reader and osmium read.
 */
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { PbfWriter } from 'pbf';
import { fileBlock, headerBlock, primitiveBlock, REQUIRED_FEATURES, type StringTable } from '../../test/helpers/osm-fixture.js';

/** Entities per block: the 8,000 the format's documentation recommends (and osmium writes). */
export const MAX_BLOCK_ENTITIES = 8_000;

/** The box of the file's nodes, 1e-7° units. */
export interface BoxE7 {
  west: number;
  south: number;
  east: number;
  north: number;
}

export class PbfOut {
  private readonly fd: number;
  bytes = 0;
  nodes = 0;
  ways = 0;
  private phase: 'nodes' | 'ways' = 'nodes';
  private lastId = 0;
  // the block being filled: nodes
  private readonly nodeId: number[] = [];
  private readonly nodeLatE7: number[] = [];
  private readonly nodeLonE7: number[] = [];
  // … or ways: way i's tags tagKeys/tagValues [tagStart[i], tagStart[i+1]), refs likewise
  private readonly wayId: number[] = [];
  private readonly tagStart: number[] = [0];
  private readonly tagKeys: string[] = [];
  private readonly tagValues: string[] = [];
  private readonly refStart: number[] = [0];
  private readonly refs: number[] = [];

  constructor(file: string, box: BoxE7, writingProgram: string) {
    this.fd = openSync(file, 'w');
    const bboxNanodegrees = { left: box.west * 100, right: box.east * 100, top: box.north * 100, bottom: box.south * 100 };
    this.write(fileBlock('OSMHeader', headerBlock(REQUIRED_FEATURES, { bboxNanodegrees, optionalFeatures: ['Sort.Type_then_ID'], writingProgram }), 'zlib'));
  }

  node(id: number, lonE7: number, latE7: number): void {
    assert.ok(this.phase === 'nodes' && id > this.lastId, `node ${id}: nodes come first, in ascending id order`);
    this.lastId = id;
    this.nodeId.push(id);
    this.nodeLatE7.push(latE7);
    this.nodeLonE7.push(lonE7);
    this.nodes++;
    if (this.nodeId.length === MAX_BLOCK_ENTITIES) this.flushNodes();
  }

  /** A way: its id, its tags as parallel key and value lists [from, to), its node ids. */
  way(id: number, keys: readonly string[], values: readonly string[], from: number, to: number, nodeIds: ArrayLike<number>): void {
    if (this.phase === 'nodes') {
      this.flushNodes();
      this.phase = 'ways';
      this.lastId = 0;
    }
    assert.ok(id > this.lastId, `way ${id}: ways in ascending id order`);
    this.lastId = id;
    this.wayId.push(id);
    for (let t = from; t < to; t++) {
      this.tagKeys.push(keys[t]!);
      this.tagValues.push(values[t]!);
    }
    this.tagStart.push(this.tagKeys.length);
    for (let i = 0; i < nodeIds.length; i++) this.refs.push(nodeIds[i]!);
    this.refStart.push(this.refs.length);
    this.ways++;
    if (this.wayId.length === MAX_BLOCK_ENTITIES) this.flushWays();
  }

  /** The last blocks; the file is complete. */
  close(): void {
    this.flushNodes();
    this.flushWays();
    closeSync(this.fd);
  }

  private flushNodes(): void {
    if (this.nodeId.length === 0) return;
    const { nodeId, nodeLatE7, nodeLonE7 } = this;
    this.write(fileBlock('OSMData', primitiveBlock([(pbf) => writeDenseNodes(pbf, nodeId, nodeLatE7, nodeLonE7)]), 'zlib'));
    nodeId.length = nodeLatE7.length = nodeLonE7.length = 0;
  }

  private flushWays(): void {
    if (this.wayId.length === 0) return;
    this.write(fileBlock('OSMData', primitiveBlock([(pbf, strings) => this.writeWays(pbf, strings)]), 'zlib'));
    this.wayId.length = this.tagKeys.length = this.tagValues.length = this.refs.length = 0;
    this.tagStart.length = this.refStart.length = 1;
  }

  private writeWays(pbf: PbfWriter, strings: StringTable): void {
    const keys: number[] = [];
    const values: number[] = [];
    const deltas: number[] = [];
    for (let i = 0; i < this.wayId.length; i++) {
      keys.length = values.length = deltas.length = 0;
      for (let t = this.tagStart[i]!; t < this.tagStart[i + 1]!; t++) {
        keys.push(strings.of(this.tagKeys[t]!));
        values.push(strings.of(this.tagValues[t]!));
      }
      let previous = 0;
      for (let r = this.refStart[i]!; r < this.refStart[i + 1]!; r++) {
        deltas.push(this.refs[r]! - previous);
        previous = this.refs[r]!;
      }
      const id = this.wayId[i]!;
      pbf.writeMessage(
        3,
        (_: null, p) => {
          p.writeVarintField(1, id);
          p.writePackedVarint(2, keys);
          p.writePackedVarint(3, values);
          p.writePackedSVarint(8, deltas);
        },
        null,
      );
    }
  }

  private write(b: Buffer): void {
    for (let at = 0; at < b.length; ) at += writeSync(this.fd, b, at);
    this.bytes += b.length;
  }
}

/** One DenseNodes message: ids, latitudes and longitudes each delta-coded, no tags (no keys_vals). */
function writeDenseNodes(pbf: PbfWriter, ids: number[], latE7: number[], lonE7: number[]): void {
  pbf.writeMessage(
    2,
    (_: null, p) => {
      p.writePackedSVarint(1, deltasOf(ids));
      p.writePackedSVarint(8, deltasOf(latE7));
      p.writePackedSVarint(9, deltasOf(lonE7));
    },
    null,
  );
}

function deltasOf(values: number[]): number[] {
  const out = new Array<number>(values.length);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i]! - previous;
    previous = values[i]!;
  }
  return out;
}
