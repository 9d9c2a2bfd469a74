/**
 * `node dist/test/oracles/scenario-gtfs/cli.js FEED SCENARIO.json OUTDIR NAME [FEEDKEY]`: writes the
 * scenario's changes into a copy of FEED (a GTFS zip or folder) in OUTDIR, and prints the report.
 */
import { readFileSync } from 'node:fs';
import { writeScenarioFeed } from './index.js';

const [feed, scenarioFile, outDir, scenarioName, feedKey] = process.argv.slice(2);
if (!feed || !scenarioFile || !outDir || !scenarioName) {
  console.error('usage: cli.js FEED SCENARIO.json OUTDIR NAME [FEEDKEY]');
  process.exit(2);
}
const started = performance.now();
const report = await writeScenarioFeed(feed, JSON.parse(readFileSync(scenarioFile, 'utf8')) as unknown, outDir, { scenarioName, ...(feedKey ? { feedKey } : {}) });
console.log(JSON.stringify({ ...report, newServiceIds: report.newServiceIds, seconds: Math.round(performance.now() - started) / 1000 }, null, 2));
