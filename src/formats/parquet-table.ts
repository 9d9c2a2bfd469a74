/**
 * A table as Parquet, written in row groups as blocks come: the rows are held until a group is
 * full (ROW_GROUP_ROWS), encoded, and the bytes handed to `write` at once, so memory holds one group
 * whatever the table's length.
 *
 * The pages are encoded here from the blocks' typed arrays (parquet-encodings.ts): the columns'
 * types are few and fixed, and a general writer spent most of its time turning our integer indices
 * back into strings to hash them into a dictionary again (docs/analysis.md has the measures). The
 * Thrift of the page headers and of the footer is hyparquet-writer's.
 *
 * Types: `id` a dictionary-encoded UTF-8 string (the dictionary of each row group holds the ids it
 * uses), `int32` a nullable INT32 (null where negative, DELTA_BINARY_PACKED), `float64` a DOUBLE,
 * `string` a nullable UTF-8 string, `point` WKB in a BYTE_ARRAY (GeoParquet's encoding). One data
 * page (v2) per column and row group, compressed with GZIP by Node's own zlib at level 1.
 */
import { gzipSync } from 'node:zlib';
import { ByteWriter } from 'hyparquet-writer';
import type { KeyValue, SchemaElement } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { bitWidth, ByteSink, writeDeltaBinaryPacked, writePlainBytes, writePlainDoubles, writeRleHybrid } from './parquet-encodings.js';
import { isNullInt32, type ColumnValues, type RowBlock, type TableColumn, type TableWriter } from './table-columns.js';
import { pointWkb } from './wkb.js';

