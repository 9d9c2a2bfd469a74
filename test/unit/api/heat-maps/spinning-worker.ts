/**
 * A heat-map worker module for the pool's tests: a query with `maxDurationSec` 4321 never returns
 * (a computation stuck in a loop); any other is computed by the real worker.
 */
import computeHeatMap, { type HeatMapTask } from '../../../../src/maps/heat-map-task.js';

export const SPINNING_DURATION_SEC = 4321;

export default function spinOrCompute(task: HeatMapTask) {
  if (task.query.maxDurationSec === SPINNING_DURATION_SEC) for (;;);
  return computeHeatMap(task);
}
