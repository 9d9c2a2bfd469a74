/**
 * One computation on the runner (the worker pool in a server), a grid's or points'; a pool that
 * cannot take it refuses it (queue full, or a thread past its budget).
 */
import type { MapQuery } from '../maps/difference-map.js';
import type { HeatMapRunner } from '../maps/heat-map-runner.js';
import type { HeatMapRender, RenderedHeatMap } from '../maps/heat-map-render.js';
import type { PointsRequest, PointsResult } from '../maps/points.js';
import type { Generation } from '../service/generation.js';
import { WorkUnavailable } from '../service/worker-pool.js';
import { refuse } from './query-errors.js';

export function runGrid(runner: HeatMapRunner, coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender): Promise<RenderedHeatMap> {
  return refusingUnavailable(coverageId, runner.grid(coverageId, generation, query, render));
}

export function runPoints(runner: HeatMapRunner, coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest): Promise<PointsResult> {
  return refusingUnavailable(coverageId, runner.points(coverageId, generation, query, request));
}

async function refusingUnavailable<T>(coverageId: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof WorkUnavailable) {
      const retryAfterSec = String(e.retryAfterSec);
      if (e.reason === 'timeout') throw refuse('computationTimedOut', { coverage: coverageId, retryAfterSec });
      throw refuse('computationsQueueFull', { retryAfterSec });
    }
    throw e;
  }
}
