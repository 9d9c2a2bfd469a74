/**
 * A command's output file, written whole or not at all: the text goes to `FILE.partial` (gzipped
 * when FILE ends in .gz), renamed to FILE once complete; on failure the partial file is removed, so
 * no half-written FILE is ever mistaken for a result.
 */
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';

export class OutputFile {
  private readonly partial: string;
  private readonly file: WriteStream;
  private readonly sink: WriteStream | Gzip;
  /** rejected with the first error of either stream (a folder that does not exist, a full disk) */
  private readonly failed: Promise<never>;

  constructor(readonly path: string) {
    this.partial = `${path}.partial`;
    this.file = createWriteStream(this.partial);
    this.sink = path.endsWith('.gz') ? createGzip({ level: 6 }) : this.file;
    if (this.sink !== this.file) this.sink.pipe(this.file);
    this.failed = new Promise<never>((_, reject) => {
      this.file.once('error', reject);
      if (this.sink !== this.file) this.sink.once('error', reject);
    });
    // read by `write` and `close`; until then it must not count as unhandled
    this.failed.catch(() => {});
  }

  /** Write text or bytes, waiting when the stream asks to (back-pressure); a stream's error is thrown. */
  async write(data: string | Uint8Array): Promise<void> {
    if (!this.sink.write(data)) await Promise.race([once(this.sink, 'drain'), this.failed]);
  }

  /** Finish the file and give it its name. */
  async close(): Promise<void> {
    this.sink.end();
    await Promise.race([once(this.file, 'close'), this.failed]);
    renameSync(this.partial, this.path);
  }

  /** Drop what was written. */
  abandon(): void {
    this.sink.destroy();
    this.file.destroy();
    rmSync(this.partial, { force: true });
  }
}
