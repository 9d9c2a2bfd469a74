/** A worker thread that makes a coverage's basemap (basemap-build.ts) off the event loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBasemap } from './basemap-build.js';

const { osmPath } = workerData as { osmPath: string };
try {
  // copied, not transferred: a small Buffer lies in Node's shared pool
  parentPort!.postMessage({ body: await buildBasemap(osmPath) });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
