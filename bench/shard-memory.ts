/**
 * The resident memory of a replica per shard of deploy/navette.json's coverages (the figures behind
 * the memory requests of deploy/kubernetes/shard-*.yaml): each shard served alone (`--only`) from
 * its snapshot, with two heat-map threads, measured from /proc after loading and after a few heat
 * maps have started its threads. `npm run bench:shard-memory`.
 */
import { readFileSync } from 'node:fs';
import { buildShardedConfig } from '../test/helpers/sharded-config.js';
import { startServer } from '../test/helpers/serve.js';

const { config } = await buildShardedConfig({ heatMaps: { threads: 2 }, watchIntervalSec: 0 });

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const maps: Record<string, string> = {
  demo: 'heat_maps?from=GARE&datetime=20261124T080000&max_duration=3600',
  rnv: 'heat_maps?from=129001&datetime=20161108T080000&max_duration=3600',
  'porto-alegre': 'heat_maps?from=-51.2177;-30.0346&datetime=20190415T080000&max_duration=3600',
};
for (const [shard, ids] of [['a', ['demo', 'rnv']], ['b', ['porto-alegre']]] as const) {
  const server = await startServer(['--config', config, '--only', ids.join(',')]);
  for (let k = 0; k < 50 && (await fetch(new URL('/readyz', server.base)).then((r) => r.status)) !== 200; k++) await new Promise((r) => setTimeout(r, 200));
  const loaded = rssMb(server.process.pid!);
  for (let k = 0; k < 4; k++) {
    for (const id of ids) {
      const res = await fetch(`${server.base}/${id}/${maps[id]}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${id}: heat map answered ${res.status}`);
    }
  }
  const busy = rssMb(server.process.pid!);
  console.log(`shard ${shard} (${ids.join(', ')}): resident ${loaded.toFixed(0)} MB once loaded, ${busy.toFixed(0)} MB after heat maps on its 2 threads`);
  server.process.kill();
}
process.exit(0);
