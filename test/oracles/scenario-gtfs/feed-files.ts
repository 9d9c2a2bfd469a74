/**
 * The files of a GTFS feed as bytes, by file name: from a zip (read with yauzl) or from a folder.
 * A zip whose files sit in one sub-folder is read by base name, as the loader does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';

export async function readFeedFiles(feed: string): Promise<Map<string, Buffer>> {
  if (statSync(feed).isDirectory()) {
    const files = new Map<string, Buffer>();
    for (const name of readdirSync(feed).sort()) {
      const full = path.join(feed, name);
      if (statSync(full).isFile()) files.set(name, readFileSync(full));
    }
    return files;
  }
  return readZip(feed);
}

async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, z) => (err || !z ? reject(err ?? new Error(`cannot open ${file}`)) : resolve(z))),
  );
  const files = new Map<string, Buffer>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/') || entry.fileName.startsWith('__MACOSX/')) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(path.posix.basename(entry.fileName), Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}
