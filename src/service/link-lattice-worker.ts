/** A worker thread that computes one layer's link lattice (link-lattices-in-threads.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { buildLinkLattice } from '../model/link-lattice-build.js';
import type { LatticeTask } from './link-lattices-in-threads.js';

const { source, layer, radiusM, pieces } = workerData as LatticeTask;
try {
  parentPort!.postMessage({ lattice: buildLinkLattice(source, layer, radiusM, pieces) });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
