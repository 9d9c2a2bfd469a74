/**
 * `/v1/coverage/{region|lon;lat}/heat_maps`: Navitia's heat matrix, or the same map as a GeoTIFF,
 * a PNG or GeoJSON bands (`format`), on the flow both map endpoints share (map-flow.ts); with
 * `compare_data_freshness` or `compare_scenario`, a difference map (maps/difference-map.ts).
 */
import type { MapFormat } from '../../maps/heat-map-render.js';
import { refuse } from '../../queries/query-errors.js';
import type { Endpoint } from '../endpoint.js';
import { parseParams } from '../params.js';
import type { TargetOf } from '../targets.js';
import { heatMapParams } from './heat-maps-params.js';
import { comparedSide } from '../../queries/timetable-choice.js';
import { answerMap, bandsOf, parameterWarnings, type Direction } from './map-flow.js';

/** Default bands of the GeoJSON format: every 10 minutes. */
const GEOJSON_BAND_SEC = 600;

const everyStep = (step: number, max: number) => Array.from({ length: Math.ceil(max / step) - 1 }, (_, k) => (k + 1) * step);

export const heatMapsEndpoint: Endpoint<TargetOf<'heat_maps'>> = {
  params: (_, limits) => heatMapParams(limits),
  variesByEncoding: true,
  answer(target, ctx) {
    const specs = heatMapParams(ctx.limits);
    const params = parseParams(specs, target.info.pairs);
    const maxDurationSec = params.max_duration;
    // boundary_duration[] makes bands in the GeoJSON format only
    const bands = params.format === 'geojson' ? { minSec: 0, boundaries: params.boundary_duration, maxSec: maxDurationSec } : undefined;
    const format = (t0: number, direction: Direction, timeZone: string): MapFormat => {
      switch (params.format) {
        case 'json':
          return { kind: 'heat_matrix' };
        case 'tiff':
          return { kind: 'tiff' };
        case 'png':
          return { kind: 'png', maxDurationSec };
        case 'geojson': {
          const boundaries = params.boundary_duration.length > 0 ? params.boundary_duration : everyStep(GEOJSON_BAND_SEC, maxDurationSec);
          return { kind: 'geojson', bands: bandsOf(0, boundaries, maxDurationSec, t0, direction, timeZone), simplifyM: params.simplify };
        }
      }
    };
    const warnings = parameterWarnings(specs, target.info.pairs, bands);
    const compareWith = comparedSide(params);
    if (compareWith !== undefined && params.format === 'geojson') throw refuse('differenceAsGeojson', { param: compareWith.param });
    return answerMap(ctx, target.coverageRef, {
      collection: 'heat_maps',
      params,
      maxDurationSec,
      ridesharing: 'heatMapRidesharing',
      format,
      warnings,
      ...(params.percentile === undefined ? {} : { percentile: params.percentile }),
      ...(compareWith === undefined ? {} : { compareWith }),
    });
  },
};
