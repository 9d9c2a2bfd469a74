/**
 * A snapshot past Node's single-buffer limits (issue 43: a country's compiled data is several GB):
 *
 *   npm run bench:snapshot-large [-- GB]
 *
 * Writes a tree of a few large typed arrays (4.5 GB in all by default: more than one read returns,
 * than a typed array may span over the whole block, and than zlib's crc32 takes at once), reads it
 * back, and checks every array's first, middle and last values and a sample between, on this
 * thread and in a worker thread the arrays are posted to (as a server's heat-map threads get them:
 * a view on a buffer past 2^32 bytes arrives on the wrong bytes, or not at all). Prints the file's
 * size, the write and read times and the process's peak resident memory. The file is removed at
 * the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readSnapshotFile, writeSnapshotFile } from '../src/model/snapshot-file.js';

const gigabytes = Number(process.argv[2] ?? 4.5);
const dir = mkdtempSync(path.join(tmpdir(), 'navette-large-snapshot-'));
const file = path.join(dir, 'large.snapshot');
/** value i of array a: a pattern any misplaced byte breaks */
const valueAt = (a: number, i: number) => ((i * 2654435761) ^ (a * 40503)) | 0;

// arrays of 1 GB at most each (as a country's largest: geometry, stop times), enough of them for the size asked
const perArray = 2 ** 28; // Int32 values: 1 GiB
const count = Math.ceil((gigabytes * 1e9) / (4 * perArray));
const arrays: Int32Array[] = [];
for (let a = 0; a < count; a++) {
  const values = new Int32Array(perArray);
  for (let i = 0; i < perArray; i++) values[i] = valueAt(a, i);
  arrays.push(values);
}
const tree = { arrays, note: 'large' };
let started = performance.now();
const bytes = await writeSnapshotFile(file, { bench: 'large' }, tree);
const writeSec = (performance.now() - started) / 1000;
arrays.length = 0;
started = performance.now();
const { tree: back } = await readSnapshotFile<{ bench: string }>(file, (meta) => {
  if (meta.bench !== 'large') throw new Error('another file');
});
const readSec = (performance.now() - started) / 1000;
const read = (back as typeof tree).arrays;
let checked = 0;
read.forEach((values, a) => {
  if (values.length !== perArray) throw new Error(`array ${a}: ${values.length} values, not ${perArray}`);
  for (let i = 0; i < perArray; i += 65_521) {
    if (values[i] !== valueAt(a, i)) throw new Error(`array ${a}, value ${i}: ${values[i]}, not ${valueAt(a, i)}`);
    checked++;
  }
  if (values[perArray - 1] !== valueAt(a, perArray - 1)) throw new Error(`array ${a}: its last value differs`);
});
// the same samples, read by a worker thread from the arrays posted to it
const CHECK_IN_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('messageerror', (e) => parentPort.postMessage('not received: ' + e.message));
parentPort.once('message', ({ arrays, perArray }) => {
  const valueAt = ${valueAt.toString()};
  for (let a = 0; a < arrays.length; a++) {
    for (let i = 0; i < perArray; i += 65_521) if (arrays[a][i] !== valueAt(a, i)) return parentPort.postMessage('array ' + a + ', value ' + i + ': ' + arrays[a][i]);
  }
  parentPort.postMessage('equal');
});`;
const worker = new Worker(CHECK_IN_WORKER, { eval: true });
worker.postMessage({ arrays: read, perArray });
const inWorker = await new Promise<string>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
await worker.terminate();
if (inWorker !== 'equal') throw new Error(`in a worker thread: ${inWorker}`);
console.log(`snapshot of ${(bytes / 1e9).toFixed(2)} GB (${read.length} arrays of 1 GiB): written in ${writeSec.toFixed(1)} s, read and checksummed in ${readSec.toFixed(1)} s; ${checked} values checked, all equal, here and in a worker thread`);
console.log(`peak resident memory ${(process.resourceUsage().maxRSS / 1e6).toFixed(1)} GB`);
rmSync(dir, { recursive: true, force: true });
