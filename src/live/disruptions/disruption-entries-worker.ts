/**
 * A worker thread that parses a disruptions file's text (disruption-file.ts `entriesInWorker`): its
 * entries come back each as its own JSON text, so that the main thread reads them a slice at a
 * time instead of parsing the whole file in one piece. An entry over the limits comes back as its
 * id and the reason instead, so that its text never reaches the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { disruptionEntries, entryId, oversizeReason, type DisruptionFileLimits, type OversizeEntry } from './disruption-file.js';

const { text, file, limits } = workerData as { text: string; file: string; limits: DisruptionFileLimits };
try {
  const entries = disruptionEntries(text, file, limits).map((entry): string | OversizeEntry => {
    const reason = oversizeReason(entry, limits);
    return reason ? { id: entryId(entry), reason } : JSON.stringify(entry);
  });
  parentPort!.postMessage({ entries });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
