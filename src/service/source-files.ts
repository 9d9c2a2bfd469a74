/**
 * The files a coverage is built from, and how to tell whether they changed: the data version a
 * snapshot records, and the stamp a reload watches.
 *
 * A file is the same when its size and modification time are (the check make and rsync use), or,
 * when only its time differs (a copy, a checkout), when its SHA-256 is: a snapshot shipped with
 * its data to another machine stays valid.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CoverageConfig } from './coverage-config.js';

export interface SourceFile {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** Each GTFS zip, each file of a GTFS folder, the OpenStreetMap extract and the point sets' files, in that order. */
export function coverageSourcePaths(config: Pick<CoverageConfig, 'gtfs' | 'osm' | 'pointSets'>): string[] {
  const paths: string[] = [];
  for (const source of config.gtfs) {
    const stat = statSync(source, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      for (const name of readdirSync(source).sort()) {
        const file = path.join(source, name);
        if (statSync(file, { throwIfNoEntry: false })?.isFile()) paths.push(file);
      }
    } else {
      paths.push(source);
    }
  }
  if (config.osm) paths.push(config.osm);
  for (const set of config.pointSets ?? []) paths.push(set.file);
  return paths;
}

/** Size, time and SHA-256 of each file (what a snapshot records). */
export async function describeSourceFiles(paths: string[]): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const p of paths) {
    const stat = statSync(p);
    files.push({ path: p, size: stat.size, mtimeMs: stat.mtimeMs, sha256: await sha256(p) });
  }
  return files;
}

/** Why `paths` are not the files `recorded` describes, or undefined when they are the same. */
export async function sourcesDiffer(recorded: SourceFile[], paths: string[]): Promise<string | undefined> {
  if (recorded.length !== paths.length) return `it was built from ${recorded.length} source files, the coverage now has ${paths.length}`;
  for (let i = 0; i < paths.length; i++) {
    const was = recorded[i]!;
    const p = paths[i]!;
    const stat = statSync(p, { throwIfNoEntry: false });
    if (!stat) return `${p} is missing`;
    if (stat.size !== was.size) return `${p} changed (${was.size} bytes when the snapshot was built, ${stat.size} now)`;
    if (stat.mtimeMs === was.mtimeMs && path.basename(p) === path.basename(was.path)) continue;
    if ((await sha256(p)) !== was.sha256) return `${p} changed (its content differs from the file the snapshot was built from)`;
  }
  return undefined;
}

/** A cheap summary of a file's size, time and inode: it changes when the file does; undefined when it is missing. */
export function fileStamp(p: string): string | undefined {
  const stat = statSync(p, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : undefined;
}

/** The stamps of several files (see fileStamp). */
export function filesStamp(paths: string[]): string {
  return paths.map((p) => `${p}:${fileStamp(p) ?? 'missing'}`).join('\n');
}

function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
