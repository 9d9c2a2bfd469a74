/**
 * The columnar outputs of `navette matrix` on Porto Alegre (issue 41's targets), on r5r's example
 * data (walk + transit, 2019-05-13 14:00, walking 1.0 m/s, 30 minutes of walking to transit, 2
 * transfers), the 1,227 × 1,227 hexagons, a 120-minute departure window, 5 percentiles:
 *
 *   npm run bench:columnar
 *
 * - as Parquet: the writer's own rows/s (its time beside the search, as the command's closing line
 *   says it; target ≥ 2 M rows/s), the file's size against the `.csv.gz` of the same run (target ≤),
 *   the run's peak memory (target ≤ 300 MB);
 * - as OMX: the writer's time (target ≤ 3 s).
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { poaSnapshot } from './poa-snapshot.js';

const run = promisify(execFile);
const { dir, config } = await poaSnapshot('navette-bench-columnar-');
const MATRIX = ['--origins', 'hexgrid', '--datetime', '20190513T140000', '--walking-speed', '1', '--max-walking-duration-to-pt', '1800', '--max-nb-transfers', '2', '--max-duration', '7200', '--departure-window', '7200', '--percentiles', '5,25,50,75,95'];

interface Figures {
  seconds: number;
  writingSeconds: number;
  rowsPerSecond: number;
  peakMb: number;
  bytes: number;
  line: string;
}

/** One run of the matrix into `out`: its time, the writer's figures and the peak memory its closing line says, the file's size. */
async function matrix(out: string): Promise<Figures> {
  const file = path.join(dir, out);
  const started = performance.now();
  const { stderr } = await run(process.execPath, ['dist/src/cli/main.js', 'matrix', '--config', config, '--coverage', 'poa', ...MATRIX, '--out', file], { maxBuffer: 1 << 26 });
  const seconds = (performance.now() - started) / 1000;
  const line = stderr.trim().split('\n').at(-1)!;
  const figures = /writing ([\d.]+) s, \d+ rows, (\d+) rows\/s\), peak memory (\d+) MB/.exec(line);
  if (!figures) throw new Error(`no figures in: ${line}`);
  return { seconds, writingSeconds: Number(figures[1]), rowsPerSecond: Number(figures[2]), peakMb: Number(figures[3]), bytes: statSync(file).size, line };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const gz = await matrix('matrix.csv.gz');
console.log(`CSV.gz: ${gz.seconds.toFixed(1)} s end to end, ${mb(gz.bytes)}, writer ${gz.writingSeconds.toFixed(2)} s (${gz.rowsPerSecond} rows/s), peak memory ${gz.peakMb} MB`);
const parquet = await matrix('matrix.parquet');
console.log(`Parquet: ${parquet.seconds.toFixed(1)} s end to end, writer ${parquet.writingSeconds.toFixed(2)} s, ${(parquet.rowsPerSecond / 1e6).toFixed(2)} M rows/s (target ≥ 2 M rows/s)`);
console.log(`  size ${mb(parquet.bytes)} against the .csv.gz's ${mb(gz.bytes)}: ${(parquet.bytes / gz.bytes).toFixed(2)}× (target ≤ 1)`);
console.log(`  peak memory ${parquet.peakMb} MB (target ≤ 300 MB)`);
const omx = await matrix('matrix.omx');
console.log(`OMX: ${omx.seconds.toFixed(1)} s end to end, writer ${omx.writingSeconds.toFixed(2)} s (target ≤ 3 s), ${mb(omx.bytes)}, peak memory ${omx.peakMb} MB`);
