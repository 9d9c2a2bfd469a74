/**
 * A streaming CSV reader over bytes (RFC 4180 plus what real GTFS feeds do: a UTF-8 BOM, CRLF or LF
 * line ends, a missing final newline, spaces around fields, empty lines).
 *
 * Rows are not turned into arrays of strings: a row is a set of field boundaries into the current
 * byte buffer, and the caller reads only the fields it needs, as numbers parsed from the bytes or as
 * strings. This keeps the 2.4 M-row stop_times of a large feed cheap to read.
 *
 *   chunk:  t r i p 1 , 0 8 : 0 0 : 0 0 , " a "" b " \n t r i p 1 , …
 *           ^start[0] ^end[0]             ^start[2]   ^end[2]
 */

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;

/** Field flag: the field was quoted, and `""` inside it must be unescaped when read as text. */
const FIELD_QUOTED = 1;

/** One parsed row; valid only during the `onRow` callback that received it. */
export class CsvRow {
  /** Line number (1-based, the header is line 1) where this row starts in the file. */
  line = 0;
  /** Number of fields in this row. */
  fieldCount = 0;
  buf: Buffer = Buffer.alloc(0);
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  flags = new Uint8Array(64);

  /** Whether field `i` is absent or empty (after trimming spaces). */
  isEmpty(i: number): boolean {
    return i < 0 || i >= this.fieldCount || this.ends[i]! <= this.starts[i]!;
  }

  /** Whether field `i` was quoted: its bytes (buf[starts[i]..ends[i]]) then hold each quote doubled. */
  isQuoted(i: number): boolean {
    return i >= 0 && i < this.fieldCount && (this.flags[i]! & FIELD_QUOTED) !== 0;
  }

  /** Field `i` as a string ('' when absent). */
  text(i: number): string {
    if (i < 0 || i >= this.fieldCount) return '';
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    if (e <= s) return '';
    const t = this.buf.toString('utf8', s, e);
    return this.flags[i]! & FIELD_QUOTED ? t.replaceAll('""', '"') : t;
  }

  /** Field `i` as a non-negative integer, or `fallback` when empty, or NaN when not an integer. */
  int(i: number, fallback: number): number {
    if (this.isEmpty(i)) return fallback;
    const buf = this.buf;
    let p = this.starts[i]!;
    const e = this.ends[i]!;
    let sign = 1;
    if (buf[p] === 0x2d) {
      sign = -1;
      p++;
    } else if (buf[p] === 0x2b) p++;
    if (p >= e) return NaN;
    let v = 0;
    for (; p < e; p++) {
      const c = buf[p]! - 0x30;
      if (c < 0 || c > 9) return NaN;
      v = v * 10 + c;
    }
    return sign * v;
  }

  /** Field `i` as a float, `fallback` when empty, NaN when malformed. */
  float(i: number, fallback: number): number {
    if (this.isEmpty(i)) return fallback;
    const t = this.text(i);
    const v = Number(t);
    return Number.isFinite(v) ? v : NaN;
  }

  /** Field `i` as a GTFS time H:MM:SS (hours may pass 24) in seconds; -1 when empty, -2 when malformed. */
  time(i: number): number {
    if (this.isEmpty(i)) return -1;
    const buf = this.buf;
    let p = this.starts[i]!;
    const e = this.ends[i]!;
    let h = 0;
    let digits = 0;
    for (; p < e && buf[p] !== 0x3a; p++) {
      const c = buf[p]! - 0x30;
      if (c < 0 || c > 9) return -2;
      h = h * 10 + c;
      digits++;
    }
    if (digits === 0 || p + 6 !== e || buf[p + 3] !== 0x3a) return -2;
    const m1 = buf[p + 1]! - 0x30;
    const m2 = buf[p + 2]! - 0x30;
    const s1 = buf[p + 4]! - 0x30;
    const s2 = buf[p + 5]! - 0x30;
    if (m1 < 0 || m1 > 5 || m2 < 0 || m2 > 9 || s1 < 0 || s1 > 5 || s2 < 0 || s2 > 9) return -2;
    return h * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2;
  }

