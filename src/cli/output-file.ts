/**
 * A command's output file, written whole or not at all, by one run at a time:
 *
 * - the run holds `FILE.lock` (its process id) while it writes: a second run asked to write the
 *   same FILE is refused while the first one lives (a lock whose process is gone is taken over);
 * - the text goes to a temporary file of the run's own (`FILE.<pid>-<random>.partial`, gzipped when
 *   FILE ends in .gz), renamed to FILE once complete: the rename never publishes another run's
 *   bytes, nor half of them;
 * - on failure, and on SIGINT or SIGTERM (`abandonOnSignals`), what the run wrote is removed.
 */
import { accessSync, constants, createWriteStream, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, closeSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config.js';
import { once } from 'node:events';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createGzip, type Gzip } from 'node:zlib';

/** A FILE another run is writing (its lock names a living process). */
export class OutputBusy extends Error {}

/**
 * FILE cannot be written (its folder missing or read-only, a disk full…): said of FILE as the user
 * named it, never of the lock or the partial file the run writes beside it.
 */
export class OutputUnwritable extends Error {}

/** What went wrong writing FILE, in the user's terms. */
function unwritable(path: string, e: unknown): OutputUnwritable {
  const err = e as NodeJS.ErrnoException;
  const why = err.code === 'ENOENT' ? `its folder ${dirname(path)} does not exist` : err.code === 'ENOTDIR' ? `${dirname(path)} is not a folder` : err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS' ? `its folder ${dirname(path)} is not writable` : err.code === 'ENOSPC' ? 'the disk is full' : (err.code ?? err.message);
  return new OutputUnwritable(`${path} cannot be written: ${why}`);
}

/**
 * Whether FILE can be written, checked before any work: its folder exists and is writable, FILE is
 * no folder. A bad argument (ConfigError) when not.
 */
export function checkWritable(path: string): void {
  const folder = dirname(path);
  try {
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error(folder), { code: 'ENOTDIR' });
    accessSync(folder, constants.W_OK);
  } catch (e) {
    throw new ConfigError(unwritable(path, e).message);
  }
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new ConfigError(`${path} cannot be written: it is a folder`);
}

/** The files of this process being written, removed if it is stopped by a signal. */
const open = new Set<OutputFile>();

export class OutputFile {
  /** the run's own temporary file */
  readonly partial: string;
  private readonly lock: string;
  private readonly file: WriteStream | null;
  private readonly sink: WriteStream | Gzip | null;
  /** the bytes the file receives (compressed ones for .gz), counted and digested as they go: a part's manifest reads them here, not from the disk again */
  private readonly digest: Hash = createHash('sha256');
  private bytes = 0;
  /** rejected with the first error of either stream (a folder that does not exist, a full disk) */
  private readonly failed: Promise<never>;

  /**
   * `byPath`: a library writes the partial file itself, by its name (h5wasm's HDF5): the file is
   * created, locked and renamed here, nothing is streamed.
   */
  constructor(
    readonly path: string,
    options: { byPath?: boolean } = {},
  ) {
    this.lock = `${path}.lock`;
    try {
      takeLock(this.lock, path);
    } catch (e) {
      throw e instanceof OutputBusy ? e : unwritable(path, e);
    }
    this.partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
    // opened here, not when the stream gets to it: a signal's cleanup finds the file to remove
    let fd: number;
    try {
      fd = openSync(this.partial, 'wx');
    } catch (e) {
      rmSync(this.lock, { force: true });
      throw unwritable(path, e);
    }
    if (options.byPath) {
      closeSync(fd);
      this.file = null;
      this.sink = null;
      this.failed = new Promise<never>(() => {});
      open.add(this);
      return;
    }
    const file = createWriteStream(this.partial, { fd });
    const sink = path.endsWith('.gz') ? createGzip({ level: 6 }) : file;
    this.file = file;
    this.sink = sink;
    if (sink !== file) {
      sink.on('data', (chunk: Buffer) => this.count(chunk));
      sink.pipe(file);
    }
    this.failed = new Promise<never>((_, reject) => {
      const fail = (e: unknown) => reject(unwritable(path, e));
      file.once('error', fail);
      if (sink !== file) sink.once('error', fail);
    });
    // read by `write` and `close`; until then it must not count as unhandled
    this.failed.catch(() => {});
    open.add(this);
  }

  /** Write text or bytes, waiting when the stream asks to (back-pressure); a stream's error is thrown. */
  async write(data: string | Uint8Array): Promise<void> {
    if (!this.sink) throw new Error(`${this.path} is written by its library, not streamed`);
    // encoded once: the bytes counted are the bytes written
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.sink === this.file) this.count(bytes);
    if (!this.sink.write(bytes)) await Promise.race([once(this.sink, 'drain'), this.failed]);
  }

  /** Finish the file and give it its name; its size and SHA-256. */
  async close(): Promise<{ bytes: number; sha256: string }> {
    if (this.sink && this.file) {
      this.sink.end();
      await Promise.race([once(this.file, 'close'), this.failed]);
    }
    try {
      renameSync(this.partial, this.path);
    } catch (e) {
      throw unwritable(this.path, e);
    }
    rmSync(this.lock, { force: true });
    open.delete(this);
    return { bytes: this.bytes, sha256: this.digest.digest('hex') };
  }

  private count(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.digest.update(chunk);
  }

  /** Drop what was written. */
  abandon(): void {
    this.sink?.destroy();
    this.file?.destroy();
    rmSync(this.partial, { force: true });
    rmSync(this.lock, { force: true });
    open.delete(this);
  }
}

/**
 * Take FILE's lock: created exclusively with this process's id. One held by a living process is
 * refused; one whose process is gone (a run killed with SIGKILL, a machine restarted) is taken over.
 */
function takeLock(lock: string, path: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = lockHolder(lock);
      if (holder !== null && isAlive(holder)) throw new OutputBusy(`${path} is being written by process ${holder} (${lock}): wait for it to finish, or give another --out`);
      rmSync(lock, { force: true });
    }
  }
  throw new OutputBusy(`${path}: its lock ${lock} could not be taken`);
}

function lockHolder(lock: string): number | null {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it lives, under another user
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The exit codes of a process stopped by these signals (128 + the signal's number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * On SIGINT or SIGTERM: remove what every open output file wrote, say so on `log`, and exit with
 * the signal's code. Returns the function that removes the handlers.
 */
export function abandonOnSignals(log: (line: string) => void): () => void {
  const handlers = (Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]).map((signal) => {
    const handler = () => {
      const removed = [...open].map((file) => file.path);
      for (const file of [...open]) file.abandon();
      log(`stopped by ${signal}${removed.length > 0 ? `: ${removed.join(', ')} not written (its partial file removed)` : ''}`);
      process.exit(SIGNAL_EXIT[signal]);
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => handlers.forEach((off) => off());
}
