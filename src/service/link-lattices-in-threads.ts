/**
 * A street graph's link lattices, each layer's that is computed in strips (a region's, a country's:
 * minutes of work each) in a worker thread of its own, the others here: on a country the three
 * layers then take about the time of the walking one, not of the three. The graph's arrays are on
 * shared memory, so the threads read them without a copy, and the lattices come back the same way.
 */
import { computedInStrips, buildLinkLattice, type LatticePieces } from '../model/link-lattice-build.js';
import type { LatticeSource, LinkLattice } from '../model/link-lattice.js';
import { linkReachM, type BareStreetGraph } from '../model/street-graph.js';
import { LAYER_NAMES, type Layer } from '../model/street-layers.js';
import { workerAnswer } from '../util/worker-answer.js';

/** What a lattice thread is given. */
export interface LatticeTask {
  source: LatticeSource;
  layer: Layer;
  radiusM: number;
  pieces?: LatticePieces;
}

/** `pieces`: how lattices are cut (tests make a small one's strips, and so its thread). */
export async function linkLatticesInThreads(g: BareStreetGraph, pieces?: LatticePieces): Promise<LinkLattice[]> {
  const source: LatticeSource = { segmentCount: g.segmentCount, segmentPoint: g.segmentPoint, segmentEdge: g.segmentEdge, geomX: g.geomX, geomY: g.geomY, segmentGrid: g.segmentGrid };
  const radiusM = linkReachM(g);
  return Promise.all(
    LAYER_NAMES.map(async (_, k) => {
      const layer = k as Layer;
      if (!computedInStrips(source, layer, radiusM, pieces)) return buildLinkLattice(source, layer, radiusM, pieces);
      const task: LatticeTask = { source, layer, radiusM, pieces };
      const answer = await workerAnswer<{ lattice?: LinkLattice; error?: string }>(new URL('./link-lattice-worker.js', import.meta.url), task);
      if (!answer.lattice) throw new Error(`the link lattice of the ${LAYER_NAMES[layer]} layer: ${answer.error}`);
      return answer.lattice;
    }),
  );
}
