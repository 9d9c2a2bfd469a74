/**
 * Porto Alegre (r5r's example GTFS and OSM, its 1,227 hexagons as `hexgrid`) with a sample of the
 * hexagons as a second point set, `sample`, compiled once into a snapshot in a folder of its own,
 * and served from it: the setting of the command-line suites, which run `navette` on the config.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serveCoverages, type ServedApp } from '../helpers/app.js';
import { sharedFeed } from './coverage-app.js';

const run = promisify(execFile);

export const HEXGRID = sharedFeed('porto-alegre', 'hexgrid.csv');

export interface PoaSample {
  /** the suite's folder: the config, the snapshot, the sample's file, the outputs */
  dir: string;
  config: string;
  served: ServedApp;
}

export async function poaSampleCoverage(prefix: string, sample: readonly { id: string; lon: number; lat: number }[]): Promise<PoaSample> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  writeFileSync(path.join(dir, 'sample.csv'), ['id,lon,lat', ...sample.map((h) => `${h.id},${h.lon},${h.lat}`)].join('\n') + '\n');
  const coverage = {
    id: 'poa',
    gtfs: [sharedFeed('porto-alegre', 'gtfs-eptc.zip'), sharedFeed('porto-alegre', 'gtfs-trensurb.zip')],
    osm: sharedFeed('porto-alegre', 'osm.pbf'),
    pointSets: { hexgrid: HEXGRID, sample: path.join(dir, 'sample.csv') },
  };
  const config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [coverage], snapshots: path.join(dir, 'snapshots') }));
  // one compilation: the commands read the snapshot
  await run(process.execPath, ['dist/src/cli/main.js', 'build', '--config', config, '--out', path.join(dir, 'snapshots')]);
  const served = await serveCoverages([{ ...coverage, pointSets: Object.entries(coverage.pointSets).map(([name, file]) => ({ name, file })) }], { load: { snapshotDir: path.join(dir, 'snapshots') } });
  return { dir, config, served };
}
