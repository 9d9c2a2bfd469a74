#!/usr/bin/env node
/**
 * The `navette` command.
 *
 *   navette serve --gtfs PATH [--gtfs PATH…] [--osm PATH] [--realtime FILE_OR_URL…] [--realtime-interval S]
 *                 [--disruptions FILE] [--disruptions-interval S] [--id NAME] [--timezone TZ] [--board-slack S] [--points NAME=FILE…] [--scenario NAME=FILE…] [--port N] [--host H]
 *                 [--rate-limit N] [--trust-proxy VALUE] [--snapshots DIR] [--watch-interval S]
 *   navette serve --config FILE [--port N] [--host H] [--rate-limit N] [--trust-proxy VALUE] [--snapshots DIR] [--watch-interval S]
 *   navette build --config FILE --out DIR        (or the --gtfs, --osm… options of serve)
 *   navette deploy nginx --config FILE [--shards K] [--replicas N] …   (deploy-command.ts)
 *   navette matrix | accessibility | merge …                            (analysis-command.ts)
 *   navette --version
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { DEFAULT_LIMITS } from '../service/limits.js';
import { type CoverageConfig } from '../service/coverage-config.js';
import { ACCESSIBILITY_HELP, ANALYSIS_USAGE, asksForHelp, BUILD_USAGE, DEPLOY_USAGE, helpText, MATRIX_HELP, MERGE_USAGE, SERVE_USAGE } from './command-usage.js';
import { ConfigError, onlyCoverages, DEFAULT_HEAT_MAP_SETTINGS, DEFAULT_PORT, DEFAULT_WATCH_INTERVAL_SEC, parseBoardSlack, pointSetsFromFlags, readConfigFile, scenariosFromFlags, watchIntervalOf, type ServerConfig } from './config.js';
import { progressPrinter } from './progress.js';
import { mkdirSync } from 'node:fs';
import { sourceLocation } from '../live/realtime/feed-source.js';
import { DEFAULT_OPERATIONS, defaultBurst } from '../api/operations/settings.js';
import { trustProxyOf } from '../api/operations/trust-proxy.js';
import { VERSION } from '../util/version.js';

const USAGE = `Usage:
${SERVE_USAGE}
${BUILD_USAGE}
  navette --version

Analyses over a coverage's point sets (its "pointSets"), on every core, with a progress bar:
${ANALYSIS_USAGE}

${DEPLOY_USAGE}

navette COMMAND --help (or -h): the command's usage.`;

/** The usage each command prints for --help or -h (deploy's: deploy-command.ts). */
const COMMAND_HELP: Record<string, string> = {
  serve: SERVE_USAGE,
  build: BUILD_USAGE,
  matrix: MATRIX_HELP,
  accessibility: ACCESSIBILITY_HELP,
  merge: MERGE_USAGE,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const help = command === undefined ? undefined : COMMAND_HELP[command];
  if (help !== undefined && asksForHelp(rest)) {
    process.stdout.write(helpText(help));
    return 0;
  }
  // each command loads the modules it runs when it runs: a matrix starts without the server's
  if (command === 'serve') return serve(rest);
  if (command === 'build') return build(rest);
  if (command === 'deploy') return (await import('./deploy-command.js')).deploy(rest);
  if (command === 'matrix') return (await import('./analysis-command.js')).matrixCommand(rest);
  if (command === 'accessibility') return (await import('./analysis-command.js')).accessibilityCommand(rest);
  if (command === 'merge') return (await import('./analysis-command.js')).mergeCommand(rest);
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`navette ${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help' || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`navette: unknown command ${command}\n${USAGE}\n`);
  return 2;
}

function configFromArgs(command: 'serve' | 'build', args: string[]): ServerConfig {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      gtfs: { type: 'string', multiple: true },
      osm: { type: 'string' },
      realtime: { type: 'string', multiple: true },
      'realtime-interval': { type: 'string' },
      disruptions: { type: 'string' },
      'disruptions-interval': { type: 'string' },
      id: { type: 'string' },
      timezone: { type: 'string' },
      'board-slack': { type: 'string' },
      points: { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      'rate-limit': { type: 'string' },
      'trust-proxy': { type: 'string' },
      snapshots: { type: 'string' },
      'watch-interval': { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  let config: ServerConfig;
  if (values.config) {
    if (values.gtfs || values.realtime || values.disruptions || values.points || values.scenario) throw new ConfigError('give either --config or --gtfs, --realtime, --disruptions, --points and --scenario, not both');
    config = readConfigFile(values.config);
    if (values.only !== undefined) {
      if (command !== 'serve') throw new ConfigError('--only is an option of navette serve');
      config = onlyCoverages(config, values.only);
    }
  } else {
    if (values.only !== undefined) throw new ConfigError('--only selects coverages of a --config file');
    if (!values.gtfs || values.gtfs.length === 0) throw new ConfigError('give --gtfs PATH (or --config FILE)');
    const id = values.id ?? 'default';
    if (!/^[^/;()]+$/.test(id)) throw new ConfigError('--id must be a name without / ; ( )');
    const intervalSec = secondsOption(values, 'realtime-interval');
    const realtime = (values.realtime ?? []).map((location) => ({ url: sourceLocation(location, process.cwd()), intervalSec }));
    let disruptions: CoverageConfig['disruptions'];
    if (values.disruptions !== undefined) {
      disruptions = { path: path.resolve(values.disruptions), intervalSec: secondsOption(values, 'disruptions-interval') };
    }
    const coverage: CoverageConfig = { id, gtfs: values.gtfs.map((g) => path.resolve(g)), osm: values.osm ? path.resolve(values.osm) : undefined, timezone: values.timezone, realtime, disruptions };
    if (values['board-slack'] !== undefined) coverage.boardSlackSec = parseBoardSlack(Number(values['board-slack']), '--board-slack');
    if (values.points) coverage.pointSets = pointSetsFromFlags(values.points);
    if (values.scenario) coverage.scenarios = scenariosFromFlags(values.scenario);
    config = {
      coverages: [coverage],
      port: DEFAULT_PORT,
      host: '0.0.0.0',
      limits: { ...DEFAULT_LIMITS },
      heatMaps: { ...DEFAULT_HEAT_MAP_SETTINGS },
      operations: structuredClone(DEFAULT_OPERATIONS),
      watchIntervalSec: DEFAULT_WATCH_INTERVAL_SEC,
      explorer: {},
    };
  }
  if (command === 'build') {
    if (values.out === undefined) throw new ConfigError('give --out DIR, the folder of the snapshots');
    config.snapshots = path.resolve(values.out);
  } else if (values.out !== undefined) {
    throw new ConfigError('--out is an option of navette build (navette serve reads snapshots with --snapshots DIR)');
  }
  if (values.snapshots !== undefined) config.snapshots = path.resolve(values.snapshots);
  if (values['watch-interval'] !== undefined) config.watchIntervalSec = watchIntervalOf(Number(values['watch-interval']), '--watch-interval');
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port must be a port number, not ${values.port}`);
    config.port = port;
  }
  if (values.host !== undefined) config.host = values.host;
  if (values['rate-limit'] !== undefined) {
    const rate = Number(values['rate-limit']);
    if (!(rate >= 0)) throw new ConfigError(`--rate-limit must be a number of requests per second (0: no limit), not ${values['rate-limit']}`);
    config.operations.rateLimit = { requestsPerSecond: rate, burst: defaultBurst(rate) };
  }
  if (values['trust-proxy'] !== undefined) {
    config.operations.trustProxy = trustProxyOf(values['trust-proxy'], '--trust-proxy', (message) => {
      throw new ConfigError(message);
    });
  }
  return config;
}

