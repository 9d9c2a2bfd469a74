/**
 * One computation on the runner (the worker pool in a server), a grid's or points'; a pool that
 * cannot take it refuses it (queue full, a thread past its budget, or the request past its deadline).
 */
import type { MapQuery } from '../maps/difference-map.js';
import { budgetScale } from '../maps/heat-map-pool.js';
import type { HeatMapRunner, Turn } from '../maps/heat-map-runner.js';
import type { HeatMapRender, RenderedHeatMap } from '../maps/heat-map-render.js';
import type { PointsRequest, PointsResult } from '../maps/points.js';
import type { Generation } from '../service/generation.js';
import { WorkUnavailable } from '../service/worker-pool.js';
import { refuse } from './query-errors.js';

export function runGrid(runner: HeatMapRunner, coverageId: string, generation: Generation, query: MapQuery, render: HeatMapRender, turn: Turn = {}): Promise<RenderedHeatMap> {
  return refusingUnavailable(coverageId, turn, runner.grid(coverageId, generation, query, render, turn));
}

export function runPoints(runner: HeatMapRunner, coverageId: string, generation: Generation, query: MapQuery, request: PointsRequest, turn: Turn = {}): Promise<PointsResult> {
  return refusingUnavailable(coverageId, turn, runner.points(coverageId, generation, query, request, turn));
}

/**
 * The turn of a request of one computation (a heat map, an isochrone, an accessibility from one
 * place): its client, and its deadline, `deadlineSec` (Limits: per kind) times the computation's
 * budget scale, counted from now: its wait for a thread and its run together.
 */
export function requestTurn(client: string, deadlineSec: number, query: MapQuery, pointSets = 1): Turn {
  return { client, deadlineMs: deadlineSec * 1000 * budgetScale(query, pointSets) };
}

async function refusingUnavailable<T>(coverageId: string, turn: Turn, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof WorkUnavailable) {
      const retryAfterSec = String(e.retryAfterSec);
      if (e.reason === 'timeout') throw refuse('computationTimedOut', { coverage: coverageId, retryAfterSec });
      if (e.reason === 'deadline') throw refuse('computationDeadline', { coverage: coverageId, seconds: String(Math.round((turn.deadlineMs ?? 0) / 1000)), retryAfterSec });
      throw refuse('computationsQueueFull', { retryAfterSec });
    }
    throw e;
  }
}