  /** Whether field `i` holds exactly the same bytes as `other` (no allocation). */
  sameBytes(i: number, other: Buffer, otherLength: number): boolean {
    const s = this.starts[i]!;
    const len = this.ends[i]! - s;
    if (len !== otherLength || this.flags[i]! & FIELD_QUOTED) return false;
    const buf = this.buf;
    for (let k = 0; k < len; k++) if (buf[s + k] !== other[k]) return false;
    return true;
  }

  /** Copy the bytes of field `i` into `target` (grown as needed); returns the target and length. */
  copyBytes(i: number, target: Buffer): [Buffer, number] {
    const s = this.starts[i]!;
    const len = Math.max(0, this.ends[i]! - s);
    if (target.length < len) target = Buffer.alloc(len * 2);
    this.buf.copy(target, 0, s, s + len);
    return [target, len];
  }

  growFields(): void {
    const n = this.starts.length * 2;
    const starts = new Int32Array(n);
    starts.set(this.starts);
    const ends = new Int32Array(n);
    ends.set(this.ends);
    const flags = new Uint8Array(n);
    flags.set(this.flags);
    this.starts = starts;
    this.ends = ends;
    this.flags = flags;
  }
}

/**
 * Feed it chunks; it calls `onRow` for every complete row. The first row (the header) is given as
 * well; callers usually read it with `headerNames()`.
 */
export class CsvReader {
  private pending: Buffer | null = null;
  /** Reused buffer where an incomplete last row is joined with the next chunk. */
  private work: Buffer = Buffer.alloc(0);
  private lineNo = 1;
  private first = true;
  private readonly row = new CsvRow();
  /** Bytes examined by the row parser (a row split over chunks is examined again): for tests of linearity. */
  scannedBytes = 0;

