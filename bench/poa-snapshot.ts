/**
 * Porto Alegre for the benches (r5r's example GTFS and OSM, its 1,227 hexagons as `hexgrid`): a
 * configuration in a folder of its own and the coverage's snapshot built there once, so the runs
 * measured load from it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const data = path.resolve('../shared/data/porto-alegre');

export const POA_COVERAGE = {
  id: 'poa',
  gtfs: [path.join(data, 'gtfs-eptc.zip'), path.join(data, 'gtfs-trensurb.zip')],
  osm: path.join(data, 'osm.pbf'),
  pointSets: { hexgrid: path.join(data, 'hexgrid.csv') },
};

/** The bench's folder and configuration, the snapshot built (its `snapshots/` folder). */
export async function poaSnapshot(prefix: string): Promise<{ dir: string; config: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const config = path.join(dir, 'navette.json');
  writeFileSync(config, JSON.stringify({ coverages: [POA_COVERAGE], snapshots: path.join(dir, 'snapshots') }));
  await run(process.execPath, ['dist/src/cli/main.js', 'build', '--config', config, '--out', path.join(dir, 'snapshots')]);
  return { dir, config };
}
