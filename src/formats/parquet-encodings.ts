/**
 * Parquet's value encodings, written from typed arrays into a growing byte buffer: the
 * RLE/bit-packed hybrid (dictionary indices, definition levels), DELTA_BINARY_PACKED (int32) and
 * PLAIN (doubles, byte arrays). The layouts are those of the Parquet format's Encodings.md; a table
 * writer (parquet-table.ts) puts them in pages.
 *
 * Written for speed on whole-city matrices: no value is boxed, no array is allocated per value, the
 * buffers are reused from one page to the next.
 */

/** A growing byte buffer, reused: `length` is reset to 0 for the next page. */
export class ByteSink {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Room for `n` more bytes. */
  ensure(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(v: number): void {
    this.ensure(1);
    this.bytes[this.length++] = v;
  }

  /** An unsigned LEB128 varint, v < 2^32. */
  varint(v: number): void {
    this.ensure(5);
    const b = this.bytes;
    while (v > 0x7f) {
      b[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.length++] = v;
  }

  /** A signed int32 as a zigzag varint. */
  zigzag(v: number): void {
    this.varint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  int32le(v: number): void {
    this.ensure(4);
    const b = this.bytes;
    b[this.length++] = v & 0xff;
    b[this.length++] = (v >>> 8) & 0xff;
    b[this.length++] = (v >>> 16) & 0xff;
    b[this.length++] = (v >>> 24) & 0xff;
  }

  append(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written (a view, valid until the next write or reset). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * Bit-pack values[from, from + count) at `width` bits each, least significant bit first, count a
 * multiple of 8; positions at or past `end` are written as 0 (the last group's padding).
 */
function packBits(sink: ByteSink, values: ArrayLike<number>, from: number, count: number, end: number, width: number): void {
  sink.ensure((count * width) >>> 3);
  const b = sink.bytes;
  let at = sink.length;
  let acc = 0;
  let bits = 0;
  const last = Math.min(from + count, end);
  if (width <= 24) {
    // bits < 8 between values, so acc stays below 2^31: integer shifts are exact
    for (let i = from; i < last; i++) {
      acc |= (values[i]! >>> 0) << bits;
      bits += width;
      while (bits >= 8) {
        b[at++] = acc & 0xff;
        acc >>>= 8;
        bits -= 8;
      }
    }
  } else {
    // up to 32 bits a value: the accumulator needs more than 32 bits, so it is a double
    for (let i = from; i < last; i++) {
      acc += (values[i]! >>> 0) * 2 ** bits;
      bits += width;
      while (bits >= 8) {
        b[at++] = acc % 256;
        acc = Math.floor(acc / 256);
        bits -= 8;
      }
    }
  }
  // padding values are 0: their bits are the accumulator's remaining ones, then zeros
  const totalBytes = (count * width) >>> 3;
  const startAt = sink.length;
  if (bits > 0) {
    b[at++] = acc & 0xff;
  }
  while (at < startAt + totalBytes) b[at++] = 0;
  sink.length = at;
}

/** Bit-packed runs hold at most this many groups of 8: the one-byte run header every reader takes. */
const MAX_BIT_PACKED_GROUPS = 63;

/** True if values[i, i + 8) exist and are equal: worth a repeated run. */
function repeatsAhead(values: ArrayLike<number>, i: number, count: number): boolean {
  if (i + 8 > count) return false;
  const v = values[i];
  for (let k = i + 1; k < i + 8; k++) if (values[k] !== v) return false;
  return true;
}

/**
 * values[0, count) in the RLE/bit-packed hybrid at `width` bits (1 to 32): runs of 8 or more equal
 * values repeated, the rest bit-packed in groups of 8.
 */
export function writeRleHybrid(sink: ByteSink, values: ArrayLike<number>, count: number, width: number): void {
  const valueBytes = (width + 7) >>> 3;
  let i = 0;
  while (i < count) {
    const v = values[i]!;
    let j = i + 1;
    while (j < count && values[j] === v) j++;
    if (j - i >= 8) {
      sink.varint((j - i) * 2);
      sink.ensure(valueBytes);
      for (let k = 0; k < valueBytes; k++) sink.bytes[sink.length++] = (v >>> (8 * k)) & 0xff;
      i = j;
      continue;
    }
    const start = i;
    let groups = 0;
    do {
      groups++;
      i += 8;
    } while (i < count && groups < MAX_BIT_PACKED_GROUPS && !repeatsAhead(values, i, count));
    sink.varint(groups * 2 + 1);
    packBits(sink, values, start, groups * 8, count, width);
  }
}

/** The bits an unsigned value needs (0 for 0). */
export const bitWidth = (max: number) => 32 - Math.clz32(max);

/** DELTA_BINARY_PACKED's block: 128 values in 4 miniblocks of 32. */
const BLOCK = 128;
const MINIBLOCKS = 4;
const MINIBLOCK = BLOCK / MINIBLOCKS;
const blockDeltas = new Int32Array(BLOCK);
const blockOffsets = new Uint32Array(BLOCK);
const miniblockWidths = new Uint8Array(MINIBLOCKS);

/** values[0, count) as DELTA_BINARY_PACKED int32: deltas wrap as int32 arithmetic does, as readers undo them. */
export function writeDeltaBinaryPacked(sink: ByteSink, values: Int32Array, count: number): void {
  sink.varint(BLOCK);
  sink.varint(MINIBLOCKS);
  sink.varint(count);
  sink.zigzag(count > 0 ? values[0]! : 0);
  for (let from = 1; from < count; from += BLOCK) {
    const n = Math.min(BLOCK, count - from);
    let min = 0x7fffffff;
    for (let k = 0; k < n; k++) {
      const d = (values[from + k]! - values[from + k - 1]!) | 0;
      blockDeltas[k] = d;
      if (d < min) min = d;
    }
    for (let k = 0; k < n; k++) blockOffsets[k] = (blockDeltas[k]! - min) >>> 0;
    sink.zigzag(min);
    const used = Math.ceil(n / MINIBLOCK);
    const widths = miniblockWidths.fill(0);
    for (let m = 0; m < used; m++) {
      let or = 0;
      for (let k = m * MINIBLOCK; k < Math.min(n, (m + 1) * MINIBLOCK); k++) or |= blockOffsets[k]!;
      widths[m] = bitWidth(or >>> 0);
    }
    sink.ensure(MINIBLOCKS);
    for (let m = 0; m < MINIBLOCKS; m++) sink.bytes[sink.length++] = widths[m]!;
    // the miniblocks past the last value are not written (their widths are 0)
    for (let m = 0; m < used; m++) packBits(sink, blockOffsets, m * MINIBLOCK, MINIBLOCK, n, widths[m]!);
  }
}

/** Doubles as PLAIN: 8 bytes each, little-endian (the byte order of every platform Node runs on). */
export function writePlainDoubles(sink: ByteSink, values: Float64Array): void {
  sink.append(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

/** A byte array as PLAIN: its length in 4 bytes, then its bytes. */
export function writePlainBytes(sink: ByteSink, bytes: Uint8Array): void {
  sink.int32le(bytes.length);
  sink.append(bytes);
}
