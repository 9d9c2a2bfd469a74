/**
 * The engine's query for a walking map from a stop point, with the API's defaults (speeds, access
 * limits, 10 transfers, the default board slack), as the benches and the engine's own tests ask it.
 */
import type { HeatMapQuery } from '../../src/routing/heat-map.js';
import { DEFAULT_BOARD_SLACK_SEC } from '../../src/service/coverage-config.js';

export function walkingQueryFrom(stopLon: ArrayLike<number>, stopLat: ArrayLike<number>, stop: number, t0: number, over: Partial<HeatMapQuery> = {}): HeatMapQuery {
  return {
    direction: 'departure',
    centreLon: stopLon[stop]!,
    centreLat: stopLat[stop]!,
    freeStops: [stop],
    freeRadiusM: 0,
    accessModes: ['walking'],
    endModes: ['walking'],
    directModes: ['walking'],
    speeds: { walking: 1.12, bike: 4.1, bss: 4.1, car: 11.11, car_no_park: 11.11, taxi: 11.11 },
    maxToPtSec: { walking: 1800, bike: 1800, bss: 1800, car: 1800, car_no_park: 1800, taxi: 1800 },
    taxiAccessExtraSec: 0,
    taxiEndExtraSec: 0,
    t0,
    maxDurationSec: 3600,
    resolution: 500,
    maxTransfers: 10,
    minTransfers: 0,
    boardSlackSec: DEFAULT_BOARD_SLACK_SEC,
    wheelchair: false,
    directPath: true,
    transit: true,
    tripAllowed: null,
    stopAllowed: null,
    overlay: null,
    ...over,
  };
}
