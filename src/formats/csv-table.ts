/**
 * A table as CSV: a header of the columns' names, then a line per row; ids quoted when they must be
 * (RFC 4180), an `int32` null as an empty field. A block is encoded straight into one buffer of
 * UTF-8 bytes: a matrix's rows cost no string and no array each (1.5 M rows for Porto Alegre's
 * hexagons), ids are encoded once, whole numbers digit by digit.
 */
import { isNullInt32, type RowBlock, type TableColumn, type TableWriter } from './table-columns.js';

/** A text as a CSV field (quoted when it holds a comma, a quote or a line break). */
export const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function csvHeader(columns: readonly TableColumn[]): string {
  return `${columns.map((c) => csvField(c.name)).join(',')}\n`;
}

const COMMA = 0x2c;
const NEWLINE = 0x0a;
/** The longest text of a non-negative int32: ten digits. */
const INT32_BYTES = 10;
const utf8 = new TextEncoder();

/** A block's bytes, grown as written. */
class Bytes {
  buf: Uint8Array;
  n = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(64, size));
  }
  /** Room for `k` more bytes. */
  room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(2 * this.buf.length, this.n + k));
    grown.set(this.buf.subarray(0, this.n));
    this.buf = grown;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    const { buf } = this;
    let n = this.n;
    for (let k = 0; k < b.length; k++) buf[n++] = b[k]!;
    this.n = n;
  }
  /** A whole number's decimal digits (v >= 0: a negative int32 is null). */
  integer(v: number): void {
    this.room(INT32_BYTES);
    const { buf } = this;
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let at = this.n + digits;
    this.n = at;
    do {
      buf[--at] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }
  text(s: string): void {
    this.bytes(utf8.encode(s));
  }
}

/** The writer of each column's fields: an id's bytes made once, a number's as JavaScript writes it. */
function fieldOf(column: TableColumn): (values: RowBlock['values'][number], row: number, out: Bytes) => void {
  switch (column.type) {
    case 'id':
    case 'point': {
      const encoded = column.ids!.map((id) => utf8.encode(csvField(id)));
      return (values, row, out) => out.bytes(encoded[(values as Int32Array)[row]!]!);
    }
    case 'int32':
      return (values, row, out) => {
        const v = (values as Int32Array)[row]!;
        if (!isNullInt32(v)) out.integer(v);
      };
    case 'float64':
      return (values, row, out) => out.text(String((values as Float64Array)[row]));
    case 'string':
      return (values, row, out) => {
        const v = (values as (string | null)[])[row];
        if (v !== null && v !== undefined) out.text(csvField(v));
      };
  }
}

/** Bytes gathered before they are written: a matrix's blocks (an origin's rows, some 25 kB) go out a few dozen at a time. */
const WRITE_BYTES = 1 << 20;

/**
 * The CSV of a table, written through `write` (buffers of its own, WRITE_BYTES or so, the last at
 * `finish`); `header` false for a slice after the first (--shard).
 */
export function csvTableWriter(columns: readonly TableColumn[], write: (bytes: Uint8Array) => Promise<void>, header: boolean): TableWriter {
  const fields = columns.map(fieldOf);
  let headerDue = header;
  // a row's bytes, guessed from the last block's: most blocks are written without growing
  let perRow = 16 * columns.length;
  // room for a block past WRITE_BYTES without growing
  let out = new Bytes(2 * WRITE_BYTES);
  return {
    async write(block) {
      const before = out.n;
      out.room(block.rows * perRow + 256);
      if (headerDue) {
        out.text(csvHeader(columns));
        headerDue = false;
      }
      for (let r = 0; r < block.rows; r++) {
        fields[0]!(block.values[0]!, r, out);
        for (let c = 1; c < fields.length; c++) {
          out.room(1);
          out.buf[out.n++] = COMMA;
          fields[c]!(block.values[c]!, r, out);
        }
        out.room(1);
        out.buf[out.n++] = NEWLINE;
      }
      if (block.rows > 0) perRow = Math.ceil((out.n - before) / block.rows) + 1;
      if (out.n < WRITE_BYTES) return;
      await write(out.buf.subarray(0, out.n));
      out = new Bytes(2 * WRITE_BYTES);
    },
    async finish() {
      // an empty slice still has its header
      if (headerDue) out.text(csvHeader(columns));
      if (out.n > 0) await write(out.buf.subarray(0, out.n));
      out = new Bytes(0);
    },
  };
}
