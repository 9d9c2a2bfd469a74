/**
 * The snapshot file: compiled data written once by `navette build` and read back at start-up with
 * one read into shared memory.
 *
 *   "NAVETTE-SNAPSHOT"       16 bytes
 *   format version           uint32, little-endian
 *   meta length              uint32
 *   meta                     JSON: what the file was built from, the lengths and checksum below
 *   description              JSON (snapshot-codec.ts)
 *   padding to 8 bytes
 *   data block               the typed arrays' bytes
 *
 * The format version and the meta are read first, so a file of another format or built from other
 * data is refused before the rest is read. The data block's CRC-32 catches a damaged file.
 */
import { open, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { decodeTree, encodeTree } from './snapshot-codec.js';

/** Bump when the layout of the compiled data changes: older files are then refused and rebuilt. */
export const SNAPSHOT_FORMAT = 2;

const MAGIC = Buffer.from('NAVETTE-SNAPSHOT', 'latin1');
const PREFIX_BYTES = MAGIC.length + 8;

/** A file that cannot be used as a snapshot: absent, damaged, of another format or from other data. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

interface Layout {
  descriptionBytes: number;
  blockBytes: number;
  blockCrc32: number;
}

/**
 * Write `tree` with `meta` to `file`, through a temporary file renamed over it: a reader sees the
 * old file or the new one, never half of one. Returns the file's size in bytes.
 */
export async function writeSnapshotFile(file: string, meta: object, tree: unknown): Promise<number> {
  const encoded = encodeTree(tree);
  const description = Buffer.from(JSON.stringify(encoded.description), 'utf8');
  let blockCrc32 = 0;
  // (the codec gives no empty chunk: zlib.crc32 of an empty array loses the running value)
  for (const chunk of encoded.chunks) blockCrc32 = crc32(chunk, blockCrc32);
  const layout: Layout = { descriptionBytes: description.length, blockBytes: encoded.byteLength, blockCrc32 };
  const metaBytes = Buffer.from(JSON.stringify({ ...meta, ...layout }), 'utf8');
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix);
  prefix.writeUInt32LE(SNAPSHOT_FORMAT, MAGIC.length);
  prefix.writeUInt32LE(metaBytes.length, MAGIC.length + 4);
  const headBytes = PREFIX_BYTES + metaBytes.length + description.length;
  const padding = Buffer.alloc((8 - (headBytes % 8)) % 8);

  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    const parts: Uint8Array[] = [prefix, metaBytes, description, padding, ...encoded.chunks];
    // writev takes a bounded number of buffers per call
    for (let i = 0; i < parts.length; i += 512) await handle.writev(parts.slice(i, i + 512));
    await handle.sync();
  } catch (e) {
    await handle.close();
    await rm(temporary, { force: true });
    throw e;
  }
  await handle.close();
  await rename(temporary, file);
  return headBytes + padding.length + encoded.byteLength;
}

/**
 * Read a snapshot file. `accept` sees its format's meta before the rest is read and throws a
 * SnapshotError to refuse it. The typed arrays of the tree are views on one SharedArrayBuffer.
 */
export async function readSnapshotFile<M>(file: string, accept: (meta: M) => void | Promise<void>): Promise<{ meta: M; tree: unknown }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    throw new SnapshotError(`cannot open ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const size = (await handle.stat()).size;
    const prefix = Buffer.alloc(PREFIX_BYTES);
    await readExactly(handle, prefix.subarray(0, Math.min(size, PREFIX_BYTES)), 0, file, size);
    if (size < MAGIC.length || !prefix.subarray(0, MAGIC.length).equals(MAGIC)) throw new SnapshotError(`${file} is not a Navette snapshot`);
    if (size < PREFIX_BYTES) throw new SnapshotError(`${file} is damaged: it ends at byte ${size}, before its header does`);
    const format = prefix.readUInt32LE(MAGIC.length);
    if (format !== SNAPSHOT_FORMAT) {
      throw new SnapshotError(`${file} has snapshot format ${format}, this version of Navette reads format ${SNAPSHOT_FORMAT}`);
    }
    const metaBytes = prefix.readUInt32LE(MAGIC.length + 4);
    const metaBuffer = Buffer.alloc(metaBytes);
    await readExactly(handle, metaBuffer, PREFIX_BYTES, file, size);
    let meta: M & Layout;
    try {
      meta = JSON.parse(metaBuffer.toString('utf8')) as M & Layout;
    } catch {
      throw new SnapshotError(`${file} is damaged: its header is not readable`);
    }
    await accept(meta);
    const descriptionAt = PREFIX_BYTES + metaBytes;
    const blockAt = descriptionAt + meta.descriptionBytes + ((8 - ((descriptionAt + meta.descriptionBytes) % 8)) % 8);
    if (blockAt + meta.blockBytes !== size) throw new SnapshotError(`${file} is damaged: ${size} bytes where its header announces ${blockAt + meta.blockBytes}`);
    const description = Buffer.alloc(meta.descriptionBytes);
    await readExactly(handle, description, descriptionAt, file, size);
    const block = new SharedArrayBuffer(meta.blockBytes);
    await readExactly(handle, new Uint8Array(block), blockAt, file, size);
    if (crc32(new Uint8Array(block)) !== meta.blockCrc32) throw new SnapshotError(`${file} is damaged: its data does not match its checksum`);
    let tree: unknown;
    try {
      tree = decodeTree(JSON.parse(description.toString('utf8')), block);
    } catch (e) {
      throw new SnapshotError(`${file} is damaged: ${(e as Error).message}`);
    }
    return { meta, tree };
  } finally {
    await handle.close();
  }
}

async function readExactly(handle: import('node:fs/promises').FileHandle, into: Uint8Array, position: number, file: string, size: number): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    // one read returns at most about 2 GB
    const { bytesRead } = await handle.read(into, done, Math.min(into.byteLength - done, 1 << 30), position + done);
    if (bytesRead === 0) throw new SnapshotError(`${file} is damaged: it ends at byte ${size}, before its data does`);
    done += bytesRead;
  }
}