  /** `maxLineBytes`: a row longer than this throws a LineTooLong (with its line number). */
  constructor(
    private readonly onRow: (row: CsvRow) => void,
    private readonly maxLineBytes = Infinity,
  ) {}

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.pending) {
      // a row cannot end in a chunk without a line end (unless the row waits on a final CR): keep
      // it whole, without parsing it again
      const waiting = !this.first && this.pending[this.pending.length - 1] !== CR && chunk.indexOf(LF) < 0 && chunk.indexOf(CR) < 0;
      const n = this.pending.length + chunk.length;
      if (this.work.length < n) {
        const bigger = Buffer.allocUnsafe(Math.max(n, this.work.length * 2));
        this.pending.copy(bigger, 0);
        this.work = bigger;
      } else if (this.pending.buffer !== this.work.buffer || this.pending.byteOffset !== this.work.byteOffset) {
        // copyWithin semantics: the pending bytes may already live inside `work`.
        this.pending.copy(this.work, 0);
      }
      chunk.copy(this.work, this.pending.length);
      buf = this.work.subarray(0, n);
      this.pending = null;
      if (waiting) {
        this.keepPending(buf);
        return;
      }
    }
    let pos = 0;
    if (this.first) {
      if (buf.length < 3) {
        this.pending = buf;
        return;
      }
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
      this.first = false;
    }
    const consumed = this.parseRows(buf, pos, false);
    if (consumed < buf.length) {
      // Keep the incomplete row; it must not point into `chunk`, which the caller may reuse.
      const rest = buf.subarray(consumed);
      if (buf === chunk) {
        if (this.work.length < rest.length) this.work = Buffer.allocUnsafe(Math.max(rest.length, 1 << 16));
        rest.copy(this.work, 0);
        this.pending = this.work.subarray(0, rest.length);
      } else {
        this.work.copyWithin(0, consumed, buf.length);
        this.pending = this.work.subarray(0, rest.length);
      }
      this.keepPending(this.pending);
    }
  }

  /** Keep `rest` (an incomplete row, in `work`) for the next chunk, if it is not too long already. */
  private keepPending(rest: Buffer): void {
    if (rest.length > this.maxLineBytes) throw new LineTooLong(this.lineNo, this.maxLineBytes);
    this.pending = rest;
  }

  /** Flush the last row when the input has no final newline. */
  end(): void {
    if (this.first && this.pending) {
      const buf = this.pending;
      this.pending = null;
      this.first = false;
      const pos = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
      this.parseRows(buf, pos, true);
      return;
    }
    if (this.pending && this.pending.length > 0) {
      const buf = this.pending;
      this.pending = null;
      this.parseRows(buf, 0, true);
    }
  }

  /** Parse complete rows from `pos`; returns the offset of the first byte not consumed. */
  private parseRows(buf: Buffer, pos: number, final: boolean): number {
    const consumed = this.parseFrom(buf, pos, final);
    // an incomplete row is examined to its end, then again with the next chunk
    this.scannedBytes += buf.length - pos;
    return consumed;
  }

  private parseFrom(buf: Buffer, pos: number, final: boolean): number {
    const row = this.row;
    row.buf = buf;
    const n = buf.length;
    while (pos < n) {
      const rowStart = pos;
      const rowLine = this.lineNo;
      let newlinesInQuotes = 0;
      let field = 0;
      let complete = false;
      // One iteration per field.
      for (;;) {
        if (field >= row.starts.length) row.growFields();
        // Skip leading spaces.
        while (pos < n && (buf[pos] === SPACE || buf[pos] === TAB)) pos++;
        if (pos < n && buf[pos] === QUOTE) {
          pos++;
          const s = pos;
          let closed = false;
          while (pos < n) {
            const c = buf[pos]!;
            if (c === QUOTE) {
              if (pos + 1 < n && buf[pos + 1] === QUOTE) {
                pos += 2;
                continue;
              }
              if (pos + 1 >= n && !final) break; // cannot tell yet whether this quote is doubled
              closed = true;
              break;
            }
            if (c === LF) newlinesInQuotes++;
            pos++;
          }
          if (!closed) {
            if (!final) return rowStart;
            // Unterminated quote at end of input: take the rest as the field.
            row.starts[field] = s;
            row.ends[field] = n;
            row.flags[field] = FIELD_QUOTED;
            field++;
            pos = n;
            complete = true;
            break;
          }
          row.starts[field] = s;
          row.ends[field] = pos;
          row.flags[field] = FIELD_QUOTED;
          pos++; // closing quote
          // Skip anything up to the separator (spaces, or stray characters after a closing quote).
          while (pos < n && buf[pos] !== COMMA && buf[pos] !== LF && buf[pos] !== CR) pos++;
        } else {
          const s = pos;
          while (pos < n) {
            const c = buf[pos]!;
            if (c === COMMA || c === LF || c === CR) break;
            pos++;
          }
          let e = pos;
          while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
          row.starts[field] = s;
          row.ends[field] = e;
          row.flags[field] = 0;
        }
        field++;
        if (pos >= n) {
          if (!final) return rowStart;
          complete = true;
          break;
        }
        const c = buf[pos]!;
        if (c === COMMA) {
          pos++;
          continue;
        }
        // End of line: CR, LF or CRLF.
        if (c === CR) {
          if (pos + 1 >= n && !final) return rowStart;
          pos++;
          if (pos < n && buf[pos] === LF) pos++;
        } else pos++;
        complete = true;
        break;
      }
      if (!complete) return rowStart;
      if (pos - rowStart > this.maxLineBytes) throw new LineTooLong(this.lineNo, this.maxLineBytes);
      this.lineNo += 1 + newlinesInQuotes;
      // An empty line has one empty field: skip it.
      if (field === 1 && row.ends[0]! <= row.starts[0]! && !(row.flags[0]! & FIELD_QUOTED)) continue;
      row.fieldCount = field;
      row.line = rowLine;
      this.onRow(row);
    }
    return pos;
  }
}

/** A row longer than the reader's limit. */
export class LineTooLong extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
    this.name = 'LineTooLong';
  }
}

/** Header names of a row (trimmed, lower-cased is NOT applied: GTFS names are case-sensitive). */
export function headerNames(row: CsvRow): string[] {
  const names: string[] = [];
  for (let i = 0; i < row.fieldCount; i++) names.push(row.text(i).trim());
  return names;
}
