/** One computation on the runner (the worker pool in a server); a pool that cannot take it refuses it (queue full, or a thread past its budget). */
import type { HeatMapRunner } from '../maps/heat-map-runner.js';
import type { HeatMapRender, RenderedHeatMap } from '../maps/heat-map-render.js';
import type { MapQuery } from '../maps/difference-map.js';
import type { Generation } from '../service/generation.js';
import { WorkUnavailable } from '../service/worker-pool.js';
import { refuse } from './query-errors.js';

export async function runComputation(runner: HeatMapRunner, coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
  try {
    return await runner.run(coverageId, generation, query, render);
  } catch (e) {
    if (e instanceof WorkUnavailable) {
      const retryAfterSec = String(e.retryAfterSec);
      if (e.reason === 'timeout') throw refuse('computationTimedOut', { coverage: coverageId, retryAfterSec });
      throw refuse('computationsQueueFull', { retryAfterSec });
    }
    throw e;
  }
}
