/**
 * A small zip writer for tests and the benches' generated feeds: deflated entries streamed from
 * chunks, so that an archive whose entries inflate to gigabytes (a zip bomb) is written without
 * holding them in memory. Only each entry's compressed bytes are held, until its local header (which
 * carries their size and CRC) is written before them. No timestamps: the same entries give the same
 * bytes.
 */
import assert from 'node:assert/strict';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The entry's bytes, in chunks (a generator may yield the same buffer many times). */
  chunks: Iterable<Buffer>;
}

/** Hands an entry's bytes to the archive; awaiting it waits while the compressor is behind. */
export type ZipChunkWriter = (chunk: Buffer) => Promise<void>;

/** Without zip64, an entry's sizes and the archive's offsets are 32-bit. */
const ZIP32_LIMIT = 2 ** 32;

/** A zip archive written entry by entry (deflate, no zip64: each entry below 4 GB stored and inflated). */
export class ZipWriter {
  private readonly out: WriteStream;
  private offset = 0;
  private readonly central: Buffer[] = [];
  private entries = 0;

  /** `level`: zlib's deflate level (9 packs repeated test bytes tightest; 6 is zlib's default trade-off). */
  constructor(
    file: string,
    private readonly level = 9,
  ) {
    this.out = createWriteStream(file);
  }

  /** An entry whose bytes `produce` hands to its writer, in order. */
  async entry(name: string, produce: (write: ZipChunkWriter) => Promise<void> | void): Promise<void> {
    // deflate first (into memory: the compressed bytes are small), counting the size and CRC
    const deflate = createDeflateRaw({ level: this.level });
    const compressed: Buffer[] = [];
    deflate.on('data', (c: Buffer) => compressed.push(c));
    let size = 0;
    let crc = 0;
    await produce(async (chunk) => {
      size += chunk.length;
      // (zlib.crc32 of an empty buffer loses the running value)
      if (chunk.length > 0) crc = crc32(chunk, crc);
      if (!deflate.write(chunk)) await once(deflate, 'drain');
    });
    deflate.end();
    await once(deflate, 'end');
    const data = Buffer.concat(compressed);
    assert.ok(size < ZIP32_LIMIT && this.offset + data.length < ZIP32_LIMIT, `${name}: an entry or an archive past 4 GB needs zip64, which this writer does not write`);
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(fileName.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc >>> 0, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(size >>> 0, 24);
    header.writeUInt16LE(fileName.length, 28);
    header.writeUInt32LE(this.offset, 42);
    this.central.push(header, fileName);
    this.entries++;
    await this.write(local);
    await this.write(fileName);
    await this.write(data);
  }

  /** The central directory and its end record; the file is complete when this resolves. */
  async close(): Promise<void> {
    const centralAt = this.offset;
    for (const b of this.central) await this.write(b);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries, 8);
    end.writeUInt16LE(this.entries, 10);
    end.writeUInt32LE(this.offset - centralAt, 12);
    end.writeUInt32LE(centralAt, 16);
    await this.write(end);
    this.out.end();
    await once(this.out, 'finish');
  }

  private async write(b: Buffer): Promise<void> {
    this.offset += b.length;
    if (!this.out.write(b)) await once(this.out, 'drain');
  }
}

/** Write `entries` to `file` as a zip archive. */
export async function writeZip(file: string, entries: ZipEntry[]): Promise<void> {
  const zip = new ZipWriter(file);
  for (const entry of entries) {
    await zip.entry(entry.name, async (write) => {
      for (const chunk of entry.chunks) await write(chunk);
    });
  }
  await zip.close();
}

/** `bytes` in total of `fill`, yielded in chunks of 1 MB (one buffer reused). */
export function* repeated(fill: string | number, bytes: number): Generator<Buffer> {
  const chunk = typeof fill === 'number' ? Buffer.alloc(1 << 20, fill) : Buffer.from(fill.repeat(Math.ceil((1 << 20) / fill.length)).slice(0, 1 << 20));
  for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}
