/**
 * CSV written as RFC 4180 bytes (a field with a comma, a quote or a line end quoted, quotes doubled;
 * LF line ends), handed on in chunks of about CHUNK_BYTES.
 *
 * A field read by the project's CSV reader can be copied as its bytes, quoted again if it was
 * (`copy`): the tens of millions of stop_times fields a country copies are never decoded to strings,
 * which took most of a copy's time.
 */
import type { CsvRow } from '../../src/gtfs/csv-reader.js';
import type { ZipChunkWriter } from '../../test/helpers/zip-writer.js';

const CHUNK_BYTES = 1 << 18;
const NEEDS_QUOTES = /[",\r\n]/;
const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export class CsvOut {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  /** whether the row being written has no field yet */
  private rowStart = true;
  /** the chunks handed on, one after the other (the writer waits while its compressor is behind) */
  private taken: Promise<void> = Promise.resolve();

  constructor(private readonly write: ZipChunkWriter) {}

  /** A whole row of strings. */
  row(fields: readonly string[]): void {
    for (const f of fields) this.text(f);
    this.endRow();
  }

  /** A field from a string, quoted as it needs. */
  text(value: string): void {
    const field = csvField(value);
    this.separate(field.length * 3);
    this.pos += this.buf.write(field, this.pos, 'utf8');
  }

  /** Field `i` of `row` as it was read, after `prefix` (plain text: no quote, comma or line end) unless empty. */
  copy(row: CsvRow, i: number, prefix?: Uint8Array): void {
    const start = i < row.fieldCount ? row.starts[i]! : 0;
    const end = i < row.fieldCount ? Math.max(start, row.ends[i]!) : 0;
    const quoted = row.isQuoted(i);
    this.separate(end - start + (prefix?.length ?? 0) + 2);
    if (end === start && !quoted) return;
    const buf = this.buf;
    let pos = this.pos;
    if (quoted) buf[pos++] = QUOTE;
    // byte by byte: fields are a few bytes long, shorter than a native copy's cost to call
    if (prefix && end > start) for (let k = 0; k < prefix.length; k++) buf[pos++] = prefix[k]!;
    const from = row.buf;
    for (let k = start; k < end; k++) buf[pos++] = from[k]!;
    if (quoted) buf[pos++] = QUOTE;
    this.pos = pos;
  }

  endRow(): void {
    this.room(1);
    this.buf[this.pos++] = LF;
    this.rowStart = true;
  }

  /** The last chunk; resolves when the writer has taken every chunk. */
  async end(): Promise<void> {
    this.handOn(0);
    await this.taken;
  }

  /** The comma before a field (none before a row's first), and room for `bytes` more. */
  private separate(bytes: number): void {
    this.room(bytes + 1);
    if (!this.rowStart) this.buf[this.pos++] = COMMA;
    this.rowStart = false;
  }

  private room(bytes: number): void {
    if (this.pos + bytes > this.buf.length) this.handOn(bytes);
  }

  /** Hand the bytes written on, in a buffer of their own (the compressor keeps it until it has read it). */
  private handOn(next: number): void {
    if (this.pos > 0) {
      const chunk = this.buf.subarray(0, this.pos);
      this.taken = this.taken.then(() => this.write(chunk));
      // a failure is met by end(); until then it must not count as unhandled
      this.taken.catch(() => {});
    }
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, next));
    this.pos = 0;
  }
}
