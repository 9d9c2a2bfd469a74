/**
 * `/v1/coverage/{region|lon;lat}/isochrones`: Navitia's isochrones, drawn from the same street-exact
 * travel-time field as the heat map (contours, not circles around stops). The checks and the flow
 * are the heat maps' (`answerMap`); the bands come from min_duration, boundary_duration[] and
 * max_duration as Navitia builds them (`bandsOf`).
 */
import type { CoverageRegistry } from '../../service/coverage-registry.js';
import type { Limits } from '../../service/limits.js';
import type { CoverageRef } from '../coverage/coverage-resolution.js';
import { isochroneRidesharing } from '../errors.js';
import type { RequestInfo } from '../links.js';
import { parseParams } from '../params.js';
import type { HeatMapRunner } from './heat-map-runner.js';
import { answerMap, bandsOf, type MapAnswer } from './heat-maps-endpoint.js';
import { isochroneParams } from './heat-maps-params.js';

export async function answerIsochrones(
  registry: CoverageRegistry,
  limits: Limits,
  runner: HeatMapRunner,
  req: RequestInfo,
  coverageRef: CoverageRef,
  acceptEncoding?: string,
): Promise<MapAnswer> {
  const params = parseParams(isochroneParams(limits), req.pairs);
  // without max_duration the last boundary closes the last band (Navitia)
  const maxDurationSec = params.max_duration ?? Math.max(...params.boundary_duration);
  return answerMap(
    registry,
    runner,
    coverageRef,
    {
      collection: 'isochrones',
      params,
      maxDurationSec,
      resolution: params.resolution,
      ridesharing: isochroneRidesharing,
      format: (t0, direction, timeZone) => ({
        kind: 'isochrones',
        bands: bandsOf(params.min_duration, params.boundary_duration, maxDurationSec, t0, direction, timeZone),
        simplifyM: params.simplify,
      }),
    },
    acceptEncoding,
  );
}
