/**
 * The snapshot file: compiled data written once by `navette build` and read back at start-up with
 * one read into shared memory.
 *
 *   "NAVETTE-SNAPSHOT"       16 bytes
 *   format version           uint32, little-endian
 *   meta length              uint32
 *   checksum                 uint32: CRC-32 of the format, the meta length and every byte after the
 *                            checksum, to the end of the file
 *   meta                     JSON: what the file was built from, the lengths below
 *   description              JSON (snapshot-codec.ts)
 *   padding to 8 bytes
 *   data block               the typed arrays' bytes
 *
 * The format version and the meta are read first, so a file of another format or built from other
 * data is refused before the rest is read. Every length is checked against the file's size before
 * it is used, and the checksum covers the whole file but the magic (which is compared). The
 * checksum catches damage, not a crafted file (whoever writes one computes it too): the JSON may
 * hold no `__proto__` key, the description is decoded strictly (snapshot-codec.ts), and the reader
 * checks the tree against what it reads before using any of it (for a coverage,
 * service/snapshot-schema.ts). Whatever is wrong with a file, damaged or crafted, it is refused
 * with a SnapshotError, the ordinary refusal after which the coverage loads from its sources.
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { decodeTree, encodeTree, prototypeKeyPath } from './snapshot-codec.js';

/**
 * Bump when the layout of the compiled data changes, or what it means (3: stops linked after the
 * small islands are removed, transfers along the streets only; 4: the street graph's link
 * lattices; 5: the point sets; 6: motor roads closed to walkers and cyclists; 7: the lattice
 * squares' extra candidates; 8: the segment grid without its copy of the segments' ends): older
 * files are then refused and rebuilt.
 */
export const SNAPSHOT_FORMAT = 8;

const MAGIC = Buffer.from('NAVETTE-SNAPSHOT', 'latin1');
/** magic, format, meta length, checksum */
const PREFIX_BYTES = MAGIC.length + 12;
/** where the checksummed bytes of the prefix start (the format) and the checksum itself */
const FORMAT_AT = MAGIC.length;
const CHECKSUM_AT = MAGIC.length + 8;

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
}

/**
 * Write `tree` with `meta` to `file`, through a temporary file renamed over it: a reader sees the
 * old file or the new one, never half of one. Returns the file's size in bytes.
 */
export async function writeSnapshotFile(file: string, meta: object, tree: unknown): Promise<number> {
  const encoded = encodeTree(tree);
  const description = Buffer.from(JSON.stringify(encoded.description), 'utf8');
  const layout: Layout = { descriptionBytes: description.length, blockBytes: encoded.byteLength };
  const metaBytes = Buffer.from(JSON.stringify({ ...meta, ...layout }), 'utf8');
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix);
  prefix.writeUInt32LE(SNAPSHOT_FORMAT, FORMAT_AT);
  prefix.writeUInt32LE(metaBytes.length, FORMAT_AT + 4);
  const headBytes = PREFIX_BYTES + metaBytes.length + description.length;
  const padding = Buffer.alloc((8 - (headBytes % 8)) % 8);
  const checksummed: Uint8Array[] = [prefix.subarray(FORMAT_AT, CHECKSUM_AT), metaBytes, description, padding, ...encoded.chunks];
  let checksum = 0;
  // (zlib.crc32 of an empty array loses the running value)
  for (const part of checksummed) if (part.byteLength > 0) checksum = crc32(part, checksum);
  prefix.writeUInt32LE(checksum, CHECKSUM_AT);

  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    const parts: Uint8Array[] = [prefix, ...checksummed.slice(1)];
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
    return await readOpened(handle, file, accept);
  } catch (e) {
    // whatever a damaged or crafted file makes go wrong is a refusal, never a failure of the load
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`${file} is damaged: ${(e as Error).message}`);
  } finally {
    await handle.close();
  }
}

async function readOpened<M>(handle: FileHandle, file: string, accept: (meta: M) => void | Promise<void>): Promise<{ meta: M; tree: unknown }> {
  const size = (await handle.stat()).size;
  const prefix = Buffer.alloc(PREFIX_BYTES);
  await readExactly(handle, prefix.subarray(0, Math.min(size, PREFIX_BYTES)), 0, file, size);
  if (size < MAGIC.length || !prefix.subarray(0, MAGIC.length).equals(MAGIC)) throw new SnapshotError(`${file} is not a Navette snapshot`);
  if (size < PREFIX_BYTES) throw new SnapshotError(`${file} is damaged: it ends at byte ${size}, before its header does`);
  const format = prefix.readUInt32LE(FORMAT_AT);
  if (format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(`${file} has snapshot format ${format}, this version of Navette reads format ${SNAPSHOT_FORMAT}`);
  }
  const metaBytes = prefix.readUInt32LE(FORMAT_AT + 4);
  if (metaBytes > size - PREFIX_BYTES) throw new SnapshotError(`${file} is damaged: its header announces ${metaBytes} bytes of meta in a file of ${size}`);
  const metaBuffer = Buffer.alloc(metaBytes);
  await readExactly(handle, metaBuffer, PREFIX_BYTES, file, size);
  let meta: M & Layout;
  try {
    meta = JSON.parse(metaBuffer.toString('utf8')) as M & Layout;
  } catch {
    throw new SnapshotError(`${file} is damaged: its header is not readable`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new SnapshotError(`${file} is damaged: its header is not readable`);
  const prototypeKey = prototypeKeyPath(meta);
  if (prototypeKey !== undefined) throw new SnapshotError(`${file} is damaged: its header holds the key meta${prototypeKey}`);
  const { descriptionBytes, blockBytes } = meta;
  const descriptionAt = PREFIX_BYTES + metaBytes;
  if (!isLength(descriptionBytes) || !isLength(blockBytes) || descriptionBytes > size - descriptionAt) {
    throw new SnapshotError(`${file} is damaged: its header announces lengths that do not fit in its ${size} bytes`);
  }
  await accept(meta);
  const blockAt = descriptionAt + descriptionBytes + ((8 - ((descriptionAt + descriptionBytes) % 8)) % 8);
  if (blockAt + blockBytes !== size) throw new SnapshotError(`${file} is damaged: ${size} bytes where its header announces ${blockAt + blockBytes}`);
  const between = Buffer.alloc(blockAt - descriptionAt);
  await readExactly(handle, between, descriptionAt, file, size);
  const block = new SharedArrayBuffer(blockBytes);
  await readExactly(handle, new Uint8Array(block), blockAt, file, size);
  let checksum = crc32(prefix.subarray(FORMAT_AT, CHECKSUM_AT));
  for (const part of [metaBuffer, between, new Uint8Array(block)]) if (part.byteLength > 0) checksum = crc32(part, checksum);
  if (checksum !== prefix.readUInt32LE(CHECKSUM_AT)) throw new SnapshotError(`${file} is damaged: its bytes do not match its checksum`);
  let tree: unknown;
  try {
    tree = decodeTree(JSON.parse(between.subarray(0, descriptionBytes).toString('utf8')), block);
  } catch (e) {
    throw new SnapshotError(`${file} is damaged: ${(e as Error).message}`);
  }
  return { meta, tree };
}

/** A length a header may announce: a whole number of bytes, not negative. */
const isLength = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

async function readExactly(handle: FileHandle, into: Uint8Array, position: number, file: string, size: number): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    // one read returns at most about 2 GB
    const { bytesRead } = await handle.read(into, done, Math.min(into.byteLength - done, 1 << 30), position + done);
    if (bytesRead === 0) throw new SnapshotError(`${file} is damaged: it ends at byte ${size}, before its data does`);
    done += bytesRead;
  }
}
