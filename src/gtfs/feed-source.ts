/**
 * A GTFS feed on disk: a zip archive or a folder. Gives the list of its files and streams a file's
 * bytes in chunks, without holding a whole file in memory.
 *
 * Zips whose files sit in one sub-folder (a common packaging mistake) are read as if they were at the
 * root. Zips followed by extra bytes (a web page appended by a download portal, say), which `unzip`
 * accepts, are read up to the end of their central directory.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { FeedError } from './load-report.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './read-limits.js';

/** Inflate output chunk size: large chunks keep the parser busy while zlib works in the thread pool. */
const INFLATE_CHUNK = 1 << 20;

export interface FeedSource {
  /** Where the feed comes from, for messages. */
  readonly location: string;
  /** What reading it may cost. */
  readonly limits: ReadLimits;
  /** File names (base names, as in the archive) of the feed. */
  readonly files: ReadonlySet<string>;
  /** Total uncompressed size of a file in bytes (for progress), or 0 when unknown. */
  sizeOf(name: string): number;
  /** Stream a file's bytes to `onChunk`; resolves when the file has been read, rejects (the reading stopped) when `onChunk` throws. */
  read(name: string, onChunk: (chunk: Buffer) => void): Promise<void>;
  close(): void;
}

/** Open a feed from a zip file or a folder. Throws an Error with a clear message when it cannot. */
export async function openFeedSource(location: string, limits: ReadLimits = DEFAULT_READ_LIMITS): Promise<FeedSource> {
  let stat;
  try {
    stat = await fs.stat(location);
  } catch {
    throw new Error(`GTFS feed not found: ${location}`);
  }
  if (stat.isDirectory()) return openFolder(location, limits);
  return openZip(location, limits);
}

async function openFolder(dir: string, limits: ReadLimits): Promise<FeedSource> {
  const names = (await fs.readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  const sizes = new Map<string, number>();
  for (const name of names) sizes.set(name, (await fs.stat(path.join(dir, name))).size);
  return {
    location: dir,
    limits,
    files: new Set(names),
    sizeOf: (name) => sizes.get(name) ?? 0,
    read: (name, onChunk) => streamTo(createReadStream(path.join(dir, name), { highWaterMark: 1 << 18 }), onChunk, (e) => e),
    close: () => {},
  };
}

/**
 * Feed `stream`'s chunks to `onChunk`. Resolves at its end; rejects with what `onChunk` throws, or
 * with `failure(error)` when a stream fails, and then destroys the stream (and `also`, the streams
 * feeding it), so that nothing more is read.
 */
function streamTo(stream: Readable, onChunk: (chunk: Buffer) => void, failure: (e: Error) => Error, also: Readable[] = []): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const s of [stream, ...also]) s.destroy();
      reject(e);
    };
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      try {
        onChunk(chunk);
      } catch (e) {
        fail(e as Error);
      }
    });
    stream.on('end', () => {
      if (!failed) resolve();
    });
    for (const s of [stream, ...also]) s.on('error', (e: Error) => fail(failure(e)));
  });
}

async function openZip(file: string, limits: ReadLimits): Promise<FeedSource> {
  try {
    return await openArchive(file, limits, (done) => yauzl.open(file, { lazyEntries: true, autoClose: false }, done));
  } catch (e) {
    // yauzl refuses bytes after the end-of-central-directory record: retry without them.
    const end = await archiveEnd(file);
    if (end === null) throw e;
    return openArchive(file, limits, (done) => yauzl.fromRandomAccessReader(new FileRangeReader(file), end, { lazyEntries: true, autoClose: false }, done));
  }
}


/**
 * Where the archive really ends when extra bytes follow its end-of-central-directory record (the
 * last record whose comment fits in the file), or null when nothing follows it or none is found.
 */
async function archiveEnd(file: string): Promise<number | null> {
  const handle = await fs.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const tail = Buffer.alloc(Math.min(size, 22 + 0xffff + (1 << 16)));
    const start = size - tail.length;
    await handle.read(tail, 0, tail.length, start);
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) !== 0x06054b50) continue;
      const end = start + i + 22 + tail.readUInt16LE(i + 20);
      if (end <= size) return end < size ? end : null;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** Byte ranges of a file for yauzl, each read by a stream of its own (so there is no descriptor to share). */
class FileRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: string) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return createReadStream(this.file, { start, end: end - 1 });
  }

  override close(callback: (err: Error | null) => void): void {
    callback(null);
  }
}

function openArchive(file: string, limits: ReadLimits, open: (done: (err: Error | null, zip: yauzl.ZipFile) => void) => void): Promise<FeedSource> {
  return new Promise((resolve, reject) => {
    open((err, zip) => {
      if (err || !zip) {
        reject(new Error(`cannot read GTFS zip ${file}: ${err?.message ?? 'unknown error'}`));
        return;
      }
      const entries = new Map<string, yauzl.Entry>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/')) {
          const base = entry.fileName.split('/').pop()!;
          // Prefer the shallowest copy when a name appears twice.
          const previous = entries.get(base);
          if (!previous || previous.fileName.split('/').length > entry.fileName.split('/').length) {
            entries.set(base, entry);
          }
        }
        zip.readEntry();
      });
      zip.on('end', () => {
        resolve({
          location: file,
          limits,
          files: new Set(entries.keys()),
          sizeOf: (name) => entries.get(name)?.uncompressedSize ?? 0,
          read: (name, onChunk) =>
            new Promise<void>((res, rej) => {
              const entry = entries.get(name);
              if (!entry) {
                rej(new Error(`${name} is not in ${file}`));
                return;
              }
              const deflated = entry.compressionMethod === 8;
              zip.openReadStream(entry, deflated ? { decompress: false } : {}, (e, raw) => {
                if (e || !raw) {
                  rej(new Error(`cannot read ${name} in ${file}: ${e?.message ?? 'unknown error'}`));
                  return;
                }
                // the inflated bytes are counted as they come: the header's sizes are the file's word only
                const limit = Math.max(limits.inflateAllowanceBytes, limits.maxInflateRatio * entry.compressedSize);
                let inflated = 0;
                const counted = (chunk: Buffer) => {
                  inflated += chunk.length;
                  if (inflated > limit) throw new FeedError(`${name} in ${file} inflates to more than ${limit} bytes from ${entry.compressedSize} (readLimits: maxInflateRatio ${limits.maxInflateRatio}, inflateAllowanceBytes ${limits.inflateAllowanceBytes}): refused as a zip bomb`);
                  onChunk(chunk);
                };
                const failure = (se: Error) => new Error(`cannot read ${name} in ${file}: ${se.message}`);
                if (!deflated) {
                  streamTo(raw, counted, failure).then(res, rej);
                  return;
                }
                streamTo(raw.pipe(createInflateRaw({ chunkSize: INFLATE_CHUNK })), counted, failure, [raw]).then(res, rej);
              });
            }),
          close: () => zip.close(),
        });
      });
      zip.on('error', (e: Error) => reject(new Error(`cannot read GTFS zip ${file}: ${e.message}`)));
      zip.readEntry();
    });
  });
}