/** An interval option in seconds (> 0), undefined when not given. */
function secondsOption(values: Record<string, unknown>, name: string): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  const sec = Number(text);
  if (!(sec > 0)) throw new ConfigError(`--${name} must be a number of seconds, not ${String(text)}`);
  return sec;
}

async function serve(args: string[]): Promise<number> {
  let config: ServerConfig;
  try {
    config = configFromArgs('serve', args);
  } catch (e) {
    process.stderr.write(`navette: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [{ buildApp }, { HeatMapPool }, { Coverage, CoverageRegistry }, { Metrics }, { ServedCoverages }] = await Promise.all([
    import('../api/app.js'),
    import('../maps/heat-map-pool.js'),
    import('../service/coverage-registry.js'),
    import('../api/operations/metrics.js'),
    import('./served-coverages.js'),
  ]);
  const registry = new CoverageRegistry();
  for (const c of config.coverages) registry.add(new Coverage(c));
  const limits = config.limits;
  const heatMaps = new HeatMapPool({ ...config.heatMaps, ...limits });
  const metrics = new Metrics();
  const shard = config.elsewhere ? { elsewhere: config.elsewhere } : undefined;
  const app = await buildApp({ registry, limits, heatMaps, operations: config.operations, explorer: config.explorer, metrics, shard, logger: { level: process.env['LOG_LEVEL'] ?? 'info' } });
  app.addHook('onClose', async () => heatMaps.close());
  // Listen first: coverages answer "loading" until their data is ready.
  await app.listen({ port: config.port, host: config.host });
  // the port actually bound: --port 0 lets the system choose
  const { port } = app.server.address() as AddressInfo;
  const root = `http://${browsableHost(config.host)}:${port}/`;
  app.log.info(`open ${root} (the explorer; the API under ${root}v1)`);
  const snapshotDir = config.snapshots;
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });

  const coverages = new ServedCoverages(registry, { log: app.log, metrics, snapshotDir, watchIntervalSec: config.watchIntervalSec });
  // from the start of the loads: SIGHUP would otherwise end a server still loading
  process.on('SIGHUP', () => {
    app.log.info('SIGHUP: reloading every coverage');
    coverages.reloadAll('SIGHUP');
  });
  const loaded = await coverages.loadAll();
  if (loaded === 0) {
    process.stderr.write('navette: no coverage could be loaded, stopping\n');
    await app.close();
    return 1;
  }
  app.log.info(`serving ${loaded} coverage(s) on ${root}v1/coverage`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  return -1; // keep running
}

/** The host a browser on this machine reaches the server at: localhost for every address, an IPv6 literal in brackets. */
function browsableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** `navette build`: compile each coverage into its snapshot file. */
async function build(args: string[]): Promise<number> {
  let config: ServerConfig;
  try {
    config = configFromArgs('build', args);
  } catch (e) {
    process.stderr.write(`navette: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [{ compileCoverage }, { snapshotPath, writeCoverageSnapshot }] = await Promise.all([import('../service/load-coverage.js'), import('../service/coverage-snapshot.js')]);
  const out = config.snapshots!;
  mkdirSync(out, { recursive: true });
  let failed = 0;
  for (const c of config.coverages) {
    const progress = progressPrinter(`compiling ${c.id}`);
    const started = performance.now();
    try {
      const compiled = await compileCoverage(c, {
        onProgress: progress.update,
        onProblem: (p) => process.stderr.write(`${c.id}: ${p.file}:${p.line}: ${p.reason}\n`),
      });
      progress.done();
      const file = snapshotPath(out, c.id);
      const bytes = await writeCoverageSnapshot(file, c, compiled);
      const seconds = (performance.now() - started) / 1000;
      const problems = compiled.report.problemCount;
      process.stdout.write(
        `${c.id}: ${file} (${(bytes / 1e6).toFixed(1)} MB, ${compiled.tt.stopTimes.arrivalSec.length} stop_times, ${problems} problems) in ${seconds.toFixed(2)} s\n`,
      );
    } catch (e) {
      progress.done();
      failed++;
      process.stderr.write(`navette: ${c.id} could not be built: ${(e as Error).message}\n`);
    }
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e) => {
    process.stderr.write(`navette: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);
