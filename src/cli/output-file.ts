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

  constructor(readonly path: string) {
    this.partial = `${path}.partial`;
    this.file = createWriteStream(this.partial);
    this.sink = path.endsWith('.gz') ? createGzip({ level: 6 }) : this.file;
    if (this.sink !== this.file) this.sink.pipe(this.file);
  }

  /** Write text, waiting when the stream asks to (back-pressure). */
  async write(text: string): Promise<void> {
    if (!this.sink.write(text)) await once(this.sink, 'drain');
  }

  /** Finish the file and give it its name. */
  async close(): Promise<void> {
    this.sink.end();
    await once(this.file, 'close');
    renameSync(this.partial, this.path);
  }

  /** Drop what was written. */
  abandon(): void {
    this.sink.destroy();
    this.file.destroy();
    rmSync(this.partial, { force: true });
  }
}
