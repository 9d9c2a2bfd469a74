/**
 * A small zip writer for tests: deflated entries streamed from chunks, so that an archive whose
 * entries inflate to gigabytes (a zip bomb) is written without holding them in memory.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The entry's bytes, in chunks (a generator may yield the same buffer many times). */
  chunks: Iterable<Buffer>;
}

/** Write `entries` to `file` as a zip archive (deflate, no zip64: each entry below 4 GB stored and inflated). */
export async function writeZip(file: string, entries: ZipEntry[]): Promise<void> {
  const out = createWriteStream(file);
  let offset = 0;
  const write = async (b: Buffer) => {
    offset += b.length;
    if (!out.write(b)) await once(out, 'drain');
  };
  const central: Buffer[] = [];
  for (const entry of entries) {
    // deflate first (into memory: the compressed bytes are small), counting the size and CRC
    const deflate = createDeflateRaw({ level: 9 });
    const compressed: Buffer[] = [];
    deflate.on('data', (c: Buffer) => compressed.push(c));
    let size = 0;
    let crc = 0;
    for (const chunk of entry.chunks) {
      size += chunk.length;
      if (chunk.length > 0) crc = crc32(chunk, crc);
      if (!deflate.write(chunk)) await once(deflate, 'drain');
    }
    deflate.end();
    await once(deflate, 'end');
    const data = Buffer.concat(compressed);
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc >>> 0, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(size >>> 0, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    await write(local);
    await write(name);
    await write(data);
  }
  const centralAt = offset;
  for (const b of central) await write(b);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - centralAt, 12);
  end.writeUInt32LE(centralAt, 16);
  await write(end);
  out.end();
  await once(out, 'finish');
}

/** `bytes` in total of `fill`, yielded in chunks of 1 MB (one buffer reused). */
export function* repeated(fill: string | number, bytes: number): Generator<Buffer> {
  const chunk = typeof fill === 'number' ? Buffer.alloc(1 << 20, fill) : Buffer.from(fill.repeat(Math.ceil((1 << 20) / fill.length)).slice(0, 1 << 20));
  for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}
