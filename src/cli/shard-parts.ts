/**
 * The parts of a sharded run (`--shard K/N`) say what they are, so that `navette merge` joins only
 * the parts of one run, each once, in order, whole: beside each part its manifest, `PART.part.json`
 * (the command, the run's identity, its slice, the part's size and SHA-256). The part itself stays
 * the bytes of its slice of the whole file, so that the parts concatenated in order are the single
 * run's file byte for byte.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ConfigError } from './config.js';
import type { OutputFile } from './output-file.js';

const FORMAT = 'navette-part';

export interface PartManifest {
  format: typeof FORMAT;
  /** the command that wrote it */
  kind: 'matrix' | 'accessibility';
  /** the run's identity: a digest of its coverage, sets and parameters (every part of one run has the same) */
  run: string;
  /** slice `index` of `count` (0 ≤ index < count) */
  index: number;
  count: number;
  /** the part's size in bytes and its SHA-256, as written */
  bytes: number;
  sha256: string;
}

export const manifestPath = (part: string) => `${part}.part.json`;

/** A run's identity from what decides its rows: the command, the coverage, the sets and the parameters' values. */
export function runIdentity(kind: PartManifest['kind'], decisive: Record<string, unknown>): string {
  const sorted = Object.keys(decisive)
    .sort()
    .map((key) => [key, decisive[key]]);
  return createHash('sha256').update(JSON.stringify([kind, sorted])).digest('hex').slice(0, 16);
}

/** Write the manifest of a part just written (its size and SHA-256 as the output file counted them), whole or not at all. */
export function writeManifest(part: string, kind: PartManifest['kind'], run: string, index: number, count: number, written: { bytes: number; sha256: string }): void {
  const manifest: PartManifest = { format: FORMAT, kind, run, index, count, ...written };
  const path = manifestPath(part);
  writeFileSync(`${path}.partial`, `${JSON.stringify(manifest)}\n`);
  renameSync(`${path}.partial`, path);
}

/** The manifests of `parts`, checked to be the N parts of one run, in order, each once; else a ConfigError saying which. */
export function checkedParts(parts: string[]): PartManifest[] {
  const manifests = parts.map(readManifest);
  const first = manifests[0]!;
  manifests.forEach((m, k) => {
    const part = parts[k]!;
    if (m.kind !== first.kind || m.run !== first.run || m.count !== first.count) throw new ConfigError(`${part} is a part of another run than ${parts[0]} (${m.kind} ${m.run}, ${m.count} slices; ${first.kind} ${first.run}, ${first.count} slices)`);
    if (m.index !== k) throw new ConfigError(`${part} is slice ${m.index} of ${m.count}, where slice ${k} is due: give the ${first.count} parts in order, each once`);
    if (!existsSync(part) || statSync(part).size !== m.bytes) throw new ConfigError(`${part} is damaged: ${existsSync(part) ? statSync(part).size : 0} bytes where ${m.bytes} were written`);
  });
  if (manifests.length !== first.count) throw new ConfigError(`${manifests.length} parts given of a run of ${first.count}: give them all, in order`);
  return manifests;
}

function readManifest(part: string): PartManifest {
  const path = manifestPath(part);
  let m: Partial<PartManifest>;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as Partial<PartManifest>;
  } catch {
    throw new ConfigError(`${part} is no part of a sharded run: ${path}, written beside each part by --shard K/N, is missing or unreadable`);
  }
  const whole = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
  if (m.format !== FORMAT || (m.kind !== 'matrix' && m.kind !== 'accessibility') || typeof m.run !== 'string' || !whole(m.index) || !whole(m.count) || !whole(m.bytes) || typeof m.sha256 !== 'string') {
    throw new ConfigError(`${path} is not a part's manifest`);
  }
  return m as PartManifest;
}

/**
 * Append each part to `out` (decompressing `.gz` parts), checking its SHA-256 against its manifest
 * as it is read: a part whose bytes changed, or whose gzip data is cut short, is an error naming it.
 */
export async function appendParts(out: OutputFile, parts: string[], manifests: PartManifest[]): Promise<void> {
  for (const [k, part] of parts.entries()) {
    const hash = createHash('sha256');
    const source = createReadStream(part);
    source.on('data', (chunk) => hash.update(chunk));
    // bytes, not text: a character split between two chunks stays whole
    const sink = async (chunks: AsyncIterable<string | Buffer>) => {
      for await (const chunk of chunks) await out.write(chunk);
    };
    try {
      if (part.endsWith('.gz')) await pipeline(source, createGunzip(), sink);
      else await pipeline(source, sink);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR') throw new ConfigError(`${part} is damaged: its gzip data ${code === 'Z_BUF_ERROR' ? 'ends too early' : 'is corrupt'}`);
      throw e;
    }
    if (hash.digest('hex') !== manifests[k]!.sha256) throw new ConfigError(`${part} is damaged: its bytes differ from those written (SHA-256)`);
  }
}

/** The parts `navette merge` joins: CSV, whose slices concatenate into the whole run's file. */
const MERGEABLE = /\.csv(\.gz)?$/;

/**
 * Parquet, GeoParquet and FlatGeobuf parts are each a complete file of their slice (its own footer or
 * header): they are read together, not joined into one, and merge refuses them saying so.
 */
export function refuseUnmergeable(out: string, parts: string[]): void {
  const other = [out, ...parts].find((name) => !MERGEABLE.test(name));
  if (other !== undefined) throw new ConfigError(`navette merge joins CSV parts (.csv, .csv.gz), not ${other}: each Parquet, GeoParquet or FlatGeobuf part of --shard is a complete file of its slice, read together as one table (DuckDB: SELECT * FROM read_parquet('matrix-part-*.parquet'))`);
}
