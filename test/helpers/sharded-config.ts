/**
 * The configuration the scale-out tests and benches serve in shards: demo and rnv-mannheim in shard
 * `a`, Porto Alegre in shard `b`, from the real feeds; written in a new temporary folder with its
 * snapshots built once by `navette build` (as replicas sharing a snapshot folder expect).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SHARED_DATA } from './shared-data.js';

const run = promisify(execFile);

/** The folder and the configuration file; `settings` are its other keys (heat-map threads…). */
export async function buildShardedConfig(settings: Record<string, unknown>): Promise<{ dir: string; config: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'navette-shards-'));
  const config = path.join(dir, 'navette.json');
  const shared = (...p: string[]) => path.join(SHARED_DATA, ...p);
  writeFileSync(
    config,
    JSON.stringify({
      coverages: [
        { id: 'demo', gtfs: [path.resolve('data/demo/gtfs')], osm: path.resolve('data/demo/valmont.osm'), timezone: 'Europe/Paris', shard: 'a' },
        { id: 'rnv', gtfs: [shared('rnv-mannheim', 'gtfs.zip')], osm: shared('rnv-mannheim', 'osm.pbf'), shard: 'a' },
        { id: 'porto-alegre', gtfs: [shared('porto-alegre', 'gtfs-eptc.zip'), shared('porto-alegre', 'gtfs-trensurb.zip')], osm: shared('porto-alegre', 'osm.pbf'), shard: 'b' },
      ],
      snapshots: 'snapshots',
      // every request comes from nginx: a per-client rate limit would count them all as one client
      rateLimit: { requestsPerSecond: 0 },
      ...settings,
    }),
  );
  await run(process.execPath, ['dist/src/cli/main.js', 'build', '--config', config, '--out', path.join(dir, 'snapshots')]);
  return { dir, config };
}
