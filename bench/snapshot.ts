/**
 * Start-up benchmark: query-ready from a snapshot against query-ready from the sources, each in a
 * fresh process (as a server starts), median of three runs.
 *
 *   npm run bench:snapshot [-- feed.zip [extract.osm.pbf]]
 *
 * Default: nyc/bus-brooklyn (2.4 million stop_times, no street network) and rnv-mannheim (with its
 * OpenStreetMap extract: street graph, stop snaps and transit search data in the snapshot too).
 *
 * Targets (issue 5): from a snapshot, at most 1 s per million stop_times and at least 5 times
 * faster than from the GTFS zips.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoverageConfig } from '../src/service/coverage-config.js';
import { snapshotPath, writeCoverageSnapshot } from '../src/service/coverage-snapshot.js';
import { compileCoverage, loadGeneration } from '../src/service/load-coverage.js';

const RUNS = 3;

interface ChildResult {
  from: string;
  seconds: number;
  stopTimes: number;
  rssMB: number;
}

/** In the child: load once and print what it took. */
async function child(mode: string, configJson: string, dir: string): Promise<void> {
  const config = JSON.parse(configJson) as CoverageConfig;
  const summary = await loadGeneration(config, mode === 'snapshot' ? { snapshotDir: dir } : {});
  if (mode === 'snapshot' && summary.from !== 'snapshot') throw new Error(`the snapshot was not used: ${summary.snapshotRefused}`);
  const result: ChildResult = {
    from: summary.from,
    seconds: summary.seconds,
    stopTimes: summary.generation.tt.stopTimes.arrivalSec.length,
    rssMB: process.memoryUsage().rss / 1e6,
  };
  process.stdout.write(JSON.stringify(result));
}

function inChild(mode: string, config: CoverageConfig, dir: string): ChildResult {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, JSON.stringify(config), dir], { encoding: 'utf8' });
  return JSON.parse(out) as ChildResult;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function bench(config: CoverageConfig): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-bench-snapshot-'));
  try {
    const buildStarted = performance.now();
    const file = snapshotPath(dir, config.id);
    const bytes = await writeCoverageSnapshot(file, config, await compileCoverage(config));
    const buildSec = (performance.now() - buildStarted) / 1000;
    const sources: ChildResult[] = [];
    const snapshots: ChildResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      sources.push(inChild('sources', config, dir));
      snapshots.push(inChild('snapshot', config, dir));
    }
    const millions = sources[0]!.stopTimes / 1e6;
    const fromSources = median(sources.map((r) => r.seconds));
    const fromSnapshot = median(snapshots.map((r) => r.seconds));
    console.log(`coverage             ${config.id}: ${config.gtfs.map((g) => path.basename(g)).join(', ')}${config.osm ? ` + ${path.basename(config.osm)}` : ''}`);
    console.log(`stop_times           ${sources[0]!.stopTimes}`);
    console.log(`navette build        ${buildSec.toFixed(2)} s, snapshot ${(bytes / 1e6).toFixed(1)} MB (${statSync(file).size} bytes)`);
    console.log(`from the sources     ${fromSources.toFixed(3)} s = ${(fromSources / millions).toFixed(3)} s per million stop_times (runs: ${sources.map((r) => r.seconds.toFixed(3)).join(', ')})`);
    console.log(
      `from the snapshot    ${fromSnapshot.toFixed(3)} s = ${(fromSnapshot / millions).toFixed(3)} s per million stop_times (target <= 1; runs: ${snapshots.map((r) => r.seconds.toFixed(3)).join(', ')})`,
    );
    console.log(`speed-up             ${(fromSources / fromSnapshot).toFixed(1)}x (target >= 5)`);
    console.log(`rss after the load   sources ${median(sources.map((r) => r.rssMB)).toFixed(0)} MB, snapshot ${median(snapshots.map((r) => r.rssMB)).toFixed(0)} MB`);
    console.log('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1]!, args[2]!, args[3]!);
} else {
  const data = path.resolve('../shared/data');
  const configs: CoverageConfig[] = args.length
    ? [{ id: 'bench', gtfs: [path.resolve(args[0]!)], osm: args[1] ? path.resolve(args[1]) : undefined }]
    : [
        { id: 'nyc-bus-brooklyn', gtfs: [path.join(data, 'nyc', 'bus-brooklyn-gtfs.zip')] },
        { id: 'rnv-mannheim', gtfs: [path.join(data, 'rnv-mannheim', 'gtfs.zip')], osm: path.join(data, 'rnv-mannheim', 'osm.pbf') },
      ];
  for (const config of configs) await bench(config);
}
