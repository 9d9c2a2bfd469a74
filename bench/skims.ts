/**
 * Skims on Porto Alegre (issue 41's target: `--breakdown` costs at most 1.5× the same matrix):
 *
 *   npm run bench:skims
 *
 * `navette matrix` 1,227 × 1,227 hexagons, 120-minute window, percentiles 5/25/50/75/95 (r5r's
 * example: walk + transit, 2019-05-13 14:00, walking 1.0 m/s, 2 transfers), written as CSV, without
 * and with `--breakdown`, run in turn (without, with, without, with) so that the machine's load
 * drifts over both alike. Each run's wall time, CPU seconds (every thread of the process) and peak
 * memory; the ratio of the best runs; the rows and size of each file.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { poaSnapshot } from './poa-snapshot.js';
import { childFigures, FIGURES_AT_EXIT } from './child-figures.js';

const run = promisify(execFile);
const { dir, config } = await poaSnapshot('navette-bench-skims-');
const MATRIX = ['matrix', '--origins', 'hexgrid', '--max-duration', '7200', '--departure-window', '7200', '--percentiles', '5,25,50,75,95'];
const JOURNEYS = ['--datetime', '20190513T140000', '--walking-speed', '1', '--max-walking-duration-to-pt', '1800', '--max-nb-transfers', '2'];

interface Run {
  wall: number;
  cpu: number;
  line: string;
  bytes: number;
}

async function matrix(breakdown: boolean, k: number): Promise<Run> {
  const out = path.join(dir, `matrix-${breakdown ? 'skims' : 'plain'}-${k}.csv`);
  const started = performance.now();
  const { stderr } = await run(process.execPath, ['--import', FIGURES_AT_EXIT, 'dist/src/cli/main.js', ...MATRIX, ...(breakdown ? ['--breakdown'] : []), '--out', out, '--config', config, '--coverage', 'poa', ...JOURNEYS], { maxBuffer: 1 << 26 });
  const wall = (performance.now() - started) / 1000;
  const { cpu, lines } = childFigures(stderr);
  return { wall, cpu, line: lines.at(-1)!, bytes: statSync(out).size };
}

/** the better of the runs: the least disturbed by the machine's other work */
const best = (xs: number[]) => Math.min(...xs);
const runs: Record<'plain' | 'skims', Run[]> = { plain: [], skims: [] };
for (let k = 0; k < 2; k++) {
  runs.plain.push(await matrix(false, k));
  runs.skims.push(await matrix(true, k));
}
for (const [name, list] of Object.entries(runs)) {
  for (const r of list) console.log(`${name}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU-s, ${(r.bytes / 1e6).toFixed(0)} MB | ${r.line}`);
}
const wall = best(runs.skims.map((r) => r.wall)) / best(runs.plain.map((r) => r.wall));
const cpu = best(runs.skims.map((r) => r.cpu)) / best(runs.plain.map((r) => r.cpu));
console.log(`--breakdown against the same matrix: ${wall.toFixed(2)}× wall, ${cpu.toFixed(2)}× CPU (target ≤ 1.5×)`);
