/**
 * Shards: the sets of coverages that replicas serve together behind nginx (`navette deploy nginx`,
 * `navette serve --only`). Named in the configuration (a `shard` key on every coverage), or balanced
 * into `count` shards by size: each coverage, largest first, into the lightest shard so far. A
 * coverage's size is its snapshot's in the snapshot folder, else its source files': what it costs in
 * memory follows it.
 */
import { existsSync, statSync } from 'node:fs';
import type { CoverageConfig } from '../service/coverage-config.js';
import { snapshotPath } from '../service/coverage-snapshot.js';
import { coverageSourcePaths } from '../service/source-files.js';
import { ConfigError, type ServerConfig } from './config.js';

export interface Shard {
  /** a DNS label: it names the nginx upstream, the Kubernetes Deployment and Service */
  name: string;
  coverages: CoverageConfig[];
  /** the sum of its coverages' sizes */
  bytes: number;
}

export function assignShards(config: ServerConfig, count: number | undefined, sizeOf: (c: CoverageConfig) => number = (c) => coverageBytes(c, config.snapshots)): Shard[] {
  const named = config.coverages.filter((c) => config.shards?.[c.id] !== undefined);
  if (named.length > 0) {
    if (named.length < config.coverages.length) {
      const missing = config.coverages.filter((c) => config.shards?.[c.id] === undefined).map((c) => c.id);
      throw new ConfigError(`every coverage needs a "shard" once one has one (none for ${missing.join(', ')})`);
    }
    const shards: Shard[] = [];
    for (const c of config.coverages) {
      const name = config.shards![c.id]!;
      let shard = shards.find((s) => s.name === name);
      if (!shard) shards.push((shard = { name, coverages: [], bytes: 0 }));
      shard.coverages.push(c);
      shard.bytes += sizeOf(c);
    }
    if (count !== undefined && count !== shards.length) throw new ConfigError(`--shards ${count}: the configuration names ${shards.length} shards`);
    return shards;
  }
  const n = count ?? config.coverages.length;
  if (!Number.isInteger(n) || n < 1 || n > config.coverages.length) throw new ConfigError(`--shards must be between 1 and the number of coverages (${config.coverages.length})`);
  const shards: Shard[] = Array.from({ length: n }, (_, i) => ({ name: `s${i}`, coverages: [], bytes: 0 }));
  const sized = config.coverages.map((c) => ({ c, bytes: sizeOf(c) })).sort((a, b) => b.bytes - a.bytes || (a.c.id < b.c.id ? -1 : 1));
  for (const { c, bytes } of sized) {
    const lightest = shards.reduce((best, s) => (s.bytes < best.bytes ? s : best));
    lightest.coverages.push(c);
    lightest.bytes += bytes;
  }
  // each shard lists its coverages in the configuration's order
  for (const s of shards) s.coverages.sort((a, b) => config.coverages.indexOf(a) - config.coverages.indexOf(b));
  return shards;
}

/** A coverage's size: its snapshot when there is one, else the sum of its source files (folders count 0). */
export function coverageBytes(c: CoverageConfig, snapshotDir: string | undefined): number {
  const snapshot = snapshotDir ? snapshotPath(snapshotDir, c.id) : undefined;
  if (snapshot && existsSync(snapshot)) return statSync(snapshot).size;
  let bytes = 0;
  for (const file of coverageSourcePaths(c)) {
    try {
      const s = statSync(file);
      if (s.isFile()) bytes += s.size;
    } catch {
      // a missing source weighs nothing here; serve says what is wrong with it
    }
  }
  return bytes;
}
