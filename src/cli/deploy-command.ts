/**
 * `navette deploy nginx`: reads the configuration, assigns the shards (shards.ts) and prints the
 * nginx configuration (deploy-nginx.ts) on stdout, or writes it to --out.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfigFile } from './config.js';
import { nginxConfig, replicaAddresses } from './deploy-nginx.js';
import { assignShards } from './shards.js';
import { asksForHelp, DEPLOY_USAGE, helpText } from './command-usage.js';

export async function deploy(args: string[]): Promise<number> {
  const [what, ...rest] = args;
  if (asksForHelp(args)) {
    process.stdout.write(helpText(DEPLOY_USAGE));
    return 0;
  }
  try {
    if (what !== 'nginx') throw new ConfigError(`deploy: unknown target ${what ?? '(none)'}; navette deploy nginx …`);
    const { values } = parseArgs({
      args: rest,
      options: {
        config: { type: 'string' },
        shards: { type: 'string' },
        replicas: { type: 'string' },
        'replica-address': { type: 'string' },
        'first-port': { type: 'string' },
        listen: { type: 'string' },
        workers: { type: 'string' },
        snapshots: { type: 'string' },
        'upstream-header': { type: 'boolean' },
        out: { type: 'string' },
      },
      strict: true,
    });
    if (!values.config) throw new ConfigError('give --config FILE');
    const config = readConfigFile(values.config);
    if (values.snapshots !== undefined) config.snapshots = path.resolve(values.snapshots);
    const shards = assignShards(config, values.shards === undefined ? undefined : integer(values.shards, '--shards'));
    const firstPort = values['first-port'] === undefined ? undefined : integer(values['first-port'], '--first-port');
    const replicas = replicaAddresses(shards, integer(values.replicas ?? '2', '--replicas'), values['replica-address'] ?? 'navette-{shard}-{replica}:9090', firstPort);
    const text = nginxConfig({
      configFile: values.config,
      shards,
      replicas,
      listen: values.listen ?? '8080',
      workers: values.workers ?? 'auto',
      upstreamHeader: values['upstream-header'] ?? false,
    });
    if (values.out) writeFileSync(values.out, text);
    else process.stdout.write(text);
    return 0;
  } catch (e) {
    process.stderr.write(`navette: ${(e as Error).message}\n${DEPLOY_USAGE}\n`);
    return 2;
  }
}

function integer(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${what} must be an integer, not ${text}`);
  return n;
}
