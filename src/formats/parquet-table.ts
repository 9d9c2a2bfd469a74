/**
 * A table as Parquet (hyparquet-writer; docs/analysis.md says why this library), written in row
 * groups as blocks come: the rows are held until a group is full (ROW_GROUP_ROWS), encoded, and the
 * bytes handed to `write` at once, so memory holds one group whatever the table's length.
 *
 * Types: `id` a dictionary-encoded UTF-8 string, `int32` a nullable INT32 (null where negative, delta-packed),
 * `float64` a DOUBLE, `string` a nullable UTF-8 string, `point` WKB in a BYTE_ARRAY (GeoParquet's
 * encoding). Compressed with GZIP by Node's own zlib at level 1: smaller than the library's Snappy in
 * JavaScript, and no slower (the measures are in docs/analysis.md).
 */
import { gzipSync } from 'node:zlib';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource, KeyValue, SchemaElement } from 'hyparquet-writer';
import { isNullInt32, type ColumnValues, type RowBlock, type TableColumn, type TableWriter } from './table-columns.js';
import { pointWkb } from './wkb.js';

/** Rows per row group: a few hundred thousand make pages of a few MB that readers skip through well; whole blocks are never split. */
export const ROW_GROUP_ROWS = 128 * 1024;
/** The gzip level of the pages: 1 gains most of the size of 6 at a fraction of its time. */
const GZIP_LEVEL = 1;
/** The bytes the encoder gathers before handing them on. */
const WRITE_CHUNK_BYTES = 1 << 20;

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

/** A column's rows of one group as the library takes them. */
function columnSource(column: TableColumn, parts: ColumnValues[], rows: number): ColumnSource {
  switch (column.type) {
    case 'id': {
      const ids = column.ids!;
      const data = new Array<string>(rows);
      let at = 0;
      for (const part of parts) for (const k of part as Int32Array) data[at++] = ids[k]!;
      return { name: column.name, data, encoding: 'RLE_DICTIONARY' };
    }
    case 'int32': {
      const data = new Array<number | null>(rows);
      let at = 0;
      for (const part of parts) for (const v of part as Int32Array) data[at++] = isNullInt32(v) ? null : v;
      // delta-packed: smaller and faster to write than a dictionary of times (12.0 MB against 13.9 MB
      // for Porto Alegre's 1,227² matrix, 0.9 M rows/s against 0.5 M), and every reader takes it
      return { name: column.name, data, encoding: 'DELTA_BINARY_PACKED' };
    }
    case 'float64': {
      const data = new Float64Array(rows);
      let at = 0;
      for (const part of parts) {
        data.set(part as Float64Array, at);
        at += part.length;
      }
      return { name: column.name, data };
    }
    case 'string':
      return { name: column.name, data: (parts as (string | null)[][]).flat() };
    case 'point': {
      const data = new Array<Uint8Array>(rows);
      let at = 0;
      for (const part of parts) for (const k of part as Int32Array) data[at++] = pointWkb(column.lon![k]!, column.lat![k]!);
      return { name: column.name, data };
    }
  }
}

export interface ParquetTableWriter extends TableWriter {
  /** key-value metadata of the file's footer, set before `finish` (GeoParquet's `geo`, known once every row is in) */
  metadata: KeyValue[];
}

/** The Parquet file of a table, its bytes handed to `write` as row groups complete. */
export function parquetTableWriter(columns: readonly TableColumn[], write: (bytes: Uint8Array) => Promise<void>): ParquetTableWriter {
  const bytes = new ByteWriter(WRITE_CHUNK_BYTES);
  // the library appends to the writer and calls flush after each row group: the bytes go on, the buffer is reused
  let pending: Promise<void> = Promise.resolve();
  const handOn = () => {
    if (bytes.index === 0) return pending;
    const chunk = new Uint8Array(bytes.buffer.slice(0, bytes.index));
    bytes.index = 0;
    pending = pending.then(() => write(chunk));
    return pending;
  };
  Object.assign(bytes, { flush: handOn, finish: handOn });
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }, ...columns.map(schemaElement)];
  const writer = new ParquetWriter({ writer: bytes, schema, codec: 'GZIP', compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input, { level: GZIP_LEVEL })) }, statistics: false, createdBy: 'navette' });
  let held: RowBlock[] = [];
  let heldRows = 0;
  const writeGroup = async () => {
    if (heldRows === 0) return;
    const columnData = columns.map((column, c) => columnSource(column, held.map((b) => b.values[c]!), heldRows));
    held = [];
    const rows = heldRows;
    heldRows = 0;
    await writer.write({ columnData, rowGroupSize: rows });
    await pending;
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
      if (table.metadata.length > 0) writer.kvMetadata = table.metadata;
      await writer.finish();
      await pending;
    },
  };
  return table;
}
