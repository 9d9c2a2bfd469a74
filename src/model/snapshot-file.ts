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
import { blockCuts, decodeTree, encodeTree, prototypeKeyPath } from './snapshot-codec.js';

/**
 * Bump when the layout of the compiled data changes, or what it means (3: stops linked after the
 * small islands are removed, transfers along the streets only; 4: the street graph's link
 * lattices; 5: the point sets; 6: motor roads closed to walkers and cyclists; 7: the lattice
 * squares' extra candidates; 8: the segment grid without its copy of the segments' ends; 9: the
 * connections pruned at the default walking speed; 10: the link lattices stored sparsely, at a
 * city's step however large the extract; 11: a region's or country's projection conformal, its
 * lengths on the ground): older files are then refused and rebuilt.
 */
export const SNAPSHOT_FORMAT = 11;

const MAGIC = Buffer.from('NAVETTE-SNAPSHOT', 'latin1');
/** magic, format, meta length, checksum */
const PREFIX_BYTES = MAGIC.length + 12;
/** where the checksummed bytes of the prefix start (the format) and the checksum itself */
const FORMAT_AT = MAGIC.length;
const CHECKSUM_AT = MAGIC.length + 8;
/**
 * The most bytes read, or checksummed, at once: one read returns at most about 2 GB, a typed array
 * holds at most 2^32 elements, and zlib's crc32 of 2^32 bytes or more is wrong (it returns 0). A
 * country's data block is larger; it is read and checksummed in pieces of this size.
 */
export const IO_CHUNK_BYTES = 1 << 30;

/** The CRC-32 of `parts` one after the other, from `checksum`, in pieces of at most `chunk` bytes. */
export function checksumOf(parts: readonly Uint8Array[], checksum = 0, chunk = IO_CHUNK_BYTES): number {
  for (const part of parts) {
    // (zlib.crc32 of an empty array loses the running value)
    for (let at = 0; at < part.byteLength; at += chunk) checksum = crc32(part.subarray(at, Math.min(part.byteLength, at + chunk)), checksum);
  }
  return checksum;
}

/**
 * Views of at most `chunk` bytes covering `length` bytes of `buffer` from `offset` (all of it by
 * default), in order: a whole-buffer view fails past 2^32 bytes.
 */
export function chunkViews(buffer: ArrayBufferLike, chunk = IO_CHUNK_BYTES, offset = 0, length = buffer.byteLength - offset): Uint8Array[] {
  const views: Uint8Array[] = [];
  for (let at = 0; at < length; at += chunk) views.push(new Uint8Array(buffer, offset + at, Math.min(chunk, length - at)));
  return views;
}

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
 * old file or the new one, never half of one. Returns the file's size in bytes. `chunkBytes`: the
 * pieces written and checksummed at once (smaller in the tests, to cross many pieces in a small file).
 */
export async function writeSnapshotFile(file: string, meta: object, tree: unknown, chunkBytes = IO_CHUNK_BYTES): Promise<number> {
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
  prefix.writeUInt32LE(checksumOf(checksummed, 0, chunkBytes), CHECKSUM_AT);

  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await writeAll(handle, [prefix, ...checksummed.slice(1)], chunkBytes);
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
 * SnapshotError to refuse it. The typed arrays of the tree are views on SharedArrayBuffers of at
 * most `chunkBytes` each (but for an array longer alone), cut between arrays, read and checksummed
 * in pieces of `chunkBytes` (as `writeSnapshotFile`'s).
 */
export async function readSnapshotFile<M>(file: string, accept: (meta: M) => void | Promise<void>, chunkBytes = IO_CHUNK_BYTES): Promise<{ meta: M; tree: unknown }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    throw new SnapshotError(`cannot open ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return await readOpened(handle, file, accept, chunkBytes);
  } catch (e) {
    // whatever a damaged or crafted file makes go wrong is a refusal, never a failure of the load
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`${file} is damaged: ${(e as Error).message}`);
  } finally {
    await handle.close();
  }
}

async function readOpened<M>(handle: FileHandle, file: string, accept: (meta: M) => void | Promise<void>, chunkBytes: number): Promise<{ meta: M; tree: unknown }> {
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
  let description: unknown;
  try {
    description = JSON.parse(between.subarray(0, descriptionBytes).toString('utf8'));
  } catch {
    // refused below: by the checksum, or else as the description decodeTree cannot read
  }
  const starts = blockCuts(description, blockBytes, chunkBytes);
  const buffers = starts.map((start, k) => new SharedArrayBuffer((starts[k + 1] ?? blockBytes) - start));
  const parts = buffers.flatMap((buffer) => chunkViews(buffer, chunkBytes));
  // each piece checksummed while the next one is read (reads run on libuv's threads): on a country's
  // 9 GB the checksum then costs a piece's time, not 3 s of its own
  let checksum = checksumOf([prefix.subarray(FORMAT_AT, CHECKSUM_AT), metaBuffer, between], 0, chunkBytes);
  let at = blockAt;
  for (let k = 0; k < parts.length; k++) {
    const read = readExactly(handle, parts[k]!, at, file, size);
    at += parts[k]!.byteLength;
    if (k > 0) checksum = checksumOf([parts[k - 1]!], checksum, chunkBytes);
    await read;
  }
  if (parts.length > 0) checksum = checksumOf([parts[parts.length - 1]!], checksum, chunkBytes);
  if (checksum !== prefix.readUInt32LE(CHECKSUM_AT)) throw new SnapshotError(`${file} is damaged: its bytes do not match its checksum`);
  let tree: unknown;
  try {
    if (description === undefined) throw new Error('its description is not readable');
    tree = decodeTree(description, { starts, buffers, byteLength: blockBytes });
  } catch (e) {
    throw new SnapshotError(`${file} is damaged: ${(e as Error).message}`);
  }
  return { meta, tree };
}

/** writev's buffers per call, at most (it takes a bounded number). */
const WRITEV_BUFFERS = 512;

/**
 * `parts` written one after the other at the file's position, in batches of at most WRITEV_BUFFERS
 * buffers and `chunkBytes` bytes; a short write (the system writes at most about 2 GB at once)
 * is finished piece by piece.
 */
async function writeAll(handle: FileHandle, parts: readonly Uint8Array[], chunkBytes: number): Promise<void> {
  const pieces = parts.flatMap((part) => chunkViews(part.buffer, chunkBytes, part.byteOffset, part.byteLength));
  for (let i = 0; i < pieces.length; ) {
    let j = i;
    let bytes = 0;
    while (j < pieces.length && j - i < WRITEV_BUFFERS && (j === i || bytes + pieces[j]!.byteLength <= chunkBytes)) bytes += pieces[j++]!.byteLength;
    const batch = pieces.slice(i, j);
    let written = (await handle.writev(batch)).bytesWritten;
    for (const piece of batch) {
      if (written >= piece.byteLength) {
        written -= piece.byteLength;
        continue;
      }
      let done = written;
      written = 0;
      while (done < piece.byteLength) done += (await handle.write(piece, done, piece.byteLength - done)).bytesWritten;
    }
    i = j;
  }
}

/** A length a header may announce: a whole number of bytes, not negative. */
const isLength = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

async function readExactly(handle: FileHandle, into: Uint8Array, position: number, file: string, size: number): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await handle.read(into, done, Math.min(into.byteLength - done, IO_CHUNK_BYTES), position + done);
    if (bytesRead === 0) throw new SnapshotError(`${file} is damaged: it ends at byte ${size}, before its data does`);
    done += bytesRead;
  }
}
