/**
 * A worker thread that parses a disruptions file's text (disruption-file.ts `entriesInWorker`): its
 * entries come back each as its own JSON text, so that the main thread reads them a slice at a
 * time instead of parsing the whole file in one piece.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { disruptionEntries, type DisruptionFileLimits } from './disruption-file.js';

const { text, file, limits } = workerData as { text: string; file: string; limits: DisruptionFileLimits };
try {
  parentPort!.postMessage({ entries: disruptionEntries(text, file, limits).map((entry) => JSON.stringify(entry)) });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