type FileMetaData = Parameters<typeof writeMetadata>[1];
type RowGroup = FileMetaData['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];
type Encoding = NonNullable<ColumnChunk['meta_data']>['encodings'][number];

/** Rows per row group: a few hundred thousand make pages of a few MB that readers skip through well; whole blocks are never split. */
export const ROW_GROUP_ROWS = 128 * 1024;
/** The gzip level of the pages: 1 gains most of the size of 6 at a fraction of its time. */
const GZIP_LEVEL = 1;
/** The bytes gathered before they are handed on. */
const WRITE_CHUNK_BYTES = 1 << 20;
/** "PAR1", the magic number at both ends of a file. */
const MAGIC = 0x31524150;

function schemaElement(column: TableColumn): SchemaElement {
  switch (column.type) {
    case 'id':
      return { name: column.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' };
    case 'int32':
      return { name: column.name, type: 'INT32', repetition_type: 'OPTIONAL' };
    case 'float64':
      return { name: column.name, type: 'DOUBLE', repetition_type: 'REQUIRED' };
    case 'string':
      return { name: column.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
    case 'point':
      return { name: column.name, type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' };
  }
}

const utf8 = new TextEncoder();

/** The scratch of one column's encoding, kept from one row group to the next. */
class ColumnScratch {
  /** the column's values of the group gathered in one array (ids' dictionary codes, int32 non-null values) */
  values = new Int32Array(0);
  /** definition levels: 1 where a value is present */
  defined = new Uint8Array(0);
  /** `id`: code + 1 of each id in the group's dictionary, 0 if unused; the ids' UTF-8 bytes */
  codeOf = new Int32Array(0);
  idBytes: Uint8Array[] = [];

  room(rows: number): void {
    if (this.values.length < rows) this.values = new Int32Array(rows);
    if (this.defined.length < rows) this.defined = new Uint8Array(rows);
  }
}

/** One column chunk of one row group: what its pages are made of. */
interface ChunkPages {
  dictionary?: { values: number; bytes: Uint8Array };
  /** definition levels, written uncompressed (data page v2), and the values' bytes */
  levels: Uint8Array;
  data: Uint8Array;
  encoding: Encoding;
  nulls: number;
  /** false for bit-packed deltas, where gzip gains under 1 % (0.5 % on Porto Alegre's matrix) for a third of the writer's time */
  compressed: boolean;
}

/** Gathers the id indices of a group's blocks and maps them to a dictionary of the ids used, in index order. */
function idPages(column: TableColumn, parts: ColumnValues[], rows: number, scratch: ColumnScratch, sinks: [ByteSink, ByteSink]): ChunkPages {
  const ids = column.ids!;
  if (scratch.codeOf.length < ids.length) scratch.codeOf = new Int32Array(ids.length);
  if (scratch.idBytes.length === 0) scratch.idBytes = ids.map((id) => utf8.encode(id));
  const codeOf = scratch.codeOf.fill(0);
  const values = scratch.values;
  let at = 0;
  for (const part of parts as Int32Array[]) {
    for (let i = 0; i < part.length; i++) codeOf[part[i]!] = 1;
    values.set(part, at);
    at += part.length;
  }
  const [dictionary, data] = sinks;
  let used = 0;
  for (let k = 0; k < ids.length; k++) {
    if (codeOf[k] === 0) continue;
    codeOf[k] = ++used;
    writePlainBytes(dictionary, scratch.idBytes[k]!);
  }
  for (let i = 0; i < rows; i++) values[i] = codeOf[values[i]!]! - 1;
  // at least 1 bit: a dictionary of one id is written as a run of zeros every reader decodes
  const width = Math.max(1, bitWidth(used - 1));
  data.byte(width);
  writeRleHybrid(data, values, rows, width);
  return { dictionary: { values: used, bytes: dictionary.view() }, levels: new Uint8Array(0), data: data.view(), encoding: 'RLE_DICTIONARY', nulls: 0, compressed: true };
}

function int32Pages(parts: ColumnValues[], rows: number, scratch: ColumnScratch, sinks: [ByteSink, ByteSink]): ChunkPages {
  const { values, defined } = scratch;
  let present = 0;
  let row = 0;
  for (const part of parts as Int32Array[]) {
    for (let i = 0; i < part.length; i++) {
      const v = part[i]!;
      const isValue = isNullInt32(v) ? 0 : 1;
      defined[row++] = isValue;
      values[present] = v;
      present += isValue;
    }
  }
  const [levels, data] = sinks;
  writeRleHybrid(levels, defined, rows, 1);
  writeDeltaBinaryPacked(data, values, present);
  return { levels: levels.view(), data: data.view(), encoding: 'DELTA_BINARY_PACKED', nulls: rows - present, compressed: false };
}

function float64Pages(parts: ColumnValues[], data: ByteSink): ChunkPages {
  for (const part of parts as Float64Array[]) writePlainDoubles(data, part);
  return { levels: new Uint8Array(0), data: data.view(), encoding: 'PLAIN', nulls: 0, compressed: true };
}

function stringPages(parts: ColumnValues[], rows: number, scratch: ColumnScratch, sinks: [ByteSink, ByteSink]): ChunkPages {
  const [levels, data] = sinks;
  let row = 0;
  let nulls = 0;
  for (const part of parts as (string | null)[][]) {
    for (const text of part) {
      scratch.defined[row++] = text === null ? 0 : 1;
      if (text === null) nulls++;
      else writePlainBytes(data, utf8.encode(text));
    }
  }
  writeRleHybrid(levels, scratch.defined, rows, 1);
  return { levels: levels.view(), data: data.view(), encoding: 'PLAIN', nulls, compressed: true };
}

function pointPages(column: TableColumn, parts: ColumnValues[], data: ByteSink): ChunkPages {
  for (const part of parts as Int32Array[]) for (const k of part) writePlainBytes(data, pointWkb(column.lon![k]!, column.lat![k]!));
  return { levels: new Uint8Array(0), data: data.view(), encoding: 'PLAIN', nulls: 0, compressed: true };
}

function chunkPages(column: TableColumn, parts: ColumnValues[], rows: number, scratch: ColumnScratch, sinks: [ByteSink, ByteSink]): ChunkPages {
  scratch.room(rows);
  for (const sink of sinks) sink.length = 0;
  switch (column.type) {
    case 'id':
      return idPages(column, parts, rows, scratch, sinks);
    case 'int32':
      return int32Pages(parts, rows, scratch, sinks);
    case 'float64':
      return float64Pages(parts, sinks[1]);
    case 'string':
      return stringPages(parts, rows, scratch, sinks);
    case 'point':
      return pointPages(column, parts, sinks[1]);
  }
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: GZIP_LEVEL });

export interface ParquetTableWriter extends TableWriter {
  /** key-value metadata of the file's footer, set before `finish` (GeoParquet's `geo`, known once every row is in) */
  metadata: KeyValue[];
}

/** The Parquet file of a table, its bytes handed to `write` as row groups complete. */
export function parquetTableWriter(columns: readonly TableColumn[], write: (bytes: Uint8Array) => Promise<void>): ParquetTableWriter {
  const out = new ByteWriter(WRITE_CHUNK_BYTES);
  let pending: Promise<void> = Promise.resolve();
  /** the bytes gathered go on, the buffer is reused */
  const handOn = () => {
    if (out.index === 0) return pending;
    const chunk = new Uint8Array(out.buffer.slice(0, out.index));
    out.index = 0;
    pending = pending.then(() => write(chunk));
    return pending;
  };
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }, ...columns.map(schemaElement)];
  const scratch = columns.map(() => new ColumnScratch());
  const sinks: [ByteSink, ByteSink] = [new ByteSink(), new ByteSink()];
  const rowGroups: RowGroup[] = [];
  let totalRows = 0;
  out.appendUint32(MAGIC);

  /** One column chunk's pages appended to the file; its metadata. */
  const writeChunk = (c: number, pages: ChunkPages, rows: number): ColumnChunk => {
    const start = out.offset;
    let uncompressed = 0;
    let dictionaryOffset: bigint | undefined;
    const encodings: Encoding[] = [];
    if (pages.dictionary) {
      dictionaryOffset = BigInt(out.offset);
      const compressed = gzip(pages.dictionary.bytes);
      const headerStart = out.offset;
      writePageHeader(out, {
        type: 'DICTIONARY_PAGE',
        uncompressed_page_size: pages.dictionary.bytes.length,
        compressed_page_size: compressed.length,
        dictionary_page_header: { num_values: pages.dictionary.values, encoding: 'PLAIN' },
      });
      uncompressed += out.offset - headerStart + pages.dictionary.bytes.length;
      out.appendBytes(compressed);
      encodings.push('PLAIN');
    }
    const dataOffset = BigInt(out.offset);
    const compressed = pages.compressed ? gzip(pages.data) : pages.data;
    const headerStart = out.offset;
    writePageHeader(out, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: pages.levels.length + pages.data.length,
      compressed_page_size: pages.levels.length + compressed.length,
      data_page_header_v2: {
        num_values: rows,
        num_nulls: pages.nulls,
        num_rows: rows,
        encoding: pages.encoding,
        definition_levels_byte_length: pages.levels.length,
        repetition_levels_byte_length: 0,
        is_compressed: pages.compressed,
      },
    });
    uncompressed += out.offset - headerStart + pages.levels.length + pages.data.length;
    out.appendBytes(pages.levels);
    out.appendBytes(compressed);
    encodings.push(pages.encoding);
    if (pages.levels.length > 0) encodings.push('RLE');
    const element = schema[c + 1]!;
    return {
      file_offset: BigInt(start),
      meta_data: {
        type: element.type!,
        encodings,
        path_in_schema: [element.name],
        codec: pages.compressed ? 'GZIP' : 'UNCOMPRESSED',
        num_values: BigInt(rows),
        total_uncompressed_size: BigInt(uncompressed),
        total_compressed_size: BigInt(out.offset - start),
        data_page_offset: dataOffset,
        dictionary_page_offset: dictionaryOffset,
      },
    };
  };

  let held: RowBlock[] = [];
  let heldRows = 0;
  const writeGroup = async () => {
    if (heldRows === 0) return;
    const rows = heldRows;
    const start = out.offset;
    const chunks = columns.map((column, c) => writeChunk(c, chunkPages(column, held.map((b) => b.values[c]!), rows, scratch[c]!, sinks), rows));
    held = [];
    heldRows = 0;
    let bytes = 0n;
    for (const chunk of chunks) bytes += chunk.meta_data!.total_uncompressed_size;
    rowGroups.push({ columns: chunks, total_byte_size: bytes, num_rows: BigInt(rows), file_offset: BigInt(start), total_compressed_size: BigInt(out.offset - start) });
    totalRows += rows;
    await handOn();
  };
  const table: ParquetTableWriter = {
    metadata: [],
    async write(block) {
      held.push(block);
      heldRows += block.rows;
      if (heldRows >= ROW_GROUP_ROWS) await writeGroup();
    },
    async finish() {
      await writeGroup();
      const footer: FileMetaData = {
        version: 2,
        created_by: 'navette',
        schema,
        num_rows: BigInt(totalRows),
        row_groups: rowGroups,
        metadata_length: 0,
        ...(table.metadata.length > 0 ? { key_value_metadata: table.metadata } : {}),
      };
      // metadata_length is a reader's field: writeMetadata writes the footer's length after it
      delete (footer as Partial<FileMetaData>).metadata_length;
      writeMetadata(out, footer);
      out.appendUint32(MAGIC);
      await handOn();
    },
  };
  return table;
}
