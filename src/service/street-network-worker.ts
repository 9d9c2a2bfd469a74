/**
 * A worker thread that builds a coverage's street network (street-network-build.ts): the two
 * seconds of a city's extract never hold the event loop that answers requests. The graph's arrays
 * are on shared memory and come back without a copy.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildStreetNetwork } from './street-network-build.js';

const { osmPath, stopLon, stopLat } = workerData as { osmPath: string; stopLon: Float64Array; stopLat: Float64Array };
try {
  parentPort!.postMessage({ network: await buildStreetNetwork(osmPath, stopLon, stopLat) });
} catch (e) {
  parentPort!.postMessage({ error: { name: (e as Error).name, message: (e as Error).message } });
}
