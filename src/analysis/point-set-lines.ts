/**
 * The lines of a point-set CSV, read strictly: one physical line is one row, so that a damaged row
 * can only damage itself. RFC 4180 quoting within a line (`"a,b"`, `"say ""hi"""`), but a quoted
 * field may not span lines: a quote left open at the end of its line makes that row a problem, and
 * the next line is a row of its own (the GTFS reader, `gtfs/csv-reader.ts`, lets a quote run on,
 * which in a point set swallowed every following row into one field).
 *
 * Line ends are LF, CRLF or CR; a UTF-8 byte-order mark is skipped; spaces and tabs around an
 * unquoted field are trimmed; an empty (or blank) line is no row. The last line of a file without
 * its line end is handed over flagged `unterminated`: a file cut short or still being written ends
 * that way, and its reader treats the row as damaged.
 *
 * Decimal numbers (`decimalNumber`): what a point set's numbers are written as, and nothing else
 * (`Number()` would read `0x10` as 16, `Infinity`, `1_0`… as numbers).
 */
import { LineTooLong } from '../gtfs/csv-reader.js';

const LF = 0x0a;
const CR = 0x0d;

/** A line's fields, or why they cannot be read. */
export type LineFields = { fields: string[] } | { malformed: string };

/** One row of the file: its 1-based line, its fields, and whether the file ended before its line end. */
export type OnLine = (line: number, fields: LineFields, unterminated: boolean) => void;

/** Feed it the file's bytes; it calls `onLine` for every non-blank line. */
export class PointSetLines {
  /** Bytes of the line under way, when it spans chunks. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lineNo = 1;
  private first = true;
  /** The last chunk ended on a CR: an LF starting the next one belongs to it. */
  private afterCr = false;

  /** `maxLineBytes`: a longer line throws LineTooLong (the file is refused). */
  constructor(
    private readonly onLine: OnLine,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let pos = 0;
    if (this.afterCr && chunk.length > 0) {
      if (chunk[0] === LF) pos = 1;
      this.afterCr = false;
    }
    while (pos < chunk.length) {
      let end = pos;
      while (end < chunk.length && chunk[end] !== LF && chunk[end] !== CR) end++;
      if (end === chunk.length) {
        this.keep(chunk.subarray(pos));
        return;
      }
      this.keep(chunk.subarray(pos, end));
      this.emit(false);
      if (chunk[end] === CR) {
        if (end + 1 === chunk.length) this.afterCr = true;
        else if (chunk[end + 1] === LF) end++;
      }
      pos = end + 1;
    }
  }

  /** The end of the file: a line under way is the last one, without its line end. */
  end(): void {
    if (this.pendingBytes > 0) this.emit(true);
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > this.maxLineBytes) throw new LineTooLong(this.lineNo, this.maxLineBytes);
    // the chunk may be reused by the stream: copy
    this.pending.push(Buffer.from(bytes));
  }

  private emit(unterminated: boolean): void {
    let bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const line = this.lineNo++;
    if (this.first) {
      this.first = false;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    this.onLine(line, fieldsOf(text), unterminated);
  }
}

/** The fields of one line: quoted ones unescaped, unquoted ones trimmed of spaces and tabs. */
export function fieldsOf(text: string): LineFields {
  const fields: string[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const close = text.indexOf('"', j);
        if (close < 0) return { malformed: 'unterminated quote (a quoted field may not span lines)' };
        value += text.slice(j, close);
        if (text[close + 1] === '"') {
          value += '"';
          j = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
      if (i < n && text[i] !== ',') return { malformed: 'characters after a closing quote' };
      fields.push(value);
    } else {
      let comma = text.indexOf(',', i);
      if (comma < 0) comma = n;
      const value = text.slice(i, comma).trim();
      if (value.includes('"')) return { malformed: 'a quote inside an unquoted field' };
      fields.push(value);
      i = comma;
    }
    if (i >= n) return { fields };
    i++; // the comma: a field follows, empty at the end of the line
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `text` as a decimal number (digits, a point, an exponent); NaN for anything else, ±Infinity past the doubles. */
export function decimalNumber(text: string): number {
  return DECIMAL.test(text) ? Number(text) : NaN;
}
